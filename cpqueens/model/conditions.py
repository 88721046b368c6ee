"""Users' conditions checked before they join a statement: ``Model.where``'s arguments.

A condition is built from a model's variables (``q[row]``, ``x[row, col]``);
one built from another model's, one that is no condition, a ``keeps`` that
names no board symmetry and a constant beyond what every engine holds are
refused here, each with a message naming the value.
"""

from __future__ import annotations

from collections.abc import Iterable

from cpqueens.vocabulary.constraints import Where
from cpqueens.vocabulary.limits import MAX_CONSTANT, constants_beyond
from cpqueens.vocabulary.statement import Statement
from cpqueens.words import plural


def checked(statement: Statement, conditions: Iterable[object], keeps: object) -> list[Where]:
    """Each condition as a ``Where`` kind of ``statement``, declared kept by ``keeps``."""
    from cpqueens.expressions import Condition

    if not isinstance(keeps, (str, Iterable)):
        raise TypeError(
            f"keeps must be symmetry names such as ('mirror',), got {keeps!r} "
            f"({type(keeps).__name__})"
        )
    names = (keeps,) if isinstance(keeps, str) else tuple(keeps)
    found: list[Where] = []
    for condition in conditions:
        if not isinstance(condition, Condition):
            raise TypeError(
                f"where() takes conditions built from model.q or model.x (such as "
                f"m.q[0] < m.q[1]), got {condition!r} ({type(condition).__name__})"
            )
        _check_shape(statement, condition)
        for node, most in constants_beyond(condition.node, max(statement.rows, statement.cols)):
            raise ValueError(
                f"the condition {condition} reaches {most:,} in {node}: expected constants "
                f"and parts of conditions within ±{MAX_CONSTANT:,} (2**53), which every "
                "backend holds"
            )
        found.append(Where(condition.node, names))
    return found


def _check_shape(statement: Statement, condition: object) -> None:
    """Refuse a condition over the variables of another model, naming both boards."""
    shape = getattr(condition, "shape", None)
    if shape is None:
        return
    rows, cols, colours = statement.rows, statement.cols, statement.colours
    if shape[1] < 0:  # x[row, col]: (rows, -columns)
        if shape != (rows, -cols):
            raise ValueError(
                f"the condition {condition} is over the variables of another model, not this "
                f"{rows}x{cols} board of cells: build it from this model's x"
            )
        return
    if shape != (rows, colours):
        n, other = shape
        raise ValueError(
            f"the condition {condition} is over the variables of another model "
            f"(a {n}x{n} board with {plural(other, 'colour')}), not this {rows}x{cols} "
            f"board with {plural(colours, 'colour')}: build it from this model's q"
        )
