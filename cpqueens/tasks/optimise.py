"""Optimisation on cell models: the most queens, the fewest that dominate, peaceable armies.

:func:`cpqueens.model` states a board where any number of pieces stand
(``per_row=None``: a cell statement, :class:`~cpqueens.vocabulary.cells.CellProblem`);
the model's ``maximize()`` and ``minimize()`` call :func:`optimise`, which
returns an :class:`Optimum`; its ``count()`` and ``solutions()`` call
:func:`count` and :func:`solutions` here, for the size asked. The classic
problems are one call each in :mod:`cpqueens.model`: ``independence``,
``domination`` (and independent domination), ``peaceable``.

Peaceable armies (two armies, no placed pieces) are maximised by the compiled
line search of :mod:`cpqueens.backends.bitmask.lines`; everything else by CP-SAT.
An optimum is "optimal" only with a proof (CP-SAT's, the exhausted search
tree, or a true bound known before search that the best found meets:
:mod:`cpqueens.vocabulary.bounds`); a time limit that ends the search first
gives the best solution found, "feasible", with the best true bound: the
engine's, or the one known before search if better (never reported as the
optimum). The board's
symmetries (and the colour swap of two armies) are broken by lex-leader
constraints, which keep one member of each class of solutions.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from cpqueens.backends import BackendName, check_name, choices, is_installed, part, preference
from cpqueens.errors import CrossCheckError, IncompleteSearchError, NotSupportedError
from cpqueens.vocabulary import bounds
from cpqueens.vocabulary.cells import CellProblem, Piece

if TYPE_CHECKING:
    import os
    from concurrent.futures import Executor

Status = Literal["optimal", "feasible", "infeasible"]
#: (value, bound, seconds) of each better solution found.
Progress = Callable[[int, int, float], None]
#: The most solver threads an optimisation may ask for (each holds a copy of the model).
MAX_WORKERS = 64


@dataclass(frozen=True)
class Optimum:
    """The answer of an optimisation: value, proof status, bound, one solution, time.

    ``status`` is "optimal" (proved: ``bound == value``), "feasible" (a limit
    ended the search: ``bound`` is the best true bound, the engine's or one
    known before search) or "infeasible" (no
    solution: ``value`` and ``bound`` are None). ``queens`` are (row, col)
    pairs, or (row, col, army) triples for two armies. ``count`` is the number
    of optimal solutions and ``classes`` their number up to the problem's
    symmetries, when asked for.
    """

    value: int | None
    status: Status
    bound: int | None
    queens: tuple[tuple[int, ...], ...]
    seconds: float
    count: int | None = None
    classes: int | None = None
    #: The board's (rows, columns) and blocked cells, for the picture.
    shape: tuple[int, int] | None = None
    blocked: tuple[tuple[int, int], ...] = ()

    def _repr_svg_(self) -> str:
        """The solution a notebook shows: the board with its pieces (armies in two colours)."""
        from cpqueens.vocabulary.drawing import rectangle_svg

        rows, cols = self.shape or (
            1 + max((q[0] for q in self.queens), default=0),
            1 + max((q[1] for q in self.queens), default=0),
        )
        pieces = [(q[2] if len(q) == 3 else 0, q[0], q[1]) for q in self.queens]
        return rectangle_svg(rows, cols, self.blocked, pieces)

    def to_json(self) -> dict[str, Any]:
        """The answer as the command line's JSON object (``count`` and ``classes`` if known)."""
        out: dict[str, Any] = {
            "value": self.value,
            "status": self.status,
            "bound": self.bound,
            "queens": [list(queen) for queen in self.queens],
            "seconds": round(self.seconds, 3),
        }
        if self.count is not None:
            out["count"] = self.count
        if self.classes is not None:
            out["classes"] = self.classes
        return out


def size_of(problem: CellProblem, queens: object) -> int | None:
    """``queens`` checked; with quotas, None becomes the size they fix (a contradiction raises).

    The size lets the engines that count one size at a time take part.
    """
    checked = _size(queens)
    problem.check_size(checked)
    return problem.size if checked is None else checked


def count(
    problem: CellProblem,
    queens: int | None = None,
    *,
    unique: bool = False,
    backend: BackendName = "auto",
    time_limit: float | None = None,
) -> int:
    """The exact number of solutions with ``queens`` pieces per army (any size if None).

    ``unique`` counts classes under the problem's symmetries (CP-SAT's
    lex-leader). ``backend`` "bitmask" is the compiled counter (one army,
    a given size), "python-constraint" states the problem in its own
    constraints (small boards); "auto" takes the fastest that can.
    """
    queens = size_of(problem, queens)
    engine = _cell_engine(backend, problem, queens, unique, "count")
    if no_room(problem, queens):
        return 0
    return int(engine.count(problem, queens, unique=unique, time_limit=time_limit))


