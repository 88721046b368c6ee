"""How much work a count is: an estimate of its search tree, for the planner's choices.

The planner asks two questions of every count and answers both from one
estimate of the work, never from a special case of a board size:

- does a pool of worker processes pay for its start-up (about half a second
  of processes, imports and kernels loaded in each)? Only for a long search;
- do the compiled kernels pay for loading numba (about 0.4 s) in the process
  that counts? Only when the plain-Python search of the whole count would
  take longer than that, however small each of its parts is.

The estimate is Knuth's (*Estimating the efficiency of backtrack programs*,
Math. Comp. 29, 1975): follow random paths down the rows of the
row-by-row search, and average, over the paths, 1 + d1 + d1 d2 + ..., where
d_k is the number of choices met at the k-th row. It is an unbiased estimate
of the search tree's nodes, and reads what makes a search small or big: the
free rows, the holes, the placed queens' lines, the colours (the last two
counted as pairs, each colour before them once per placement of the
colours before it). Conditions are
not read (they prune, and cost more per node: :data:`CONDITION_COST`). The
paths are drawn from a fixed seed, so that a model's estimate, and with it
the split and where it runs, is the same on every call.

Units are nodes of the plain search: an engine declares the free board of
``Capabilities.short_below_free_rows`` rows long and the one a row smaller
short, so a model is long from twice the short board's estimate
(:func:`long_from`): a 17-board with a queen placed, the old rule's 16 free
rows, is long (1.2-1.3x), the free 16-board's symmetry kernels short (0.8x).
"""

from __future__ import annotations

import functools
import random
from typing import Final

from cpqueens.vocabulary.problem import Problem

#: Random paths per estimate: the free boards of 8 to 17 rows are then estimated within 15 %.
PROBES: Final = 128
#: An estimate stops growing here: a board this big is long, whatever else it holds.
MOST_NODES: Final = 1e18
#: Wider boards are estimated from their free rows alone (reading the placed queens' lines
#: costs n bits per row and queen; a free board of 65 rows is long on every engine anyway).
READ_MAX_N: Final = 64
#: The symmetry kernels (classes, hole sums) visit about a quarter of a plain search's nodes
#: (n = 13..15: 0.25-0.28 of the compiled plain search's time;
#: ``benchmarks/RESULTS-count-paths.md``).
KERNEL_SHARE: Final = 0.25
#: A node of a search with conditions (or symmetry-breaking rules) costs more than a plain
#: one's: each placement evaluates them (the compiled search of ``q[0] < q[n-1]`` against the
#: plain one, n = 14, 15: 1.0-1.4 times; ``benchmarks/RESULTS-count-paths.md``).
CONDITION_COST: Final = 1.25
#: The plain-Python search of the bitmask engine visits about 1.2-1.5 million of these
#: weighted nodes a second, and numba with a kernel takes 0.4-0.7 s to load: below this many
#: a count is over in plain Python before numba has loaded (n = 11 with a condition: 2.0e5;
#: n = 12: 9.1e5; ``benchmarks/RESULTS-count-paths.md``).
KERNELS_PAY_NODES: Final = 6e5
#: The last two colours of a count are paired, not nested: the bitmask engine lists each
#: one's placements and tests every pair for disjointness (``kernels/placements.py``), at
#: about this many plain nodes a pair (2 colours, one pass of each colour's search and S^2
#: pairs: n = 13 in 1.1 s, n = 14 in 12 s, n = 15 in 330 s on one core, where nesting
#: would visit N S = 5.5e11 nodes at n = 13; ``benchmarks/RESULTS-count-paths.md``).
PAIR_COST: Final = 0.03


def nodes(model: Problem) -> float:
    """Knuth's estimate of the nodes of the plain row-by-row search of ``model``.

    Holes, placed queens (their lines taken out of every row) and colours are
    read; conditions are not. Deterministic: the same model gives the same estimate.

    >>> from cpqueens import model
    >>> abs(nodes(model(8).columns()) / 2057 - 1) < 0.05  # its search has 2057 nodes
    True
    >>> nodes(model(8, blocked=[(0, c) for c in range(8)]).columns())  # row 0 has no cell left
    1.0
    """
    if model.n > READ_MAX_N:  # the free rows alone: as wide a free board
        return _free(model.n - len(model.placed), model.diagonals, model.colours)
    return _estimate(model.n, _rows(model), model.diagonals, model.colours)


