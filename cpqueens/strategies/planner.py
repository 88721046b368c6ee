"""The planner: which engine answers a model, which way to count it, and where its search runs.

- ``backend="auto"`` (the default) is the fastest exact engine that supports
  every constraint of the model: the first in the registry's preference
  (``backends.preference()``: the ``bitmask`` engine for everything its
  kernels handle, else ``cpsat``, which states any constraint, else
  ``python-constraint``). A named backend is used as named.
- The ways to count are tried in one ordered list, :data:`STRATEGIES`; the
  first that fits counts: on an engine that counts in the kernels, a
  one-colour board free or with holes all 8 symmetries keep goes to the
  symmetry kernels (``class_count.ClassKernels``), one with a few other holes
  to the free board less the completions on its holes
  (``hole_sums.HoleSums``), anything else to weighted subproblems
  (``symmetry.Subproblems``). A model whose placed queens all 8 symmetries
  keep (the queen in the middle of an odd board) is counted first rewritten
  with the queens' lines as holes (:func:`placed_as_holes`).
- A search runs in this process when it is short, whatever the workers asked
  (a pool's start costs more than it saves), else in worker processes, even
  for one worker: a worker can be stopped at once on Ctrl-C or at a time
  limit, where a compiled kernel running in this process could not.
"""

from __future__ import annotations

import dataclasses
import os

from cpqueens.backends import BackendName as BackendName  # the documented name
from cpqueens.backends import capabilities, get, is_installed, preference
from cpqueens.errors import NotSupportedError
from cpqueens.strategies import class_count
from cpqueens.strategies.base import Strategy
from cpqueens.strategies.class_count import ClassKernels
from cpqueens.strategies.hole_sums import HoleSums
from cpqueens.strategies.symmetry import Subproblems
from cpqueens.strategies.whole import Whole
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.constraints import lower
from cpqueens.vocabulary.limits import no_room
from cpqueens.vocabulary.problem import Problem

#: A backend name as users pass it: a solver, or "auto" for the fastest that fits.
AUTO = "auto"

#: The ways to count, in the order the planner tries them; the last fits every model.
STRATEGIES: tuple[Strategy, ...] = (ClassKernels(), HoleSums(), Whole(), Subproblems())

#: A local pool has at most this many worker processes per core.
MAX_WORKERS_PER_CORE = 4


def supports(backend: str, model: Problem) -> bool:
    """Whether ``backend`` can translate every constraint of ``model``."""
    accepted = get(backend).SUPPORTS
    stated = lower(model.constraints, accepted, model.n, model.colours)
    return all(isinstance(constraint, accepted) for constraint in stated)


def check_width(model: Problem, backend: str) -> None:
    """Refuse a board wider than ``backend`` prepares within a time limit (its ``MAX_N``)."""
    widest = getattr(get(backend), "MAX_N", None)
    if widest is not None and model.n > widest:
        raise ValueError(
            f"backend {backend!r} takes boards of at most {widest:,} columns (a time limit "
            f"cannot bound building its model beyond), got n={model.n:,}: use backend 'auto'"
        )


def resolve(model: Problem, backend: str = AUTO) -> str:
    """The backend that answers ``model``: ``backend`` itself, or the one "auto" picks.

    >>> from cpqueens import model
    >>> resolve(model(8)), resolve(model(8), "cpsat")
    ('bitmask', 'cpsat')
    """
    if backend != AUTO:
        engine = get(backend)  # an unknown name lists the choices, a missing one what to install
        check_width(model, backend)
        if no_room(model.n, model.colours):  # no solution, known at once (10**8 colours: no
            return backend  # need to state 3 * 10**8 constraints to see it)
        accepted = engine.SUPPORTS
        stated = lower(model.constraints, accepted, model.n, model.colours)
        for constraint in stated:
            if not isinstance(constraint, accepted):
                able = [name for name in preference() if is_installed(name)]
                able = [name for name in able if name != backend and supports(name, model)]
                instead = f": use backend {able[0]!r}" if able else ""
                raise NotSupportedError(
                    f"backend {backend!r} does not support the constraint {constraint!r} "
                    f"({type(constraint).__name__}){instead}"
                )
        return backend
    if no_room(model.n, model.colours):  # no solution, known at once: any engine says so
        return next(name for name in preference() if is_installed(name))
    for name in preference():
        if is_installed(name) and supports(name, model):
            return name
    raise ValueError(f"no installed backend supports every constraint of {model}")


def strategy(model: Problem, engine: str) -> Strategy:
    """The first way to count in :data:`STRATEGIES` that fits ``model`` on ``engine``.

    >>> from cpqueens import model
    >>> strategy(model(16), "bitmask").name, strategy(model(16, blocked=[(0, 1)]), "bitmask").name
    ('classes', 'hole sums')
    >>> strategy(model(16), "cpsat").name
    'subproblems'
    """
    return next(way for way in STRATEGIES if way.fits(model, engine))


def placed_as_holes(model: Problem) -> Problem:
    """The same one-colour problem with the placed queens' lines blocked instead of the queens.

    Each placed queen's row keeps only its cell, and its column and diagonals
    lose every other cell: the solutions are exactly the model's, so are the
    board symmetries that keep it when all 8 keep the model. Raises ValueError
    for a model with more colours or extra constraints (the holes would bind them all).

    >>> from cpqueens import model
    >>> placed_as_holes(model(3, placed=[(1, 1)])).board.blocked
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))
    """
    if model.colours != 1 or model.extra or not model.diagonals:
        raise ValueError(f"placed queens become holes on a one-colour model only, got {model}")
    n = model.n
    lines = {
        (r, c)
        for qr, qc in model.placed
        for r in range(n)
        for c in range(n)
        if (r, c) != (qr, qc) and (r == qr or c == qc or abs(r - qr) == abs(c - qc))
    }
    holes = tuple(sorted(lines | set(model.board.blocked)))
    return dataclasses.replace(model, board=Board(n, holes), placed=())


def takes_placed_as_holes(model: Problem, backend: str) -> bool:
    """Whether ``model`` counts as :func:`placed_as_holes`: placed queens all 8 symmetries keep.

    Then the symmetry kernels count it (a one-colour board on an engine that
    counts in the kernels, no other constraint).
    """
    return (
        capabilities(backend).kernels
        and bool(model.placed)
        and model.colours == 1
        and model.diagonals
        and not model.extra
        and len(model.symmetries()) == 8
    )


def is_long(model: Problem, backend: str, kernels: bool) -> bool:
    """Whether the search may run for more than about a second on one core."""
    if kernels:
        return model.n >= class_count.PARALLEL_MIN_N
    free_rows = model.n - len(model.placed)
    return free_rows >= capabilities(backend).short_below_free_rows


def processes(model: Problem, backend: str, workers: int | None, kernels: bool) -> int:
    """How many worker processes count ``model``; 0 means this process.

    A short search (:func:`is_long`) runs in this process whatever ``workers``
    asks: starting a pool costs more than sharing the work saves
    (``benchmarks/RESULTS-workers.md``). A long one runs in ``workers``
    processes (None: every core), even when one is asked for, so that Ctrl-C
    and time limits stop it at once. At most ``MAX_WORKERS_PER_CORE`` per
    core: the search is pure CPU, more processes only cost memory.
    """
    if not is_long(model, backend, kernels):
        return 0
    cores = os.cpu_count() or 1
    return cores if workers is None else min(workers, MAX_WORKERS_PER_CORE * cores)
