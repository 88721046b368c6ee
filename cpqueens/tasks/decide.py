"""Deciding a model: ``exists()`` and the lexicographically first solution, compiled where possible.

A plain model (queens' lines, blocked cells, placed queens, colours: no
variants, conditions or symmetry rules) on at most 64 columns is searched by
the resumable kernels of :mod:`cpqueens.kernels.resumable`, in chunks, so that
Ctrl-C and the time limit are seen between chunks:

- ``first``: every colour but the last enumerated in lexicographic order, each
  by the compiled plain DFS, the last one searched by it too: the same
  solution the enumeration yields first;
- ``exists``: the same, but the last colour searched fewest-free-cells row
  first with look-ahead, which visits far fewer nodes on hard boards.

Any other model takes its backend's lexicographic enumeration; ``exists``
on ``cpsat`` is one CP-SAT decision solve with its free search, and on
"auto" beyond 64 columns it asks ``find()``'s portfolio. A limit ends a
search with ``IncompleteSearchError``, never with an unproven answer.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

from cpqueens.backends import get as get_backend
from cpqueens.errors import IncompleteSearchError
from cpqueens.strategies.planner import resolve

if TYPE_CHECKING:
    import numpy as np

    from cpqueens.backends.bitmask import Deadline, Plan
    from cpqueens.model import Model

#: The widest board the kernels hold (a row is a uint64).
NATIVE_MAX_N = 64
#: Nodes a kernel visits between two looks at the clock and at Ctrl-C (about a millisecond).
CHUNK = 1 << 16

Columns = tuple[tuple[int, ...], ...]


def _clock(time_limit: float | None) -> Deadline | None:
    """The search's deadline, starting now; None without a limit."""
    from cpqueens.backends.bitmask import Deadline

    return None if time_limit is None else Deadline(time_limit)


def first(model: Model, backend: str, time_limit: float | None) -> Columns | None:
    """The lexicographically first solution's columns per colour, or None if there is none."""
    clock = _clock(time_limit)
    engine = resolve(model, backend)
    plan = _native_plan(model) if engine == "bitmask" else None
    if plan is not None:
        return _checked(plan, _native_search(plan, clock, lexicographic=True))
    return _first_enumerated(model, engine, clock)


def exists(model: Model, backend: str, time_limit: float | None) -> bool:
    """Whether the model has a solution."""
    clock = _clock(time_limit)
    engine = resolve(model, backend)
    plan = _native_plan(model) if engine == "bitmask" else None
    if plan is not None:
        return _checked(plan, _native_search(plan, clock, lexicographic=False)) is not None
    if backend == "auto" and model.n > NATIVE_MAX_N:
        from cpqueens.tasks.find import find  # beyond the kernels: the portfolio, not pure Python

        return find(model, "auto", time_limit) is not None
    if engine == "cpsat":
        return _cpsat_exists(model, clock)
    return _first_enumerated(model, engine, clock) is not None


def _first_enumerated(model: Model, engine: str, clock: Deadline | None) -> Columns | None:
    """The first solution ``engine``'s lexicographic enumeration yields."""
    found = get_backend(engine).solutions(
        model, time_limit=None if clock is None else clock.time_limit
    )
    try:
        return next(found, None)
    finally:
        found.close()


def _native_plan(model: Model) -> Plan | None:
    """The model's bitmask plan if the search kernels can decide it and it pays, else None."""
    from cpqueens.backends import bitmask

    plan = bitmask.compile_plan(model)
    return plan if plan.plain and bitmask._wants_native(plan) else None


def _native_search(plan: Plan, clock: Deadline | None, lexicographic: bool) -> Columns | None:
    """The first solution of ``plan`` in lexicographic order, or any, searched by the kernels.

    Every colour but the last is enumerated (in lexicographic order, or in the
    fewest-free-row search's order), the last one searched under the cells
    the earlier colours leave.
    """
    from cpqueens.backends.bitmask import _colour_masks

    colours = len(plan.allowed)
    enumerate_ = placements if lexicographic else any_placements

    def nested(earlier: Columns) -> Columns | None:
        masks = _array(_colour_masks(plan, len(earlier), earlier))
        if len(earlier) == colours - 1:
            columns = next(enumerate_(masks, clock), None)
            return None if columns is None else (*earlier, columns)
        for columns in enumerate_(masks, clock):
            found = nested((*earlier, columns))
            if found is not None:
                return found
        return None

    return nested(())