def _rows(model: Problem) -> tuple[int, ...]:
    """Each row's allowed columns of colour 0: holes out, placed queens alone on their rows.

    The placed queens' columns and diagonals are taken out of every other row.
    """
    n = model.n
    full = (1 << n) - 1
    rows = [full] * n
    for r, c in model.board.blocked:
        rows[r] &= ~(1 << c)
    for r, c in model.placed:
        for row in range(n):
            if row == r:
                rows[row] &= 1 << c
                continue
            lines = 1 << c
            if model.diagonals:
                shift = abs(row - r)
                lines |= (1 << (c + shift)) | ((1 << (c - shift)) if c >= shift else 0)
            rows[row] &= ~lines & full
    return tuple(rows)


@functools.lru_cache(maxsize=256)
def _estimate(n: int, rows: tuple[int, ...], diagonals: bool, colours: int) -> float:
    """:func:`_sample`, remembered (boards of at most ``READ_MAX_N`` rows: cheap keys)."""
    return _sample(n, rows, diagonals, colours)


@functools.lru_cache(maxsize=64)
def _free(rows: int, diagonals: bool, colours: int) -> float:
    """:func:`_sample` of the free board of ``rows`` rows, remembered by its size."""
    return _sample(rows, ((1 << rows) - 1,) * rows, diagonals, colours)


def _sample(n: int, rows: tuple[int, ...], diagonals: bool, colours: int) -> float:
    """The mean over :data:`PROBES` random paths of their node estimates, colours paired.

    The last two colours are counted as pairs, once per placement of the
    colours before them, whose own searches nest: k >= 2 colours make about
    N (1 + S + ... + S^(k-3)) + S^(k-2) (2 N + S^2 PAIR_COST) nodes, N and S
    one colour's nodes and solutions (the cells the earlier colours take are
    not read: an over-estimate).
    """
    draw = random.Random(n)  # a fixed seed: the same model, the same estimate
    total = solutions = 0.0
    for _ in range(PROBES):
        found, leaves = _probe(n, rows, diagonals, draw)
        total += found
        solutions += leaves
        if total >= MOST_NODES:
            return MOST_NODES
    one, each = total / PROBES, solutions / PROBES
    if colours == 1:
        return one
    nested = one * sum(each**k for k in range(colours - 2))
    paired = 2 * one + each**2 * PAIR_COST
    return min(MOST_NODES, nested + each ** (colours - 2) * paired)


def _probe(
    n: int, rows: tuple[int, ...], diagonals: bool, draw: random.Random
) -> tuple[float, float]:
    """One random path down the rows: its estimate of the nodes, and of the solutions."""
    full = (1 << n) - 1
    cols = left = right = 0
    weight = found = 1.0
    for row in range(n):
        free = rows[row] & ~(cols | left | right)
        choices = free.bit_count()
        if not choices:
            return found, 0.0
        weight *= choices
        found += weight
        if found >= MOST_NODES:
            return MOST_NODES, 0.0
        bit = _pick(free, choices, n, draw)
        cols |= bit
        if diagonals:
            left = ((left | bit) << 1) & full
            right = (right | bit) >> 1
    return found, weight


def _pick(free: int, choices: int, n: int, draw: random.Random) -> int:
    """One of the ``choices`` set bits of ``free`` (n bits wide), uniformly at random.

    A dense row is hit by trying random columns (a few tries), a sparse one by
    counting its set bits off.
    """
    if 4 * choices >= n:
        while True:
            bit = 1 << draw.randrange(n)
            if free & bit:
                return bit
    for _ in range(draw.randrange(choices)):
        free &= free - 1
    return free & -free


def free_board_nodes(rows: int) -> float:
    """The estimate for the free board of ``rows`` rows (an engine's long search starts there).

    >>> free_board_nodes(0)
    1.0
    """
    return _free(rows, True, 1)


def long_from(rows: int) -> float:
    """The estimate from which a count is long on an engine whose long searches start at ``rows``.

    Twice the free board's of ``rows - 1`` rows, the largest the engine calls
    short (the free board of ``rows`` rows has 6 to 7 times its nodes): the
    bitmask engine's 16 rows make it about 3.6e8.

    >>> 3e8 < long_from(16) < 4e8
    True
    """
    return 2 * free_board_nodes(max(rows - 1, 0))


def weighted_nodes(model: Problem, kernels: bool) -> float:
    """The estimate in plain-search nodes of counting ``model`` the way the planner chose.

    ``kernels``: the symmetry kernels count it (:data:`KERNEL_SHARE` of the
    free board's search); else the engine searches it whole or in parts, each
    node dearer with conditions or symmetry-breaking rules (:data:`CONDITION_COST`).
    """
    estimate = nodes(model)
    if kernels:
        return estimate * KERNEL_SHARE
    return estimate * (CONDITION_COST if model.extra else 1.0)
