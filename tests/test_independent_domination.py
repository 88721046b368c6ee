"""Independent queens dominating a free board: the compiled search against a brute force and CP-SAT.

The brute force here shares nothing with the library: every set of independent
queens (at most one per row) built row by row in plain Python, each checked
for cover with Python ints as cell sets.
"""

from __future__ import annotations

import json

import pytest

import cpqueens
from cpqueens.backends.bitmask import domination
from cpqueens.tasks.parts import Runner
from tests.oracle_cells import queen_covers

# OEIS A075324 (the fewest independent queens covering n x n) and A002568 (how many sets), n = 1..
A075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8, 9, 9, 9, 10, 11, 11]
A002568 = [1, 4, 1, 16, 16, 120, 8, 728, 92, 8, 2, 840, 24, 436, 10188, 128, 12, 224, 8424, 312]


def attacked(n, r, c):
    """The cells a queen on (r, c) occupies or attacks, as an int of n * n bits."""
    return queen_covers(n, r * n + c)


def brute_force(n, k):
    """Every set of k independent queens covering the n x n board, as sorted (row, col) tuples."""
    covers = {(r, c): attacked(n, r, c) for r in range(n) for c in range(n)}
    full = (1 << (n * n)) - 1
    found = []

    def grow_free(row, queens, taken):
        # ``taken``: the cells the queens so far occupy or attack; the cover is summed at the end
        if len(queens) == k:
            hit = 0
            for q in queens:
                hit |= covers[q]
            if hit == full:
                found.append(tuple(queens))
            return
        if n - row < k - len(queens):
            return
        for c in range(n):
            if not (taken >> (row * n + c)) & 1:
                grow_free(row + 1, [*queens, (row, c)], taken | covers[row, c])
        grow_free(row + 1, queens, taken)

    grow_free(0, [], 0)
    return found


def classes(n, sets):
    """The number of classes of ``sets`` under the board's 8 symmetries, from scratch."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    return len({min(tuple(sorted(f(*q) for q in s)) for f in maps) for s in sets})


def check(n, queens, size):
    """The returned set in plain Python: its size, independent, and covering every cell."""
    queens = [tuple(q) for q in queens]
    assert len(set(queens)) == len(queens) == size
    for i, (r, c) in enumerate(queens):
        for a, b in queens[:i]:
            assert not (r == a or c == b or r - c == a - b or r + c == a + b), (queens, n)
    hit = 0
    for r, c in queens:
        hit |= attacked(n, r, c)
    assert hit == (1 << (n * n)) - 1, (queens, n)


@pytest.mark.parametrize("n", range(1, 9))
def test_the_optimum_and_its_sets_match_the_brute_force(n):
    least = next(k for k in range(1, n + 1) if brute_force(n, k))
    sets = brute_force(n, least)
    result = cpqueens.domination(n, independent=True, count=True, unique=True)
    assert (result.value, result.status, result.bound) == (least, "optimal", least)
    assert (result.count, result.classes) == (len(sets), classes(n, sets))
    assert (least, len(sets)) == (A075324[n - 1], A002568[n - 1])
    check(n, result.queens, least)


def test_every_size_is_counted_as_the_brute_force_counts_it():
    for n, k in ((5, 4), (6, 5), (7, 5), (8, 6)):
        sets = brute_force(n, k)
        model = cpqueens.cells(n, independent=True, dominating=True)
        assert model.count(queens=k, backend="bitmask") == len(sets), (n, k)
        assert model.count(queens=k, unique=True, backend="bitmask") == classes(n, sets), (n, k)


def test_the_counts_agree_with_cpsat_and_the_generic_counter():
    for n in (6, 7):
        k = A075324[n - 1]
        model = cpqueens.cells(n, independent=True, dominating=True)
        expected = model.count(queens=k, backend="cpsat")
        assert cpqueens.domination(n, independent=True, count=True).count == expected
        assert domination.tally(n, k, domination._here(None), independent=True) == expected
        assert A002568[n - 1] == expected


@pytest.mark.slow
def test_no_smaller_set_exists_where_cpsat_agrees():
    for n in (4, 6, 8):
        k = A075324[n - 1] - 1
        assert domination.decide(n, k, domination._here(None), independent=True) is None
        model = cpqueens.cells(n, independent=True, dominating=True)
        assert model.count(queens=k, backend="cpsat") == 0
        found = domination.decide(n, k + 1, domination._here(None), independent=True)
        assert found is not None
        check(n, [divmod(cell, n) for cell in found], k + 1)


def test_a002568_on_the_larger_boards_each_set_checked():
    for n in (9, 10, 11, 12):
        result = cpqueens.domination(n, independent=True, count=True)
        assert (result.value, result.status) == (A075324[n - 1], "optimal")
        assert result.count == A002568[n - 1]
        check(n, result.queens, result.value)


@pytest.mark.parametrize(("n", "k", "depths"), [(6, 4, 3), (8, 5, 2), (9, 5, 2)])
def test_every_split_counts_the_same_independent_sets_as_one_whole_search(n, k, depths):
    whole, _, _ = domination._search(n, k, -1, (), False, None, True)  # no symmetry used
    assert whole == len(brute_force(n, k))
    for depth in range(1, depths + 1):
        parts = domination.plan(n, k, depth, first=False, independent=True)
        assert len({part.label() for part in parts}) == len(parts)
        values = [domination.search_part(p.n, p.k, p.q0, p.path, False, None, True) for p in parts]
        assert sum(values) == whole, (n, k, depth)


def test_a_part_of_an_independent_search_admits_only_independent_covering_sets():
    part = domination.Part(4, 3, 0, independent=True)
    assert part.admits(domination.encode([0, 6, 13], 4), 4)  # the greedy set: apart, covering
    assert not part.admits(domination.encode([0, 5, 15], 4), 4)  # covers, but on one diagonal
    assert part.label() == "first 3 independent queens, (0, 0), path []"
    assert part.expects(4) == (
        "0 or a set of 3 independent queens covering the board, holding cell 0"
    )
    assert domination.greedy(4) == (0, 6, 13) and domination.apart(4, domination.greedy(4))


def test_the_count_runs_in_parts_in_a_checkpoint_of_its_own(tmp_path):
    path = tmp_path / "i8.json"
    result = cpqueens.domination(8, independent=True, count=True, checkpoint=path)
    assert (result.value, result.count) == (5, 728)
    proof = json.loads(path.read_text())  # no 4 independent queens cover 8 x 8
    assert proof["backend"] == (
        "bitmask: 4 independent queens dominating the board, searched by lines"
    )
    assert {value for _, value in proof["done"]} == {0}
    counted = json.loads((tmp_path / "i8.count.json").read_text())
    assert counted["backend"] == (
        "bitmask: the sets of 5 independent queens dominating the board, counted"
    )
    assert sum(value for _, value in counted["done"]) == 728
    assert counted["subproblems"] == len(counted["done"]) > len(domination.plan(8, 5))
    again = domination.tally(8, 5, Runner(8, checkpoint=tmp_path / "i8.count.json"), False, True)
    assert again == 728  # read back from the file: the same split, every part done


@pytest.mark.slow
def test_a_time_limit_gives_an_independent_covering_set_and_a_true_bound():
    result = cpqueens.domination(20, independent=True, time_limit=0.5)
    assert result.status == "feasible" and result.bound <= A075324[19] <= result.value
    check(20, result.queens, result.value)
