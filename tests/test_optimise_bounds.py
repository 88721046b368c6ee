"""Limit-ended optimisation reports a true, useful bound: OEIS values, the oracle, real searches.

The limit-ended runs assert relations that hold whatever the machine's speed:
the bound is on the right side of the known optimum, never trivial, and the
status says "optimal" exactly when the best found meets the bound.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import cpqueens
from cpqueens.backends.cpsat.cells import cover_bound
from cpqueens.clock import Deadline
from cpqueens.errors import IncompleteSearchError
from cpqueens.vocabulary import bounds
from cpqueens.vocabulary.cells import CellBoard, CellProblem
from tests.oracle_cells import Board

ROOT = Path(__file__).resolve().parent.parent
# OEIS (DESIGN.md), n = 1, 2, ...
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10]  # queen domination
A250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32]  # peaceable queens


def dominating(n, **board):
    return CellProblem(CellBoard(n, n, **board), independent=False, dominating=True)


def test_the_domination_theorem_never_exceeds_a075458_and_meets_it_where_known():
    lows = [bounds.lower(dominating(n)) for n in range(1, len(A075458) + 1)]
    assert all(low <= best for low, best in zip(lows, A075458, strict=True))
    assert lows == [1, 1, 1, 2, 3, 3, 4, 4, 5, 5, 5, 6, 7, 7, 8, 8, 9, 9, 10]


def test_the_theorem_holds_only_for_the_full_square_queens_board():
    # holes, wrapping lines or knight's moves make fewer queens enough: no theorem there
    for board in ({"blocked": ((0, 0),)}, {"toroidal": True}, {"knight": True}):
        assert bounds.lower(dominating(8, **board)) == 0
    assert bounds.lower(CellProblem(CellBoard(8, 9), dominating=True)) == 0


def test_the_line_bounds_hold_for_a250000_and_independence():
    for n, best in enumerate(A250000, start=1):
        assert best <= bounds.upper(CellProblem(CellBoard(n, n), armies=2)) <= n * n // 2
    assert [bounds.upper(CellProblem(CellBoard(n, n))) for n in (1, 5, 8)] == [1, 5, 8]
    assert bounds.upper(CellProblem(CellBoard(5, 7, attack="rook"))) == 5


def random_boards(count, seed=34):
    rng = random.Random(seed)
    for _ in range(count):
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        blocked = tuple(rng.sample(cells, rng.randint(0, len(cells) // 3)))
        yield rows, cols, blocked, rng.choice(["queen", "rook", "king"]), rng.random() < 0.3


@pytest.mark.parametrize(("rows", "cols", "blocked", "attack", "toroidal"), list(random_boards(30)))
def test_the_bounds_known_before_search_are_true_on_random_boards(
    rows, cols, blocked, attack, toroidal
):
    kinds = {"attack": attack, "toroidal": toroidal}
    oracle = Board(rows, cols, blocked, **kinds)
    board = CellBoard(rows, cols, blocked, **kinds)
    free = rows * cols - len(blocked)
    fewest = next(k for k in range(free + 1) if oracle.sets(k, False, True))
    cover = CellProblem(board, independent=False, dominating=True)
    assert bounds.lower(cover) <= fewest and cover_bound(cover) <= fewest
    most = max(k for k in range(free + 1) if oracle.sets(k))
    assert most <= bounds.upper(CellProblem(board))
    peace, _ = oracle.peaceable()
    assert peace <= bounds.upper(CellProblem(board, armies=2))


def consistent(result, optimum, sense):
    """The relations every answer keeps: the bound on the optimum's far side, status honest."""
    assert result.value is not None and result.bound is not None
    if sense == "minimize":
        assert result.bound <= optimum <= result.value
    else:
        assert result.value <= optimum <= result.bound
    assert (result.status == "optimal") == (result.value == result.bound)


