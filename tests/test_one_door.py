"""The one door: statements of every vocabulary through ``cpqueens.model``, against brute force.

Classic boards with holes and placed queens, toroidal boards, rooks, the
Queens game, Star Battle, pieces on cells counted by size, maximised and
minimised: each is stated through ``cpqueens.model(...)`` alone, asked a verb
with ``backend="auto"`` and with every engine, and compared with an oracle
that shares no code with cpqueens. An engine that cannot answer raises
``NotSupportedError`` naming one that can; "auto" always answers.
"""

from __future__ import annotations

import random

import pytest

import cpqueens
from cpqueens import NotSupportedError
from tests import oracle, oracle_cells, oracle_regions
from tests.test_puzzles import oracle as puzzle_oracle
from tests.test_puzzles import random_regions

ENGINES = ("auto", "bitmask", "cpsat", "python-constraint")


def answer(verb, engine):
    """``verb(engine)``, or the engine's refusal, which must name an engine that can."""
    try:
        return verb(engine)
    except NotSupportedError as refusal:
        assert engine != "auto", refusal
        message = str(refusal)
        assert "\n" not in message
        assert "use backend '" in message, message
        named = message.rsplit("use backend '", 1)[1].split("'")[0]
        return verb(named)


def each_engine(verb, expected):
    for engine in ENGINES:
        assert answer(verb, engine) == expected, engine


def seeds(start, count, fast=1):
    """``count`` seeds from ``start``, all but the first ``fast`` marked slow."""
    return [
        pytest.param(start + k, marks=() if k < fast else pytest.mark.slow) for k in range(count)
    ]


def random_cells(rng, n, most):
    return sorted({(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randrange(most + 1))})


@pytest.mark.parametrize("seed", seeds(0, 6, fast=2))
def test_classic_boards_with_holes_and_placed_queens(seed):
    rng = random.Random(seed)
    n = rng.choice((5, 6))
    blocked = random_cells(rng, n, 3)
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in blocked]
    placed = [rng.choice(free)] if seed % 2 else []
    m = cpqueens.model(n, blocked, placed=placed)
    expected = [s[0] for s in oracle.solutions(n, blocked, placed)]
    each_engine(lambda e: m.count(e), len(expected))
    each_engine(lambda e: m.count(e, queens=n), len(expected))
    each_engine(lambda e: m.exists(e), bool(expected))
    narrowed = m.where(m.q[0] < m.q[n - 1])
    each_engine(lambda e: narrowed.count(e), sum(1 for s in expected if s[0] < s[n - 1]))
    kept = oracle_regions.group(n, blocked=blocked, placed=placed)
    classes = oracle_regions.classes(n, expected, kept)
    assert m.count(unique=True) == m.count("cpsat", unique=True) == classes
    best = m.maximize()
    assert (best.value, best.status) == ((n, "optimal") if expected else (None, "infeasible"))


@pytest.mark.parametrize(("n", "expected"), [(5, 10), (6, 0), (7, 28)])
def test_toroidal_boards_through_the_one_door(n, expected):  # OEIS A051906
    m = cpqueens.model(n, toroidal=True)
    each_engine(lambda e: m.count(e), expected)


def test_superqueens_through_the_one_door():  # OEIS A051223: n = 10 has 4
    assert cpqueens.model(10, knight=True).count() == 4
    assert cpqueens.model(10, knight=True).count("cpsat") == 4


@pytest.mark.parametrize("seed", seeds(100, 4))
def test_rooks_by_attack_and_by_diagonals_are_one_statement(seed):
    rng = random.Random(seed)
    n = 5
    blocked = random_cells(rng, n, 4)
    expected = oracle_regions.solutions(n, diagonals=False, blocked=blocked)
    by_attack = cpqueens.model(n, blocked, attack="rook")
    assert by_attack == cpqueens.model(n, blocked, diagonals=False)
    each_engine(lambda e: by_attack.count(e), len(expected))
    board = oracle_cells.Board(n, n, blocked, attack="rook")
    cells = cpqueens.model(n, blocked, attack="rook", per_row=None, per_column=None)
    best = max((k for k in range(n + 1) if board.sets(k)), default=0)
    assert cells.maximize().value == best


