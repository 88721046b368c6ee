"""Every verb of a model, on one statement: ask the planner for the route, then answer in its form.

Each function here takes a :class:`~cpqueens.vocabulary.statement.Statement`,
starts one clock for the whole call, asks :func:`cpqueens.strategies.planner.route`
which engine answers and in which form (columns, a region puzzle, cells), and
hands the lowered form to the engine: the column form through the counting
strategies, the decision searches and ``find()``'s portfolio; the region form
through the engine's region search; the cell form through its cell methods.
The answers come back in one shape whatever the form: ``Solution`` objects
for statements of one piece per row and column, ``Placement`` otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from itertools import islice
from typing import Any

from cpqueens import clock
from cpqueens.backends import backends as installed_backends
from cpqueens.backends import get
from cpqueens.clock import Deadline
from cpqueens.errors import CrossCheckError, NotSupportedError
from cpqueens.strategies.planner import AUTO, MODEL_FORMS, Form, Route, route
from cpqueens.vocabulary.cells import Placement
from cpqueens.vocabulary.checks import check_limit, check_time_limit
from cpqueens.vocabulary.solution import Solution
from cpqueens.vocabulary.statement import Statement


def size_of(statement: Statement, queens: object) -> int | None:
    """``queens`` checked: None, or an int >= 0 that the statement's quotas admit."""
    if queens is None:
        return None
    if isinstance(queens, bool) or not isinstance(queens, int) or queens < 0:
        raise TypeError(f"queens must be an int >= 0 or None, got {queens!r}")
    size = statement.size
    if size is None or queens == size:
        return queens
    stated = ", ".join(
        f"{name}={getattr(statement, name)}"
        for name in ("per_row", "per_column", "per_region")
        if getattr(statement, name) is not None
    )
    raise ValueError(
        f"queens={queens} contradicts the quotas: {stated} on this board means {size} pieces "
        "in every solution" + (" of each colour" if statement.colours > 1 else "")
    )


def _clock(time_limit: float | Deadline | None) -> Deadline | None:
    """One clock for the call: ``time_limit`` seconds checked, or a caller's running clock."""
    if isinstance(time_limit, Deadline):
        return time_limit
    return clock.start(check_time_limit(time_limit))


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return value


def _no_pool(verb: str, **options: object) -> None:
    """Refuse the pool options a search of one engine's region or cell form does not take."""
    for name, value in options.items():
        if value is not None:
            raise NotSupportedError(
                f"{verb}({name}=...) runs statements of one queen per row and column in pieces; "
                "this statement is counted by one engine's search: leave it out"
            )


