"""The bitmask engine for region puzzles: arrays for ``cpqueens.kernels.regions.search``.

Each row's candidates are its subsets of ``stars`` allowed columns with no two
adjacent (``itertools.combinations`` over the free cells, every given queen
of the row included); the compiled kernel does the rest, in slices of
:data:`BUDGET` candidates: between them Python sees Ctrl-C (a
``KeyboardInterrupt``) and the time limit (``deadline``).
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from itertools import combinations, pairwise
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from cpqueens.vocabulary.checks import Deadline
    from cpqueens.vocabulary.regions import Cell, RegionPuzzle

NAME = "bitmask"
#: The candidates one kernel call tries before it hands control back (some 10-50 ms).
BUDGET = 1 << 20


def row_candidates(puzzle: RegionPuzzle, row: int) -> list[tuple[int, ...]]:
    """Row ``row``'s allowed column subsets: k columns, none adjacent, none blocked, givens in."""
    n, k = puzzle.n, puzzle.stars
    blocked = {c for r, c in puzzle.blocked if r == row}
    given = {c for r, c in puzzle.queens if r == row}
    free = [c for c in range(n) if c not in blocked]
    return [
        combo
        for combo in combinations(free, k)
        if given <= set(combo) and all(b - a > 1 for a, b in pairwise(combo))
    ]


@cache
def _compiled():  # type: ignore[no-untyped-def]
    from cpqueens.kernels import regions

    return regions


def arrays(puzzle: RegionPuzzle, rng: random.Random | None = None) -> tuple[np.ndarray, ...]:
    """The kernel's inputs: region grid, candidate masks and columns, row starts, region cells.

    ``rng`` shuffles each row's candidates, so the first solution found is a random one.
    Without it, the candidates depend on the size, the stars and the givens
    only, not on the regions: they are computed once for all the puzzles that
    share those (the generator tries thousands of region grids), and the
    arrays are shared, read by the kernel, never written.
    """
    n = puzzle.n
    region = np.array([g for row in puzzle.regions for g in row], dtype=np.int64)
    if rng is None:
        masks, columns, start = _candidates(n, puzzle.stars, puzzle.blocked, puzzle.queens)
    else:
        masks, columns, start = _candidate_arrays(puzzle, rng)
    cells = np.zeros(n * n, dtype=np.int64)
    blocked = set(puzzle.blocked)
    for row, groups in enumerate(puzzle.regions):
        for c, g in enumerate(groups):
            if (row, c) not in blocked:
                cells[row * n + g] |= 1 << c
    return region, masks, columns, start, cells


