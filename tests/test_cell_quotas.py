"""Quotas on cell models: k pieces per row, column and region (Star Battle, issue 23).

Every count is checked against the brute-force oracle (``tests/oracle_cells.py``,
itertools products and subsets) and between CP-SAT and python-constraint;
Star Battle puzzles against ``cpqueens.Puzzle``'s own engines.
"""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import pytest

import cpqueens
from cpqueens.backends.bitmask import cells as cells_bitmask
from cpqueens.vocabulary.cells import CellBoard, CellProblem
from tests.oracle_cells import Board, quota_classes, quota_sets
from tests.test_puzzles import oracle as oracle_puzzle

PC = "python-constraint"
ROOT = Path(__file__).resolve().parent.parent


def random_regions(rng, rows, cols, number):
    """A grid of ``number`` regions (not necessarily connected), every number used."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)
    grid = [[0] * cols for _ in range(rows)]
    for i, (r, c) in enumerate(cells):
        grid[r][c] = i if i < number else rng.randrange(number)
    return grid


def random_case(seed):
    """A small board with blocked cells, an attack and quotas (some with no solution)."""
    rng = random.Random(seed)
    n = rng.choice((4, 4, 5, 5, 6))
    attack = rng.choice(("queen", "rook", "king"))
    blocked = sorted({(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randrange(3))})
    k = rng.choice((0, 1, 1, 2)) if n <= 5 else 1
    shape = rng.choice(("rows", "rows+columns", "regions", "all", "columns+regions"))
    options = {"per_row": k} if "rows" in shape or shape == "all" else {}
    if "columns" in shape or shape == "all":
        options["per_column"] = k
    if "regions" in shape or shape == "all":
        options["regions"] = random_regions(rng, n, n, n)
        options["per_region"] = k
    if shape == "regions" and n == 4:  # regions alone: any number of them, 1 piece each
        options["regions"] = random_regions(rng, n, n, rng.choice((2, 3, 5)))
        options["per_region"] = 1
    independent = n > 4 or rng.random() < 0.6
    return n, attack, blocked, independent, options


SEEDS = range(40)


def oracle(n, attack, blocked, independent, options):
    board = Board(n, n, blocked, attack=attack)
    return board, quota_sets(board, independent=independent, **options)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_boards_with_quotas_agree_with_the_oracle(seed):
    n, attack, blocked, independent, options = random_case(seed)
    board, expected = oracle(n, attack, blocked, independent, options)
    model = cpqueens.cells(n, blocked=blocked, attack=attack, independent=independent, **options)
    assert model.count(backend="cpsat") == len(expected)
    assert model.count(backend=PC) == len(expected)
    assert model.count() == len(expected)  # auto: the compiled counter says no, CP-SAT counts
    for backend in ("cpsat", PC):
        found = {tuple((r, c) for r, c, _ in s) for s in model.solutions(backend=backend)}
        assert found == set(expected)
    quotas = {k: options.get(k) for k in ("per_row", "per_column", "regions")}
    one_per_line = attack != "king" and independent and options.get("per_region") in (None, 1)
    if one_per_line and (quotas["per_row"], quotas["per_column"]) in ((1, None), (None, 1)):
        # n queens or rooks, one per row, are one per column too: the same statement
        quotas["per_row"] = quotas["per_column"] = 1
    classes = quota_classes(board, expected, **quotas)
    assert model.count(unique=True) == classes
    if len(expected) >= 2:
        assert model.cross_check() == len(expected)


RECTANGLES = [
    (3, 5, "king", {"per_column": 1}),
    (4, 6, "rook", {"per_row": 3, "per_column": 2, "independent": False}),
    (
        4,
        5,
        "queen",
        {"per_row": 1, "regions": [[0, 0, 1, 1, 1]] * 2 + [[2, 2, 3, 3, 3]] * 2, "per_region": 1},
    ),
    (
        5,
        3,
        "king",
        {"regions": [[0, 0, 1], [0, 2, 1], [2, 2, 1], [3, 3, 3], [3, 4, 4]], "per_region": 1},
    ),
]


@pytest.mark.parametrize(("rows", "cols", "attack", "options"), RECTANGLES)
@pytest.mark.slow
def test_rectangular_boards_with_quotas_agree_with_the_oracle(rows, cols, attack, options):
    board = Board(rows, cols, attack=attack)
    expected = quota_sets(board, **options)
    model = cpqueens.cells(rows, cols, attack=attack, **options)
    assert len(expected) > 0
    assert model.cross_check() == len(expected)
    found = {tuple((r, c) for r, c, _ in s) for s in model.solutions(backend=PC)}
    assert found == set(expected)
    lines = {k: options.get(k) for k in ("per_row", "per_column", "regions")}
    assert model.count(unique=True) == quota_classes(board, expected, **lines)


@pytest.mark.slow
def test_the_random_cases_include_none_one_and_several_solutions():
    counts = [len(oracle(*random_case(seed))[1]) for seed in SEEDS]
    assert 0 in counts and 1 in counts and max(counts) >= 5


@pytest.mark.parametrize("n", range(1, 7))
def test_n_rooks_one_per_row_and_column_count_n_factorial(n):
    model = cpqueens.cells(n, attack="rook", per_row=1, per_column=1)
    assert model.count(queens=n) == math.factorial(n)
    if n <= 5:
        assert model.count(queens=n, backend=PC) == math.factorial(n)


@pytest.mark.slow
def test_eight_queens_as_one_per_row():
    model = cpqueens.cells(8, per_row=1)
    assert model.count(queens=8) == 92
    assert model.count() == 92  # the quotas fix the size
    assert model.count(queens=8, backend=PC) == 92  # asked by name: any size
    assert model.cross_check(queens=8) == 92  # one queen per row: every engine states it by rows
    # the same 92 as the one-queen-per-row model, solution by solution
    mine = {tuple(c for _, c, _ in s) for s in model.solutions()}
    assert mine == {s.columns for s in cpqueens.model(8).solutions()}
    # eight queens on eight rows are on eight columns too: the classic statement, all
    # 8 symmetries (A002562's 12); kings with a row quota alone keep 4 (no quarter turn)
    assert model.count(unique=True) == cpqueens.model(8).count(unique=True) == 12
    kings = cpqueens.cells(4, attack="king", per_row=1)
    assert kings.symmetries() == ("identity", "rot180", "mirror", "flip")
    with pytest.raises(cpqueens.NotSupportedError) as left_out:
        cpqueens.cells(8, attack="king", per_row=2).cross_check()  # 64 cells, rows too many
    assert "python-constraint" in str(left_out.value)


def test_the_queens_game_and_star_battle_symmetries():
    # the four 2x2 quarters of a 4x4 board: every board symmetry maps them onto quarters
    quarters = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]
    model = cpqueens.cells(4, per_row=1, per_column=1, regions=quarters, per_region=1)
    assert len(model.lowered().symmetries) == 8
    # one queen per row is one per column too: the same statement, the same 8 symmetries
    same = cpqueens.cells(4, per_row=1, regions=quarters, per_region=1)
    assert same.symmetries() == model.symmetries() and len(same.symmetries()) == 8
    kings = cpqueens.cells(4, per_row=1, attack="king", regions=quarters, per_region=1)
    names = [name for name, _ in kings.lowered().symmetries]
    assert names == ["identity", "rot180", "mirror", "flip"]  # kings: columns unstated
    stripes = [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]
    banded = cpqueens.cells(4, per_row=1, per_column=1, regions=stripes, per_region=1)
    names = [name for name, _ in banded.lowered().symmetries]
    assert names == ["identity", "rot180", "mirror", "flip"]
    lopsided = [[0, 0, 1, 1], [0, 1, 1, 1], [2, 2, 2, 3], [2, 2, 3, 3]]  # a half turn only
    alone = cpqueens.cells(4, per_row=1, per_column=1, regions=lopsided, per_region=1)
    assert [name for name, _ in alone.lowered().symmetries] == ["identity", "rot180"]


def puzzles(key, count):
    cache = json.loads((ROOT / "benchmarks" / "puzzles_generated.json").read_text())
    return [cpqueens.Puzzle.loads(text) for text in list(cache[key].values())[:count]]


def star_battles():
    """Small Star Battle grids: cached and generated unique ones, and some with several."""
    found = puzzles("7x7, 1 star(s)", 3) + puzzles("8x8, 1 star(s)", 2)
    found += puzzles("10x10, 2 star(s)", 2)
    found += [cpqueens.Puzzle.generate(8, stars=2, seed=seed)[0] for seed in (1, 2)]
    blocks = tuple(tuple(2 * (r // 2) + c // 4 for c in range(8)) for r in range(8))
    found.append(cpqueens.Puzzle(8, blocks, stars=2))  # 2 solutions
    sixes = tuple(tuple(2 * (r // 2) + c // 3 for c in range(6)) for r in range(6))
    found.append(cpqueens.Puzzle(6, sixes, stars=1))  # 70 solutions
    found.append(cpqueens.Puzzle(6, sixes, stars=1, queens=[(0, 0)], blocked=[(2, 2)]))
    found.append(cpqueens.Puzzle(5, ((0,) * 5,) * 4 + ((1, 2, 3, 4, 4),), stars=1))  # none
    diagonal = cpqueens.Puzzle(6, sixes, stars=1, diagonals=True)
    found.append(diagonal)
    return found


@pytest.mark.slow
def test_star_battle_puzzles_count_and_solve_the_same_through_the_one_door():
    counts = []
    for puzzle in star_battles():
        model = cpqueens.model(puzzle)
        expected = puzzle.solutions()
        counts.append(len(expected))
        assert model.count() == len(expected) == puzzle.count(backend="cpsat")
        found = sorted(tuple((r, c) for r, c, _ in s) for s in model.solutions())
        assert found == sorted(expected)
    assert 0 in counts and 1 in counts and 2 in counts and 70 in counts


def test_a_small_star_battle_cross_checks_with_python_constraint():
    sixes = tuple(tuple(2 * (r // 2) + c // 3 for c in range(6)) for r in range(6))
    puzzle = cpqueens.Puzzle(6, sixes, stars=1, blocked=[(1, 1)])
    assert cpqueens.model(puzzle).cross_check() == puzzle.count()
    assert cpqueens.model(puzzle).count(backend=PC) == puzzle.count(backend=PC)


def test_a_star_battle_statement_reads_as_mathematics():
    blocks = tuple(tuple(2 * (r // 2) + c // 4 for c in range(8)) for r in range(8))
    text = str(cpqueens.model(cpqueens.Puzzle(8, blocks, stars=2)))
    assert text.splitlines()[2:] == [
        "  sum x[r,c] over c = 2 for each row r, 0 <= r < 8",
        "  sum x[r,c] over r = 2 for each column c, 0 <= c < 8",
        "  sum x[r,c] over (r,c) in region g = 2 for each region g, 0 <= g < 8",
    ]
    assert text.startswith("8x8 board, king steps; 0/1 variables x[r,c] for each free cell")


def test_the_compiled_counter_declines_quotas_and_auto_takes_cpsat():
    model = cpqueens.cells(5, attack="king", per_row=1)  # kings: no column quota, cells
    assert not cells_bitmask.supports(model.lowered(), 5)
    assert cells_bitmask.supports(cpqueens.cells(5).lowered(), 5)
    with pytest.raises(ValueError, match=re.escape("backend 'bitmask' cannot count this")):
        model.count(queens=5, backend="bitmask")
    with pytest.raises(cpqueens.NotSupportedError, match="without quotas"):
        cells_bitmask.count(model.lowered(), 5)
    assert model.count(queens=5) == model.count("cpsat") == 184  # c[r+1] - c[r] not in -1..1
    # rooks with one per row and column are one per row and column: the bitmask engine counts
    assert cpqueens.cells(5, attack="rook", per_row=1, per_column=1).count("bitmask") == 120


@pytest.mark.parametrize("backend", ["cpsat", PC])
def test_optimising_a_model_with_quotas_gives_the_size_they_fix(backend):
    rooks = cpqueens.cells(4, attack="rook", per_row=1, per_column=1)
    assert rooks.maximize(backend=backend).value == 4
    assert rooks.minimize(backend=backend).value == 4
    touching = cpqueens.cells(3, attack="king", per_row=1, per_column=1)  # no 3x3 solution
    assert touching.maximize(backend=backend).status == "infeasible"


def test_dominating_with_quotas_agrees_with_the_oracle():
    board = Board(4, 4, attack="queen")
    expected = quota_sets(board, per_row=1, independent=False, dominating=True)
    model = cpqueens.cells(4, per_row=1, independent=False, dominating=True)
    assert model.cross_check() == len(expected) > 0


def test_check_names_the_quota_a_placement_breaks():
    problem = cpqueens.cells(4, attack="rook", per_row=1, per_column=1).lowered()
    assert problem.check([(0, 0, 0), (1, 1, 0), (2, 2, 0), (3, 3, 0)]) is None
    assert problem.check([(0, 0, 0), (1, 1, 0), (2, 2, 0)]) == "row 3 holds 0 pieces, expected 1"


BAD = [
    ({"per_row": -1}, ValueError, "per_row must be an int >= 0 or None, got -1"),
    ({"per_column": 1.5}, TypeError, "per_column must be an int >= 0 or None, got 1.5 (float)"),
    ({"per_row": True}, TypeError, "per_row must be an int >= 0 or None, got True (bool)"),
    ({"per_row": 5}, ValueError, "per_row=5 is more than the 4 cells of a row on the 4x4 board"),
    (
        {"per_row": 1, "per_column": 2},
        ValueError,
        "per_row=1 puts 4 pieces on the 4 rows, but per_column=2 puts 8 pieces on the "
        "4 columns: no solution meets both",
    ),
    (
        {"per_row": 1, "attack": "king", "regions": [[0, 0, 1, 1]] * 4, "per_region": 1},
        ValueError,
        "per_row=1 puts 4 pieces on the 4 rows, but per_region=1 puts 2 pieces on the "
        "2 regions: no solution meets both",
    ),
    ({"per_region": 1}, ValueError, "per_region=1 needs regions: a grid of region numbers"),
    (
        {"regions": [[0, 1, 2, 3]] * 3, "per_region": 1},
        ValueError,
        "regions must be 4 rows of 4 region numbers, got 3 rows",
    ),
    (
        {"regions": [[0, 1, 2, 3]] * 3 + [[0, 1, 2]], "per_region": 1},
        ValueError,
        "regions must be 4 rows of 4 region numbers: row 3 has 3",
    ),
    (
        {"regions": [[0, 1, 2, 3]] * 3 + [[0, 1, 2, 5]], "per_region": 1},
        ValueError,
        "regions must be numbered 0 to 5 with every number used: region(s) [4] have no cell",
    ),
    (
        {"regions": [[0, 1, 2, 3]] * 3 + [[0, 1, 2, -3]], "per_region": 1},
        ValueError,
        "regions[3][3] is -3: region numbers are ints >= 0",
    ),
    (
        {"regions": [[0, 1, 2, 3]] * 3 + [[0, 1, 2, "D"]], "per_region": 1},
        TypeError,
        "regions[3][3] must be an int region number, got 'D'",
    ),
    (
        {"regions": "ABCD", "per_region": 1},
        TypeError,
        "regions must be a grid: 4 rows of 4 region numbers (ints), got 'ABCD'",
    ),
    ({"per_row": 1, "armies": 2}, ValueError, "quotas (per_row) need one army, got armies=2"),
]


@pytest.mark.parametrize(("options", "error", "message"), BAD)
def test_bad_quotas_are_refused_by_name(options, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        cpqueens.cells(4, **options)


def test_regions_without_a_quota_take_one_piece_per_region_through_every_door():
    stripes = [[0, 1, 2, 3]] * 4
    assert cpqueens.cells(4, regions=stripes).statement.per_region == 1
    assert cpqueens.model(4, regions=stripes).statement.per_region == 1
    with pytest.raises(ValueError, match=r"^regions need per_region: the number of pieces"):
        CellProblem(CellBoard(4, 4), regions=stripes)


def test_a_queens_count_that_contradicts_the_quotas_is_refused():
    model = cpqueens.cells(8, per_row=1)
    message = (
        "queens=7 contradicts the quotas: per_row=1 on this board means 8 pieces in every solution"
    )
    for verb in (model.count, model.solutions, model.cross_check):
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            verb(queens=7)  # every verb takes backend first and queens by keyword


def test_a_puzzle_with_diagonals_and_two_stars_is_one_statement_on_every_engine():
    # the long diagonals attack (bishops' lines), no two stars touch, 2 per row, column, region
    blocks = tuple(tuple(2 * (r // 2) + c // 4 for c in range(8)) for r in range(8))
    puzzle = cpqueens.Puzzle(8, blocks, stars=2, diagonals=True)
    expected = oracle_puzzle(8, blocks, stars=2, diagonals=True)
    model = cpqueens.model(puzzle)
    assert model.statement.board.attack == "bishop"
    for backend in ("bitmask", "cpsat"):
        assert puzzle.count(backend) == model.count(backend) == len(expected)


def test_quotas_take_part_in_equality_and_hashing():
    board = CellBoard(4, 4, attack="rook")
    a = CellProblem(board, per_row=1, regions=[[0, 0, 1, 1]] * 4, per_region=2)
    b = CellProblem(board, per_row=1, regions=((0, 0, 1, 1),) * 4, per_region=2)
    assert a == b and hash(a) == hash(b) and a.size == 4
    assert a != CellProblem(board, per_row=1)
