"""The planner: for every verb, which engine answers a statement, in which form, which way.

- :func:`route` is the one resolver of every verb (count, solutions, first,
  exists, find, maximize/minimize, the puzzle verbs): it lowers the statement
  to the forms the verb can use (the column form ``q[r]`` when the statement
  has one piece per row and column, the region form for an engine with a
  region search, the cell form ``x[r, c]`` for any other) and picks the engine:
  ``backend="auto"`` (the default) is the first engine in the registry's
  preference (fastest first) that answers; a named engine answers as named
  or refuses with ``NotSupportedError`` naming one that can.
- The ways to count are tried in one ordered list, :func:`strategies`; the
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
  limit, where a compiled kernel running in this process could not. Short
  or long is read from an estimate of the work (``strategies/work.py``: the
  search tree's nodes, from the free rows, holes, placed queens and colours,
  weighed by conditions and by the symmetry kernels' share), as is whether
  the engine's compiled kernels pay for their load in the processes that
  count (:func:`kernels_pay`): then they are loaded there before the first
  part, so that parts too small to pay for them alone take them too.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from cpqueens.backends import BackendName as BackendName  # the documented name
from cpqueens.backends import capabilities, check_backend, get, is_installed, preference
from cpqueens.backends.base import NO_REGION_SEARCH
from cpqueens.errors import NotSupportedError
from cpqueens.lowering.columns import column_form
from cpqueens.lowering.kinds import accepted, lower
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.limits import no_room
from cpqueens.vocabulary.problem import Problem
from cpqueens.vocabulary.statement import Statement

if TYPE_CHECKING:
    from cpqueens.strategies.base import Strategy

#: A backend name as users pass it: a solver, or "auto" for the fastest that fits.
AUTO: Final = "auto"
#: What a kind that no engine states lacks, as a refusal says it.
NEEDS_DECOMPOSE: Final = (
    "a kind from outside the package states itself in kinds the engines know with "
    "decompose(n, colours)"
)


@functools.cache
def strategies() -> tuple[Strategy, ...]:
    """The ways to count, in the order the planner tries them; the last fits every model.

    Loaded with the first count (a puzzle's or an optimisation's verbs never need them).
    """
    from cpqueens.strategies.class_count import ClassKernels
    from cpqueens.strategies.hole_sums import HoleSums
    from cpqueens.strategies.symmetry import Subproblems
    from cpqueens.strategies.whole import Whole

    return (ClassKernels(), HoleSums(), Whole(), Subproblems())


#: A local pool has at most this many worker processes per core.
MAX_WORKERS_PER_CORE = 4


def installed_engines() -> Iterator[str]:
    """The installed engines, fastest first, lazily, those declared by entry point last.

    The built-in and registered engines come first; the entry points of other
    distributions are read only if it comes to them.
    """
    seen = preference()
    yield from (name for name in seen if is_installed(name))
    yield from (name for name in preference(every=True) if name not in seen and is_installed(name))


def supports(backend: str, model: Problem) -> bool:
    """Whether ``backend`` can translate every constraint of ``model``."""
    return _unsupported(backend, model) is None


def _unsupported(backend: str, model: Problem) -> object | None:
    """The first constraint of ``model`` that ``backend`` cannot state, even decomposed, or None."""
    engine = get(backend)
    stated = lower(model.constraints, engine.accepts, model.n, model.colours)
    return next((c for c in stated if not accepted(c, engine.accepts)), None)


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
    >>> resolve(model(8).columns()), resolve(model(8).columns(), "cpsat")
    ('bitmask', 'cpsat')
    """
    if backend != AUTO:
        get(backend)  # an unknown name lists the choices, a missing one what to install
        check_width(model, backend)
        if no_room(model.n, model.colours):  # no solution, known at once (10**8 colours: no
            return backend  # need to state 3 * 10**8 constraints to see it)
        constraint = _unsupported(backend, model)
        if constraint is not None:
            able = [n for n in installed_engines() if n != backend and supports(n, model)]
            instead = f": use backend {able[0]!r}" if able else f": {NEEDS_DECOMPOSE}"
            raise NotSupportedError(
                f"backend {backend!r} does not support the constraint {constraint!r} "
                f"({type(constraint).__name__}){instead}"
            )
        return backend
    if no_room(model.n, model.colours):  # no solution, known at once: any engine says so
        return next(installed_engines())
    for name in installed_engines():
        if supports(name, model):
            return name
    constraint = _unsupported(next(installed_engines()), model)
    raise NotSupportedError(
        f"no installed engine states the constraint {constraint!r} "
        f"({type(constraint).__name__}): {NEEDS_DECOMPOSE}"
    )


def strategy(model: Problem, engine: str) -> Strategy:
    """The first way to count in :func:`strategies` that fits ``model`` on ``engine``.

    >>> from cpqueens import model
    >>> holes = model(16, blocked=[(0, 1)]).columns()
    >>> strategy(model(16).columns(), "bitmask").name, strategy(holes, "bitmask").name
    ('classes', 'hole sums')
    >>> strategy(model(16).columns(), "cpsat").name
    'subproblems'
    """
    return next(way for way in strategies() if way.fits(model, engine))


