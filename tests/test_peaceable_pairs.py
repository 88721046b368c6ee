"""Peaceable queens on a free square board by rows and columns first: exact, in parts, resumable.

Every answer is checked against the definition here (no white queen attacks
a black one), the values against OEIS A250000, a brute force over every white
army (n <= 6), CP-SAT (n <= 7) and the line search of any board; the parts
against each other (each one's best is exact) and a checkpoint's claims
against the board.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

import cpqueens
from cpqueens.backends.bitmask import lines as cells_lines
from cpqueens.backends.bitmask import pairs
from cpqueens.backends.cpsat import cells as cells_cpsat
from cpqueens.errors import CheckpointError, InvalidSolutionError
from cpqueens.tasks.parts import Runner
from cpqueens.vocabulary.cells import CellBoard, CellProblem
from tests.oracle_cells import Board

A250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24]  # n = 1..13


def problem(n):
    return CellProblem(CellBoard(n, n), armies=2)


def keep_the_peace(n, pieces):
    """The armies of ``pieces`` by the oracle's own attack relation: (white, black), checked."""
    white = [(r, c) for r, c, a in pieces if a == 0]
    black = [(r, c) for r, c, a in pieces if a == 1]
    oracle = Board(n, n)
    assert len(set(white) | set(black)) == len(white) + len(black)
    assert not any(b in oracle.hit[w] for w in white for b in black)
    return white, black


@pytest.mark.parametrize(
    ("symmetry", "sizes"),
    [
        (True, range(1, 11)),
        (False, range(1, 10)),
        pytest.param(True, range(11, 13), marks=pytest.mark.slow),  # 13: test_peaceable_cli
    ],
)
def test_the_pairs_search_proves_a250000_with_and_without_symmetry(symmetry, sizes):
    for n in sizes:
        expected = A250000[n - 1]
        result = pairs.optimise(problem(n), symmetry=symmetry)
        assert (result.status, result.value, result.bound) == ("optimal", expected, expected)
        white, black = keep_the_peace(n, result.pieces)
        assert len(white) == len(black) == expected


@pytest.mark.parametrize("sizes", [range(1, 6)])  # n = 6: 14 s, in the peaceable benches
def test_the_brute_force_over_every_white_army_agrees(sizes):
    for n in sizes:
        best, _ = Board(n, n).peaceable()
        assert pairs.optimise(problem(n)).value == best == A250000[n - 1]


@pytest.mark.parametrize("sizes", [range(1, 6), pytest.param(range(6, 8), marks=pytest.mark.slow)])
def test_cp_sat_and_the_line_search_agree(sizes):
    for n in sizes:
        ours = pairs.optimise(problem(n)).value
        assert ours == cells_cpsat.optimise(problem(n), "maximize").value
        assert ours == cells_lines.optimise(problem(n)).value


def test_the_decision_finds_armies_of_the_optimum_and_refutes_one_more():
    here = pairs._here(None)
    for n in range(3, 10):
        best = A250000[n - 1]
        found = pairs.above(n, best - 1, here, first=True)
        value, white, black = pairs.witness(found, n)
        assert value >= best and pairs.peaceable(n, white, black)
        assert pairs.above(n, best, here) == 0  # none larger: the proof


def test_each_part_gives_its_own_best_and_the_largest_is_the_optimum():
    for n in (6, 7):
        parts = pairs.plan(n, -1)
        assert len(parts) == len(pairs.tables(n)[0])  # one part per row set: 8 bits or fewer
        values = [pairs.search_part(p.n, p.floor, p.index, p.of, p.symmetry) for p in parts]
        bests = [pairs.witness(code, n)[0] for code in values if code]
        assert max(bests) == A250000[n - 1]
        assert all(p.admits(code, n) for p, code in zip(parts, values, strict=True))


