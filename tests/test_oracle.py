"""Every backend against the brute-force oracle on random models drawn by hypothesis."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpqueens
from tests import oracle


@st.composite
def random_models(draw):
    n = draw(st.integers(1, 7))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(cells, max_size=n + 2))
    placed_rows = draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    placed = [(row, draw(st.integers(0, n - 1))) for row in placed_rows]
    colours = draw(st.integers(1, 2))
    return n, blocked, placed, colours


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(random_models())
def test_backend_agrees_with_the_oracle(backend, drawn):
    n, blocked, placed, colours = drawn
    expected = oracle.solutions(n, blocked, placed, colours)
    model = cpqueens.model(n, blocked, colours=colours, placed=placed)
    found = [s.by_colour for s in model.solutions(backend=backend)]
    assert found == expected  # same set, lexicographic order, no duplicates
    assert model.count(backend=backend) == len(expected)
    assert model.exists(backend=backend) == bool(expected)
    first = model.first(backend=backend)
    assert (first.by_colour if first else None) == (expected[0] if expected else None)


def test_oracle_knows_eight_queens():
    assert len(oracle.solutions(8)) == 92
    assert len(oracle.solutions(5, colours=2)) == 40