def placed_as_holes(model: Problem) -> Problem:
    """The same one-colour problem with the placed queens' lines blocked instead of the queens.

    Each placed queen's row keeps only its cell, and its column and diagonals
    lose every other cell: the solutions are exactly the model's, so are the
    board symmetries that keep it when all 8 keep the model. Raises ValueError
    for a model with more colours or extra constraints (the holes would bind them all).

    >>> from cpqueens import model
    >>> placed_as_holes(model(3, placed=[(1, 1)]).columns()).board.blocked
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
    """Whether counting ``model`` may run for more than a second or two on one core.

    Its estimated work (:func:`~cpqueens.strategies.work.weighted_nodes`: the
    search tree's nodes, weighed by conditions, or the symmetry kernels'
    share when ``kernels``) against twice the free board's of a row fewer than
    the engine's ``Capabilities.short_below_free_rows``, the largest it calls
    short (:func:`~cpqueens.strategies.work.long_from`).

    >>> from cpqueens import model
    >>> is_long(model(16).columns(), "bitmask", kernels=True)  # a quarter of a 16-board search
    False
    >>> is_long(model(17).columns(), "bitmask", kernels=True)
    True
    >>> m = model(16)
    >>> is_long(m.where(m.q[0] < m.q[15]).columns(), "bitmask", kernels=False)
    True
    """
    short_below = capabilities(backend).short_below_free_rows
    if model.colours == 1 and model.n < short_below:
        # At most the free board of short_below - 1 rows, weighed by 1.25 at most: short
        # without an estimate (a small count then pays for no random paths).
        return False
    from cpqueens.strategies.work import long_from, weighted_nodes

    return weighted_nodes(model, kernels) >= long_from(short_below)


def kernels_pay(model: Problem, backend: str, kernels: bool) -> bool:
    """Whether the processes that count ``model`` should load the engine's compiled kernels first.

    On an engine that counts in the kernels: always for the symmetry kernels'
    strategies (``kernels``), else when the whole count's estimated work
    (:data:`~cpqueens.strategies.work.KERNELS_PAY_NODES`) outweighs loading
    numba, however small each of its parts: a 12-board with a condition, split
    in 60 parts of 10 rows, each over in plain Python before numba would load,
    takes a second in all, against 0.05 s once the kernel is loaded.

    >>> from cpqueens import model
    >>> m, e = model(12), model(11)
    >>> kernels_pay(m.where(m.q[0] < m.q[11]).columns(), "bitmask", kernels=False)
    True
    >>> kernels_pay(e.where(e.q[0] < e.q[10]).columns(), "bitmask", kernels=False)
    False
    """
    if not capabilities(backend).kernels:
        return False
    from cpqueens.strategies.work import KERNELS_PAY_NODES, weighted_nodes

    return kernels or weighted_nodes(model, kernels) >= KERNELS_PAY_NODES


def processes(model: Problem, backend: str, workers: int | None, kernels: bool) -> int:
    """How many worker processes count ``model``; 0 means this process.

    A short search (:func:`is_long`) runs in this process whatever ``workers``
    asks: starting a pool costs more than sharing the work saves
    (``benchmarks/RESULTS-workers.md``, ``benchmarks/RESULTS-count-paths.md``).
    A long one runs in ``workers`` processes (None: every core), even when one
    is asked for, so that Ctrl-C and time limits stop it at once. At most
    ``MAX_WORKERS_PER_CORE`` per core: the search is pure CPU, more processes
    only cost memory.
    """
    if not is_long(model, backend, kernels):
        return 0
    cores = os.cpu_count() or 1
    return cores if workers is None else min(workers, MAX_WORKERS_PER_CORE * cores)


def threads(model: Problem, backend: str, workers: int | None, nogil: bool) -> int:
    """How many threads of this process share a short count of ``model``; 1 means no pool.

    A short search (:func:`is_long` false) whose parts run in compiled kernels
    that release the GIL (``nogil``: the strategy's ``threads``) is shared among
    ``workers`` threads (None: every core), at most one per core: threads
    start in microseconds where a process pool's start eats the gain of a
    count of a second or two (``benchmarks/RESULTS-workers.md``). A long one
    runs in worker processes (:func:`processes`), which Ctrl-C and time limits stop at once.
    """
    if not nogil or workers == 1 or not capabilities(backend).kernels:
        return 1
    if is_long(model, backend, nogil):
        return 1
    cores = os.cpu_count() or 1
    return cores if workers is None else max(1, min(workers, cores))


# -- the one resolver of every verb ----------------------------------------------------------

Form = Literal["columns", "regions", "cells"]
#: The forms a verb on a model may use, the first that fits taken.
MODEL_FORMS: tuple[Form, ...] = ("columns", "regions", "cells")
#: The verbs of the cell form, by the verb asked.
_CELL_VERBS = {
    "count": "count",
    "solutions": "solutions",
    "first": "solutions",
    "exists": "solutions",
    "find": "solutions",
    "optimise": "optimise",
}
#: The verbs a region search answers.
_REGION_VERBS = ("count", "solutions", "first", "exists", "find")
#: How messages name what a verb does.
_DOING = {"solutions": "list the solutions of", "optimise": "optimise"}


@dataclass(frozen=True)
class Route:
    """Which engine answers a verb on a statement, and the form (lowered) it reads."""

    engine: str
    form: Form
    problem: Any


def route(
    statement: Statement,
    verb: str,
    backend: str = AUTO,
    *,
    size: int | None = None,
    unique: bool = False,
    sense: str | None = None,
    forms: Sequence[Form] = MODEL_FORMS,
) -> Route:
    """The engine and the form that answer ``verb`` on ``statement`` with ``backend``.

    ``size`` (pieces per group, checked against the quotas by the caller) and
    ``unique`` narrow what a form and an engine must do; ``forms`` are the
    forms the verb can use, in order: the column form for a statement with one
    piece per row and column (and no size other than its own), the region form
    for an engine with a region search, the cell form for any statement of one
    colour. "auto" takes the first engine, fastest first, that answers in the
    first form that fits; a named engine refuses with ``NotSupportedError``
    naming one that can.

    >>> from cpqueens import model
    >>> r = route(model(8).statement, "count")
    >>> r.engine, r.form
    ('bitmask', 'columns')
    >>> route(model(8, per_row=None, per_column=None).statement, "optimise", sense="maximize").form
    'cells'
    """
    name = check_backend(backend)
    own_size = size is None or size == statement.size
    if "columns" in forms and verb in _CELL_VERBS and verb != "optimise" and own_size:
        problem = column_form(statement)
        if problem is not None:
            return Route(resolve(problem, name), "columns", problem)
    from cpqueens.lowering.cells import cell_form  # the other forms load when first asked for
    from cpqueens.lowering.regions import region_form

    puzzle = None
    if "regions" in forms and verb in _REGION_VERBS and own_size and not unique:
        puzzle = region_form(statement)
        found = None if puzzle is None else _regions_engine(puzzle, name)
        if found is not None:
            return Route(found, "regions", puzzle)
    cells = cell_form(statement)  # several colours refuse here, on every engine alike
    cell_verb = _CELL_VERBS.get(verb, verb)
    try:
        engine = cell_engine(cells, name, cell_verb, size, unique, sense)
    except NotSupportedError:
        why = None if puzzle is None or name == AUTO else get(name).region_refusal(puzzle)
        if why is not None and why != NO_REGION_SEARCH:
            raise NotSupportedError(why) from None  # its region search's own reason
        raise
    return Route(engine, "cells", cells)


def region_engine(puzzle: Any) -> str:
    """The first engine, fastest first, whose region search takes ``puzzle``.

    A ``NotSupportedError`` gives the reason of the first engine that has a
    region search and refuses this puzzle (too many row placements, say).
    """
    reasons = []
    for candidate in installed_engines():
        why = get(candidate).region_refusal(puzzle)
        if why is None:
            return candidate
        if why != NO_REGION_SEARCH:
            reasons.append(why)
    raise NotSupportedError(reasons[0] if reasons else NO_REGION_SEARCH)


def _regions_engine(puzzle: Any, name: str) -> str | None:
    """The engine that searches ``puzzle`` directly: ``name``, or "auto"'s first; else None.

    A named engine without a region search answers the puzzle's cell form instead.
    """
    candidates = installed_engines() if name == AUTO else iter([name])
    for candidate in candidates:
        if get(candidate).region_refusal(puzzle) is None:
            return candidate
    return None


def _refusals(
    problem: Any, verb: str, size: int | None, unique: bool, sense: str | None
) -> Iterator[tuple[str, str | None]]:
    """(engine, why it refuses or None) for each installed engine, fastest first, lazily."""
    for name in installed_engines():
        yield name, get(name).cell_refusal(problem, verb, size, unique, sense)  # type: ignore[arg-type]


def cell_engine(
    problem: Any, name: str, verb: str, size: int | None, unique: bool, sense: str | None
) -> str:
    """The engine for ``verb`` on the cell form ``problem``: ``name``, or "auto"'s first."""
    doing = _DOING.get(verb, verb)
    if name == AUTO:
        for candidate, why in _refusals(problem, verb, size, unique, sense):
            if why is None:
                return candidate
        raise NotSupportedError(f"no installed engine can {doing} this cell statement")
    why = get(name).cell_refusal(problem, verb, size, unique, sense)  # type: ignore[arg-type]
    if why is None:
        return name
    able = next(
        (c for c, reason in _refusals(problem, verb, size, unique, sense) if reason is None), ""
    )
    instead = f": use backend {able!r}" if able else ""
    raise NotSupportedError(f"backend {name!r} cannot {doing} this ({why}){instead}")
