"""The look-ahead of the domination search: the children it drops have no completion.

A child dropped at a node leaves no covering set that avoids the node's earlier kept
children (those sets are searched below the earlier child); so a covering set's first
child is always kept.

At the cut level :data:`cpqueens.kernels.domination.AHEAD`, a node drops the children
that their own cover bound would cut (:func:`cpqueens.kernels.domination._ahead`); at
:data:`~cpqueens.kernels.domination.TARGET` also those their own frame would cut, and it
branches on the uncovered cell with the fewest cells that can still be in a covering set (a
node where some uncovered cell has none is cut). At
:data:`~cpqueens.kernels.domination.CENTRES` (the parts' default, ``domination.CUT``) it
also drops the children that the union bound of two centres rules out
(:func:`cpqueens.kernels.domination._centres`).
These tests check them node by node against a brute force, and that no queen of a
covering set is ever dropped.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cpqueens.backends.bitmask import domination
from cpqueens.kernels import domination as kernel
from tests.oracle_cells import queen_covers
from tests.test_domination_frame import _cut as _framed


def _covers(n):
    """The cells each queen covers, as one int bit mask over the n * n cells per cell."""
    return [queen_covers(n, cell) for cell in range(n * n)]


def _node(n, k, placed):
    """A search state at the node of ``placed`` queens (every other cell allowed)."""
    _, orbit, _ = domination.symmetry(n)
    state = kernel.start(n, k, -1, orbit)
    occ, allowed, counters = state[0], state[1], state[-1]
    depth = len(placed)
    allowed[depth] = allowed[0]
    for cell in placed:
        r, c = divmod(cell, n)
        occ[depth] |= np.array([1 << r, 1 << c, 1 << (c - r + n - 1), 1 << (r + c)], np.uint64)
        allowed[depth, r] &= ~np.uint64(1 << c)
    counters[kernel.DEPTH] = depth
    counters[kernel.ROOT] = depth  # the search starts here: no parent looked ahead at it
    return state


def _children(n, k, placed, level):
    """The children the search branches on below ``placed``, after the look-ahead.

    One node of :func:`kernel.search` (a budget of 1) at cut ``level``.
    """
    images = domination.symmetry(n)[0]
    state = _node(n, k, placed)
    cand, ncand, depth = state[2], state[3], len(placed)
    path = np.zeros(0, dtype=np.int64)
    kernel.search(n, k, False, level, -1, images[:1], path, *state, False, 1)
    return [int(cell) for cell in cand[depth, : ncand[depth]]]


def _branches(n, k, placed, level):
    """The cells the node of ``placed`` branches on at cut ``level``, before the look-ahead."""
    occ, allowed, cand = _node(n, k, placed)[:3]
    depth = len(placed)
    m = kernel._evaluate(n, k, depth, occ, allowed, cand, kernel._workspace(n, k), level, False)
    return [int(cell) for cell in cand[depth, : max(m, 0)]]


def _completes(lines, n, covered, cells, more):
    """Whether ``more`` of ``cells`` cover what ``covered`` leaves uncovered."""
    board = (1 << (n * n)) - 1
    for extra in itertools.combinations(cells, more):
        mask = board & ~covered
        for cell in extra:
            mask &= ~lines[cell]
        if not mask:
            return True
    return False


@pytest.mark.parametrize("level", [kernel.AHEAD, kernel.TARGET])
@pytest.mark.parametrize(
    ("n", "k", "placed", "nodes"), [(8, 5, 3, 40), (9, 5, 3, 30), (9, 5, 2, 30)]
)
def test_every_child_the_look_ahead_drops_has_no_completion_by_brute_force(
    n, k, placed, nodes, level
):
    lines = _covers(n)
    board = (1 << (n * n)) - 1
    rng = random.Random(n * 10 + placed)
    dropped = framed = 0
    for _ in range(nodes):
        queens = rng.sample(range(n * n), placed)
        plain = _branches(n, k, queens, level)
        ahead = _children(n, k, queens, level)
        assert [q for q in plain if q in ahead] == ahead  # a subsequence, in order
        covered = 0
        for cell in queens:
            covered |= lines[cell]
        for i, q in enumerate(plain):
            if q in ahead:
                continue
            dropped += 1
            left = board & ~(covered | lines[q])
            # the sets holding an earlier child that is kept are searched below that child
            earlier = {cell for cell in plain[:i] if cell in ahead}
            cells = [cell for cell in range(n * n) if cell not in earlier]
            for more in itertools.combinations(cells, k - placed - 1):
                mask = left
                for cell in more:
                    mask &= ~lines[cell]
                assert mask, (n, k, sorted(queens), q, more)
            framed += _framed(n, k, [*queens, q])
    assert dropped > 0  # the test sees the look-ahead at work
    assert framed > 0 or level < kernel.TARGET  # and the children's frame


def _words(mask):
    """A board's mask (an int of up to 128 cells) as two 64-bit words, for numpy."""
    return [mask & (2**64 - 1), mask >> 64]


