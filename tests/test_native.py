"""The numba kernels behind the bitmask backend, against the oracle and the pure-Python path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens.kernels import placements as native
from cpqueens.vocabulary.constraints import Placed
from tests import internals, oracle


@st.composite
def random_models(draw):
    n = draw(st.integers(1, 8))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(cells, max_size=2 * n))
    placed_rows = draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    placed = [(row, draw(st.integers(0, n - 1))) for row in placed_rows]
    colours = draw(st.integers(1, 3 if n <= 5 else 2))
    return n, blocked, placed, colours


@settings(max_examples=60, deadline=None)
@given(random_models())
@pytest.mark.slow
def test_native_count_agrees_with_the_oracle(drawn):
    n, blocked, placed, colours = drawn
    expected = len(oracle.solutions(n, blocked, placed, colours))
    plan = internals.plan(cpqueens.model(n, blocked, colours=colours, placed=placed))
    assert internals.native_count(plan) == expected
    assert internals.python_count(plan) == expected


@settings(max_examples=30, deadline=None)
@given(random_models())
@pytest.mark.slow
def test_listed_placements_are_the_oracles_in_order(drawn):
    n, blocked, placed, _ = drawn
    masks = internals.plan(cpqueens.model(n, blocked, placed=placed)).allowed[0]
    allowed = np.array(masks, dtype=np.uint64)
    size = native.count_placements(allowed)
    packed = native.list_placements(allowed, size)
    unpacked = [tuple((int(code) >> (4 * row)) & 15 for row in range(n)) for code in packed]
    assert unpacked == oracle.placements(n, blocked, placed)


@pytest.mark.slow
def test_nested_and_listed_pair_counts_agree(monkeypatch):
    # Two colours on an asymmetric 9x9 board, with and without the placement lists.
    model = cpqueens.model(9, blocked=[(0, 0), (2, 5), (4, 4), (8, 1)], colours=2)
    plan = internals.plan(model)
    listed = internals.native_count(plan)
    monkeypatch.setattr(internals.bitmask_columns, "PAIR_LIST_LIMIT", 0)
    assert internals.native_count(plan) == listed == internals.python_count(plan)


def test_wide_boards_take_the_nested_kernel():
    # 17 columns do not pack into 4-bit fields: the pair count runs nested.
    # Six rows of a 17-queens solution in black, their mirror image in white.
    black = list(enumerate((0, 2, 10, 6, 14, 12)))
    white = [(r, 16 - c) for r, c in black]
    model = cpqueens.model(17, placed=black, colours=2).with_constraints(Placed(white, 1))
    plan = internals.plan(model)
    assert internals.native_count(plan) == internals.python_count(plan) == 812


@pytest.mark.parametrize(
    ("rows", "expected"),
    [(["1111"] * 4, 2), (["1011", "1111", "1111", "1111"], 0)],
)
def test_the_judges_two_colour_samples(rows, expected):
    blocked = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "0"]
    plan = internals.plan(cpqueens.model(4, blocked, colours=2))
    assert internals.native_count(plan) == expected


def test_oeis_counts_on_the_native_path():
    # A000170 for n = 1..13 and the two-colour counts for n = 1..8 (DESIGN.md).
    one = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712]
    two = [0, 0, 0, 2, 40, 12, 496, 3252]
    assert [internals.native_count(internals.plan(cpqueens.model(n))) for n in range(1, 14)] == one
    assert [
        internals.native_count(internals.plan(cpqueens.model(n, colours=2))) for n in range(1, 9)
    ] == two


@pytest.mark.slow
def test_process_pool_on_the_native_path():
    # Subproblems of a 10x10 two-colour board are big enough for the kernels in each worker.
    model = cpqueens.model(10, blocked=[(0, 3), (5, 7), (9, 9)], colours=2)
    expected = internals.native_count(internals.plan(model))
    assert model.count(backend="bitmask", workers=2) == expected == 102442
