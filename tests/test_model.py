"""The model: its constraints, its text, lazy solutions, limits and cross-checking."""

from __future__ import annotations

import itertools

import pytest

import cpqueens
from cpqueens.vocabulary.constraints import AllDifferent, Disjoint, Forbidden, Placed


def test_constraints_state_the_whole_problem():
    m = cpqueens.model(5, blocked=[(0, 1)], colours=2, placed=[(2, 2)])
    assert m.constraints == (
        AllDifferent(0, 0),
        AllDifferent(0, 1),
        AllDifferent(0, -1),
        AllDifferent(1, 0),
        AllDifferent(1, 1),
        AllDifferent(1, -1),
        Forbidden(((0, 1),)),
        Placed(((2, 2),), colour=0),
        Disjoint((0, 1)),
    )


def test_str_lists_the_constraints():
    text = str(cpqueens.model(4, blocked=[(0, 1)], colours=2, placed=[(1, 3)]))
    assert text.splitlines() == [
        "Model: 4x4 board, 2 colours of 4 queens",
        "  AllDifferent(q0[r] for every row r)",
        "  AllDifferent(q0[r] + r for every row r)",
        "  AllDifferent(q0[r] - r for every row r)",
        "  AllDifferent(q1[r] for every row r)",
        "  AllDifferent(q1[r] + r for every row r)",
        "  AllDifferent(q1[r] - r for every row r)",
        "  Forbidden((0,1))",
        "  Placed(colour 0: (1,3))",
        "  Disjoint(colours 0, 1: no shared cell)",
    ]


def test_model_is_immutable():
    m = cpqueens.model(4)
    with pytest.raises(AttributeError):
        m.colours = 2


def test_first_solutions_in_lexicographic_order(backend):
    found = [s.columns for s in cpqueens.model(6).solutions(backend=backend, limit=3)]
    assert found == [(1, 3, 5, 0, 2, 4), (2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2)]


@pytest.mark.slow
def test_solutions_are_lazy(backend):
    # n=20 has 39,029,188,884 solutions: only a lazy search can hand out the first few.
    solutions = cpqueens.model(20).solutions(backend=backend)
    first_two = list(itertools.islice(solutions, 2))
    solutions.close()
    assert len(first_two) == 2 and first_two[0].columns < first_two[1].columns


def test_limit_zero_and_unsolvable(backend):
    assert list(cpqueens.model(8).solutions(backend=backend, limit=0)) == []
    assert cpqueens.model(3).first(backend=backend) is None
    assert not cpqueens.model(2).exists(backend=backend)


def test_large_board_with_many_placed_queens(backend):
    # The classic construction for n even, n % 6 != 2: odd columns, then even ones.
    n = 64
    known = tuple(2 * r + 1 for r in range(n // 2)) + tuple(2 * r for r in range(n // 2))
    assert (
        len({c + r for r, c in enumerate(known)}) == len({c - r for r, c in enumerate(known)}) == n
    )
    m = cpqueens.model(n, placed=[(r, known[r]) for r in range(6, n)])
    first = m.first(backend=backend)
    assert first is not None and first.columns <= known
    assert known in {s.columns for s in m.solutions(backend=backend)}


def test_contradictory_models_have_no_solution(backend):
    blocked_placed = cpqueens.model(5, blocked=[(0, 0)], placed=[(0, 0)])
    attacking = cpqueens.model(5, placed=[(0, 0), (1, 1)])
    full_row_blocked = cpqueens.model(4, blocked=[(2, c) for c in range(4)])
    for m in (blocked_placed, attacking, full_row_blocked):
        assert m.count(backend=backend) == 0
        assert m.first(backend=backend) is None


def test_solution_drawing_marks_colours_and_blocked_cells():
    m = cpqueens.model(4, blocked=[(0, 0)], colours=2)
    s = m.first(backend="bitmask")
    assert s.by_colour == ((1, 3, 0, 2), (2, 0, 3, 1))
    assert str(s) == "#QW.\nW..Q\nQ..W\n.WQ."


def test_cross_check_raises_when_backends_disagree(monkeypatch):
    from cpqueens.backends import bitmask
    from cpqueens.strategies.split import subproblems
    from cpqueens.strategies.symmetry import split_depth

    # 8 queens with a blocked corner (no mirror): every subproblem of weight 1 "counts" 93.
    # (A free board would not reach bitmask.count: it goes to the symmetry kernels.)
    monkeypatch.setattr(type(bitmask.ENGINE), "count", lambda self, model, deadline=None: 93)
    blocked = cpqueens.model(8, blocked=[(0, 0)]).columns()
    parts = subproblems(blocked, split_depth(blocked, 1))
    assert {p.weight for p in parts} == {1}
    wrong = 93 * len(parts)
    expected = rf"^backends disagree on the count: cpsat=88, python-constraint=88, bitmask={wrong}$"
    with pytest.raises(cpqueens.CrossCheckError, match=expected):
        cpqueens.model(8, blocked=[(0, 0)]).cross_check()


def test_unknown_constraint_is_not_supported(backend):
    class Strange:
        pass

    m = cpqueens.model(4).with_constraints(Strange())
    expected = rf"backend '{backend}' does not support the constraint .*Strange"
    with pytest.raises(cpqueens.NotSupportedError, match=expected):
        m.count(backend=backend)


def test_a_search_stopped_by_a_limit_is_not_a_count(monkeypatch):
    from cpqueens.backends.cpsat import columns as cpsat

    unlimited = cpsat._solver

    def limited():
        solver = unlimited()
        solver.parameters.max_time_in_seconds = 0.001
        return solver

    monkeypatch.setattr(cpsat, "_solver", limited)
    with pytest.raises(cpqueens.IncompleteSearchError, match=r"^CP-SAT stopped before enumerating"):
        cpqueens.model(12).count(backend="cpsat", workers=1)
    with pytest.raises(cpqueens.IncompleteSearchError):
        list(cpqueens.model(12).solutions(backend="cpsat"))
