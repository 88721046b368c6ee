"""The Queens game in the Model vocabulary: regions, no touching, rooks, against an oracle.

Every engine's counts, solutions, first/exists/find and unique classes are
checked against ``tests/oracle_regions.py`` (brute force over permutations),
on random region grids with 0, 1 and 2+ solutions, with and without
diagonals, blocked cells, placed queens and ``where`` conditions.
"""

from __future__ import annotations

import random
from itertools import pairwise
from math import factorial

import pytest

import cpqueens
from cpqueens import Puzzle
from cpqueens.vocabulary.constraints import NoTouch, Regions
from tests import internals
from tests import oracle_regions as oracle

ENGINES = ("auto", "bitmask", "cpsat", "python-constraint")


def _cases() -> list[tuple[int, bool, int, list[list[int]]]]:
    """(n, diagonals, seed, grid) for the first random grids with 0, 1 and 2+ solutions."""
    found = []
    for n in (5, 6):
        for diagonals in (True, False):
            wanted = {0, 1, 2}
            for seed in range(200):
                grid = oracle.random_grid(n, random.Random(seed))
                size = min(len(oracle.solutions(n, grid, diagonals=diagonals, no_touch=True)), 2)
                if size in wanted:
                    wanted.discard(size)
                    found.append((n, diagonals, seed, grid))
                if not wanted:
                    break
            assert not wanted, (n, diagonals, wanted)
    return found


CASES = _cases()


def _givens(n: int, grid: list[list[int]], diagonals: bool) -> tuple[list, list]:
    """A blocked cell and a placed queen that leave the grid with a solution, if it has one."""
    found = oracle.solutions(n, grid, diagonals=diagonals, no_touch=True)
    if not found:
        return [(0, 0)], [(n - 1, n - 1)]
    cols = found[-1]
    placed = [(1, cols[1])]
    blocked = [(0, (cols[0] + 1) % n)]
    return blocked, placed


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("n", "diagonals", "seed", "grid"), CASES)
def test_counts_match_the_oracle(engine, n, diagonals, seed, grid):
    m = cpqueens.model(n, regions=grid, no_touch=True, diagonals=diagonals)
    expected = oracle.solutions(n, grid, diagonals=diagonals, no_touch=True)
    assert m.count(engine) == len(expected)
    assert [s.columns for s in m.solutions(engine)] == expected
    assert m.exists(engine) == bool(expected)
    first = m.first(engine)
    assert (first.columns if first else None) == (expected[0] if expected else None)
    blocked, placed = _givens(n, grid, diagonals)
    narrowed = cpqueens.model(
        n, blocked, placed=placed, regions=grid, no_touch=True, diagonals=diagonals
    )
    assert narrowed.count(engine) == len(
        oracle.solutions(
            n, grid, diagonals=diagonals, no_touch=True, blocked=blocked, placed=placed
        )
    )


@pytest.mark.parametrize(("n", "diagonals", "seed", "grid"), CASES)
def test_the_rules_alone_and_where(n, diagonals, seed, grid):
    """Regions without no-touch, no-touch without regions, and a where condition on top."""
    for regions, no_touch in ((grid, False), (None, True)):
        m = cpqueens.model(n, regions=regions, no_touch=no_touch, diagonals=diagonals)
        expected = oracle.solutions(n, regions, diagonals=diagonals, no_touch=no_touch)
        assert m.cross_check() == len(expected)
    m = cpqueens.model(n, regions=grid, no_touch=True, diagonals=diagonals)
    narrowed = m.where(m.q[0] < m.q[n - 1])
    expected = oracle.solutions(
        n, grid, diagonals=diagonals, no_touch=True, where=lambda cols: cols[0] < cols[-1]
    )
    assert narrowed.cross_check() == len(expected)
    assert [s.columns for s in narrowed.solutions()] == expected


