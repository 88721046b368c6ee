"""Bad input: a specific error naming the bad value and what was expected."""

from __future__ import annotations

import re

import pytest

import cpqueens


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n": 0}, ValueError, "board size n must be an int >= 1, got 0"),
        ({"n": -3}, ValueError, "board size n must be an int >= 1, got -3"),
        ({"n": 8.0}, TypeError, "board size n must be an int >= 1, got 8.0 (float)"),
        ({"n": True}, TypeError, "board size n must be an int >= 1, got True (bool)"),
        ({"n": "8"}, TypeError, "board size n must be an int >= 1, got '8' (str)"),
        (
            {"n": 4, "blocked": [(4, 0)]},
            ValueError,
            "blocked cell (4, 0) is off the 4x4 board: row and column must be in 0..3",
        ),
        (
            {"n": 4, "blocked": [(0, -1)]},
            ValueError,
            "blocked cell (0, -1) is off the 4x4 board: row and column must be in 0..3",
        ),
        (
            {"n": 4, "blocked": [(0, 1, 2)]},
            TypeError,
            "blocked cell must be a (row, col) pair of ints, got (0, 1, 2)",
        ),
        (
            {"n": 4, "blocked": [("a", 1)]},
            TypeError,
            "blocked cell must be a (row, col) pair of ints, got ('a', 1)",
        ),
        (
            {"n": 4, "blocked": 5},
            TypeError,
            "blocked cells must be an iterable of (row, col) pairs, got 5",
        ),
        (
            {"n": 4, "placed": [(9, 9)]},
            ValueError,
            "placed queen (9, 9) is off the 4x4 board: row and column must be in 0..3",
        ),
        (
            {"n": 4, "placed": [(1.0, 1)]},
            TypeError,
            "placed queen must be a (row, col) pair of ints, got (1.0, 1)",
        ),
        (
            {"n": 4, "placed": [(1, 0), (1, 2)]},
            ValueError,
            "placed queens (1, 0) and (1, 2) share row 1: "
            "expected at most one placed queen per row",
        ),
        ({"n": 4, "colours": 0}, ValueError, "colours must be an int >= 1, got 0"),
        ({"n": 4, "colours": "2"}, TypeError, "colours must be an int >= 1, got '2'"),
    ],
)
def test_bad_model_input(kwargs, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        cpqueens.model(**kwargs)


def test_unknown_backend_lists_the_choices():
    expected = (
        "unknown backend 'gurobi': expected one of 'auto', 'cpsat', 'python-constraint', 'bitmask'"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        cpqueens.model(4).count(backend="gurobi")


def test_bad_limit():
    with pytest.raises(ValueError, match=r"^limit must be None or an int >= 0, got -1$"):
        list(cpqueens.model(4).solutions(limit=-1))