def count(
    statement: Statement,
    backend: str = AUTO,
    *,
    queens: int | None = None,
    unique: bool = False,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: bool | Callable[[int, int], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    time_limit: float | Deadline | None = None,
    limit: int | None = None,
    forms: Sequence[Form] = MODEL_FORMS,
) -> int:
    """The exact number of solutions (with ``unique``, of classes under the symmetries).

    With ``limit``, the count stops there: ``limit`` means at least that
    many (``limit=2`` answers "is it unique?"); the column form is always
    counted whole, so a caller that wants the stop asks for the other
    ``forms`` only, as a puzzle does. ``time_limit`` is seconds, or the
    running clock of a verb that calls this one.
    """
    size = size_of(statement, queens)
    unique = _flag(unique, "unique")
    limit = check_limit(limit, 1)
    deadline = _clock(time_limit)
    way = route(statement, "count", backend, size=size, unique=unique, forms=forms)
    if way.form == "columns" and isinstance(time_limit, Deadline):
        time_limit.check()  # the strategies take seconds: those left
        deadline = Deadline(time_limit.left())
    found = _count_way(
        statement, way, size, unique, workers, executor, progress, checkpoint, deadline, limit
    )
    return found if limit is None else min(found, limit)


def _count_way(
    statement: Statement,
    way: Route,
    size: int | None,
    unique: bool,
    workers: int | None,
    executor: Executor | None,
    progress: bool | Callable[[int, int], None] | None,
    checkpoint: str | os.PathLike[str] | None,
    deadline: Deadline | None,
    limit: int | None = None,
) -> int:
    """The count of ``way``'s form: the column form's strategies, or one search of the others.

    ``limit`` stops the search of a region or cell form there.
    """
    if way.form == "columns":
        from cpqueens.tasks import count as count_task

        return count_task.count(
            way.problem,
            way.engine,
            unique=unique,
            workers=workers,
            executor=executor,
            progress=progress,
            checkpoint=checkpoint,
            time_limit=None if deadline is None else deadline.time_limit,
        )
    _no_pool("count", workers=workers, executor=executor, checkpoint=checkpoint)
    from cpqueens.execution.progress import counted  # one search: one piece on the bar

    if way.form == "regions":
        return counted(progress, lambda: get(way.engine).region_count(way.problem, limit, deadline))
    if unique:
        _check_claims(way.problem, statement)  # a false claim raises, never miscounts
    return _count_cells(way, size, unique, progress, deadline, limit)


#: From this many free cells on, a count of every size of pieces that need not be independent
#: may run long (up to 2**cells solutions, each enumerated): it says so and counts size by size.
LONG_EVERY_SIZE_CELLS = 24


def _count_cells(
    way: Route,
    size: int | None,
    unique: bool,
    progress: bool | Callable[[int, int], None] | None,
    deadline: Deadline | None,
    limit: int | None = None,
) -> int:
    """The count of a cell form (stopping at ``limit``); every size at once, or size by size.

    A statement whose quotas fix no size, counted without ``queens``, counts
    every size; where its pieces need not be independent and the board has
    ``LONG_EVERY_SIZE_CELLS`` free cells or more, it warns
    (``LongCountWarning``) and counts one size at a time, each a step of the
    progress bar.
    """
    from cpqueens.execution.progress import Progress, counted
    from cpqueens.tasks import optimise

    problem = way.problem
    cells = len(problem.board.free)
    every_size = size is None and problem.size is None
    if not (every_size and not problem.independent and cells >= LONG_EVERY_SIZE_CELLS):
        return counted(
            progress,
            lambda: optimise.count(
                problem, way.engine, size, unique=unique, deadline=deadline, limit=limit
            ),
        )
    import warnings

    from cpqueens.errors import LongCountWarning

    warnings.warn(
        f"count() of every size on {cells} free cells where pieces may attack each other: up "
        f"to 2**{cells} solutions, counted one by one, size by size; pass queens=k to count "
        "one size",
        LongCountWarning,
        stacklevel=4,
    )
    sizes = range(cells // problem.armies + 1)
    total = 0
    with Progress(progress, len(sizes)) as reporter:
        for k in sizes:
            total += optimise.count(problem, way.engine, k, unique=unique, deadline=deadline)
            reporter.advance(1)
            if limit is not None and total >= limit:
                break
    return total


def solutions(
    statement: Statement,
    backend: str = AUTO,
    limit: int | None = None,
    *,
    queens: int | None = None,
    unique: bool = False,
    time_limit: float | Deadline | None = None,
    forms: Sequence[Form] = MODEL_FORMS,
) -> Generator[Any, None, None]:
    """Lazily, the solutions (one per class with ``unique``), at most ``limit``.

    The route is planned now, so an unknown or refused backend fails here,
    not when the iterator is first read.
    """
    limit = check_limit(limit, 0)
    size = size_of(statement, queens)
    unique = _flag(unique, "unique")
    deadline = _clock(time_limit)
    way = route(statement, "solutions", backend, size=size, unique=unique, forms=forms)
    return _generator(_listed(statement, way, size, unique, deadline, limit), limit)


def _generator(found: Iterator[Any], limit: int | None) -> Generator[Any, None, None]:
    """``found`` (at most ``limit``) as a generator, which ``close()`` stops at once."""
    try:
        yield from (found if limit is None else islice(found, limit))
    finally:
        close = getattr(found, "close", None)
        if close is not None:
            close()


def _listed(
    statement: Statement,
    way: Route,
    size: int | None,
    unique: bool,
    deadline: Deadline | None,
    limit: int | None,
) -> Iterator[Any]:
    """The solutions of ``way``'s form, each as the statement's solution object."""
    if way.form == "columns":
        return _column_solutions(way, unique, deadline)
    if way.form == "regions":
        return _region_placements(statement, way, deadline, limit)
    from cpqueens.tasks import optimise

    if unique:
        _check_claims(way.problem, statement)  # a false claim raises, never misleads
    pieces = optimise.solutions(
        way.problem, way.engine, size, unique=unique, deadline=deadline, limit=limit or None
    )
    return (_placement(statement, found) for found in pieces)


def _region_placements(
    statement: Statement, way: Route, deadline: Deadline | None, limit: int | None
) -> Iterator[Any]:
    """A region puzzle's solutions as placements, searched when first read (not before).

    A caller that needs none (a puzzle whose stars cannot fit) pays no search.
    """
    for cells in get(way.engine).region_solutions(way.problem, limit, deadline):
        yield _placement(statement, ((r, c, 0) for r, c in cells))


def _check_claims(problem: Any, statement: Statement) -> None:
    """Raise ValueError if a symmetry the statement's kinds claim maps a solution out of it."""
    if statement.kinds:
        from cpqueens.strategies.declared import check_cell_claims

        check_cell_claims(problem, statement.kinds)


def _placement(statement: Statement, pieces: Any) -> Placement:
    board = statement.board
    return Placement(tuple(sorted(pieces)), (board.rows, board.cols), board.blocked)


def _column_solutions(way: Route, unique: bool, deadline: Deadline | None) -> Iterator[Solution]:
    """The column form's solutions in lexicographic order (canonical ones with ``unique``)."""
    from cpqueens.strategies.symmetry import leader
    from cpqueens.vocabulary.limits import no_room

    problem = way.problem
    if no_room(problem.n, problem.colours):
        return  # more colours than columns: no solution, known at once
    symmetries = problem.symmetries()
    source = problem
    if unique and len(symmetries) > 1:
        from cpqueens.strategies.declared import check_declared

        check_declared(problem, symmetries)  # a false keeps= raises, naming a counterexample
        source = problem.with_constraints(leader(problem))
    for by_colour in get(way.engine).solutions(source, deadline):
        yield Solution(by_colour, problem.board, symmetries)


def first(
    statement: Statement,
    backend: str = AUTO,
    *,
    queens: int | None = None,
    time_limit: float | None = None,
) -> Any:
    """The first solution (lexicographic for one piece per row and column), or None."""
    size = size_of(statement, queens)
    deadline = clock.start(check_time_limit(time_limit))
    way = route(statement, "first", backend, size=size)
    if way.form == "columns":
        from cpqueens.tasks import decide

        found = decide.first(way.problem, way.engine, deadline)
        return None if found is None else _solution(way, found)
    return next(iter(_listed(statement, way, size, False, deadline, 1)), None)


def _solution(way: Route, by_colour: Any) -> Solution:
    problem = way.problem
    return Solution(by_colour, problem.board, problem.symmetries())


def exists(
    statement: Statement,
    backend: str = AUTO,
    *,
    queens: int | None = None,
    time_limit: float | None = None,
) -> bool:
    """Whether the statement has a solution."""
    size = size_of(statement, queens)
    deadline = clock.start(check_time_limit(time_limit))
    way = route(statement, "exists", backend, size=size)
    if way.form == "columns":
        from cpqueens.tasks import decide

        return decide.exists(way.problem, way.engine, deadline, backend)
    return next(iter(_listed(statement, way, size, False, deadline, 1)), None) is not None


def find(
    statement: Statement,
    backend: str = AUTO,
    *,
    queens: int | None = None,
    time_limit: float | None = None,
) -> Any:
    """Any one solution, checked, or None if there provably is none."""
    size = size_of(statement, queens)
    seconds = check_time_limit(time_limit)
    deadline = clock.start(seconds)
    way = route(statement, "find", backend, size=size)
    if way.form != "columns":
        return next(iter(_listed(statement, way, size, False, deadline, 1)), None)
    engine = get(way.engine)
    if backend == AUTO or engine.CAPABILITIES.free_search:
        from cpqueens.tasks import find as find_task

        return find_task.find(way.problem, backend, way.engine, seconds)
    from cpqueens.tasks import decide

    found = decide.first(way.problem, way.engine, deadline, lexicographic=False)
    return None if found is None else _solution(way, found)


def cross_check(
    statement: Statement,
    backends: Iterable[str] | None = None,
    *,
    queens: int | None = None,
    unique: bool = False,
    time_limit: float | None = None,
    limit: int | None = None,
    forms: Sequence[Form] = MODEL_FORMS,
) -> int:
    """Count with each of ``backends`` (None: every installed engine that answers); the count.

    A statement of one piece per row and column is counted by every engine;
    any other by every engine that states its form and answers it quickly
    (at least two, else ``NotSupportedError`` naming those left out and why).
    Each engine's route is planned once; two counts that differ raise
    ``CrossCheckError``. ``limit`` stops each count there, as in :func:`count`.
    """
    size = size_of(statement, queens)
    unique = _flag(unique, "unique")
    limit = check_limit(limit, 1)
    seconds = check_time_limit(time_limit)
    named = backends is not None
    names = _engine_names(backends) if named else installed_backends()
    counts: dict[str, int] = {}
    left_out: list[str] = []
    for name in names:
        try:
            way = route(statement, "count", name, size=size, unique=unique, forms=forms)
        except NotSupportedError as refusal:
            if named:
                raise
            left_out.append(f"{name}: {refusal}")
            continue
        why = get(name).quick(way.problem) if way.form == "cells" and not named else None
        if why is not None:
            left_out.append(f"{name}: {why}")
            continue
        counted = _count_way(
            statement, way, size, unique, None, None, None, None, clock.start(seconds), limit
        )
        counts[name] = counted if limit is None else min(counted, limit)
    if len(counts) < 2:
        detail = f" ({'; '.join(left_out)})" if left_out else ""
        raise NotSupportedError(
            f"a cross-check needs two engines; only {', '.join(counts) or 'none'} count this "
            f"quickly{detail}"
        )
    if len(set(counts.values())) != 1:
        found = ", ".join(f"{name}={value}" for name, value in counts.items())
        raise CrossCheckError(f"backends disagree on the count: {found}")
    return next(iter(counts.values()))


def _engine_names(backends: object) -> tuple[str, ...]:
    """``backends`` checked: engine names (not "auto": a cross-check names the engines)."""
    from cpqueens.backends import check_name

    if isinstance(backends, str) or not isinstance(backends, Iterable):
        raise TypeError(
            f"backends must be engine names such as ('bitmask', 'cpsat'), got {backends!r}"
        )
    return tuple(dict.fromkeys(check_name(name) for name in backends))


def optimise(statement: Statement, sense: str, backend: str = AUTO, **options: Any) -> Any:
    """The best solution in ``sense`` ("maximize" or "minimize"), proved unless a limit ends it."""
    from cpqueens.tasks import optimise as optimise_task

    way = route(statement, "optimise", backend, sense=sense, forms=("cells",))
    if options.get("symmetry", True) or options.get("unique", False):
        _check_claims(way.problem, statement)  # lex-leader trusts only what holds
    return optimise_task.optimise(way.problem, sense, way.engine, **options)  # type: ignore[arg-type]


def engine(statement: Statement, backend: str = AUTO, *, path: bool = False) -> str:
    """The engine that counts the statement for ``backend``; with ``path``, how it counts."""
    way = route(statement, "count", backend)
    if not path:
        return way.engine
    if way.form == "columns":
        from cpqueens.strategies.paths import path as describe

        return describe(way.problem, way.engine)
    what = "the region search" if way.form == "regions" else "one search of the cell form"
    return f"{way.engine}: {what}"
