"""Deciding a column form: ``exists()`` and the first solution.

An engine that declares a compiled decision search (``Capabilities.decides``)
answers the forms it holds itself: the first solution in lexicographic order,
or any its search reaches first (the bitmask engine's ``bitmask_search``). Any
other form takes its engine's lexicographic enumeration; ``exists`` on an
engine with its own free search (``Capabilities.free_search``: CP-SAT) is one
decision solve, and on "auto" beyond the kernels' 64 columns it asks
``find()``'s portfolio. A deadline ends a search with
``IncompleteSearchError``, never with an unproven answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpqueens.backends import get as get_backend
from cpqueens.clock import seconds_left
from cpqueens.kernels import MAX_COLUMNS
from cpqueens.strategies.planner import AUTO
from cpqueens.tasks import find
from cpqueens.vocabulary.limits import no_room

if TYPE_CHECKING:
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.problem import Problem

Columns = tuple[tuple[int, ...], ...]


def first(
    model: Problem, engine: str, deadline: Deadline | None, lexicographic: bool = True
) -> Columns | None:
    """The first solution's columns per colour (lexicographic, or any), or None if none."""
    if no_room(model.n, model.colours):
        return None  # more colours than columns: no solution, known at once
    found = get_backend(engine)
    if found.CAPABILITIES.decides and found.decides(model):
        return found.first(model, deadline, lexicographic)
    return _first_enumerated(model, engine, deadline)


def exists(model: Problem, engine: str, deadline: Deadline | None, backend: str = AUTO) -> bool:
    """Whether the model has a solution (``backend`` as the user named it)."""
    if no_room(model.n, model.colours):
        return False  # more colours than columns: no solution, known at once
    found = get_backend(engine)
    declared = found.CAPABILITIES
    if declared.decides and found.decides(model):
        return found.first(model, deadline, lexicographic=False) is not None
    if backend == AUTO and model.n > MAX_COLUMNS:  # beyond the kernels: the portfolio
        return find.find(model, AUTO, engine, seconds_left(deadline)) is not None
    if declared.free_search:
        return bool(found.exists(model, deadline))
    return _first_enumerated(model, engine, deadline) is not None


def _first_enumerated(model: Problem, engine: str, deadline: Deadline | None) -> Columns | None:
    """The first solution ``engine``'s lexicographic enumeration yields."""
    found = get_backend(engine).solutions(model, deadline)
    try:
        return next(found, None)
    finally:
        close = getattr(found, "close", None)
        if close is not None:
            close()