@pytest.mark.slow
def test_a_limit_ended_domination_reports_the_theorem_not_zero():
    # 14 x 14: a dominating set of 8 or more is quick, the proof that 7 is too few is not
    result = cpqueens.domination(14, time_limit=3)
    consistent(result, A075458[13], "minimize")
    assert result.bound >= 7  # the theorem's ceil(14 / 2), whatever CP-SAT proved
    assert Board(14, 14).dominating(result.queens)


@pytest.mark.slow
def test_domination_of_11_is_bounded_by_5_and_proved_when_5_is_found():
    result = cpqueens.domination(11, time_limit=2)
    consistent(result, 5, "minimize")
    assert result.bound == 5  # (n - 1) / 2: n = 11 is one of the two exceptions to n / 2


@pytest.mark.slow
def test_a_limit_ended_domination_with_a_hole_reports_the_covering_lp():
    problem = dominating(10, blocked=((0, 0),))
    # A busy machine may end a 2 s search before its first set: the limit doubles until one comes
    # (the bound is the LP's however the search ends)
    for limit in (2, 4, 8, 16, 32, 64):
        try:
            result = cpqueens.domination(10, blocked=[(0, 0)], time_limit=limit)
            break
        except IncompleteSearchError:
            continue
    else:
        pytest.fail("no dominating set within 64 s")
    assert result.bound >= cover_bound(problem) == 4  # the LP bound, not 0
    assert result.bound <= result.value
    assert Board(10, 10, [(0, 0)]).dominating(result.queens)


@pytest.mark.slow
def test_a_limit_ended_peaceable_search_proves_a_bound_well_below_the_knapsack():
    # A250000(11) = 17; the diagonals' knapsack allows 49, the rows and columns 30
    # (15 x 2 each way), and the ladder's proofs of sizes in between take milliseconds
    problem = CellProblem(CellBoard(11, 11), armies=2)
    assert bounds.upper(problem) == bounds.grid_bound(11, 11) == 30
    result = cpqueens.peaceable(11, time_limit=1.5)
    consistent(result, A250000[10], "maximize")
    assert result.bound <= 30
    assert len(result.queens) == 2 * result.value


def test_a_time_limit_that_ends_before_any_solution_names_the_limit():
    with pytest.raises(IncompleteSearchError) as caught:
        cpqueens.independence(40, time_limit=0.01)
    assert str(caught.value) == (
        "the time limit of 0.01 s ended the search before any solution was found; give it more time"
    )


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (
            {"time_limit": float("nan")},
            "time_limit must be None or a number of seconds > 0, got nan",
        ),
        (
            {"time_limit": float("inf")},
            "time_limit must be None or a number of seconds > 0, got inf",
        ),
        ({"workers": 10**6}, "workers must be an int from 1 to 64 (the solver's threads)"),
    ],
)
def test_bad_solver_options_are_named_not_model_invalid(options, words):
    with pytest.raises(ValueError) as caught:
        cpqueens.domination(6, **options)
    assert str(caught.value).startswith(words)


