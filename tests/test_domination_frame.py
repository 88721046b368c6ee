"""The frame cut of the domination search: the same sets with it and without, each cut checked.

The cut (:func:`cpqueens.kernels.domination._framed_out`) drops a node when
the frame of the empty rows and columns holds more diagonal-only cells than
the queens left can reach; these tests check it against the search without
it (at each level up to :data:`~cpqueens.kernels.domination.CENTRES`), against OEIS
A002564 and, node by node, against a brute force.
"""

from __future__ import annotations

import functools
import itertools
import random

import numpy as np
import pytest

from cpqueens.backends.bitmask import domination
from cpqueens.kernels import domination as kernel
from tests.oracle_cells import queen_covers

# OEIS A075458 (the domination numbers) and A002564 (the minimum sets), n = 1, 2, ...
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8]
A002564 = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8]


@functools.cache
def _without(n, k):
    """The sets and classes of k queens covering n x n, searched with no cut."""
    return domination._search(n, k, -1, (), False, None, frame=kernel.NONE)[:2]


@pytest.mark.parametrize("level", [kernel.AHEAD, kernel.TARGET, kernel.CENTRES])
@pytest.mark.parametrize("n", range(3, 11))
def test_the_search_counts_the_same_sets_with_the_frame_cut_and_without(n, level):
    gamma = A075458[n - 1]
    for k in range(gamma - 1, gamma + (2 if n <= 7 else 1)):
        with_cut = domination._search(n, k, -1, (), False, None, frame=level)
        assert with_cut[:2] == _without(n, k), (n, k, level)


@pytest.mark.parametrize("level", [kernel.FRAME, kernel.TARGET, kernel.CENTRES])
@pytest.mark.parametrize("n", [11, 12])
def test_the_minimum_sets_match_a002564_with_the_frame_cut(n, level):
    sets, _, _ = domination._search(n, A075458[n - 1], -1, (), False, None, frame=level)
    assert sets == A002564[n - 1]


def test_the_split_counts_with_the_cut_match_the_whole_search_without_it():
    n, k = 9, 5
    whole, _, _ = domination._search(n, k, -1, (), False, None, frame=False)
    parts = domination.plan(n, k, 2, first=False)
    assert sum(domination.search_part(p.n, p.k, p.q0, p.path, False) for p in parts) == whole


def sum_lines(lines, cells):
    """The cells that queens on ``cells`` cover, as one mask."""
    mask = 0
    for cell in cells:
        mask |= lines[cell]
    return mask


def _cut(n, k, placed):
    """Whether the kernel's frame cut drops the node of ``placed`` queens (k in all)."""
    rows = cols = 0
    for cell in placed:
        rows |= 1 << (cell // n)
        cols |= 1 << (cell % n)
    covered = 0
    for cell in placed:
        covered |= queen_covers(n, cell)
    uncovered = np.zeros(n, dtype=np.uint64)
    for r in range(n):
        uncovered[r] = sum(1 << c for c in range(n) if not covered >> (r * n + c) & 1)
    scratch = [np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.int64), np.zeros(n, np.int64)]
    j = k - len(placed)
    return kernel._framed_out(n, j, np.uint64(rows), np.uint64(cols), uncovered, *scratch)


@pytest.mark.parametrize(("n", "k", "placed"), [(9, 5, 3), (10, 5, 3), (10, 5, 4), (8, 4, 2)])
def test_every_node_the_cut_drops_has_no_completion_by_brute_force(n, k, placed):
    lines = [queen_covers(n, cell) for cell in range(n * n)]
    board = (1 << (n * n)) - 1
    rng = random.Random(n * 100 + k)
    cuts = 0
    for _ in range(150):
        queens = rng.sample(range(n * n), placed)
        if _cut(n, k, queens):
            cuts += 1
            left = board & ~sum_lines(lines, queens)
            for more in itertools.combinations(range(n * n), k - placed):
                assert left & ~sum_lines(lines, more), (n, k, sorted(queens), more)
    assert cuts > 0  # the test sees the cut at work


@pytest.mark.parametrize(("n", "k"), [(9, 5), (10, 5), (12, 6)])
def test_no_part_of_a_covering_set_is_cut(n, k):
    _, _, found = domination._search(n, k, -1, (), True, None)
    images = domination.symmetry(n)[0]
    for g in range(8):
        image = [int(images[g, cell]) for cell in found]
        for placed in range(1, k):
            for queens in itertools.combinations(image, placed):
                assert not _cut(n, k, list(queens)), (n, k, queens)