@pytest.mark.parametrize("seed", seeds(200, 5))
def test_queens_game_puzzles_through_the_one_door(seed):
    rng = random.Random(seed)
    n = rng.choice((6, 7))
    grid = oracle_regions.random_grid(n, rng)
    m = cpqueens.model(n, regions=grid, per_region=1, diagonals=False, no_touch=True)
    expected = oracle_regions.solutions(n, grid, diagonals=False, no_touch=True)
    each_engine(lambda e: m.count(e), len(expected))
    each_engine(lambda e: m.exists(e), bool(expected))
    kept = oracle_regions.group(n, regions=grid)
    assert m.count(unique=True) == oracle_regions.classes(n, expected, kept)
    # the same puzzle as a king statement with quotas: one class, one answer
    kings = cpqueens.model(n, attack="king", regions=grid, per_region=1)
    assert kings.count() == len(expected)


@pytest.mark.parametrize("seed", seeds(300, 3))
def test_star_battle_through_the_one_door(seed):
    rng = random.Random(seed)
    grid = random_regions(8, rng)
    m = cpqueens.model(8, attack="king", per_row=2, per_column=2, regions=grid, per_region=2)
    expected = puzzle_oracle(8, grid, stars=2)
    for engine in ("auto", "cpsat", "bitmask"):
        assert answer(lambda e, m=m: m.count(e), engine) == len(expected), engine
    assert m.exists() == bool(expected)
    puzzle = cpqueens.Puzzle(8, grid, stars=2)
    assert cpqueens.model(puzzle).count() == len(expected)  # any number of stars
    found = sorted(tuple(sorted((r, c) for r, c, _ in s)) for s in m.solutions())
    assert found == expected


@pytest.mark.parametrize("seed", seeds(400, 6, fast=2))
@pytest.mark.slow
def test_cell_statements_counted_by_size_and_optimised(seed):
    rng = random.Random(seed)
    rows, cols = rng.choice(((4, 4), (4, 5), (5, 5)))
    attack = rng.choice(("queen", "rook", "king"))
    blocked = sorted({(rng.randrange(rows), rng.randrange(cols)) for _ in range(2)})
    board = oracle_cells.Board(rows, cols, blocked, attack=attack)
    m = cpqueens.model(rows, blocked, columns=cols, attack=attack, per_row=None, per_column=None)
    assert type(m) is type(cpqueens.model(8)) is cpqueens.Model
    assert m == cpqueens.cells(rows, cols, blocked, attack=attack)
    sizes = {k: len(board.sets(k)) for k in range(rows * cols + 1)}
    for k in (2, 3):
        each_engine(lambda e, k=k: m.count(e, queens=k), sizes[k])
    assert m.count() == sum(sizes.values())  # every size
    best = max(k for k, found in sizes.items() if found)
    assert m.maximize().value == best
    assert m.maximize("python-constraint").value == best
    cover = cpqueens.model(
        rows,
        blocked,
        columns=cols,
        attack=attack,
        per_row=None,
        per_column=None,
        independent=False,
        dominating=True,
    )
    fewest = min(
        k for k in range(rows * cols + 1) if board.sets(k, independent=False, dominating=True)
    )
    assert cover.minimize().value == fewest
    assert cpqueens.domination(rows, cols, blocked, attack=attack).value == fewest


@pytest.mark.slow
def test_domination_and_independence_are_shortcuts_over_the_one_model():
    assert cpqueens.domination(8).value == 5  # OEIS A075458
    statement = cpqueens.model(8, per_row=None, per_column=None, independent=False, dominating=True)
    assert statement.minimize().value == 5
    assert cpqueens.cells(8, dominating=True, independent=False) == statement
    assert cpqueens.independence(8).value == cpqueens.model(8).maximize().value == 8
    assert cpqueens.peaceable(5).value == 4  # OEIS A250000


def test_a_statement_an_engine_cannot_answer_names_one_that_can():
    m = cpqueens.model(5, per_row=None, per_column=None)
    with pytest.raises(
        NotSupportedError,
        match=r"^backend 'bitmask' cannot count this .*"
        r": use backend '(cpsat|python-constraint)'$",
    ):
        m.count("bitmask", unique=True, queens=3)
    assert m.count(unique=True, queens=3) == m.count("cpsat", unique=True, queens=3)


def test_every_verb_takes_backend_first_on_every_model():
    import inspect

    for verb in ("count", "solutions", "first", "exists", "find", "maximize", "minimize"):
        parameters = list(inspect.signature(getattr(cpqueens.Model, verb)).parameters)
        assert parameters[1] == "backend", verb


