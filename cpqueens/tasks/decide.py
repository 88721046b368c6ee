"""Deciding a model: ``exists()`` and the lexicographically first solution.

An engine that declares a compiled decision search (``Capabilities.decides``)
answers the models it holds itself: ``first`` in lexicographic order,
``exists`` with any solution its search reaches first (the bitmask engine's
``bitmask_search``). Any other model takes its engine's lexicographic
enumeration; ``exists`` on an engine with its own free search
(``Capabilities.free_search``: CP-SAT) is one decision solve, and on "auto"
beyond the kernels' 64 columns it asks ``find()``'s portfolio. A limit ends
a search with ``IncompleteSearchError``, never with an unproven answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpqueens.backends import capabilities
from cpqueens.backends import get as get_backend
from cpqueens.clock import Deadline
from cpqueens.kernels import MAX_COLUMNS
from cpqueens.strategies.planner import AUTO, resolve
from cpqueens.tasks import find
from cpqueens.vocabulary.limits import no_room

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem

Columns = tuple[tuple[int, ...], ...]


def _clock(time_limit: float | None) -> Deadline | None:
    """The search's deadline, starting now; None without a limit."""
    return None if time_limit is None else Deadline(time_limit)


def first(model: Problem, backend: str, time_limit: float | None) -> Columns | None:
    """The lexicographically first solution's columns per colour, or None if there is none."""
    clock = _clock(time_limit)
    engine = resolve(model, backend)
    if no_room(model.n, model.colours):
        return None  # more colours than columns: no solution, known at once
    if capabilities(engine).decides and get_backend(engine).decides(model):
        return get_backend(engine).first(model, clock, lexicographic=True)
    return _first_enumerated(model, engine, clock)


def exists(model: Problem, backend: str, time_limit: float | None) -> bool:
    """Whether the model has a solution."""
    clock = _clock(time_limit)
    engine = resolve(model, backend)
    if no_room(model.n, model.colours):
        return False  # more colours than columns: no solution, known at once
    declared = capabilities(engine)
    if declared.decides and get_backend(engine).decides(model):
        return get_backend(engine).first(model, clock, lexicographic=False) is not None
    if backend == AUTO and model.n > MAX_COLUMNS:  # beyond the kernels: the portfolio
        return find.find(model, AUTO, time_limit) is not None
    if declared.free_search:
        return bool(get_backend(engine).exists(model, clock))
    return _first_enumerated(model, engine, clock) is not None


def _first_enumerated(model: Problem, engine: str, clock: Deadline | None) -> Columns | None:
    """The first solution ``engine``'s lexicographic enumeration yields."""
    found = get_backend(engine).solutions(
        model, time_limit=None if clock is None else clock.time_limit
    )
    try:
        return next(found, None)
    finally:
        found.close()