@pytest.mark.parametrize("engine", ENGINES)
def test_rooks_count_n_factorial(engine):
    for n in range(1, 7):
        assert cpqueens.model(n, diagonals=False).count(engine) == factorial(n)
    blocked = [(0, 0), (1, 1), (2, 3), (4, 0)]
    m = cpqueens.model(6, blocked, placed=[(3, 2)], diagonals=False)
    expected = oracle.solutions(6, diagonals=False, blocked=blocked, placed=[(3, 2)])
    assert m.count(engine) == len(expected) == 50
    assert [s.columns for s in m.solutions(engine)] == expected


def test_rooks_up_to_symmetry_are_oeis_a000903():
    # A000903: inequivalent ways of placing n non-attacking rooks on an n x n board.
    for n, classes in zip(range(1, 8), (1, 1, 2, 7, 23, 115, 694), strict=True):
        m = cpqueens.model(n, diagonals=False)
        assert m.count(unique=True) == classes
    assert cpqueens.model(6, diagonals=False).count("cpsat", unique=True) == 115
    assert cpqueens.model(5, diagonals=False).count("python-constraint", unique=True) == 23


def _symmetric_case(name: str, diagonals: bool) -> tuple[int, list[list[int]], bool, list]:
    """A grid the symmetry ``name`` keeps with 2+ solutions (with no-touch if it leaves 2+)."""
    fallback = None
    for n in (8, 5) if diagonals else (6,):  # random symmetric grids leave 6-queens nothing
        base = oracle.solutions(n, diagonals=diagonals)
        for seed in range(200):
            grid = oracle.symmetric_grid(n, random.Random(seed), name)
            found = [cols for cols in base if len({grid[r][c] for r, c in enumerate(cols)}) == n]
            apart = [cols for cols in found if all(abs(a - b) > 1 for a, b in pairwise(cols))]
            if len(apart) >= 2:
                return n, grid, True, apart
            if fallback is None and len(found) >= 2:
                fallback = (n, grid, False, found)
    assert fallback is not None
    return fallback


@pytest.mark.parametrize("name", ["rot180", "mirror", "diagonal", "rot90"])
@pytest.mark.parametrize("diagonals", [True, False])
def test_unique_on_symmetric_regions(name, diagonals):
    n, grid, no_touch, found = _symmetric_case(name, diagonals)
    m = cpqueens.model(n, regions=grid, no_touch=no_touch, diagonals=diagonals)
    names = oracle.group(n, grid)
    assert name in names
    assert set(m.symmetries()) == set(names)
    expected = oracle.classes(n, found, names)
    assert expected < len(found)  # the symmetry merges solutions
    for engine in ENGINES:
        assert m.count(engine) == len(found), engine
        assert m.count(engine, unique=True) == expected, engine
    assert len(list(m.solutions(unique=True))) == expected


def test_rows_as_regions_keep_the_row_symmetries():
    grid = [[r] * 6 for r in range(6)]
    m = cpqueens.model(6, regions=grid)
    assert m.symmetries() == ("identity", "rot180", "mirror", "flip")
    assert m.count() == 4
    found = oracle.solutions(6, grid)
    assert m.count(unique=True) == oracle.classes(6, found, m.symmetries()) == 2


@pytest.mark.parametrize("no_touch", [False, True])
def test_colours_and_regions(no_touch):
    grid = oracle.random_grid(5, random.Random(4))
    m = cpqueens.model(5, colours=2, regions=grid, diagonals=False, no_touch=no_touch)
    single = oracle.solutions(5, grid, diagonals=False, no_touch=no_touch)
    expected = sum(
        1 for a in single for b in single if all(x != y for x, y in zip(a, b, strict=True))
    )
    assert m.cross_check() == expected == (6 if no_touch else 296)
    assert "Python DFS" in m.engine(path=True)


