"""The cell models' three engines: python-constraint, CP-SAT, the compiled counter, the oracle.

Every count here is checked against ``tests/oracle_cells.py`` (itertools
subsets) and against each engine that can count it; ``cross_check()`` must
agree, and a deliberately wrong engine must make it raise.
"""

from __future__ import annotations

import random

import pytest

import cpqueens
from cpqueens.backends import Engine, register, unregister
from cpqueens.errors import (
    CountInterrupted,
    CrossCheckError,
    IncompleteSearchError,
    NotSupportedError,
)
from tests.oracle_cells import Board

PC = "python-constraint"

#: (rows, cols, blocked, toroidal, what, size): one army "independence" / "domination" /
#: "independent-domination", or two armies "peaceable" with ``size`` each.
CASES = [
    (4, 5, [(1, 2), (3, 0)], False, "independence", 3),
    (5, 5, [(2, 2)], False, "independence", 4),
    (5, 5, (), True, "independence", 5),
    (4, 4, [(0, 0)], False, "domination", 2),
    (5, 4, [(1, 1), (4, 3)], False, "domination", 3),
    (4, 4, (), True, "domination", 2),
    (4, 4, [(3, 3)], False, "independent-domination", 3),
    (5, 5, (), True, "independent-domination", 5),
    (4, 4, [(1, 2)], False, "peaceable", 2),
    (4, 4, (), True, "peaceable", 1),
    (4, 5, [(0, 0), (3, 4)], False, "peaceable", 2),
]


def stated(rows, cols, blocked, toroidal, what):
    """The cell model and the oracle's board of a case."""
    options = {
        "independence": {},
        "domination": {"independent": False, "dominating": True},
        "independent-domination": {"dominating": True},
        "peaceable": {"armies": 2},
    }[what]
    return (
        cpqueens.cells(rows, cols, blocked, toroidal=toroidal, **options),
        Board(rows, cols, blocked, toroidal=toroidal),
    )


def oracle_count(board, what, size):
    if what == "peaceable":
        return board.armies(size)
    independent = what != "domination"
    return len(board.sets(size, independent, dominating=what != "independence"))


@pytest.mark.parametrize(("rows", "cols", "blocked", "toroidal", "what", "size"), CASES)
@pytest.mark.slow
def test_python_constraint_counts_as_the_oracle_cpsat_and_the_compiled_counter(
    rows, cols, blocked, toroidal, what, size
):
    model, board = stated(rows, cols, blocked, toroidal, what)
    expected = oracle_count(board, what, size)
    assert expected > 0  # each case has solutions, so a count of 0 cannot pass
    assert model.count(queens=size, backend=PC) == expected
    assert model.count(queens=size, backend="cpsat") == expected
    if what != "peaceable":
        assert model.count(queens=size, backend="bitmask") == expected
    assert model.cross_check(queens=size) == expected
    found = list(model.solutions(queens=size, backend=PC))
    assert len(found) == len(set(found)) == expected
    assert all(model.lowered().check(pieces) is None for pieces in found)


def test_python_constraint_lists_the_same_solutions_as_cpsat():
    model = cpqueens.cells(4, 5, [(0, 1)], dominating=True)
    mine = sorted(model.solutions(queens=3, backend=PC))
    assert mine == sorted(model.solutions(queens=3, backend="cpsat"))
    oracle = Board(4, 5, [(0, 1)]).sets(3, True, True)
    assert mine == sorted(tuple((r, c, 0) for r, c in cells) for cells in oracle)


@pytest.mark.slow
def test_python_constraint_counts_k_queens_on_eight_by_eight():
    model = cpqueens.cells(8)
    assert [model.count(queens=k, backend=PC) for k in (0, 1, 2)] == [1, 64, 1288]


def test_python_constraint_counts_every_size_and_bounds():
    from cpqueens.backends.pyconstraint import cells as cells_pyconstraint

    board = Board(3, 4, [(1, 1)])
    problem = cpqueens.cells(3, 4, [(1, 1)]).lowered()
    by_size = [len(board.sets(k)) for k in range(12)]
    assert cells_pyconstraint.count(problem) == sum(by_size)
    assert cells_pyconstraint.count(problem, at_least=2, at_most=3) == sum(by_size[2:4])
    peace = cpqueens.cells(3, 3, armies=2)
    armies = Board(3, 3)
    assert peace.count(backend=PC) == sum(armies.armies(k) for k in range(5)) == peace.count()


