"""Optimisation on cell models: the most queens, the fewest that dominate, peaceable armies.

:func:`cells` states a board where any number of pieces stand
(:class:`CellModel`); ``maximize()`` and ``minimize()`` return an
:class:`Optimum`, ``count()`` counts solutions of a size. The classic
problems are one call each: :func:`independence`, :func:`domination` (and
independent domination), :func:`peaceable`.

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
from typing import Any, Literal

from cpqueens.backends import check_name, choices, is_installed, part, preference
from cpqueens.errors import CrossCheckError, IncompleteSearchError, NotSupportedError
from cpqueens.vocabulary import bounds
from cpqueens.vocabulary.cells import Attack, Cell, CellBoard, CellProblem, Piece

Status = Literal["optimal", "feasible", "infeasible"]
CountBackend = Literal["auto", "cpsat", "bitmask", "python-constraint"]
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


class CellModel:
    """A cell problem with its verbs: maximize, minimize, count, solutions.

    >>> model = cells(8)
    >>> model.maximize().value, model.count(queens=8)
    (8, 92)
    """

    def __init__(self, problem: CellProblem) -> None:
        """Wrap the plain-data ``problem``."""
        self.problem = problem

    def __repr__(self) -> str:
        """The constructor call's data."""
        return f"CellModel({self.problem!r})"

    def __str__(self) -> str:
        """The model as mathematics."""
        return self.problem.describe()

    def _size(self, queens: object) -> int | None:
        """``queens`` checked; with quotas, None becomes the size they fix (a contradiction raises).

        The size lets the engines that count one size at a time take part.
        """
        checked = _size(queens)
        self.problem.check_size(checked)
        return self.problem.size if checked is None else checked

    def maximize(self, **options: Any) -> Optimum:
        """The largest solution (pieces of army 0), proved optimal unless a limit ends it.

        Options: ``time_limit`` (seconds), ``workers`` (CP-SAT's, default 2),
        ``symmetry`` (lex-leader constraints, default True), ``count`` and
        ``unique`` (also count the optimal solutions, or their classes), and
        ``progress(value, bound, seconds)`` called on each better solution;
        ``backend`` "python-constraint" steps the size instead, proving each
        step by exhausting the next (small boards only; "auto" is CP-SAT).
        """
        return _optimise(self.problem, "maximize", **options)

    def minimize(self, **options: Any) -> Optimum:
        """The smallest solution, proved optimal unless a limit ends it (options: ``maximize``)."""
        return _optimise(self.problem, "minimize", **options)

    def count(
        self,
        queens: int | None = None,
        *,
        unique: bool = False,
        backend: CountBackend = "auto",
        time_limit: float | None = None,
    ) -> int:
        """The exact number of solutions with ``queens`` pieces per army (any size if None).

        ``unique`` counts classes under the problem's symmetries (CP-SAT's
        lex-leader). ``backend`` "bitmask" is the compiled counter (one army,
        a given size), "python-constraint" states the problem in its own
        constraints (small boards); "auto" takes the fastest that can.
        """
        queens = self._size(queens)
        engine = _cell_engine(backend, self.problem, queens, unique, "count")
        return int(engine.count(self.problem, queens, unique=unique, time_limit=time_limit))

    def cross_check(
        self, queens: int | None = None, *, unique: bool = False, time_limit: float | None = None
    ) -> int:
        """Count with every installed engine that can; return the count, or raise if two disagree.

        Raises ``CrossCheckError`` naming each engine's count, and
        ``NotSupportedError`` when fewer than two engines count the problem.
        """
        queens = self._size(queens)
        counts = {
            name: int(engine.count(self.problem, queens, unique=unique, time_limit=time_limit))
            for name, engine in _cell_engines(self.problem, queens, unique, "count")
        }
        if len(counts) < 2:
            raise NotSupportedError(
                f"a cross-check needs two engines; only {', '.join(counts) or 'none'} count this"
            )
        if len(set(counts.values())) != 1:
            found = ", ".join(f"{name}={value}" for name, value in counts.items())
            raise CrossCheckError(f"the engines disagree on the count: {found}")
        return next(iter(counts.values()))

    def solutions(
        self,
        queens: int | None = None,
        *,
        unique: bool = False,
        backend: CountBackend = "auto",
        time_limit: float | None = None,
    ) -> Iterator[tuple[Piece, ...]]:
        """Every solution as (row, col, army) triples (one per class if ``unique``)."""
        queens = self._size(queens)
        engine = _cell_engine(backend, self.problem, queens, unique, "solutions")
        return engine.solutions(  # type: ignore[no-any-return]
            self.problem, queens, unique=unique, time_limit=time_limit
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
    if name == "auto":
        for _, module in _cell_engines(problem, size, unique, verb, (), sense):
            return module
        raise NotSupportedError(f"no installed engine can {doing} this cell problem")
    for _, module in _cell_engines(problem, size, unique, verb, [name], sense):
        return module
    module = part(name, "cells")
    if module is None or not hasattr(module, verb):
        raise NotSupportedError(f"backend {name!r} cannot {doing} cell problems")
    limits = (
        "the compiled engine: two peaceable armies without placed pieces"
        if verb == "optimise"
        else "the compiled counter: one army, a given number of queens, no unique, no quotas; "
        "python-constraint: no unique"
    )
    raise ValueError(f"backend {name!r} cannot {doing} this ({limits})")


def _size(queens: object) -> int | None:
    if queens is None:
        return None
    if not isinstance(queens, int) or isinstance(queens, bool) or queens < 0:
        raise TypeError(f"queens must be an int >= 0 or None, got {queens!r}")
    return queens


def _optimise(
    problem: CellProblem,
    sense: Literal["maximize", "minimize"],
    *,
    time_limit: float | None = None,
    workers: int = 2,
    symmetry: bool = True,
    count: bool = False,
    unique: bool = False,
    progress: Progress | None = None,
    backend: CountBackend = "auto",
) -> Optimum:
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
    try:
        outcome = engine.optimise(
            problem,
            sense,
            time_limit=left,
            workers=workers,
            symmetry=symmetry,
            progress=progress,
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
    result = Optimum(outcome.value, status, bound, queens, time.perf_counter() - start)
    if (count or unique) and status == "optimal":
        model = CellModel(problem)

        def counted(wanted: bool, classes: bool) -> int | None:
            """The count of the optimal solutions (or classes) within the time left."""
            if not wanted:
                return None
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            try:
                if left is not None and left <= 0:
                    raise IncompleteSearchError()
                return model.count(outcome.value, unique=classes, time_limit=left)
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


def cells(
    n: int,
    m: int | None = None,
    blocked: Iterable[Cell] = (),
    *,
    placed: Iterable[tuple[int, ...]] = (),
    toroidal: bool = False,
    knight: bool = False,
    attack: Attack = "queen",
    armies: int = 1,
    independent: bool = True,
    dominating: bool = False,
    per_row: int | None = None,
    per_column: int | None = None,
    regions: Iterable[Iterable[int]] | None = None,
    per_region: int | None = None,
) -> CellModel:
    """A board of n rows and m columns (m = n if None) where any number of pieces stand.

    ``attack`` is "queen", "rook" (rows and columns) or "king"; ``toroidal``
    wraps lines around the edges, ``knight`` adds the knight's moves.
    ``blocked`` cells hold no piece (they neither stop attacks nor need
    covering). ``independent``: no piece attacks one of another army (one
    army: none attacks another); ``dominating``: every free cell is occupied
    or attacked; ``armies=2``: two armies of equal size (peaceable when
    independent); ``placed`` pieces are (row, col) or (row, col, army).

    Quotas (one army): exactly ``per_row`` pieces on every row, ``per_column``
    on every column, ``per_region`` on every region of ``regions`` (n rows of
    m region numbers 0..R-1, every one used). Star Battle with k stars is
    ``cells(n, attack="king", per_row=k, per_column=k, regions=grid,
    per_region=k)``; the n-queens problem is ``cells(n, per_row=1)``.

    >>> cells(8, per_row=1).count()
    92
    >>> cells(4, attack="rook", per_row=1, per_column=1).count(unique=True)
    7
    """
    board = CellBoard(
        n, n if m is None else m, tuple(blocked), attack=attack, toroidal=toroidal, knight=knight
    )
    problem = CellProblem(
        board,
        armies,
        independent,
        dominating,
        tuple(placed),
        per_row=per_row,
        per_column=per_column,
        regions=regions,  # type: ignore[arg-type]  # validated and made a tuple there
        per_region=per_region,
    )
    return CellModel(problem)


def _board(n: Any, m: int | None, blocked: Iterable[Cell]) -> tuple[int, int, tuple[Cell, ...]]:
    """(rows, columns, blocked) from a size or from a one-queen-per-row ``Board``."""
    if hasattr(n, "blocked") and hasattr(n, "n"):  # a cpqueens.Board
        return n.n, n.n if m is None else m, (*n.blocked, *blocked)
    return n, n if m is None else m, tuple(blocked)


def independence(
    n: Any,
    m: int | None = None,
    blocked: Iterable[Cell] = (),
    *,
    toroidal: bool = False,
    attack: Attack = "queen",
    knight: bool = False,
    **options: Any,
) -> Optimum:
    """The most pieces no two of which attack each other, on an n x m board or a ``Board``.

    >>> independence(8).value, independence(3, 5, blocked=[(1, 2)]).value
    (8, 3)
    """
    rows, cols, holes = _board(n, m, blocked)
    model = cells(rows, cols, holes, toroidal=toroidal, attack=attack, knight=knight)
    return model.maximize(**options)


def domination(
    n: Any,
    m: int | None = None,
    blocked: Iterable[Cell] = (),
    *,
    independent: bool = False,
    toroidal: bool = False,
    attack: Attack = "queen",
    knight: bool = False,
    **options: Any,
) -> Optimum:
    """The fewest pieces that occupy or attack every free cell (OEIS A075458 for queens).

    ``independent=True``: no two of them attack each other (A075324).

    >>> domination(8).value, domination(8, independent=True).value
    (5, 5)
    """
    rows, cols, holes = _board(n, m, blocked)
    model = cells(
        rows,
        cols,
        holes,
        toroidal=toroidal,
        attack=attack,
        knight=knight,
        independent=independent,
        dominating=True,
    )
    return model.minimize(**options)


def peaceable(
    n: Any,
    m: int | None = None,
    blocked: Iterable[Cell] = (),
    *,
    toroidal: bool = False,
    attack: Attack = "queen",
    knight: bool = False,
    **options: Any,
) -> Optimum:
    """The largest k such that k white and k black pieces attack none of the other army.

    OEIS A250000 for queens; queens come back as (row, col, army). Proved by
    the compiled line search on one core (``workers`` is not used there);
    ``count=True`` counts the optimal armies with CP-SAT.

    >>> peaceable(5).value
    4
    """
    rows, cols, holes = _board(n, m, blocked)
    model = cells(rows, cols, holes, toroidal=toroidal, attack=attack, knight=knight, armies=2)
    return model.maximize(**options)
