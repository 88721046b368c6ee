"""Peaceable armies by line labels: OEIS A250000, the brute-force oracle and CP-SAT agree."""

from __future__ import annotations

import random

import pytest

import cpqueens
from cpqueens.backends.bitmask import lines as cells_lines
from cpqueens.backends.cpsat import cells as cells_cpsat
from cpqueens.vocabulary.cells import CellBoard, CellProblem
from tests.oracle_cells import Board

A250000 = [0, 0, 1, 2, 4, 5, 7]  # peaceable queens, n = 1..7 (n = 8..11: bench_optimise.py)


def problem(rows, cols, blocked=(), **board):
    return CellProblem(CellBoard(rows, cols, tuple(blocked), **board), armies=2)


@pytest.mark.parametrize("symmetry", [True, False])
def test_line_search_matches_a250000(symmetry):
    for n, expected in enumerate(A250000, start=1):
        result = cells_lines.optimise(problem(n, n), symmetry=symmetry)
        assert (result.status, result.value, result.bound) == ("optimal", expected, expected)
        white = [(r, c) for r, c, a in result.pieces if a == 0]
        black = [(r, c) for r, c, a in result.pieces if a == 1]
        assert len(white) == len(black) == expected
        oracle = Board(n, n)
        assert not any(b in oracle.hit[w] or b == w for w in white for b in black)


def test_peaceable_takes_the_line_search_and_keeps_its_answer_shape():
    result = cpqueens.peaceable(7)
    assert (result.value, result.status, result.bound) == (7, "optimal", 7)
    assert sorted(a for *_, a in result.queens) == [0] * 7 + [1] * 7
    assert result.to_json()["queens"][0][2] == 0


def boards(count, seed=24):
    """Small random boards with holes: (rows, cols, blocked, attack, toroidal, knight)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        blocked = rng.sample(cells, rng.randint(0, len(cells) // 3))
        attack = rng.choice(["queen", "queen", "rook", "king"])
        found.append((rows, cols, tuple(blocked), attack, rng.random() < 0.25, rng.random() < 0.2))
    return found


@pytest.mark.parametrize(("rows", "cols", "blocked", "attack", "toroidal", "knight"), boards(40))
def test_line_search_agrees_with_the_oracle_and_cp_sat(
    rows, cols, blocked, attack, toroidal, knight
):
    kinds = {"attack": attack, "toroidal": toroidal, "knight": knight}
    best, _ = Board(rows, cols, blocked, **kinds).peaceable()
    cells = problem(rows, cols, blocked, **kinds)
    for symmetry in (True, False):
        result = cells_lines.optimise(cells, symmetry=symmetry)
        assert (result.status, result.value) == ("optimal", best)
        assert cells.check(result.pieces) is None
    assert cells_cpsat.optimise(cells, "maximize").value == best


def test_a_time_limit_gives_a_true_bound_not_an_optimum():
    # n = 10 needs about a million nodes; the first slice is a few thousand
    result = cpqueens.peaceable(10, time_limit=0.01)
    assert result.status == "feasible"
    assert result.value <= 14 <= result.bound  # A250000(10) = 14
    assert len(result.queens) == 2 * result.value


def test_progress_reports_each_better_value():
    seen = []
    result = cpqueens.peaceable(6, progress=lambda value, bound, seconds: seen.append(value))
    assert seen == sorted(set(seen)) and seen[-1] == result.value == 5


def test_the_line_search_refuses_placed_pieces_and_minimisation():
    placed = CellProblem(CellBoard(4, 4), armies=2, placed=((0, 0, 0),))
    assert not cells_lines.supports(placed)
    with pytest.raises(ValueError, match="placed pieces"):
        cells_lines.optimise(placed)
    with pytest.raises(ValueError, match="minimize"):
        cells_lines.optimise(problem(4, 4), "minimize")
    # placed pieces take CP-SAT
    assert cpqueens.cells(4, armies=2, placed=[(0, 0, 0)]).maximize().status == "optimal"


@pytest.mark.parametrize(
    "board",
    [
        {"rows": 6, "cols": 6, "toroidal": True},
        {"rows": 5, "cols": 7},
        {"rows": 6, "cols": 6, "attack": "king"},
        {"rows": 6, "cols": 6, "blocked": ((2, 4), (3, 4), (5, 3), (0, 1), (4, 5))},
    ],
)
def test_line_search_agrees_with_cp_sat_beyond_the_oracle(board):
    cells = CellProblem(CellBoard(**board), armies=2)
    ours, theirs = cells_lines.optimise(cells), cells_cpsat.optimise(cells, "maximize")
    assert (ours.status, theirs.status) == ("optimal", "optimal")
    assert ours.value == theirs.value
