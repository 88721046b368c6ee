"""Kinds an engine does not state natively, replaced by their decompositions (CPMpy's shape).

A constraint kind lowers itself: ``decompose(n, colours)`` states the same
constraint in kinds the engines know, usually ``Where`` conditions over ``q``
(linear sums, tables, comparisons). An engine states the kinds it accepts
natively (its fast paths) and the decompositions of the rest, so a kind from
outside the package counts on every engine with no edit to any.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

#: What an engine accepts natively: a tuple of kinds, or a predicate on a constraint.
Accepts = tuple[type, ...] | Callable[[object], bool]


def accepted(constraint: object, accepts: Accepts) -> bool:
    """Whether ``accepts`` (kinds, or a predicate) takes ``constraint`` natively."""
    if isinstance(accepts, tuple):
        return isinstance(constraint, accepts)
    return bool(accepts(constraint))


def lower(
    constraints: Iterable[object], accepts: Accepts, n: int, colours: int
) -> tuple[object, ...]:
    """``constraints`` with each kind ``accepts`` refuses replaced by its decomposition.

    A kind the engine accepts stays (its native path); one it does not and
    that has ``decompose(n, colours)`` is replaced, recursively; any other
    stays, for the engine to refuse by name.

    >>> from cpqueens.vocabulary.constraints import Forbidden
    >>> lower([Forbidden(((0, 1),))], (Forbidden,), 4, 1)
    (Forbidden(cells=((0, 1),)),)
    """
    found: list[object] = []
    for constraint in constraints:
        decompose = getattr(constraint, "decompose", None)
        if not accepted(constraint, accepts) and callable(decompose):
            found.extend(lower(decompose(n, colours), accepts, n, colours))
        else:
            found.append(constraint)
    return tuple(found)
