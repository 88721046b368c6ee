"""The look-ahead of the domination search: the children it drops have no completion.

A child dropped at a node leaves no covering set that avoids the node's earlier kept
children (those sets are searched below the earlier child); so a covering set's first
child is always kept.

At the cut level :data:`cpqueens.kernels.domination.AHEAD` (the parts' default,
``domination.CUT``), a node drops the children that their own cover bound would
cut (:func:`cpqueens.kernels.domination._ahead`). These tests check it node by
node against a brute force, and that no queen of a covering set is ever dropped.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cpqueens.backends.bitmask import domination
from cpqueens.kernels import domination as kernel
from tests.oracle_cells import queen_covers


def _covers(n):
    """The cells each queen covers, as one int bit mask over the n * n cells per cell."""
    return [queen_covers(n, cell) for cell in range(n * n)]


def _children(n, k, placed, level):
    """The children the search branches on below ``placed`` (every other cell allowed).

    One node of :func:`kernel.search` (a budget of 1) at cut ``level``.
    """
    images, orbit, _ = domination.symmetry(n)
    state = kernel.start(n, k, -1, orbit)
    occ, allowed, cand, ncand, counters = state[0], state[1], state[2], state[3], state[-1]
    depth = len(placed)
    allowed[depth] = allowed[0]
    for cell in placed:
        r, c = divmod(cell, n)
        occ[depth] |= np.array([1 << r, 1 << c, 1 << (c - r + n - 1), 1 << (r + c)], np.uint64)
        allowed[depth, r] &= ~np.uint64(1 << c)
    counters[kernel.DEPTH] = depth
    path = np.zeros(0, dtype=np.int64)
    kernel.search(n, k, False, level, -1, images[:1], path, *state, False, 1)
    return [int(cell) for cell in cand[depth, : ncand[depth]]]


@pytest.mark.parametrize(
    ("n", "k", "placed", "nodes"), [(8, 5, 3, 40), (9, 5, 3, 30), (9, 5, 2, 30)]
)
def test_every_child_the_look_ahead_drops_has_no_completion_by_brute_force(n, k, placed, nodes):
    lines = _covers(n)
    board = (1 << (n * n)) - 1
    rng = random.Random(n * 10 + placed)
    dropped = 0
    for _ in range(nodes):
        queens = rng.sample(range(n * n), placed)
        plain = _children(n, k, queens, kernel.FRAME)
        ahead = _children(n, k, queens, kernel.AHEAD)
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
    assert dropped > 0  # the test sees the look-ahead at work


@pytest.mark.parametrize(("n", "k"), [(9, 5), (12, 6)])
def test_no_queen_of_a_covering_set_is_dropped(n, k):
    _, _, found = domination._search(n, k, -1, (), True, None)
    images = domination.symmetry(n)[0]
    for g in range(8):
        image = [int(images[g, cell]) for cell in found]
        for placed in range(1, k - 1):
            for queens in itertools.combinations(image, placed):
                plain = _children(n, k, list(queens), kernel.FRAME)
                ahead = _children(n, k, list(queens), kernel.AHEAD)
                members = [q for q in plain if q in image]
                # the set is searched below its first child: that one must be kept
                assert members and members[0] in ahead, (n, k, queens, members)
