"""What the backends share when reading constraints: domains and the unsupported error."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cpqueens.errors import NotSupportedError
from cpqueens.vocabulary.constraints import Constraint, Forbidden, NoTouch, Placed, Regions

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem


def unsupported(backend: str, constraint: object) -> NotSupportedError:
    """The error a backend raises for a constraint it does not know."""
    return NotSupportedError(
        f"backend {backend!r} does not support the constraint {constraint!r} "
        f"({type(constraint).__name__})"
    )


def domains(
    n: int, colours: int, constraints: Iterable[Constraint]
) -> tuple[list[list[set[int]]], list[Constraint]]:
    """Apply the cell constraints to q[colour][row]'s columns; return them and the rest.

    ``Forbidden`` cells leave every colour's domain, a ``Placed`` queen fixes its
    row's domain (an empty domain means the model has no solution); every other
    constraint is returned, in order, for the backend to translate.

    >>> columns, rest = domains(3, 1, [Forbidden(((0, 1),)), Placed(((2, 2),))])
    >>> columns, rest
    ([[{0, 2}, {0, 1, 2}, {2}]], [])
    """
    columns = [[set(range(n)) for _ in range(n)] for _ in range(colours)]
    rest: list[Constraint] = []
    for constraint in constraints:
        if isinstance(constraint, Forbidden):
            for row, col in constraint.cells:
                for colour_columns in columns:
                    colour_columns[row].discard(col)
        elif isinstance(constraint, Placed):
            for row, col in constraint.cells:
                columns[constraint.colour][row] &= {col}
        else:
            rest.append(constraint)
    return columns, rest


def tight_regions(model: Problem) -> bool:
    """Whether every colour of ``model`` keeps one queen per region and none touching.

    Such a model (the Queens game) has few solutions and a short search: one
    search of the whole model beats a split into subproblems, each of which
    would pay for building its own solver model (``Capabilities.whole``).
    """
    constraints = model.constraints
    regions = {c.colour for c in constraints if isinstance(c, Regions)}
    apart = {c.colour for c in constraints if isinstance(c, NoTouch)}
    if model.diagonals:  # queens on touching cells share a diagonal
        apart = set(range(model.colours))
    return all(colour in regions and colour in apart for colour in range(model.colours))