def test_the_armies_of_labels_keep_the_peace_and_the_plain_check_catches_an_attack():
    value, rows, cols, sums = pairs.decode(pairs.search_part(6, -1, 0, 1, True), 6)
    white, black = pairs.armies(6, rows, cols, sums)
    assert value == min(len(white), len(black)) == 5  # A250000(6)
    keep_the_peace(6, [*((*w, 0) for w in white), *((*b, 1) for b in black)])
    assert pairs.peaceable(6, white, black)
    assert not pairs.peaceable(6, [*white, black[0]], black)  # a cell in both armies
    assert not pairs.peaceable(6, [(0, 0)], [(5, 5)])  # one diagonal
    assert not pairs.peaceable(6, [(0, 0)], [(6, 6)])  # off the board
    with pytest.raises(InvalidSolutionError, match="do not give peaceable armies of 6"):
        pairs.witness(pairs.encode(6, rows, cols, sums, 6), 6)


def test_a_checkpoint_records_every_part_and_a_second_run_resumes_from_it(tmp_path):
    path = tmp_path / "p9.json"
    assert pairs.above(9, 12, Runner(9, checkpoint=path)) == 0  # A250000(9) = 12
    saved = json.loads(path.read_text())
    assert saved["backend"] == "bitmask: peaceable armies larger than 12, by rows and columns"
    assert saved["subproblems"] == len(saved["done"]) == len(pairs.plan(9, 12))
    assert pairs.above(9, 12, Runner(9, checkpoint=path)) == 0
    assert json.loads(path.read_text()) == saved
    with pytest.raises(CheckpointError, match="larger than 11"):  # another floor: refused
        pairs.above(9, 11, Runner(9, checkpoint=path))


def test_a_checkpoint_that_claims_armies_it_does_not_hold_is_refused(tmp_path):
    from cpqueens.execution.checkpoint import content_digest

    path = tmp_path / "p7.json"
    pairs.above(7, 7, Runner(7, checkpoint=path))
    saved = json.loads(path.read_text())
    claim = pairs.encode(8, 0b0000111, 0b0000111, 0b0000000011111, 7)  # no 8 each on 7 x 7
    saved["done"][0][1] = claim
    saved.pop("sha256")
    saved["sha256"] = content_digest(saved)
    path.write_text(json.dumps(saved))
    with pytest.raises(CheckpointError, match="peaceable armies larger than 7"):
        pairs.above(7, 7, Runner(7, checkpoint=path))


def test_the_parts_run_on_any_executor_and_the_verb_takes_a_checkpoint(tmp_path):
    with ThreadPoolExecutor(2) as pool:
        assert pairs.above(8, 9, Runner(8, executor=pool)) == 0  # A250000(8) = 9
    result = cpqueens.peaceable(8, checkpoint=tmp_path / "p8.json")
    assert (result.value, result.status) == (9, "optimal")
    keep_the_peace(8, result.queens)
    assert json.loads((tmp_path / "p8.json").read_text())["subproblems"] == len(pairs.plan(8, 9))


@pytest.mark.slow
def test_a_generous_time_limit_runs_the_ladder_down_to_the_proof():
    seen = []
    result = cpqueens.peaceable(11, time_limit=600, progress=lambda *found: seen.append(found))
    assert (result.value, result.status, result.bound) == (17, "optimal", 17)
    keep_the_peace(11, result.queens)
    assert seen[0][:2] == (17, 30)  # the search's armies, and the rows and columns' bound


def test_other_boards_keep_the_line_search():
    for board in (CellBoard(6, 7), CellBoard(6, 6, ((0, 0),)), CellBoard(6, 6, toroidal=True)):
        assert not pairs.applies(CellProblem(board, armies=2))
    assert not pairs.applies(CellProblem(CellBoard(pairs.MOST + 1, pairs.MOST + 1), armies=2))
    assert not pairs.applies(CellProblem(CellBoard(6, 6, attack="rook"), armies=2))
    assert pairs.applies(problem(6)) and not pairs.runs_parts(problem(6), "minimize")