def test_a_board_with_every_cell_blocked_counts_the_empty_set_on_every_engine():
    # No free cell: python-constraint builds no problem and answers from the bounds alone
    # (an absent at_least once raised TypeError there; mypy found it).
    from cpqueens.backends.pyconstraint import cells as cells_pyconstraint

    model = cpqueens.cells(2, blocked=[(0, 0), (0, 1), (1, 0), (1, 1)])
    assert len(Board(2, 2, [(0, 0), (0, 1), (1, 0), (1, 1)]).sets(0)) == 1  # the oracle
    assert model.count(backend=PC) == model.count(backend="cpsat") == 1
    assert cells_pyconstraint.count(model.lowered(), at_least=1) == 0
    assert cells_pyconstraint.count(model.lowered(), at_most=0) == 1


@pytest.mark.parametrize(
    ("rows", "cols", "blocked", "toroidal", "what"),
    [
        (4, 5, [(1, 2), (3, 0)], False, "independence"),
        (5, 5, (), True, "independence"),
        (5, 5, (), False, "domination"),
        (4, 4, [(0, 0)], True, "domination"),
        (5, 5, [(2, 2)], False, "independent-domination"),
        (4, 4, (), False, "peaceable"),
        (3, 4, [(0, 0)], True, "peaceable"),
    ],
)
@pytest.mark.slow
def test_python_constraint_optimises_by_stepping_the_size(rows, cols, blocked, toroidal, what):
    model, board = stated(rows, cols, blocked, toroidal, what)
    if what == "peaceable":
        best = board.peaceable()[0]
    elif what == "independence":
        best = 0
        while board.sets(best + 1):
            best += 1
    else:
        independent = what == "independent-domination"
        best = next(k for k in range(99) if board.sets(k, independent, dominating=True))
    verb = model.maximize if what in ("independence", "peaceable") else model.minimize
    result = verb(backend=PC)
    assert (result.value, result.status, result.bound) == (best, "optimal", best)
    assert model.lowered().check([q if len(q) == 3 else (*q, 0) for q in result.queens]) is None
    assert verb().value == best  # CP-SAT agrees


def test_python_constraint_optimum_with_placed_pieces_and_no_solution():
    model = cpqueens.cells(5, placed=[(0, 0)])
    expected = max(k for k in range(1, 6) if any((0, 0) in s for s in Board(5, 5).sets(k)))
    assert model.maximize(backend=PC).value == expected
    none = cpqueens.cells(4, placed=[(0, 0), (0, 1)])
    assert none.maximize(backend=PC).status == "infeasible"
    assert none.count(queens=2, backend=PC) == 0
    assert cpqueens.cells(4, placed=[(0, 0), (1, 2)]).count(queens=1, backend=PC) == 0
    two = cpqueens.cells(3, armies=2, placed=[(0, 0, 0), (0, 0, 1)])
    assert two.count(backend=PC) == two.count(backend="cpsat") == 0


def test_python_constraint_stops_at_its_time_limit():
    model = cpqueens.cells(8)
    with pytest.raises(IncompleteSearchError, match="time limit"):
        model.count(queens=8, backend=PC, time_limit=0.2)
    try:
        result = cpqueens.cells(5, armies=2).maximize(backend=PC, time_limit=0.5)
    except IncompleteSearchError as stopped:  # a busy machine: no army found in 0.5 s
        assert "before any solution was found" in str(stopped)
        return
    assert result.status == "feasible" and result.bound is not None
    assert result.value is not None and result.value <= 4 <= result.bound  # A250000(5) = 4


def test_the_compiled_counter_stops_at_its_time_limit_with_no_count():
    model = cpqueens.cells(12)  # 14,200 placements of 12 queens: many seconds of search
    with pytest.raises(IncompleteSearchError, match=r"time limit of 0\.3 s"):
        model.count(queens=12, backend="bitmask", time_limit=0.3)
    # a blocked cell: the generic counter (a free square board is the domination search's)
    dominating = cpqueens.cells(11, blocked=[(0, 0)], independent=False, dominating=True)
    with pytest.raises(IncompleteSearchError):
        dominating.count(queens=6, backend="bitmask", time_limit=0.3)


def test_ctrl_c_stops_the_compiled_counter_between_chunks(monkeypatch, ctrl_c_in_process):
    import _thread

    from cpqueens.backends.bitmask import cells as cells_bitmask

    model = cpqueens.cells(12)
    assert model.count(queens=2, backend="bitmask") == 7700  # imports and compiles first
    run = cells_bitmask._run

    def interrupted_after_the_first_chunk(step, clock):
        calls = []

        def ctrl_c_on_the_second_chunk(chunk):
            calls.append(chunk)
            if len(calls) == 2:
                _thread.interrupt_main()  # seen before the second chunk's kernel starts
            return step(chunk)

        return run(ctrl_c_on_the_second_chunk, clock)

    monkeypatch.setattr(cells_bitmask, "_run", interrupted_after_the_first_chunk)
    with pytest.raises(CountInterrupted) as caught:
        model.count(queens=12, backend="bitmask")  # many seconds without the interrupt
    assert isinstance(caught.value, KeyboardInterrupt)
    assert "the compiled count stopped after 1 chunk of 1,048,576 nodes;" in str(caught.value)