def no_room(problem: CellProblem, queens: int | None) -> bool:
    """Whether ``queens`` pieces per army cannot fit on the free cells: no solution, at once."""
    return queens is not None and queens * problem.armies > len(problem.board.free)


def cross_check(
    problem: CellProblem,
    queens: int | None = None,
    *,
    unique: bool = False,
    time_limit: float | None = None,
) -> int:
    """Count with every installed engine that can; return the count, or raise if two disagree.

    An engine whose cell module says it cannot answer this size soon
    (``quick(problem)`` gives the reason: python-constraint above 36 free
    cells) is left out. Raises ``CrossCheckError`` naming each engine's
    count, and ``NotSupportedError`` when fewer than two engines count the
    problem (naming those left out, and why).
    """
    queens = size_of(problem, queens)
    engines, slow = {}, []
    for name, engine in _cell_engines(problem, queens, unique, "count"):
        why = getattr(engine, "quick", lambda problem: None)(problem)
        if why is None:
            engines[name] = engine
        else:
            slow.append(f"{name}: {why}")
    if len(engines) < 2:
        left_out = f" ({'; '.join(slow)})" if slow else ""
        raise NotSupportedError(
            f"a cross-check needs two engines; only {', '.join(engines) or 'none'} count this "
            f"quickly{left_out}"
        )
    counts = {
        name: int(engine.count(problem, queens, unique=unique, time_limit=time_limit))
        for name, engine in engines.items()
    }
    if len(set(counts.values())) != 1:
        found = ", ".join(f"{name}={value}" for name, value in counts.items())
        raise CrossCheckError(f"the engines disagree on the count: {found}")
    return next(iter(counts.values()))


def solutions(
    problem: CellProblem,
    queens: int | None = None,
    *,
    unique: bool = False,
    backend: BackendName = "auto",
    time_limit: float | None = None,
) -> Iterator[tuple[Piece, ...]]:
    """Every solution as (row, col, army) triples (one per class if ``unique``)."""
    queens = size_of(problem, queens)
    engine = _cell_engine(backend, problem, queens, unique, "solutions")
    if no_room(problem, queens):
        return iter(())
    return engine.solutions(  # type: ignore[no-any-return]
        problem, queens, unique=unique, time_limit=time_limit
    )


def _cell_engines(
    problem: CellProblem,
    size: int | None,
    unique: bool,
    verb: str,
    names: Iterable[str] = (),
    sense: str = "maximize",
) -> Iterator[tuple[str, ModuleType]]:
    """(name, module) of each installed engine whose cell module has ``verb`` for the problem.

    Fastest first, as the registry lists them (or those of ``names``); each
    engine declares its cell module in its ``Capabilities``. Lazy: an engine
    is imported only when the one before it cannot. A module may judge a
    verb apart (``supports_optimise(problem, sense)``).
    """
    for name in names or preference():
        module = part(name, "cells") if is_installed(name) else None
        if module is not None:
            judge = getattr(module, f"supports_{verb}", None)
            if not hasattr(module, verb):
                continue
            if judge(problem, sense) if judge else module.supports(problem, size, unique):
                yield name, module


def _cell_engine(
    backend: object,
    problem: CellProblem,
    size: int | None,
    unique: bool,
    verb: str,
    sense: str = "maximize",
) -> ModuleType:
    """The cell module of ``backend`` ("auto": the fastest that can), or raise naming why not."""
    name = check_name(backend, choices())
    doing = {"solutions": "list the solutions of", "optimise": "optimise"}.get(verb, verb)
    module: ModuleType | None
    if name == "auto":
        for _, module in _cell_engines(problem, size, unique, verb, (), sense):
            return module
        raise NotSupportedError(f"no installed engine can {doing} this cell problem")
    for _, module in _cell_engines(problem, size, unique, verb, [name], sense):
        return module
    # Only now, on the way to an error, are the other engines imported to name one that can.
    able = next((found for found, _ in _cell_engines(problem, size, unique, verb, (), sense)), "")
    instead = f": use backend {able!r}" if able else ""
    module = part(name, "cells")
    if module is None or not hasattr(module, verb):
        raise NotSupportedError(f"backend {name!r} cannot {doing} cell problems{instead}")
    limits = (
        "the compiled engine: two peaceable armies without placed pieces"
        if verb == "optimise"
        else "the compiled counter: one army, a given number of queens, no unique, no quotas; "
        "python-constraint: no unique"
    )
    raise NotSupportedError(f"backend {name!r} cannot {doing} this ({limits}){instead}")


