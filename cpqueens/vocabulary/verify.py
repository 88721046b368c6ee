"""Checking a solution against every constraint of its model, before anyone sees it.

:func:`violation` names the first constraint a candidate breaks (None: it meets
all of them); :func:`check` raises ``InvalidSolutionError`` instead. A
constraint this module does not know cannot be checked, so it is never
claimed to hold: :func:`violation` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpqueens.errors import InvalidSolutionError
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Disjoint,
    Forbidden,
    Invariant,
    KnightMoves,
    LexLeader,
    Placed,
    Toroidal,
    Where,
)

if TYPE_CHECKING:
    from cpqueens.model import Model

Columns = Sequence[Sequence[int]]


def _shape(model: Model, by_colour: Columns) -> str | None:
    """What is wrong with the shape: not one int column in 0..n-1 per row and colour."""
    n = model.n
    if len(by_colour) != model.colours:
        return f"{len(by_colour)} colour(s) of queens, expected {model.colours}"
    for colour, columns in enumerate(by_colour):
        if len(columns) != n:
            return f"colour {colour} has {len(columns)} queens, expected {n}"
        for row, col in enumerate(columns):
            if isinstance(col, bool) or not isinstance(col, int) or not 0 <= col < n:
                return f"colour {colour}, row {row}: column {col!r} is not in 0..{n - 1}"
    return None


def violation(model: Model, by_colour: Columns) -> str | None:
    """The first constraint of ``model`` that ``by_colour`` breaks, as a sentence; None if none.

    >>> from cpqueens import model
    >>> violation(model(4), ((1, 3, 0, 2),)) is None
    True
    >>> violation(model(4), ((0, 2, 1, 3),))
    'AllDifferent(q0[r] + r for every row r) fails: rows 1 and 2 share 3'
    """
    from cpqueens.strategies.symmetry import satisfies

    shape = _shape(model, by_colour)
    if shape is not None:
        return shape
    n = model.n
    for constraint in model.constraints:
        if isinstance(constraint, AllDifferent):
            seen: dict[int, int] = {}
            columns = by_colour[constraint.colour]
            for row, col in enumerate(columns):
                value = col + constraint.offset * row
                if value in seen:
                    return f"{constraint} fails: rows {seen[value]} and {row} share {value}"
                seen[value] = row
        elif isinstance(constraint, Forbidden):
            for row, col in constraint.cells:
                for colour, columns in enumerate(by_colour):
                    if columns[row] == col:
                        return f"colour {colour}'s queen stands on blocked cell {(row, col)}"
        elif isinstance(constraint, Placed):
            for row, col in constraint.cells:
                if by_colour[constraint.colour][row] != col:
                    return f"{constraint} fails at row {row}"
        elif isinstance(constraint, Disjoint):
            for row in range(n):
                cells = [by_colour[colour][row] for colour in constraint.colours]
                if len(set(cells)) != len(cells):
                    return f"{constraint} fails: two colours share a cell in row {row}"
        elif isinstance(constraint, (Toroidal, KnightMoves, Where)):
            if not constraint.holds(by_colour, n):
                return f"{constraint} fails"
        elif isinstance(constraint, (LexLeader, Invariant)):
            solution = tuple(tuple(columns) for columns in by_colour)
            if not satisfies(solution, constraint, n):
                return f"{constraint} fails"
        else:
            return f"cannot check the constraint {constraint!r}"
    return None


def check(model: Model, by_colour: Columns) -> None:
    """Raise ``InvalidSolutionError`` unless ``by_colour`` meets every constraint of ``model``."""
    found = violation(model, by_colour)
    if found is not None:
        raise InvalidSolutionError(
            f"a search returned a solution that breaks the model (a bug in cpqueens): {found}"
        )
