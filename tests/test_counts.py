"""Known counts: OEIS A000170, the 2n-queens table and the judge's samples."""

from __future__ import annotations

import pytest

import cpqueens

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]
TWO_COLOURS = [0, 0, 0, 2, 40, 12, 496, 3252]
# How far each backend goes in the suite (larger boards are benchmarks); others get the default.
OEIS_LIMIT = {"bitmask": 12, "cpsat": 10, "python-constraint": 10}
TWO_COLOUR_LIMIT = {"bitmask": 8, "cpsat": 8, "python-constraint": 8}


@pytest.mark.parametrize(
    ("name", "n"),
    [(b, n) for b in cpqueens.backends() for n in range(1, OEIS_LIMIT.get(b, 10) + 1)],
)
def test_a000170(name, n):
    assert cpqueens.model(n).count(backend=name) == A000170[n - 1]


@pytest.mark.parametrize(
    ("name", "n"),
    [(b, n) for b in cpqueens.backends() for n in range(1, TWO_COLOUR_LIMIT.get(b, 7) + 1)],
)
def test_two_colours_on_a_free_board(name, n):
    assert cpqueens.model(n, colours=2).count(backend=name) == TWO_COLOURS[n - 1]


def test_judge_samples(backend):
    # 4x4 all ones -> 2; first row 1011 (cell (0, 1) blocked) -> 0.
    assert cpqueens.model(4, colours=2).count(backend=backend) == 2
    assert cpqueens.model(4, [(0, 1)], colours=2).count(backend=backend) == 0


def test_placed_queen_completion(backend):
    assert cpqueens.model(8, placed=[(0, 0)]).count(backend=backend) == 4


def test_blocked_cells_reduce_the_count(backend):
    # Blocking (0, 0) removes exactly the 4 solutions with a queen in the corner.
    assert cpqueens.model(8, blocked=[(0, 0)]).count(backend=backend) == 88


def test_cross_check_agrees():
    assert cpqueens.model(7, blocked=[(1, 2)], colours=1).cross_check() == 34
