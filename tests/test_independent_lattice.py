"""Independent dominating queens by empty rows and columns: brute force, cell search, OEIS."""

from __future__ import annotations

import numpy as np
import pytest

from cpqueens.backends.bitmask import domination, independent
from cpqueens.kernels import independent_lattice as kernel

A075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7]  # i(Q_n), n = 1..12
A002568 = [1, 4, 1, 16, 16, 120, 8, 728, 92, 8, 2, 840]  # their sets


def brute_force(n, k):
    """Every set of k queens, no two attacking, that covers the n x n board: plain Python ints."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    reach = [
        sum(1 << (a * n + b) for a, b in cells if a == r or b == c or abs(a - r) == abs(b - c))
        for r, c in cells
    ]  # the cells each queen covers, itself included
    full = (1 << n * n) - 1
    found = []

    def grow(chosen, covered, start):
        if len(chosen) == k:
            if covered == full:
                found.append(tuple(cells[i] for i in chosen))
            return
        for i in range(start, n * n):
            if not covered >> i & 1:  # an uncovered cell: no chosen queen attacks it
                grow([*chosen, i], covered | reach[i], i + 1)

    grow([], 0, 0)
    return found


def kernel_total(n, k):
    """(sets, classes) over every part of the search, in this process."""
    counters = np.zeros(kernel.COUNTERS, dtype=np.int64)
    found = np.zeros(k + 1, dtype=np.int64)
    for mask in kernel.empty_row_masks(n, k):
        kernel.search(n, k, np.uint64(mask), False, found, counters)
    return int(counters[kernel.SETS]), int(counters[kernel.CLASSES])


def orbits(n, sets):
    """The classes of ``sets`` under the board's 8 symmetries (brute force)."""

    def image(g, cell):
        a, b = (cell[1], cell[0]) if g & 4 else cell
        return (n - 1 - a if g & 1 else a, n - 1 - b if g & 2 else b)

    return len({min(tuple(sorted(image(g, x) for x in s)) for g in range(8)) for s in sets})


@pytest.mark.parametrize("n", range(1, 9))
def test_sets_and_classes_match_a_brute_force(n):
    k = A075324[n - 1]
    for size in (k - 1, k, k + 1):
        if not 1 <= size <= n:
            continue
        sets = brute_force(n, size)
        assert kernel_total(n, size) == (len(sets), orbits(n, sets)), (n, size)


@pytest.mark.parametrize("n", [8, 9, 10, 11])
def test_counts_match_the_cell_search(n):
    k = A075324[n - 1]
    sets, _, _ = domination._search(n, k, -1, (), False, None, independent=True)
    assert kernel_total(n, k)[0] == sets == A002568[n - 1]
    assert kernel_total(n, k - 1) == (0, 0)


def test_twelve_matches_oeis():
    assert kernel_total(12, 7)[0] == A002568[11]


@pytest.mark.parametrize("n", [6, 9, 11])
def test_the_parts_find_checked_sets_and_prove_none_below(n):
    k = A075324[n - 1]
    parts = independent.plan(n, k)
    values = [independent.search_part(n, k, p.index, p.parts, True) for p in parts]
    found = [value for value in values if value]
    assert found and all(parts[0].admits(value, n) for value in found)
    cells = independent.cells_of(found[0])
    assert domination.dominates(n, cells) and domination.apart(n, cells)
    below = independent.plan(n, k - 1)
    assert not any(independent.search_part(n, k - 1, p.index, p.parts, True) for p in below)


def test_the_parts_add_up_and_labels_differ():
    parts = independent.plan(9, 5, first=False)
    assert len({part.label() for part in parts}) == len(parts)
    assert sum(independent.search_part(9, 5, p.index, p.parts, False) for p in parts) == 92
    deeper = independent.plan(9, 5, depth=2, first=False, unique=True)
    total = sum(independent.search_part(9, 5, p.index, p.parts, False, None, True) for p in deeper)
    assert total == 16  # the classes of A002568(9)


def test_a_count_and_a_proof_resume_from_their_checkpoints(tmp_path):
    from cpqueens.tasks.parts import Runner

    path = tmp_path / "i7.json"
    assert independent.tally(7, 4, Runner(7, checkpoint=path)) == 8
    assert independent.tally(7, 4, Runner(7, checkpoint=path)) == 8  # every part read back
    found = independent.decide(7, 4, Runner(7, checkpoint=tmp_path / "f7.json"))
    again = independent.decide(7, 4, Runner(7, checkpoint=tmp_path / "f7.json"))
    assert found == again and domination.dominates(7, found) and domination.apart(7, found)


def pair_passes(n, k, er_mask, ec_mask):
    """Whether the colour test of the search passes the pair (ER, EC) (its matching built here)."""
    lines = 2 * n - 1
    er = [a for a in range(n) if er_mask >> a & 1]
    ec = [b for b in range(n) if ec_mask >> b & 1]
    rows = np.array([a for a in range(n) if not er_mask >> a & 1], dtype=np.int64)
    adj = np.zeros(lines, dtype=np.uint64)
    for a in er:
        for b in ec:
            adj[b - a + n - 1] |= np.uint64(1 << (a + b))
    mate_d = np.full(lines, -1, dtype=np.int64)
    mate_s = np.full(lines, -1, dtype=np.int64)
    scratch = np.zeros(lines, dtype=np.int64), np.zeros(2 * lines + 1, dtype=np.int64)
    kernel._queens_needed(n, adj, mate_d, mate_s, *scratch)
    even, odd = kernel._colour_matched(n, mate_d)
    cells = np.array([a * n + b for a in er for b in ec], dtype=np.int64)
    allow = np.full(k, ((1 << n) - 1) & ~ec_mask, dtype=np.uint64)
    need = ((even + 1) // 2, (odd + 1) // 2)
    args = (n, k, rows, allow, cells, len(cells), np.uint64(0), np.uint64(0), *need)
    return kernel._colours_cover(*args, kernel._cover_scratch(n))


@pytest.mark.parametrize("n", [7, 8])
def test_the_colour_cut_keeps_every_pair_with_a_set_and_cuts_others(n):
    k = A075324[n - 1]
    full = (1 << n) - 1
    kept = set()
    for queens in brute_force(n, k):
        er = full & ~sum(1 << r for r, _ in queens)
        ec = full & ~sum(1 << c for _, c in queens)
        kept.add((er, ec))
        assert pair_passes(n, k, er, ec), (n, queens)
    rng = np.random.default_rng(n)
    cut = 0
    for _ in range(200):  # the cut is not idle: random pairs without a set are cut
        er = int(sum(1 << int(a) for a in rng.choice(n, n - k, replace=False)))
        ec = int(sum(1 << int(b) for b in rng.choice(n, n - k, replace=False)))
        cut += (er, ec) not in kept and not pair_passes(n, k, er, ec)
    assert cut > 0