def puzzles():
    return [
        Puzzle.parse("AAACC\nBAACC\nAACCC\nADCCE\nDDDDE"),
        Puzzle.parse("diagonals\nAABBB\nAABCB\nDDBCC\nDEECC\nDEEEC"),
        Puzzle(6, tuple(map(tuple, oracle.random_grid(6, random.Random(11)))), blocked=((0, 1),)),
        Puzzle(6, tuple(map(tuple, oracle.random_grid(6, random.Random(5)))), queens=((2, 2),)),
    ]


@pytest.mark.parametrize("puzzle", puzzles(), ids=str)
def test_the_model_of_a_puzzle_agrees_with_the_puzzle(puzzle):
    m = cpqueens.model(puzzle)
    assert m.count() == puzzle.count() == m.cross_check()
    assert [s.columns for s in m.solutions()] == sorted(
        tuple(c for _, c in sorted(cells)) for cells in puzzle.solutions()
    )
    if puzzle.count():
        found = m.find()
        assert found is not None
        assert tuple(sorted(enumerate(found.columns))) in {
            tuple(sorted(cells)) for cells in puzzle.solutions()
        }
    else:
        assert m.find() is None


def test_the_compiled_regions_kernel_answers_one_colour():
    puzzle = puzzles()[0]
    m = cpqueens.model(puzzle)
    assert m.engine(path=True) == "bitmask: one search, by the compiled regions kernel"
    plan = internals.plan(m)
    assert internals.regions_grid(plan) == puzzle.regions
    assert internals.count("bitmask", m) == 1 and internals.decides("bitmask", m)
    assert internals.first("bitmask", m, None, True) == ((2, 0, 3, 1, 4),)
    # rooks without no-touch could touch: the kernel (which forbids it) is not used
    rooks = cpqueens.model(5, regions=puzzle.regions, diagonals=False)
    assert internals.regions_grid(internals.plan(rooks)) is None
    assert rooks.count() == len(oracle.solutions(5, puzzle.regions, diagonals=False))
    # queens forbid touching anyway: the kernel answers without NoTouch
    queens = cpqueens.model(5, regions=puzzle.regions)
    assert internals.regions_grid(internals.plan(queens)) == puzzle.regions
    assert queens.count() == len(oracle.solutions(5, puzzle.regions))
    # a condition on one row narrows that row's cells: the kernel still answers
    assert "regions kernel" in m.where(m.q[0] != 2).engine(path=True)
    assert m.where(m.q[0] != 2).count() == 0
    # one on two rows is checked by the Python DFS, with the rules as conditions
    two = m.where(m.q[0] < m.q[1])
    assert "regions kernel" not in two.engine(path=True)
    assert two.count() == 0 and m.where(m.q[0] > m.q[1]).count() == 1


def test_print_and_constraints():
    m = cpqueens.model(4, regions=[[0, 0, 1, 1], [0, 2, 2, 1], [3, 2, 2, 1], [3, 3, 3, 1]])
    m = cpqueens.model(4, regions=m.statement.regions, no_touch=True, diagonals=False)
    assert str(m).splitlines() == [
        "Model: 4x4 board, 1 colour of 4 queens (no diagonals: rows and columns attack)",
        "  AllDifferent(q0[r] for every row r)",
        "  Regions(one q0 queen per region: AABB/ACCB/DCCB/DDDB)",
        "  NoTouch(no two q0 queens touch)",
    ]
    extra = m.columns().extra
    assert isinstance(extra[0], Regions) and isinstance(extra[1], NoTouch)
    assert NoTouch().violation(((0, 1, 3, 2),), 4) == (
        "NoTouch(no two q0 queens touch) fails: the queens of rows 0 and 1 touch"
    )
    assert "share region 0" in Regions(((0, 1), (0, 1))).violation(((0, 0),), 2)