def _covered_by(lines, left, cells, more):
    """Whether ``more`` (2 or 3) of ``cells`` cover ``left`` (masks as rows of 2 words).

    ``lines``: each cell's mask. The last cell runs over all of ``cells``: a set of fewer
    that covers ``left`` is completed by any other cell.
    """
    leaves = ~lines[cells]  # what each cell leaves uncovered
    if more == 2:
        return bool(((left & leaves[:, None, :] & leaves[None, :, :]) == 0).all(axis=2).any())
    for a in range(len(cells) - 1):
        pairs = left & leaves[a] & leaves[a + 1 :]  # a with each later b
        if ((pairs[:, None, :] & leaves[None, :, :]) == 0).all(axis=2).any():
            return True
    return False


@pytest.mark.parametrize(("n", "k", "placed", "nodes"), [(8, 5, 2, 8), (9, 5, 2, 8), (10, 5, 1, 5)])
def test_every_child_the_two_centres_drop_has_no_completion_by_brute_force(n, k, placed, nodes):
    # 3 or 4 queens left: a child dropped has no 2 or 3 queens to complete it (numpy)
    lines = np.array([_words(mask) for mask in _covers(n)], dtype=np.uint64)
    board = np.array(_words((1 << (n * n)) - 1), dtype=np.uint64)
    rng = random.Random(n * 13 + k)
    dropped = 0
    for _ in range(nodes):
        queens = rng.sample(range(n * n), placed)
        plain = _children(n, k, queens, kernel.TARGET)
        centres = _children(n, k, queens, kernel.CENTRES)
        assert [q for q in plain if q in centres] == centres  # fewer, in order
        covered = np.zeros(2, dtype=np.uint64)
        for cell in queens:
            covered |= lines[cell]
        for i, q in enumerate(plain):
            if q in centres:
                continue
            dropped += 1
            left = board & ~(covered | lines[q])
            # the sets holding an earlier child that is kept are searched below that child
            earlier = {cell for cell in plain[:i] if cell in centres}
            cells = np.array([c for c in range(n * n) if c not in earlier], dtype=np.int64)
            more = k - placed - 1
            assert not _covered_by(lines, left, cells, more), (n, k, sorted(queens), q)
    assert dropped > 0  # the test sees the two centres at work


@pytest.mark.parametrize(("n", "k", "placed", "nodes"), [(8, 4, 2, 60), (9, 5, 3, 60)])
def test_every_node_the_target_cell_cuts_has_no_completion_by_brute_force(n, k, placed, nodes):
    lines = _covers(n)
    rng = random.Random(n * 7 + placed)
    cut = 0
    for _ in range(nodes):
        queens = rng.sample(range(n * n), placed)
        if _branches(n, k, queens, kernel.TARGET) or not _branches(n, k, queens, kernel.AHEAD):
            continue
        cut += 1  # an uncovered cell that no cell able to be in a covering set covers
        covered = 0
        for cell in queens:
            covered |= lines[cell]
        cells = [cell for cell in range(n * n) if cell not in queens]
        assert not _completes(lines, n, covered, cells, k - placed), (n, k, sorted(queens))
    assert cut > 0  # the test sees the cut at work


@pytest.mark.parametrize("level", [kernel.AHEAD, kernel.TARGET, kernel.CENTRES])
@pytest.mark.parametrize(("n", "k"), [(9, 5), (12, 6)])
def test_no_queen_of_a_covering_set_is_dropped(n, k, level):
    _, _, found = domination._search(n, k, -1, (), True, None)
    images = domination.symmetry(n)[0]
    for g in range(8):
        image = [int(images[g, cell]) for cell in found]
        for placed in range(1, k - 1):
            for queens in itertools.combinations(image, placed):
                plain = _branches(n, k, list(queens), level)
                ahead = _children(n, k, list(queens), level)
                members = [q for q in plain if q in image]
                # the set is searched below its first child: that one must be kept
                assert members and members[0] in ahead, (n, k, queens, members)