def test_results_draw_themselves():
    m = cpqueens.model(4, columns=5, per_row=None, per_column=None, blocked=[(1, 1)])
    assert m._repr_svg_().count('class="square') == 20
    best = m.maximize()
    assert best._repr_svg_().count('class="queen') == best.value
    first = m.first()
    assert first is not None and first._repr_svg_().count('class="square') == 20


@pytest.mark.parametrize("seed", seeds(500, 4))
@pytest.mark.slow
def test_conditions_over_cells_on_every_statement(seed):
    rng = random.Random(seed)
    rows, cols = rng.choice(((4, 4), (4, 5)))
    attack = rng.choice(("queen", "king"))
    board = oracle_cells.Board(rows, cols, attack=attack)
    a, b = rng.sample([(r, c) for r in range(rows) for c in range(cols)], 2)
    m = cpqueens.model(rows, columns=cols, attack=attack, per_row=None, per_column=None)
    narrowed = m.where(m.x[a] + m.x[b] == 1)
    for k in (2, 3):
        expected = sum(1 for s in board.sets(k) if (a in s) + (b in s) == 1)
        each_engine(lambda e, k=k: narrowed.count(e, queens=k), expected)
    best = max(
        k for k in range(rows * cols + 1) if any((a in s) + (b in s) == 1 for s in board.sets(k))
    )
    assert narrowed.maximize().value == best
    assert all(
        (a in p) + (b in p) == 1
        for p in ({(r, c) for r, c, _ in s} for s in narrowed.solutions(queens=2))
    )


def test_x_on_a_one_queen_per_row_model_is_its_column_test():
    n = 6
    m = cpqueens.model(n)
    expected = [s[0] for s in oracle.solutions(n)]
    narrowed = m.where(m.x[0, 1] + m.x[n - 1, 4] == 2)
    each_engine(lambda e: narrowed.count(e), sum(1 for s in expected if (s[0], s[-1]) == (1, 4)))
    # conditions over q lower to the cell level: an optimum of a narrowed classic model
    ordered = m.where(m.q[0] < m.q[n - 1])
    assert ordered.maximize().value == n
    assert ordered.lowered().conditions  # stated over x[r, c]
    # q[r] on any square statement: the column of row r's one piece, which reading it states
    kings = cpqueens.model(4, attack="king", per_row=None, per_column=None)
    one = kings.where(kings.q[0] == 1)
    assert (
        one.count()
        == one.count("cpsat")
        == kings.where(kings.x[0, 1] == 1)
        .where(kings.x[0, 0] + kings.x[0, 2] + kings.x[0, 3] == 0)
        .count("python-constraint")
    )
    with pytest.raises(NotSupportedError, match=r"write conditions with x\[row, col\]"):
        cpqueens.model(4, columns=5, per_row=None, per_column=None).q  # noqa: B018


def test_cell_statements_export_to_cpmpy_and_cpsat():
    from ortools.sat.python import cp_model

    class Count(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.seen = 0

        def on_solution_callback(self):
            self.seen += 1

    statements = [
        cpqueens.model(4, [(1, 1)], columns=5, attack="king", per_row=None, per_column=None),
        cpqueens.model(4, per_row=None, per_column=None, armies=2),
        cpqueens.model(3, per_row=None, per_column=None, dominating=True, independent=False),
        cpqueens.model(4, attack="king", per_row=2, per_column=1, columns=8),
    ]
    kings = cpqueens.model(4, attack="king", per_row=None, per_column=None)
    statements.append(kings.where(kings.x[0, 0] + kings.x[3, 3] == 1))
    for m in statements:
        expected = m.count()
        exported, _ = m.to_cpmpy()
        assert exported.solveAll() == expected, m
        cp, _ = m.to_cpsat()
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        counter = Count()
        solver.solve(cp, counter)
        assert counter.seen == expected, m


def test_a_puzzle_whose_givens_share_a_row_has_no_solution_through_the_door():
    grid = ((0, 0, 0, 2, 2), (1, 0, 0, 2, 2), (0, 0, 2, 2, 2), (0, 3, 2, 2, 4), (3, 3, 3, 3, 4))
    puzzle = cpqueens.Puzzle(5, grid, queens=((0, 0), (0, 3)))
    assert cpqueens.model(puzzle).count() == puzzle.count() == 0
    assert cpqueens.model(cpqueens.Puzzle(5, grid)).count() == 1
