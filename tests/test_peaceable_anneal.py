"""Peaceable armies by annealing line labels: Ainley's sizes, checked by an independent oracle."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cpqueens.backends.bitmask import anneal, lines
from cpqueens.vocabulary.cells import CellBoard, CellProblem
from tests.oracle_cells import Board, attacks
from tests.processes import OUTSIDE

ROOT = Path(__file__).resolve().parent.parent
#: Stephen Ainley's armies (1977), n = 14..20; n = 14 and 15 are A250000's proved values.
AINLEY = {14: 28, 15: 32, 16: 37, 17: 42, 18: 47, 19: 52, 20: 58}


def problem(rows, cols, blocked=(), **board):
    return CellProblem(CellBoard(rows, cols, tuple(blocked), **board), armies=2)


def anneal_runs(
    cells: CellProblem, runs: int, moves: int | None = None, enough: int | None = None
) -> tuple[int, list, list]:
    """The best armies of the first ``runs`` runs (or until ``enough``): (value, white, black)."""
    s = lines.structure(cells)
    search = anneal.Anneal(lines._shared(s, True, True), seconds=3600.0, moves=moves)
    search.budget = 1 << 40  # a run in one slice
    for _ in range(runs):
        search.run(search.value)
        if enough is not None and search.value >= enough:
            break
    white, black = lines.armies(s, search.best_label)
    return search.value, white, black


def peaceful(white, black, rows, cols, **kinds) -> bool:
    """No piece of one army on or attacking a piece of the other (the oracle's relation)."""
    return not any(w == b or attacks(w, b, rows, cols, **kinds) for w in white for b in black)


def test_one_run_reaches_a250000_of_8_and_the_armies_keep_the_peace():
    value, white, black = anneal_runs(problem(8, 8), runs=1)
    assert value == min(len(white), len(black)) == 9  # A250000(8), proved
    assert peaceful(white, black, 8, 8)


@pytest.mark.slow
def test_at_most_three_runs_reach_ainleys_armies_for_14_to_20():
    for n, size in AINLEY.items():
        value, white, black = anneal_runs(problem(n, n), runs=3, enough=size)
        assert value == min(len(white), len(black)) == size, n
        assert peaceful(white, black, n, n), n


def boards(count, seed=39):
    """Small random boards with holes: (rows, cols, blocked, attack, toroidal)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        rows, cols = rng.randint(2, 4), rng.randint(2, 4)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        blocked = rng.sample(cells, rng.randint(0, len(cells) // 3))
        attack = rng.choice(["queen", "queen", "rook"])
        found.append((rows, cols, tuple(blocked), attack, rng.random() < 0.25))
    return found


@pytest.mark.parametrize(("rows", "cols", "blocked", "attack", "toroidal"), boards(12))
def test_annealing_finds_the_oracles_optimum_on_small_boards(rows, cols, blocked, attack, toroidal):
    best, _ = Board(rows, cols, blocked, attack=attack, toroidal=toroidal).peaceable()
    cells = problem(rows, cols, blocked, attack=attack, toroidal=toroidal)
    value, white, black = anneal_runs(cells, runs=2, moves=20_000)
    assert value == best
    assert min(len(white), len(black)) == best
    assert peaceful(white, black, rows, cols, attack=attack, toroidal=toroidal)
    assert not (set(white) | set(black)) & set(blocked)


def test_the_seeds_are_fixed_and_nonzero():
    assert [anneal.seed(i) for i in range(3)] == [anneal.seed(i) for i in range(3)]
    assert len({anneal.seed(i) for i in range(1000)}) == 1000
    assert all(anneal.seed(i) != 0 and -(2**63) <= anneal.seed(i) < 2**63 for i in range(1000))


@pytest.mark.slow
def test_a_time_limit_on_14_reports_feasible_armies_with_a_true_bound():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "cpqueens",
            "optimize",
            "peaceable",
            "14",
            "--time-limit=3",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        env=env,
        timeout=120,
    )
    assert result.returncode == 1  # feasible: not proved
    answer = json.loads(result.stdout)
    assert answer["status"] == "feasible"
    assert answer["value"] <= 28 <= answer["bound"]  # A250000(14) = 28
    white = [tuple(q[:2]) for q in answer["queens"] if q[2] == 0]
    black = [tuple(q[:2]) for q in answer["queens"] if q[2] == 1]
    assert len(white) == len(black) == answer["value"]
    assert peaceful(white, black, 14, 14)
    assert "the time limit of 3 s ended the search before a proof" in result.stderr
