"""Optimisation on cell models: published values, the brute-force oracle, CP-SAT and the kernels."""

from __future__ import annotations

import random

import pytest

import cpqueens
from cpqueens.errors import IncompleteSearchError
from tests.oracle_cells import Board

# OEIS, n = 1, 2, ...
A075458 = [1, 1, 1, 2, 3, 3, 4, 5]  # queen domination
A075324 = [1, 1, 1, 3, 3, 4, 4, 5]  # independent queen domination
A002564 = [1, 4, 1, 12, 186, 4, 86, 4860]  # minimum dominating sets
A250000 = [0, 0, 1, 2, 4, 5]  # peaceable queens (n = 7..10: bench_optimise.py)
EIGHT_BY_EIGHT = [64, 1288, 10320, 34568, 46736, 22708, 3192, 92]


def test_queen_domination_matches_a075458_and_every_optimum_is_proved():
    for n, expected in enumerate(A075458[:7], start=1):
        result = cpqueens.domination(n)
        assert (result.value, result.status, result.bound) == (expected, "optimal", expected)
        assert Board(n, n).dominating(result.queens) and len(result.queens) == expected


def test_independent_domination_matches_a075324():
    for n, expected in enumerate(A075324[:7], start=1):
        result = cpqueens.domination(n, independent=True)
        assert (result.value, result.status) == (expected, "optimal")
        board = Board(n, n)
        assert board.dominating(result.queens) and board.independent(result.queens)


def test_minimum_dominating_sets_match_a002564_on_both_counters():
    for n, expected in enumerate(A002564, start=1):
        size = A075458[n - 1]
        model = cpqueens.cells(n, independent=False, dominating=True)
        assert model.count(queens=size, backend="bitmask") == expected
        assert model.count(queens=size - 1, backend="bitmask") == 0  # the minimum, independently
        if n <= 6:
            assert model.count(queens=size, backend="cpsat") == expected
    assert cpqueens.domination(5, count=True).count == 186


def test_peaceable_queens_match_a250000():
    for n, expected in enumerate(A250000, start=1):
        result = cpqueens.peaceable(n)
        assert (result.value, result.status) == (expected, "optimal")
        armies = [sum(1 for *_, a in result.queens if a == army) for army in (0, 1)]
        assert armies == [expected, expected]


@pytest.mark.slow
def test_k_queens_on_eight_by_eight():
    model = cpqueens.cells(8)
    assert [model.count(queens=k, backend="bitmask") for k in range(1, 9)] == EIGHT_BY_EIGHT
    assert [model.count(queens=k, backend="cpsat") for k in (1, 2, 8)] == [64, 1288, 92]
    assert model.count(queens=8, unique=True) == 12
    result = cpqueens.independence(8, count=True, unique=True)
    assert (result.value, result.status, result.count, result.classes) == (8, "optimal", 92, 12)