def test_the_compiled_counter_resumes_across_chunks(monkeypatch):
    from cpqueens.backends.bitmask import cells as cells_bitmask

    monkeypatch.setattr(cells_bitmask, "CHUNK", 7)  # thousands of calls, each resuming the last
    model = cpqueens.cells(6, blocked=[(2, 3)])
    board = Board(6, 6, [(2, 3)])
    assert model.count(queens=4, backend="bitmask") == len(board.sets(4))
    dominating = cpqueens.cells(5, blocked=[(0, 4)], independent=False, dominating=True)
    assert dominating.count(queens=3, backend="bitmask") == len(
        Board(5, 5, [(0, 4)]).sets(3, False, True)
    )
    assert cells_bitmask.counts(model.lowered())[:5] == [len(board.sets(k)) for k in range(5)]


def test_the_backend_choice_names_what_cannot_count():
    model = cpqueens.cells(4, armies=2)
    with pytest.raises(ValueError, match="backend 'bitmask' cannot count this"):
        model.count(queens=2, backend="bitmask")
    with pytest.raises(ValueError, match="python-constraint"):
        model.count(queens=2, unique=True, backend=PC)
    with pytest.raises(ValueError, match="unknown backend 'gecode'"):
        model.count(queens=2, backend="gecode")  # type: ignore[arg-type]
    with pytest.raises(NotSupportedError, match="two engines"):
        model.cross_check(queens=2, unique=True)  # classes: CP-SAT's alone
    with pytest.raises(NotSupportedError, match="'bitmask' cannot list the solutions of"):
        model.solutions(queens=2, backend="bitmask")
    assert model.maximize(backend="bitmask").value == 2  # peaceable armies: the line labels
    with pytest.raises(ValueError, match=r"'bitmask' cannot optimise this .*two peaceable armies"):
        cpqueens.cells(4).maximize(backend="bitmask")


class OffByOne(Engine):
    """An engine whose cell counter is off by one."""

    NAME = "off-by-one"

    def cell_refusal(self, problem, verb, size=None, unique=False, sense=None):
        return None if verb == "count" and not unique else "it only counts"

    def cell_count(self, problem, size, *, unique=False, deadline=None, limit=None):
        return 1 + cpqueens.cells(problem.board.rows).count(queens=size, backend="cpsat")


@pytest.fixture
def wrong_engine():
    """An engine whose cell counter is off by one, registered as "off-by-one"."""
    register("off-by-one", OffByOne())
    yield
    unregister("off-by-one")


def test_cross_check_raises_naming_the_engines_that_disagree(wrong_engine):
    model = cpqueens.cells(5)
    with pytest.raises(CrossCheckError) as caught:
        model.cross_check(queens=5)
    message = str(caught.value)
    for words in ("bitmask=10", "cpsat=10", "python-constraint=10", "off-by-one=11"):
        assert words in message
    assert model.count(queens=5, backend="off-by-one") == 11  # reached through the registry


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.slow
def test_python_constraint_on_random_boards_agrees_with_the_oracle(seed):
    rng = random.Random(500 + seed)
    for _ in range(40):
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        blocked = rng.sample(cells, rng.randint(0, len(cells) // 3))
        options = {
            "attack": rng.choice(["queen", "queen", "rook", "king"]),
            "toroidal": rng.random() < 0.25,
            "knight": rng.random() < 0.2,
        }
        what = rng.choice(["independence", "domination", "independent domination", "peaceable"])
        independent, dominating = {
            "independence": (True, False),
            "domination": (False, True),
            "independent domination": (True, True),
            "peaceable": (True, False),
        }[what]
        armies = 2 if what == "peaceable" else 1
        board = Board(rows, cols, blocked, **options)
        model = cpqueens.cells(
            rows,
            cols,
            blocked,
            independent=independent,
            dominating=dominating,
            armies=armies,
            **options,
        )
        where = (rows, cols, blocked, options, what)
        if armies == 2:
            sizes = [board.armies(k) for k in range(len(board.free) // 2 + 1)]
        else:
            every = range(len(board.free) + 1)
            sizes = [len(board.sets(k, independent, dominating)) for k in every]
        for k in range(min(len(sizes), 4)):
            assert model.count(queens=k, backend=PC) == sizes[k], (where, k)
        if dominating:
            best = next(k for k, found in enumerate(sizes) if found)
            assert model.minimize(backend=PC).value == best, where
        else:
            best = max(k for k, found in enumerate(sizes) if found)
            assert model.maximize(backend=PC).value == best, where