def _array(masks: list[int]) -> np.ndarray:
    import numpy as np

    return np.array(masks, dtype=np.uint64)


def placements(allowed: np.ndarray, clock: Deadline | None = None) -> Iterator[tuple[int, ...]]:
    """Every one-colour placement under ``allowed`` masks, in lexicographic order, compiled."""
    from cpqueens.kernels import resumable as ns

    state = ns.first_state(allowed)
    while True:
        status = ns.next_placement(allowed, *state, CHUNK)
        if status == ns.FOUND:
            yield tuple(int(col) for col in state[1])
        elif status == ns.EXHAUSTED:
            return
        elif clock is not None:
            clock.check()


def any_placements(allowed: np.ndarray, clock: Deadline | None = None) -> Iterator[tuple[int, ...]]:
    """Every one-colour placement under ``allowed`` masks, most constrained row first, compiled.

    The first comes fast on hard boards; the order is the search's, not lexicographic.
    """
    from cpqueens.kernels import resumable as ns

    state = ns.any_state(allowed)
    while True:
        status = ns.search_any(*state, CHUNK)
        if status == ns.FOUND:
            yield tuple(int(col) for col in state[4])
        elif status == ns.EXHAUSTED:
            return
        elif clock is not None:
            clock.check()


def _checked(plan: Plan, found: Columns | None) -> Columns | None:
    """``found`` after checking it against ``plan`` (a kernel's bug never leaves)."""
    if found is None:
        return None
    n = plan.n
    for colour, columns in enumerate(found):
        lines = (
            set(columns),
            {c - r for r, c in enumerate(columns)},
            {c + r for r, c in enumerate(columns)},
        )
        allowed = plan.allowed[colour]
        if len(columns) != n or any(len(line) != n for line in lines):
            raise AssertionError(f"internal error: two queens of {found} attack each other")
        if any(not allowed[row] >> col & 1 for row, col in enumerate(columns)):
            raise AssertionError(f"internal error: {found} has a queen on a cell it may not use")
    for a, b in plan.disjoint:
        if any(x == y for x, y in zip(found[a], found[b], strict=True)):
            raise AssertionError(f"internal error: {found} puts two queens on one cell")
    return found


def _cpsat_exists(model: Model, clock: Deadline | None) -> bool:
    """One CP-SAT decision solve with its free search, in a thread that Ctrl-C stops."""
    from ortools.sat.python import cp_model

    from cpqueens.backends.cpsat import build

    cp, _ = build(model, lexicographic=False)
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False
    left = None if clock is None else clock.left()
    if left is not None:
        solver.parameters.max_time_in_seconds = max(left, 1e-3)
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(solver.solve(cp)), daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
    except BaseException:
        while thread.is_alive():
            solver.stop_search()
            thread.join(0.05)
        raise
    status = result[0]
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    if clock is not None:
        raise clock.error()
    raise IncompleteSearchError(
        f"CP-SAT stopped before deciding the model (status {solver.status_name(status)})"
    )


class LineSearch:
    """The fewest-free-row search of ``exists()`` for one colour, a chunk per ``step()``.

    A member of ``find()``'s portfolio: complete, so its ``EXHAUSTED`` proves
    that the model has no solution. Only for one-colour plain models on at
    most ``NATIVE_MAX_N`` columns (see :func:`line_search`).
    """

    def __init__(self, allowed: np.ndarray) -> None:
        """Start the search under ``allowed`` per-row masks."""
        from cpqueens.kernels import resumable as native_search

        self._kernels = native_search
        self._state = native_search.any_state(allowed)

    def step(self) -> bool | None:
        """Search one chunk: True if a placement was found, False if none is left, else None."""
        status = self._kernels.search_any(*self._state, CHUNK)
        if status == self._kernels.FOUND:
            return True
        return False if status == self._kernels.EXHAUSTED else None

    def columns(self) -> tuple[int, ...]:
        """The placement the last ``FOUND`` step reached."""
        return tuple(int(col) for col in self._state[4])


def line_search(model: Model) -> LineSearch | None:
    """A :class:`LineSearch` of a one-colour plain model the kernels hold, else None."""
    if model.colours != 1 or model.n > NATIVE_MAX_N:
        return None
    from cpqueens.backends import bitmask

    plan = bitmask.compile_plan(model)
    if not plan.plain:
        return None
    return LineSearch(_array(list(plan.allowed[0])))  # one colour: no other's cells to take
