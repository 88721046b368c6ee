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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from cpqueens.backends import get
from cpqueens.clock import Deadline
from cpqueens.errors import IncompleteSearchError
from cpqueens.strategies.planner import cell_engine
from cpqueens.vocabulary import bounds
from cpqueens.vocabulary.cells import CellProblem, Piece
from cpqueens.vocabulary.checks import check_time_limit

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
        from cpqueens.drawing.pictures import rectangle_svg

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


def count(
    problem: CellProblem,
    engine: str,
    size: int | None = None,
    *,
    unique: bool = False,
    deadline: Deadline | None = None,
    limit: int | None = None,
    run: Any = None,
) -> int:
    """The exact number of solutions with ``size`` pieces per army (any size if None).

    ``unique`` counts classes under the statement's symmetries; ``engine`` is
    the one the planner chose for the cell form. ``run``: the task's runner of
    parts (:mod:`cpqueens.tasks.parts`), for an engine whose count runs in parts.
    """
    if no_room(problem, size):
        return 0
    parts = {} if run is None else {"run": run}
    found = get(engine).cell_count(
        problem, size, unique=unique, deadline=deadline, limit=limit, **parts
    )
    return int(found)


def no_room(problem: CellProblem, queens: int | None) -> bool:
    """Whether ``queens`` pieces per army cannot fit on the free cells: no solution, at once."""
    return queens is not None and queens * problem.armies > len(problem.board.free)


def solutions(
    problem: CellProblem,
    engine: str,
    size: int | None = None,
    *,
    unique: bool = False,
    deadline: Deadline | None = None,
    limit: int | None = None,
) -> Iterator[tuple[Piece, ...]]:
    """Every solution as (row, col, army) triples (one per class if ``unique``), lazily."""
    if no_room(problem, size):
        return iter(())
    return get(engine).cell_solutions(problem, size, unique=unique, deadline=deadline, limit=limit)


def optimise(
    problem: CellProblem,
    sense: Literal["maximize", "minimize"],
    engine: str,
    *,
    time_limit: float | None = None,
    workers: int = 2,
    symmetry: bool = True,
    count: bool = False,
    unique: bool = False,
    progress: Progress | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    executor: Executor | None = None,
) -> Optimum:
    """The best solution of ``problem`` in ``sense``, proved optimal unless a limit ends it.

    Options: ``time_limit`` (seconds), ``workers`` (CP-SAT's, default 2),
    ``symmetry`` (lex-leader constraints, default True), ``count`` and
    ``unique`` (also count the optimal solutions, or their classes), and
    ``progress(value, bound, seconds)`` called on each better solution;
    ``engine`` is the one the planner chose ("python-constraint" steps the
    size instead, proving each step by exhausting the next: small boards only).
    A search that runs in parts (queens dominating a free square board, or
    peaceable armies on one) also
    takes ``checkpoint`` (a file: the same call resumes), ``executor`` (a
    Dask cluster's) and ``workers`` (local processes): :mod:`cpqueens.tasks.parts`.
    """
    time_limit = check_time_limit(time_limit)  # the same check as every verb's: inf, NaN refused
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(
            f"workers must be an int from 1 to {MAX_WORKERS} (the solver's threads), "
            f"got {workers!r}"
        )
    start = time.perf_counter()
    deadline = None if time_limit is None else Deadline(time_limit)
    from cpqueens.tasks.parts import engine_options  # parts: for an engine that runs them

    run = engine_options(
        get(engine), problem, sense, workers=workers, executor=executor, checkpoint=checkpoint,
        deadline=deadline,
    )  # fmt: skip
    try:
        outcome = get(engine).optimise(
            problem,
            sense,
            deadline=deadline,
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
                counter = cell_engine(problem, "auto", "count", outcome.value, classes, None)
                later = None if left is None else Deadline(left)
                runner = None  # the optimisation's runner counts in parts too, in a file of its own
                if counter == engine and "run" in run:
                    runner = run["run"].section("classes" if classes else "count")
                return count_solutions(
                    problem, counter, outcome.value, unique=classes, deadline=later, run=runner
                )
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