@pytest.mark.parametrize(
    ("regions", "error", "message"),
    [
        ([[0, 1], [1, 0]], ValueError, "regions must be 3 rows of 3 region numbers"),
        ([[0, 1, 2], [0, 1, 2]], ValueError, "got 2 rows"),
        ([[0, 1, 2], [0, 1], [0, 1, 2]], ValueError, "region numbers: row 1 has 2"),
        ([[0, 1, 2], [0, 1, 3], [0, 1, 2]], ValueError, "regions[1][2] is 3: expected"),
        ([[0, 1, 1], [0, 1, 1], [0, 1, 1]], ValueError, "region number(s) [2] have no cell"),
        ([[0, 1, 2], [0, "a", 2], [0, 1, 2]], TypeError, "regions[1][1] must be an int"),
        ("012", TypeError, "regions must be a grid"),
    ],
)
def test_bad_regions_name_the_value(regions, error, message):
    with pytest.raises(error) as raised:
        cpqueens.model(3, regions=regions)
    assert message in str(raised.value)


def test_bad_options_name_the_value():
    with pytest.raises(TypeError, match="diagonals must be True or False, got 'no'"):
        cpqueens.model(4, diagonals="no")
    with pytest.raises(TypeError, match="no_touch must be True or False, got 1"):
        cpqueens.model(4, no_touch=1)
    with pytest.raises(ValueError, match="toroidal=True wraps the diagonals"):
        cpqueens.model(5, toroidal=True, diagonals=False)
    star = Puzzle.parse("stars 2\n" + "\n".join(["AABBC", "AABBC", "DDEEC", "DDEEC", "DDEEC"]))
    with pytest.raises(ValueError, match="pass regions or a puzzle, not both"):
        cpqueens.model(star, regions=[[0]])
    with pytest.raises(ValueError, match="pass regions or a puzzle, not both"):
        cpqueens.model(puzzles()[0], regions=[[0]])


@pytest.mark.slow
def test_checkpoints_tell_rooks_from_queens(tmp_path):
    path = tmp_path / "rooks.json"
    assert cpqueens.model(6, diagonals=False).count("cpsat", checkpoint=path) == 720
    with pytest.raises(cpqueens.CheckpointError):
        cpqueens.model(6).count("cpsat", checkpoint=path)


def test_rooks_decide_and_find():
    # 3 queens have no solution; 3 rooks have 3!: nothing of the queens' searches may answer
    rooks = cpqueens.model(3, diagonals=False)
    assert not cpqueens.model(3).exists() and rooks.exists()
    assert rooks.first().columns == (0, 1, 2)
    assert rooks.find() is not None and rooks.find("cpsat") is not None
    full = cpqueens.model(5, [(r, c) for r in range(5) for c in range(5) if c > r + 1])
    assert full.count() == 0  # a lower-triangle board holds no 5 queens
    triangle = cpqueens.model(5, full.board.blocked, diagonals=False)
    expected = oracle.solutions(5, diagonals=False, blocked=full.board.blocked)
    assert triangle.count() == len(expected) == 16
    found = triangle.find()
    assert found is not None and found.columns in expected


def test_export_states_the_rules():
    cpmpy = pytest.importorskip("cpmpy")
    assert cpmpy is not None
    m = cpqueens.model(puzzles()[0])
    exported, _ = m.to_cpmpy()
    assert exported.solveAll() == m.count() == 1
    rooks = cpqueens.model(5, diagonals=False, regions=puzzles()[0].regions)
    exported, _ = rooks.to_cpmpy()
    assert (
        exported.solveAll()
        == rooks.count()
        == len(oracle.solutions(5, puzzles()[0].regions, diagonals=False))
    )


@pytest.mark.parametrize("engine", ["bitmask", "cpsat"])
def test_one_search_resumes_from_its_checkpoint(tmp_path, engine):
    m = cpqueens.model(puzzles()[0])
    path = tmp_path / "queens.json"
    assert m.count(engine, checkpoint=path, progress=False) == 1
    assert m.count(engine, checkpoint=path, progress=False) == 1  # read back: nothing left
    assert m.engine(engine, path=True).startswith(f"{engine}: one search")
