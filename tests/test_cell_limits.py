"""Bad input on the cell surfaces ends in an answer or one clean line, soon (issue 34).

Each case once made a search run past its limit or a process grow by
gigabytes; each now answers at once or is refused at once naming the value.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cpqueens
from cpqueens.vocabulary.cells import CellBoard, CellProblem
from tests.oracle_cells import Board

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: cpqueens.cells(10**9).maximize(time_limit=3), "got 1,000,000,000 x 1,000,000,000"),
        (lambda: cpqueens.cells(3000).count(queens=2, time_limit=3), "got 3,000 x 3,000"),
        (lambda: cpqueens.domination(300, time_limit=3), "got 300 x 300"),
        (lambda: cpqueens.peaceable(500, time_limit=3), "got 500 x 500"),
    ],
)
def test_a_board_past_10000_cells_is_refused_at_once(call, words):
    start = time.process_time()
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value).startswith("a cell model takes at most 10,000 cells (a 100 x 100")
    assert words in str(caught.value)
    assert time.process_time() - start < 5  # CPU seconds: at once, nothing is allocated


def test_a_statement_too_big_for_cp_sat_is_refused_naming_its_size():
    with pytest.raises(ValueError) as caught:
        cpqueens.domination(100, time_limit=5)
    assert str(caught.value) == (
        "CP-SAT would state this 100x100 cell problem in about 4,023,384 terms, more than the "
        "1,000,000 it states within a time limit and a gigabyte: use a smaller board"
    )


def test_more_queens_than_free_cells_count_zero_at_once():
    assert cpqueens.cells(8).count(queens=10**9) == 0
    assert cpqueens.cells(8).count(queens=65, backend="cpsat") == 0
    assert list(cpqueens.cells(3, armies=2).solutions(queens=5)) == []
    assert cpqueens.cells(3, armies=2).count(queens=4) == 0  # 8 pieces on 9 cells: none peaceable


def test_region_numbers_far_past_the_count_are_refused_without_listing_them():
    with pytest.raises(ValueError) as caught:
        cpqueens.cells(4, regions=[[0, 1, 2, 10**9]] * 4, per_region=1)
    assert str(caught.value) == (
        "regions must be numbered 0 to 1000000000 with every number used: "
        "region(s) [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ...] have no cell"
    )


@pytest.mark.parametrize("backend", ["python-constraint", "cpsat"])
def test_a_board_with_every_cell_blocked_has_the_empty_solution(backend):
    holes = [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert cpqueens.cells(1, 1, [(0, 0)]).count(queens=0, backend=backend) == 1
    for verb in ("maximize", "minimize"):
        result = getattr(cpqueens.cells(2, 2, holes), verb)(backend=backend)
        assert (result.value, result.status, result.bound) == (0, "optimal", 0)


def test_python_constraint_optimises_random_holed_boards_like_the_oracle():
    import random

    rng = random.Random(9)
    for _ in range(12):
        rows, cols = rng.randint(1, 3), rng.randint(1, 3)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        blocked = rng.sample(cells, rng.randint(0, len(cells)))
        oracle = Board(rows, cols, blocked)
        free = len(cells) - len(blocked)
        most = max(k for k in range(free + 1) if oracle.sets(k))
        result = cpqueens.cells(rows, cols, blocked).maximize(backend="python-constraint")
        assert (result.value, result.status) == (most, "optimal")


@pytest.mark.slow
def test_peaceable_100_ends_near_its_limit_with_true_armies():
    result = cpqueens.peaceable(100, time_limit=2)  # no proof in 2 s: the limit ended it
    assert result.status == "feasible" and result.value <= result.bound <= 100 * 100 // 2
    problem = CellProblem(CellBoard(100, 100), armies=2)
    assert problem.check(tuple(result.queens)) is None  # the armies are peaceable


def test_the_cli_refuses_columns_that_contradict_the_board_file(tmp_path):
    (tmp_path / "grid.txt").write_text("....\n.#..\n....\n....\n")
    result = subprocess.run(
        [sys.executable, "-m", "cpqueens", "optimize", "independence", "--board", "grid.txt",
         "--columns", "2"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "cpqueens: error: --columns is 2 but the board in 'grid.txt' has 4 columns: "
        "leave --columns out with --board\n"
    )