def optimize(tmp_path, *args):
    return subprocess.run(
        [sys.executable, "-m", "cpqueens", "optimize", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )


@pytest.mark.slow
def test_the_cli_exits_1_when_a_limit_ends_the_search_before_a_proof(tmp_path):
    result = optimize(tmp_path, "domination", "14", "--time-limit", "3", "--json")
    answer = json.loads(result.stdout)  # the best found is printed either way
    consistent(cpqueens.Optimum(**{**answer, "queens": ()}), 8, "minimize")
    if answer["status"] == "optimal":
        assert (result.returncode, result.stderr) == (0, "")
    else:
        assert result.returncode == 1
        assert result.stderr == (
            "cpqueens: the time limit of 3 s ended the search before a proof: "
            f"{answer['value']} is the best found, the optimum is at least {answer['bound']}\n"
        )


@pytest.mark.slow
def test_the_cli_exits_0_with_a_proof(tmp_path):
    result = optimize(tmp_path, "peaceable", "6", "--time-limit", "30", "--json")
    answer = json.loads(result.stdout)
    assert (result.returncode, result.stderr) == (0, "")
    assert (answer["value"], answer["status"], answer["bound"]) == (5, "optimal", 5)


# --- the bound a stopped run reports is the relaxation's own value (issue 46, item 6) ---------


def rows_and_columns(n):
    """The rows and columns' bound, here by plain enumeration: white rows s, white columns t."""
    return max(min(s * t, (n - s) * (n - t)) for s in range(n + 1) for t in range(n + 1))


def covering_lp(n, independent):
    """The covering LP of queens on n x n (each cell covered at least once), solved by GLOP."""
    from ortools.linear_solver import pywraplp

    lp = pywraplp.Solver.CreateSolver("GLOP")
    x = {(r, c): lp.NumVar(0, 1, "") for r in range(n) for c in range(n)}

    def meet(a, b):
        return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])

    for cell in x:
        lp.Add(sum(x[o] for o in x if meet(cell, o)) >= 1)
    if independent:  # each line holds at most one queen
        for key in (lambda c: c[0], lambda c: c[1], lambda c: c[0] + c[1], lambda c: c[0] - c[1]):
            for value in {key(c) for c in x}:
                lp.Add(sum(x[c] for c in x if key(c) == value) <= 1)
    lp.Minimize(sum(x.values()))
    assert lp.Solve() == pywraplp.Solver.OPTIMAL
    return lp.Objective().Value()


class Until(Deadline):
    """A deadline that passes when the test says so: no wall clock involved."""

    def __init__(self):
        super().__init__(3600)
        self.over = False

    def passed(self):
        return self.over

    def left(self):
        return 0.0 if self.over else 3600.0


def stopped_after(steps, n):
    """The peaceable armies on n x n, the run stopped once ``steps`` ladder steps have ended."""
    from cpqueens.backends.bitmask import pairs

    clock = Until()
    clock.over = steps == 0
    inner = pairs._here(clock)
    ended = []

    def run(*args, **kwargs):
        out = inner(*args, **kwargs)
        ended.append(out)
        clock.over = len(ended) >= steps
        return out

    return pairs.optimise(CellProblem(CellBoard(n, n), armies=2), deadline=clock, run=run)


@pytest.mark.parametrize("n", [9, 13])
def test_a_peaceable_run_stopped_before_any_proof_reports_the_rows_and_columns_bound(n):
    result = stopped_after(0, n)
    assert result.status == "feasible"
    assert result.bound == rows_and_columns(n) == n * n // 4 >= A250000[n - 1]
    assert result.bound == {9: 20, 13: 42}[n]  # not the 47 once reported for n = 13


def test_the_ladder_lowers_the_bound_from_the_top_one_step_at_a_time():
    # A250000(9) = 12: the first step refutes 20 (the rows and columns' bound itself),
    # the second 18 (the leap doubled), the third 15 (halfway between 12 and 17, rounded up)
    results = [stopped_after(k, 9) for k in (1, 2, 3)]
    assert [result.bound for result in results] == [19, 17, 14]
    board = Board(9, 9)
    for result in results:  # the search's own armies (12, optimal): checked here
        assert result.value == A250000[8] <= result.bound
        white = [(r, c) for r, c, army in result.pieces if army == 0]
        black = [(r, c) for r, c, army in result.pieces if army == 1]
        assert len(set(white)) == len(set(black)) == result.value
        assert all(board.independent([w, b]) for w in white for b in black)


@pytest.mark.parametrize("independent", [False, True])
def test_a_stopped_domination_reports_the_theorem_which_beats_the_covering_lp(independent):
    # 15 x 15: the proof that 8 queens do not cover it takes a minute, so 0.5 s stops it
    result = cpqueens.domination(15, time_limit=0.5, independent=independent)
    assert result.status == "feasible"
    lp = covering_lp(15, independent)
    assert math.ceil(lp - 1e-6) < 8 == result.bound <= A075458[14] <= result.value
    board = Board(15, 15)
    cells = [(q[0], q[1]) for q in result.queens]
    assert len(cells) == result.value and board.dominating(cells)
    assert board.independent(cells) or not independent
