"""Splitting: weighted subproblem counts add up exactly, symmetric boards or not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens.strategies import split
from tests import internals, oracle

colours_interchangeable = internals.on_columns(split.colours_interchangeable)
is_flip_symmetric = internals.on_columns(split.is_flip_symmetric)
is_mirror_symmetric = internals.on_columns(split.is_mirror_symmetric)
subproblems = internals.on_columns(split.subproblems)
transposed = internals.on_columns(split.transposed)


@st.composite
def boards(draw, mirrored):
    n = draw(st.integers(1, 7))
    cells = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n))
    if mirrored:
        cells += [(r, n - 1 - c) for r, c in cells]
    placed = []
    if draw(st.booleans()):
        row = draw(st.integers(0, n - 1))
        placed = [(row, (n - 1) // 2 if mirrored and n % 2 else draw(st.integers(0, n - 1)))]
        if mirrored and n % 2 == 0:
            placed = []
    return n, cells, placed, draw(st.integers(1, 3))


@settings(max_examples=80, deadline=None)
@given(boards(mirrored=True) | boards(mirrored=False), st.integers(0, 3))
@pytest.mark.slow
def test_weighted_subproblems_add_up(drawn, depth):
    n, blocked, placed, colours = drawn
    model = cpqueens.model(n, blocked, colours=colours, placed=placed)
    expected = len(oracle.solutions(n, blocked, placed, colours))
    parts = subproblems(model, depth)
    assert sum(p.weight * internals.count("bitmask", p.model) for p in parts) == expected
    # Without symmetry the subproblems partition the solutions.
    plain = subproblems(model, depth, symmetry=False)
    assert all(p.weight == 1 for p in plain)
    assert sum(internals.count("bitmask", p.model) for p in plain) == expected


def test_symmetry_is_detected_not_assumed():
    assert is_mirror_symmetric(cpqueens.model(6, blocked=[(2, 1), (2, 4)]))
    assert not is_mirror_symmetric(cpqueens.model(6, blocked=[(2, 1)]))
    assert not is_mirror_symmetric(cpqueens.model(6, placed=[(0, 0)]))
    assert is_mirror_symmetric(cpqueens.model(5, placed=[(0, 2)]))
    assert colours_interchangeable(cpqueens.model(6, colours=2))
    assert not colours_interchangeable(cpqueens.model(6, colours=2, placed=[(0, 1)]))
    # The mirror halves the first row; the colour symmetry takes increasing pairs.
    assert [p.weight for p in subproblems(cpqueens.model(5))] == [2, 2, 1]
    assert len(subproblems(cpqueens.model(6, colours=2))) == 15


def test_bad_depth():
    with pytest.raises(ValueError, match=r"^split depth must be an int >= 0, got -1$"):
        subproblems(cpqueens.model(4), -1)


@pytest.mark.parametrize("workers", [0, -2, 1.5, True])
def test_bad_workers(workers):
    with pytest.raises(
        ValueError, match=rf"^workers must be None or an int >= 1, got {workers!r}$"
    ):
        cpqueens.model(4).count(workers=workers)


@pytest.mark.slow
def test_process_pool_counts_exactly(backend):
    # Two worker processes on an asymmetric blocked board with two colours.
    m = cpqueens.model(6, blocked=[(0, 1), (3, 4)], colours=2)
    expected = len(oracle.solutions(6, [(0, 1), (3, 4)], (), 2))
    assert m.count(backend=backend, workers=2) == expected


@st.composite
def flipped_boards(draw):
    """A board whose holes and placed queens the flip (r, c) -> (n-1-r, c) keeps."""
    n = draw(st.integers(1, 7))
    cells = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n))
    blocked = sorted({*cells, *((n - 1 - r, c) for r, c in cells)})
    placed = []
    if n % 2 and draw(st.booleans()):  # the middle row is the one the flip keeps
        placed = [(n // 2, draw(st.integers(0, n - 1)))]
        blocked = [cell for cell in blocked if cell != placed[0]]
    return n, blocked, placed, draw(st.integers(1, 2))


@settings(max_examples=80, deadline=None)
@given(flipped_boards(), st.integers(0, 3))
@pytest.mark.slow
def test_a_flipped_board_splits_as_its_transpose(drawn, depth):
    n, blocked, placed, colours = drawn
    model = cpqueens.model(n, blocked, colours=colours, placed=placed)
    expected = len(oracle.solutions(n, blocked, placed, colours))
    parts = subproblems(model, depth)
    assert sum(p.weight * internals.count("bitmask", p.model) for p in parts) == expected
    assert model.count("bitmask", workers=1) == expected
    assert model.count("python-constraint", workers=1) == expected


def test_the_flip_halves_the_first_row_of_the_transpose():
    model = cpqueens.model(6, blocked=[(1, 2), (4, 2)])  # kept by the flip, not the mirror
    assert is_flip_symmetric(model) and not is_mirror_symmetric(model)
    assert transposed(model).board.blocked == ((2, 1), (2, 4))
    parts = subproblems(model, 1)
    assert [(p.model.placed, p.weight) for p in parts] == [
        (((0, 0),), 2),
        (((0, 1),), 2),
        (((0, 2),), 2),
    ]
    assert sum(p.weight * internals.count("bitmask", p.model) for p in parts) == len(
        oracle.solutions(6, [(1, 2), (4, 2)], [], 1)
    )
    # Placed queens sharing a column have no solution, and no transpose (a row each).
    clash = cpqueens.model(7, placed=[(0, 0), (6, 0)])
    parts = subproblems(clash, 2)
    assert is_flip_symmetric(clash)
    assert sum(p.weight * internals.count("bitmask", p.model) for p in parts) == 0
    assert clash.count("bitmask", workers=1) == 0
    # A model with a condition on its rows is not transposed: it keeps the plain split.
    m = cpqueens.model(6, blocked=[(1, 2), (4, 2)])
    narrowed = m.where(m.q[0] < m.q[5])
    assert not is_flip_symmetric(narrowed)
    assert all(p.weight == 1 for p in subproblems(narrowed, 1))
    with pytest.raises(ValueError, match=r"^cannot transpose a model with extra constraints: "):
        transposed(narrowed)
