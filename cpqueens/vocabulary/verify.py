"""Checking a solution against every constraint of its model, before anyone sees it.

:func:`violation` names the first constraint a candidate breaks (None: it meets
all of them); :func:`check` raises ``InvalidSolutionError`` instead. Each
constraint kind checks itself (``ConstraintKind.violation``); an object
without that check is never claimed to hold: :func:`violation` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpqueens.errors import InvalidSolutionError
from cpqueens.vocabulary.constraints import ConstraintKind
from cpqueens.words import plural

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem

Columns = Sequence[Sequence[int]]


def _shape(model: Problem, by_colour: Columns) -> str | None:
    """What is wrong with the shape: not one int column in 0..n-1 per row and colour."""
    n = model.n
    if len(by_colour) != model.colours:
        return f"{plural(len(by_colour), 'colour')} of queens, expected {model.colours}"
    for colour, columns in enumerate(by_colour):
        if len(columns) != n:
            return f"colour {colour} has {len(columns)} queens, expected {n}"
        if set(map(type, columns)) == {int} and 0 <= min(columns) <= max(columns) < n:
            continue  # at C speed: a million rows in a few hundredths of a second
        for row, col in enumerate(columns):
            if isinstance(col, bool) or not isinstance(col, int) or not 0 <= col < n:
                return f"colour {colour}, row {row}: column {col!r} is not in 0..{n - 1}"
    return None


def violation(model: Problem, by_colour: Columns) -> str | None:
    """The first constraint of ``model`` that ``by_colour`` breaks, as a sentence; None if none.

    >>> from cpqueens import model
    >>> violation(model(4), ((1, 3, 0, 2),)) is None
    True
    >>> violation(model(4), ((0, 2, 1, 3),))
    'AllDifferent(q0[r] + r for every row r) fails: rows 1 and 2 share 3'
    """
    shape = _shape(model, by_colour)
    if shape is not None:
        return shape
    for constraint in model.constraints:
        if not isinstance(constraint, ConstraintKind):
            return f"cannot check the constraint {constraint!r}"
        found = constraint.violation(by_colour, model.n)
        if found is not None:
            return found
    return None


def check(model: Problem, by_colour: Columns) -> None:
    """Raise ``InvalidSolutionError`` unless ``by_colour`` meets every constraint of ``model``."""
    found = violation(model, by_colour)
    if found is not None:
        raise InvalidSolutionError(
            f"a search returned a solution that breaks the model (a bug in cpqueens): {found}"
        )