def _size(queens: object) -> int | None:
    if queens is None:
        return None
    if not isinstance(queens, int) or isinstance(queens, bool) or queens < 0:
        raise TypeError(f"queens must be an int >= 0 or None, got {queens!r}")
    return queens


def optimise(
    problem: CellProblem,
    sense: Literal["maximize", "minimize"],
    *,
    time_limit: float | None = None,
    workers: int = 2,
    symmetry: bool = True,
    count: bool = False,
    unique: bool = False,
    progress: Progress | None = None,
    backend: BackendName = "auto",
    checkpoint: str | os.PathLike[str] | None = None,
    executor: Executor | None = None,
) -> Optimum:
    """The best solution of ``problem`` in ``sense``, proved optimal unless a limit ends it.

    Options: ``time_limit`` (seconds), ``workers`` (CP-SAT's, default 2),
    ``symmetry`` (lex-leader constraints, default True), ``count`` and
    ``unique`` (also count the optimal solutions, or their classes), and
    ``progress(value, bound, seconds)`` called on each better solution;
    ``backend`` "python-constraint" steps the size instead, proving each
    step by exhausting the next (small boards only; "auto" is CP-SAT).
    A search that runs in parts (queens dominating a free square board) also
    takes ``checkpoint`` (a file: the same call resumes), ``executor`` (a
    Dask cluster's) and ``workers`` (local processes): :mod:`cpqueens.tasks.parts`.
    """
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not time_limit > 0  # NaN too
    ):
        raise ValueError(f"time_limit must be a number of seconds > 0, got {time_limit!r}")
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(
            f"workers must be an int from 1 to {MAX_WORKERS} (the solver's threads), "
            f"got {workers!r}"
        )
    start = time.perf_counter()
    engine = _cell_engine(backend, problem, None, False, "optimise", sense)
    # the engine's first import (CP-SAT's loads pandas: seconds on a busy machine) counts too
    left = None if time_limit is None else max(time_limit - (time.perf_counter() - start), 1e-3)
    from cpqueens.tasks.parts import engine_options  # parts: for an engine that runs them

    run = engine_options(
        engine, problem, sense, workers=workers, executor=executor, checkpoint=checkpoint,
        time_limit=left,
    )  # fmt: skip
    try:
        outcome = engine.optimise(
            problem,
            sense,
            time_limit=left,
            workers=workers,
            symmetry=symmetry,
            progress=progress,
            **run,
        )
    except IncompleteSearchError:
        if time_limit is None:
            raise
        raise IncompleteSearchError(
            f"the time limit of {time_limit:g} s ended the search before any solution was "
            "found; give it more time"
        ) from None
    queens = tuple(piece if problem.armies == 2 else piece[:2] for piece in outcome.pieces)
    status, bound = outcome.status, outcome.bound
    if status == "feasible":  # the engine's bound, or the one known before search if better
        if sense == "minimize":
            bound = max(bound if bound is not None else 0, bounds.lower(problem))
        elif (most := bounds.upper(problem)) is not None:
            bound = most if bound is None else min(bound, most)
        if bound == outcome.value:  # the best found meets a true bound: proved
            status = "optimal"
    board = problem.board
    result = Optimum(
        outcome.value,
        status,
        bound,
        queens,
        time.perf_counter() - start,
        shape=(board.rows, board.cols),
        blocked=board.blocked,
    )
    if (count or unique) and status == "optimal":

        def counted(wanted: bool, classes: bool) -> int | None:
            """The count of the optimal solutions (or classes) within the time left."""
            if not wanted:
                return None
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            try:
                if left is not None and left <= 0:
                    raise IncompleteSearchError()
                return count_solutions(problem, outcome.value, unique=classes, time_limit=left)
            except IncompleteSearchError:
                raise IncompleteSearchError(
                    f"the time limit of {time_limit:g} s ended the count of the optimal solutions "
                    f"before it was complete (the optimum {outcome.value} is proved)"
                ) from None

        result = replace(
            result,
            count=counted(count, False),
            classes=counted(unique, True),
            seconds=time.perf_counter() - start,
        )
    return result


#: ``count`` under a name that ``optimise``'s ``count`` option does not hide.
count_solutions = count