@lru_cache(maxsize=32)
def _candidates(
    n: int, k: int, blocked: tuple[Cell, ...], queens: tuple[Cell, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate arrays of every puzzle of this size, stars and givens (regions aside)."""
    from cpqueens.vocabulary.regions import RegionPuzzle

    rows = RegionPuzzle(n, tuple((r,) * n for r in range(n)), k, queens, blocked)
    return _candidate_arrays(rows, None)


def _candidate_arrays(
    puzzle: RegionPuzzle, rng: random.Random | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's candidates (shuffled with ``rng``) as masks, their columns, the row starts."""
    masks: list[int] = []
    columns: list[int] = []
    start = [0]
    for row in range(puzzle.n):
        combos = row_candidates(puzzle, row)
        if rng is not None:
            rng.shuffle(combos)
        for combo in combos:
            masks.append(sum(1 << c for c in combo))
            columns.extend(combo)
        start.append(len(masks))
    return (
        np.array(masks, dtype=np.int64),
        np.array(columns, dtype=np.int64),
        np.array(start, dtype=np.int64),
    )


def search(
    puzzle: RegionPuzzle,
    limit: int | None = None,
    keep: int = 2,
    rng: random.Random | None = None,
    deadline: Deadline | None = None,
) -> tuple[int, list[tuple[Cell, ...]]]:
    """The number of solutions (stopping at ``limit``, None: all) and the first ``keep`` of them.

    Solutions come in lexicographic order of their rows' columns (in a random
    order of each row's candidates with ``rng``), each as sorted (row, col)
    cells. A ``deadline`` that passes first raises ``IncompleteSearchError``
    naming the limit and the solutions found by then.
    """
    n = puzzle.n
    region, masks, columns, start, cells = arrays(puzzle, rng)
    out = np.zeros((max(keep, 0), n), dtype=np.int64)
    if len(masks) == 0:
        return 0, []
    args = (n, puzzle.stars, puzzle.diagonals, region, masks, columns, start, cells, limit or 0)
    total = _run(args, out, deadline)
    found = [
        tuple((row, c) for row in range(n) for c in range(n) if (int(out[i, row]) >> c) & 1)
        for i in range(min(total, len(out)))
    ]
    return total, found


def _run(args: tuple, out: np.ndarray, deadline: Deadline | None) -> int:
    """Run the kernel on ``args`` in slices of :data:`BUDGET` candidates; the solutions' count."""
    kernel = _compiled()
    state, counters = kernel.first_state(args[0], args[6])
    while kernel.search(*args, out, state, counters, BUDGET) == kernel.PAUSED:
        if deadline is not None and deadline.left() == 0:
            raise partial(deadline, int(counters[1]))
    return int(counters[1])


def search_masks(
    grid: tuple[tuple[int, ...], ...],
    allowed: list[int],
    diagonals: bool,
    limit: int | None = None,
    keep: int = 0,
    deadline: Deadline | None = None,
) -> tuple[int, list[tuple[int, ...]]]:
    """One queen per row, column and region of ``grid``, none touching, on per-row masks.

    The kernel's input for a model (``cpqueens.backends.bitmask``): row r may
    hold its queen on the columns of ``allowed[r]`` (bit c: column c, the
    blocked cells and placed queens already applied); ``diagonals`` lets the
    long diagonals attack too. Returns the number of solutions (stopping at
    ``limit``, None: all) and the first ``keep`` of them as column tuples, in
    lexicographic order. A ``deadline`` that passes first raises
    ``IncompleteSearchError``.
    """
    n = len(grid)
    region = np.array([g for row in grid for g in row], dtype=np.int64)
    masks: list[int] = []
    start = [0]
    cells = np.zeros(n * n, dtype=np.int64)
    for row in range(n):
        for c in range(n):
            if (allowed[row] >> c) & 1:
                masks.append(1 << c)
                cells[row * n + grid[row][c]] |= 1 << c
        start.append(len(masks))
    if any(start[row] == start[row + 1] for row in range(n)):
        return 0, []  # a row with no free cell
    columns = np.array([mask.bit_length() - 1 for mask in masks], dtype=np.int64)
    out = np.zeros((max(keep, 0), n), dtype=np.int64)
    args = (
        n,
        1,
        diagonals,
        region,
        np.array(masks, dtype=np.int64),
        columns,
        np.array(start, dtype=np.int64),
        cells,
        limit or 0,
    )
    total = _run(args, out, deadline)
    found = [
        tuple(int(out[i, row]).bit_length() - 1 for row in range(n))
        for i in range(min(total, len(out)))
    ]
    return total, found


def partial(deadline: Deadline, found: int) -> Exception:
    """The deadline's error, with the number of solutions found before it."""
    error = deadline.error()
    return type(error)(f"{error}; {found:,} solution(s) found by then")


def count(puzzle: RegionPuzzle, limit: int | None = None, deadline: Deadline | None = None) -> int:
    """The number of solutions, stopping at ``limit`` (None: every one)."""
    return search(puzzle, limit, keep=0, deadline=deadline)[0]


def solutions(
    puzzle: RegionPuzzle, limit: int | None = None, deadline: Deadline | None = None
) -> list[tuple[Cell, ...]]:
    """The solutions (the first ``limit`` of them), each as sorted (row, col) cells."""
    if limit is None:
        total = count(puzzle, deadline=deadline)
        return search(puzzle, total, keep=total, deadline=deadline)[1]
    return search(puzzle, limit, keep=limit, deadline=deadline)[1]