def random_board(rng):
    rows, cols = rng.randint(1, 4), rng.randint(1, 5)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = rng.sample(cells, rng.randint(0, len(cells) // 3))
    options = {
        "attack": rng.choice(["queen", "queen", "rook", "king"]),
        "toroidal": rng.random() < 0.25,
        "knight": rng.random() < 0.2,
    }
    return rows, cols, blocked, options


@pytest.mark.parametrize("seed", range(4))
def test_most_pieces_on_random_boards_with_holes_agree_with_the_oracle(seed):
    rng = random.Random(seed)
    for _ in range(50):
        rows, cols, blocked, options = random_board(rng)
        oracle = Board(rows, cols, blocked, **options)
        best = 0
        while oracle.sets(best + 1):
            best += 1
        sets = oracle.sets(best)
        result = cpqueens.independence(rows, cols, blocked, count=True, unique=True, **options)
        where = (rows, cols, blocked, options)
        assert (result.value, result.status, result.count) == (best, "optimal", len(sets)), where
        assert result.classes == oracle.classes(sets), where
        assert oracle.independent(result.queens) and len(result.queens) == best
        model = cpqueens.cells(rows, cols, blocked, **options)
        assert model.count(queens=best, backend="bitmask") == len(sets), where


@pytest.mark.parametrize("independent", [False, True])
@pytest.mark.parametrize("seed", range(2))
def test_domination_on_random_boards_agrees_with_the_oracle(seed, independent):
    rng = random.Random(100 + seed)
    for _ in range(40):
        rows, cols, blocked, options = random_board(rng)
        oracle = Board(rows, cols, blocked, **options)
        sizes = [next(k for k in range(99) if oracle.sets(k, independent, dominating=True))]
        where = (rows, cols, blocked, options, independent)
        result = cpqueens.domination(
            rows, cols, blocked, independent=independent, count=True, unique=True, **options
        )
        sets = oracle.sets(sizes[0], independent, dominating=True)
        assert (result.value, result.status, result.count) == (sizes[0], "optimal", len(sets)), (
            where
        )
        assert result.classes == oracle.classes(sets), where
        assert oracle.dominating(result.queens), where
        model = cpqueens.cells(
            rows, cols, blocked, independent=independent, dominating=True, **options
        )
        assert model.count(queens=sizes[0], backend="bitmask") == len(sets), where


def test_toroidal_domination_agrees_with_the_oracle():
    for n in range(1, 6):
        oracle = Board(n, n, toroidal=True)
        best = next(k for k in range(1, n * n + 1) if oracle.sets(k, False, True))
        result = cpqueens.domination(n, toroidal=True, count=True)
        assert (result.value, result.count) == (best, len(oracle.sets(best, False, True)))


@pytest.mark.parametrize(
    ("rows", "cols", "blocked", "toroidal"),
    [
        (3, 3, (), False),
        (4, 4, (), False),
        (3, 5, (), False),
        (4, 4, [(1, 1), (2, 2)], False),
        (4, 4, (), True),
        (3, 4, [(0, 0)], True),
    ],
)
def test_peaceable_armies_agree_with_the_oracle(rows, cols, blocked, toroidal):
    best, count = Board(rows, cols, blocked, toroidal=toroidal).peaceable()
    result = cpqueens.peaceable(rows, cols, blocked, toroidal=toroidal, count=True)
    assert (result.value, result.status, result.count) == (best, "optimal", count)


def test_peaceable_classes_break_the_colour_swap_too():
    # 4 x 4, 2 queens each: the oracle's placements up to the 8 symmetries and the swap
    model = cpqueens.cells(4, armies=2)
    everything = list(model.solutions(queens=2))
    maps = Board(4, 4).maps()
    keys = set()
    for pieces in everything:
        images = []
        for f in maps:
            for swap in (0, 1):
                images.append(tuple(sorted((*f(r, c), a ^ swap) for r, c, a in pieces)))
        keys.add(min(images))
    assert (2, len(everything)) == Board(4, 4).peaceable()
    assert model.count(queens=2, unique=True) == len(keys)


@pytest.mark.slow
def test_placed_pieces_are_kept_and_break_the_symmetry():
    model = cpqueens.cells(6, placed=[(0, 1)])
    oracle = Board(6, 6)
    expected = [s for s in oracle.sets(6) if (0, 1) in s]
    assert model.count(queens=6) == model.count(queens=6, backend="cpsat") == len(expected)
    result = model.maximize(count=True)
    assert (0, 1) in result.queens and result.count == len(expected)


@pytest.mark.slow
def test_a_time_limit_gives_the_best_solution_and_a_true_bound():
    result = cpqueens.domination(11, time_limit=3)
    assert result.bound is not None and result.value is not None
    assert result.bound == 5 <= result.value  # A075458(11) = 5, the theorem's (n - 1) / 2
    assert (result.status == "optimal") == (result.value == 5)  # else "feasible"
    assert Board(11, 11).dominating(result.queens)


def test_no_solution_is_reported_as_infeasible():
    model = cpqueens.cells(4, placed=[(0, 0), (0, 1)])  # two queens in one row
    result = model.maximize()
    assert (result.status, result.value, result.queens) == ("infeasible", None, ())
    assert model.count(queens=2) == 0 and model.count(queens=2, backend="cpsat") == 0


def test_a_count_cut_off_by_time_is_an_error_not_a_number():
    with pytest.raises(IncompleteSearchError):
        cpqueens.cells(9).count(queens=5, backend="cpsat", time_limit=0.05)


def test_the_model_prints_as_mathematics():
    text = str(cpqueens.cells(5, blocked=[(0, 0)], dominating=True, independent=False))
    assert "5x5 board, queen lines, 1 blocked cell;" in text
    assert ">= 1 over each free cell" in text


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: cpqueens.cells(0), ValueError, "board size n must be an int >= 1, got 0"),
        (lambda: cpqueens.cells(4, blocked=[(4, 0)]), ValueError, "(4, 0) is off the 4x4"),
        (lambda: cpqueens.cells(4, attack="knight"), ValueError, "'knight'"),
        (lambda: cpqueens.cells(4, armies=3), ValueError, "armies must be 1 or 2, got 3"),
        (lambda: cpqueens.cells(4, placed=[(0, 0, 1)]), ValueError, "army 1"),
        (lambda: cpqueens.cells(4).count(queens=-1), TypeError, "-1"),
        (lambda: cpqueens.domination(4, time_limit=-1), ValueError, "-1"),
        (lambda: cpqueens.cells(2.5), TypeError, "2.5"),
    ],
)
def test_bad_input_names_the_value(call, error, words):
    with pytest.raises(error, match=None) as caught:
        call()
    assert words in str(caught.value)
