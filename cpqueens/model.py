"""Model: the facade, a problem's data (``Problem``) with the verbs that solve it.

A model is immutable and knows no solver; ``constraints`` is the whole
problem. Each verb checks its options and calls down into ``cpqueens.tasks``.
"""

from __future__ import annotations

import numbers
import os
import sys
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from cpqueens.backends import backends as installed_backends
from cpqueens.errors import CrossCheckError, NotSupportedError
from cpqueens.vocabulary.board import Board, check_cells, check_size
from cpqueens.vocabulary.checks import check_time_limit
from cpqueens.vocabulary.constraints import (
    Cell,
    Constraint,
    KnightMoves,
    NoTouch,
    Placed,
    Regions,
    Toroidal,
    Where,
    check_region_grid,
)
from cpqueens.vocabulary.limits import MAX_VARIANT_COLOURS, no_room
from cpqueens.vocabulary.problem import Problem, flatten_conditions
from cpqueens.vocabulary.solution import Solution

if TYPE_CHECKING:  # the verbs import the planner and the tasks when first called
    from concurrent.futures import Executor

    from typing_extensions import TypeIs  # annotations only: never imported at run time

    from cpqueens.expressions import CellVariables, Variables
    from cpqueens.strategies.planner import BackendName
    from cpqueens.tasks.optimise import Optimum
    from cpqueens.vocabulary.cells import Attack, CellProblem, Placement
    from cpqueens.vocabulary.regions import RegionPuzzle

#: The backend every method uses unless told otherwise: the fastest exact engine that fits
#: (the planner's ``AUTO``).
DEFAULT_BACKEND: BackendName = "auto"


@dataclass(frozen=True)
class Model(Problem):
    """An N-Queens-family problem with its verbs: count, solutions, first, exists, find, optimise.

    One class states every problem of the family. With one queen per row and
    column (the classic problem and its variants: holes, placed queens,
    colours, regions, conditions over ``q[r]``) the data is
    :class:`cpqueens.vocabulary.problem.Problem`'s, the column encoding, and
    ``cells`` is None. Any other statement (any number of pieces, quotas per
    row, column and region, kings and rooks, armies, domination, rectangular
    boards) is held at the cell level in ``cells``
    (:class:`cpqueens.vocabulary.cells.CellProblem`), the encoding every
    statement lowers to. Each verb calls down into its task (``cpqueens.tasks``).
    """

    #: The statement at the cell level, when it is not one queen per row and column.
    cells: CellProblem | None = field(default=None)

    def count(
        self,
        backend: BackendName = DEFAULT_BACKEND,
        *,
        queens: int | None = None,
        unique: bool = False,
        workers: int | None = None,
        executor: Executor | None = None,
        progress: bool | Callable[[int, int], None] | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        time_limit: float | None = None,
    ) -> int:
        """The exact number of solutions; with ``unique``, of classes under ``symmetries()``.

        ``backend`` "auto" (the default) is the fastest exact engine for the
        model (``cpqueens.strategies.planner``): today the bitmask kernels; "cpsat",
        "python-constraint" and "bitmask" name one. The search runs in pieces
        (symmetry-reduced where the model allows), more of them the more
        workers there are.

        - ``workers``: a local pool of that many processes; None means every
          core for a search long enough to pay for it, else this process;
        - ``executor``: any ``concurrent.futures.Executor`` instead, such as a
          Dask cluster's ``distributed.Client(address).get_executor()``;
        - ``progress``: None shows a bar on stderr for counts longer than a
          second when stderr is a terminal, False shows none, True always one;
          a callable is called as ``progress(done, total)`` in pieces;
        - ``checkpoint``: a file recording every finished subproblem's count.
          If it exists, the count resumes from it and counts only the rest;
          a checkpoint written for another model, backend or split is refused
          with ``CheckpointError``;
        - ``time_limit``: seconds; a count not finished by then raises
          ``IncompleteSearchError`` (never a partial number).

        Ctrl-C stops the workers and raises ``CountInterrupted`` (a
        ``KeyboardInterrupt``), the checkpoint holding every finished subproblem.

        ``queens``: the number of pieces per army, for statements whose quotas
        do not fix it (``per_row=None``); None counts every size. A statement
        with one queen per row has exactly n: another number raises.

        >>> model(8).count()
        92
        >>> model(8).count(unique=True)
        12
        >>> model(8, per_row=None, per_column=None).count(queens=8)
        92
        """
        if self.cells is not None:
            _no_pool("count", workers=workers, executor=executor, checkpoint=checkpoint)
            from cpqueens.tasks import optimise

            return optimise.count(
                self.cells, queens, unique=unique, backend=backend, time_limit=time_limit
            )
        self._check_queens(queens)
        from cpqueens.tasks import count as count_task

        return count_task.count(
            self,
            backend,
            unique=unique,
            workers=workers,
            executor=executor,
            progress=progress,
            checkpoint=checkpoint,
            time_limit=time_limit,
        )

    def _check_queens(self, queens: object) -> None:
        """Refuse a ``queens`` other than None or n: one queen per row puts n on the board."""
        if queens is None or (
            isinstance(queens, int) and not isinstance(queens, bool) and queens == self.n
        ):
            return
        if isinstance(queens, bool) or not isinstance(queens, int) or queens < 0:
            raise TypeError(f"queens must be an int >= 0 or None, got {queens!r}")
        raise ValueError(
            f"queens={queens} contradicts the statement: one queen per row puts {self.n} queens "
            "of each colour in every solution (per_row=None states any number)"
        )

    def engine(self, backend: BackendName = DEFAULT_BACKEND, *, path: bool = False) -> str:
        """The backend that answers for ``backend``: itself, or the one "auto" picks.

        With ``path``, the way it counts too: which kernel, or the Python DFS and why.

        >>> model(8).engine()
        'bitmask'
        >>> model(16).engine(path=True)
        'bitmask: classes'
        """
        from cpqueens.strategies.planner import resolve

        engine = resolve(self, backend)
        if not path:
            return engine
        from cpqueens.strategies.paths import path as describe

        return describe(self, engine)

    def solutions(
        self,
        backend: BackendName = DEFAULT_BACKEND,
        limit: int | None = None,
        *,
        queens: int | None = None,
        unique: bool = False,
        time_limit: float | None = None,
    ) -> Generator[Any, None, None]:
        """Lazily yield solutions in lexicographic order, at most ``limit``.

        The order is that of colour 0's columns row by row, then colour 1's, and
        so on. With ``unique``, only the canonical representative of each class
        under ``symmetries()`` (the smallest solution of its class). A
        ``time_limit`` (seconds) that ends the search first ends the iterator
        with ``IncompleteSearchError``, after the solutions found by then.

        A statement at the cell level (``cells``) yields each solution as a
        :class:`~cpqueens.vocabulary.cells.Placement`: (row, col, army) triples,
        ``queens`` of them per army if given.
        """
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 0
        ):
            raise ValueError(f"limit must be None or an int >= 0, got {limit!r}")
        if not isinstance(unique, bool):
            raise TypeError(f"unique must be True or False, got {unique!r}")
        from cpqueens.strategies.planner import resolve

        seconds = check_time_limit(time_limit)
        if self.cells is not None:
            return self._placements(backend, limit, queens, unique, seconds)
        self._check_queens(queens)
        resolve(self, backend)  # an unknown or missing backend fails here, not when iterated
        return self._solutions(backend, limit, unique, seconds)

    def _placements(
        self,
        backend: BackendName,
        limit: int | None,
        queens: int | None,
        unique: bool,
        time_limit: float | None,
    ) -> Generator[Placement, None, None]:
        """The solutions of the cell statement as ``Placement``s, at most ``limit``."""
        from cpqueens.tasks import optimise
        from cpqueens.vocabulary.cells import Placement

        problem = self.lowered()  # the cell statement
        found = optimise.solutions(
            problem, queens, unique=unique, backend=backend, time_limit=time_limit
        )
        board = problem.board
        return (
            Placement(pieces, (board.rows, board.cols), board.blocked)
            for pieces in (found if limit is None else islice(found, limit))
        )

    def _solutions(
        self, backend: BackendName, limit: int | None, unique: bool, time_limit: float | None
    ) -> Generator[Solution, None, None]:
        """The generator behind ``solutions``, its arguments checked."""
        from cpqueens.backends import get as get_backend
        from cpqueens.strategies.planner import resolve
        from cpqueens.strategies.symmetry import leader

        if no_room(self.n, self.colours):
            return  # more colours than columns: no solution, known at once
        symmetries = self.symmetries()
        if unique and len(symmetries) > 1:
            from cpqueens.strategies.declared import check_declared

            check_declared(self, symmetries)  # a false keeps= raises, naming a counterexample
        source = self.with_constraints(leader(self)) if unique and len(symmetries) > 1 else self
        engine = get_backend(resolve(source, backend))
        found = engine.solutions(source, time_limit=time_limit)
        if limit is not None:
            found = islice(found, limit)
        for by_colour in found:
            yield Solution(by_colour, self.board, symmetries)

    def first(
        self, backend: BackendName = DEFAULT_BACKEND, *, time_limit: float | None = None
    ) -> Any:
        """The lexicographically first solution (as ``solutions()`` orders them), or None.

        Plain models on at most 64 columns are searched by compiled code. A
        ``time_limit`` (seconds) that ends the search first raises
        ``IncompleteSearchError``: None always means there is no solution.

        >>> model(8).first().columns
        (0, 4, 7, 5, 2, 6, 1, 3)
        """
        if self.cells is not None:
            return next(iter(self.solutions(backend, 1, time_limit=time_limit)), None)
        from cpqueens.tasks import decide as decide_task  # on first use: counts never load it

        found = decide_task.first(self, backend, check_time_limit(time_limit))
        return None if found is None else Solution(found, self.board, self.symmetries())

    def exists(
        self, backend: BackendName = DEFAULT_BACKEND, *, time_limit: float | None = None
    ) -> bool:
        """Whether the model has at least one solution.

        Plain models on at most 64 columns are decided by a compiled search
        that fills the row with the fewest free cells first. A ``time_limit``
        (seconds) that ends the search first raises ``IncompleteSearchError``.

        >>> model(3).exists(), model(4).exists()
        (False, True)
        """
        if self.cells is not None:
            return self.first(backend, time_limit=time_limit) is not None
        from cpqueens.tasks import decide as decide_task  # on first use: counts never load it

        return decide_task.exists(self, backend, check_time_limit(time_limit))

    def find(
        self, backend: BackendName = DEFAULT_BACKEND, *, time_limit: float | None = None
    ) -> Any:
        """Any one solution (not ordered), checked against the model; None if provably none.

        "auto" races a construction (free boards), min-conflicts local search
        and CP-SAT's free search (``cpqueens.tasks.find``); "cpsat" runs CP-SAT's
        search alone. ``time_limit`` (seconds) ends a search that has neither
        found a solution nor proved there is none with ``IncompleteSearchError``.
        Ctrl-C stops it at once (``KeyboardInterrupt``).

        >>> model(1000).find().columns[:4]
        (1, 3, 5, 7)
        >>> model(3).find() is None
        True
        """
        if self.cells is not None:
            return self.first(backend, time_limit=time_limit)
        from cpqueens.tasks import find as find_task  # on first use: counts never load it

        return find_task.find(self, backend, time_limit)

    def to_cpsat(self) -> tuple[Any, list[Any]]:
        """The OR-Tools ``CpModel`` the cpsat backend solves, and its ``q[colour][row]`` variables.

        >>> cp, q = model(6).to_cpsat()
        >>> len(q), len(q[0])
        (1, 6)

        A statement at the cell level gives its 0/1 variables ``x[army][(row, col)]``.
        """
        if self.cells is not None:
            from cpqueens.backends.cpsat.cells import build

            return build(self.cells)
        from cpqueens.backends.cpsat.export import to_cpsat

        return to_cpsat(self)

    def to_cpmpy(self) -> tuple[Any, Any]:
        """A ``cpmpy.Model`` of this model and its variables ``q`` (colours x n).

        A statement at the cell level gives its 0/1 variables ``x`` (armies x rows x columns).

        CPMpy is an optional extra: ``pip install 'cpqueens[cpmpy]'``.
        """
        if self.cells is not None:
            from cpqueens.backends.cpsat.export import cells_to_cpmpy

            return cells_to_cpmpy(self.cells)
        from cpqueens.backends.cpsat.export import to_cpmpy

        return to_cpmpy(self)

    def cross_check(
        self, queens: int | None = None, *, unique: bool = False, time_limit: float | None = None
    ) -> int:
        """Count with every installed backend; return the count, or raise if any two disagree.

        A statement at the cell level is counted by every engine that states
        it (at least two), ``queens`` pieces per army if given.
        """
        if self.cells is not None:
            from cpqueens.tasks import optimise

            return optimise.cross_check(self.cells, queens, unique=unique, time_limit=time_limit)
        self._check_queens(queens)
        if unique or time_limit is not None:
            return _agree(
                {
                    name: self.count(name, unique=unique, time_limit=time_limit)  # type: ignore[arg-type]
                    for name in installed_backends()
                }
            )
        return _agree({name: self.count(name) for name in installed_backends()})  # type: ignore[arg-type]

    def maximize(self, backend: BackendName = DEFAULT_BACKEND, **options: Any) -> Optimum:
        """The largest solution (pieces of army 0), proved optimal unless a limit ends it.

        Options: ``time_limit`` (seconds), ``workers`` (CP-SAT's, default 2),
        ``symmetry`` (lex-leader constraints, default True), ``count`` and
        ``unique`` (also count the optimal solutions, or their classes), and
        ``progress(value, bound, seconds)`` called on each better solution;
        ``backend`` "python-constraint" steps the size instead, proving each
        step by exhausting the next (small boards only; "auto" is CP-SAT).

        >>> model(8, per_row=None, per_column=None).maximize().value
        8
        """
        from cpqueens.tasks import optimise

        return optimise.optimise(self.lowered(), "maximize", backend=backend, **options)

    def minimize(self, backend: BackendName = DEFAULT_BACKEND, **options: Any) -> Optimum:
        """The smallest solution, proved optimal unless a limit ends it (options: ``maximize``).

        >>> model(6, per_row=None, per_column=None, independent=False, dominating=True).minimize(
        ...     ).value  # the fewest queens covering 6x6 (A075458)
        3
        """
        from cpqueens.tasks import optimise

        return optimise.optimise(self.lowered(), "minimize", backend=backend, **options)

    @property
    def x(self) -> CellVariables:
        """The cell variables for ``where``: ``x[row, col]`` is 1 where a piece stands, else 0.

        On every model: at the cell level each is its cell's 0/1 variable (army
        0's piece); with one queen per row, ``x[r, c]`` is ``int(q[r] == c)``.

        >>> m = model(8)
        >>> m.where(m.x[0, 0] + m.x[7, 7] == 1).count()
        8
        >>> kings = model(3, attack="king", per_row=None, per_column=None)
        >>> kings.where(kings.x[1, 1] == 1).count()
        1
        """
        from cpqueens.expressions import CellVariables  # loaded once conditions are

        if self.cells is not None:
            board = self.cells.board
            return CellVariables(board.rows, board.cols, cells=True)
        return CellVariables(self.n, self.n, cells=False, colours=self.colours)

    @property
    def q(self) -> Variables:
        """The column variables for ``where``: ``q[row]`` (colour 0), ``q[colour, row]``.

        They exist with one queen per row; a statement at the cell level has ``x[row, col]``.
        """
        if self.cells is not None:
            raise NotSupportedError(
                "q[row] is the column of the one queen of a row; this statement has any number "
                "of pieces per row: write conditions with x[row, col] (1 where a piece stands)"
            )
        return super().q

    def where(self, *conditions: Any, keeps: Iterable[str] = ()) -> Model:
        """The same model narrowed by conditions over ``q[row]`` or ``x[row, col]`` (a new model).

        Each argument is a condition or an iterable of them. ``keeps`` declares
        the board symmetries that keep the conditions (one-queen-per-row models;
        see ``Problem.where``).

        >>> m = model(8)
        >>> m.where(m.q[0] < m.q[7]).count()
        46
        """
        if self.cells is None:
            return super().where(*conditions, keeps=keeps)
        if tuple(keeps):
            raise NotSupportedError(
                f"keeps={tuple(keeps)!r}: conditions at the cell level keep the identity alone"
            )
        from cpqueens.expressions import Condition

        board = self.cells.board
        shape = (board.rows, -board.cols)
        found = []
        for condition in flatten_conditions(conditions):
            if not isinstance(condition, Condition):
                raise TypeError(
                    f"where() takes conditions built from model.x (such as "
                    f"m.x[0, 1] + m.x[1, 0] <= 1), got {condition!r} ({type(condition).__name__})"
                )
            if condition.shape is not None and condition.shape != shape:
                raise ValueError(
                    f"the condition {condition} is over the variables of another model, not this "
                    f"{board.rows}x{board.cols} board of cells: build it from this model's x"
                )
            found.append(condition.node)
        cells = replace(self.cells, conditions=self.cells.conditions + tuple(found))
        return replace(self, cells=cells)

    def lowered(self) -> CellProblem:
        """The statement at the cell level: 0/1 per cell, linear sums (every engine states it).

        A one-queen-per-row model lowers to quotas of one per row and column
        over its attack lines; what the cell level cannot say (colours,
        conditions over ``q``, rooks that may not touch) raises ``NotSupportedError``.

        >>> lowered = model(4, blocked=[(0, 0)]).lowered()
        >>> lowered.per_row, lowered.per_column, lowered.board.blocked
        (1, 1, ((0, 0),))
        """
        if self.cells is not None:
            return self.cells
        return _lower(self)

    def _repr_svg_(self) -> str:
        """The board a notebook shows: blocked cells, placed queens by colour, coordinates."""
        if self.cells is not None:
            from cpqueens.drawing.pictures import rectangle_svg

            board = self.cells.board
            placed = [(army, r, c) for r, c, army in self.cells.placed]
            return rectangle_svg(board.rows, board.cols, board.blocked, placed, coordinates=True)
        from cpqueens.vocabulary import summary

        return summary.svg(self)

    def _repr_html_(self) -> str:
        """The summary a notebook shows: size, colours, symmetries and every constraint."""
        if self.cells is not None:
            import html

            return f"<pre>{html.escape(str(self))}</pre>"
        from cpqueens.vocabulary import summary

        return summary.html_summary(self)

    def __str__(self) -> str:
        """The model as mathematics: the statement and every constraint."""
        if self.cells is not None:
            return self.cells.describe()
        return super().__str__()

    def symmetries(self) -> tuple[str, ...]:
        """The board symmetries mapping the whole statement onto itself.

        >>> model(6, per_row=None, per_column=None, attack="king").symmetries()[:2]
        ('identity', 'rot90')
        """
        if self.cells is not None:
            return tuple(name for name, swap in self.cells.symmetries if not swap)
        return super().symmetries()


def model(
    n: int | Board | RegionPuzzle,
    blocked: Iterable[Cell] = (),
    *,
    colours: int | None = None,
    placed: Iterable[Cell | tuple[int, int, int]] = (),
    toroidal: bool = False,
    knight: bool = False,
    diagonals: bool = True,
    regions: Sequence[Sequence[int]] | None = None,
    no_touch: bool = False,
    per_row: int | None = 1,
    per_column: int | None = 1,
    per_region: int | None = None,
    attack: Attack = "queen",
    armies: int = 1,
    independent: bool = True,
    dominating: bool = False,
    columns: int | None = None,
) -> Model:
    """Build a model, the one door: the classic board and its variants, pieces on cells, puzzles.

    - ``n``: the board size, an int >= 1, or a ``Board`` (its blocked cells
      come along, and its queens are placed; ``Board.parse`` reads the
      judges' grids and cpqueens' drawings, queens included), or a one-star
      region puzzle (``cpqueens.Puzzle``: the Queens game), whose regions,
      no-touch rule, diagonals, given queens and blocked cells come along.
    - ``blocked``: cells where no queen of any colour may stand, as 0-based
      ``(row, col)`` pairs: ``(0, 0)`` is the top-left corner.
    - ``colours``: how many sets of n queens: each colour puts one queen in
      every row, no two queens of one colour attack each other, and no cell
      holds two queens. Solutions are ordered placements: with ``colours=2``
      (the "2n queens" problem) swapping black and white counts twice, as the
      judges count. Default: 1, or as many as the colours of a ``Board``'s queens.
    - ``placed``: queens every solution must contain, as 0-based
      ``(row, col)`` pairs of colour 0, or ``(row, col, colour)`` triples.
    - ``toroidal``: the diagonals wrap around the board's edges (toroidal
      queens, OEIS A051906), for every colour.
    - ``knight``: no two queens of one colour a knight's move apart either
      (superqueens, OEIS A051223).
    - ``diagonals``: False leaves the long diagonals out, so that queens
      attack along rows and columns only (rooks: ``model(8,
      diagonals=False).count()`` is 8!).
    - ``regions``: an n x n grid of region numbers 0..n-1, every one used:
      each colour puts one queen in every region (the Queens game).
    - ``no_touch``: no two queens of one colour touch, not even diagonally.

    Any number of pieces (the cell level, every piece a 0/1 cell):

    - ``per_row``, ``per_column``: exactly that many pieces on every row and
      column; 1 and 1 (the defaults) is the classic problem, None states no
      quota (``cpqueens.cells(...)`` is ``model(..., per_row=None,
      per_column=None)``); ``per_region``: that many on every region of
      ``regions`` (default 1 with ``regions``).
    - ``attack``: "queen", "rook" (rows and columns) or "king" (the 8
      neighbours: Star Battle); ``independent`` (default True): no piece
      attacks another (of another army, with two); ``dominating``: every free
      cell holds a piece or is attacked by one; ``armies=2``: two armies of
      equal size (peaceable when independent); ``columns``: a rectangular
      board of n rows and that many columns.

    A statement with one queen per row and column is held in the column
    encoding (``q[r]``: every engine, every strategy); any other at the cell
    level (``Model.cells``), where CP-SAT states everything, python-constraint
    small boards and the compiled counter one army of a given size. Both are
    one ``Model`` with the same verbs; ``count(queens=k)``, ``maximize()`` and
    ``minimize()`` size the pieces.

    Bad input raises a ``ValueError`` or ``TypeError`` naming the bad value; a
    contradictory but well-formed model (a placed queen on a blocked cell)
    simply has no solution.

    The ``Model`` answers with ``count()`` (exact; ``unique=True`` counts
    classes under its symmetries), ``solutions()`` (lazy, lexicographic),
    ``first()``, ``exists()``, ``cross_check()`` (every backend must agree),
    ``symmetries()`` and ``engine()`` (which backend "auto" picks); its
    ``constraints`` are the whole problem as plain data, and ``print(model)``
    shows them.

    >>> model(8).count()
    92
    >>> model(8, blocked=[(0, 0)], placed=[(0, 1)]).count(backend="bitmask")
    8
    >>> model(4, colours=2).count()
    2
    >>> model(5, toroidal=True).count(), model(10, knight=True).count()
    (10, 4)
    >>> model(6, diagonals=False).count()  # 6 rooks: 6!
    720
    >>> model(4, regions=[[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]).count()
    2
    >>> model(8, per_row=None, per_column=None).count(queens=8)
    92
    >>> model(5, attack="king", per_row=None, per_column=None).maximize().value
    9
    >>> model(3, columns=5, per_row=None, per_column=None, blocked=[(1, 2)]).maximize().value
    3
    """
    if _is_puzzle(n):
        rows = [r for r, _ in n.queens]
        if n.stars != 1 or len(set(rows)) != len(rows):  # givens sharing a row: no solution
            return _star_puzzle(n, blocked, placed, regions, per_region)
        n, placed, regions, no_touch, diagonals = _from_puzzle(n, placed, regions, diagonals)
    if per_region is not None and regions is None:
        raise ValueError(f"per_region={per_region!r} needs regions: a grid of region numbers")
    if regions is not None and per_region is None:
        per_region = 1
    cell_level = _cell_level(
        n, per_row, per_column, per_region, attack, armies, independent, dominating, columns
    )
    if cell_level is not None:
        if colours not in (None, 1):
            raise ValueError(
                f"colours={colours!r} holds one queen per row for each colour: with {cell_level} "
                "the pieces are stated on cells, where armies=2 gives two armies"
            )
        return _cell_model(
            n,
            blocked=blocked,
            placed=placed,
            toroidal=toroidal,
            knight=knight,
            diagonals=diagonals,
            regions=regions,
            no_touch=no_touch,
            per_row=per_row,
            per_column=per_column,
            per_region=per_region,
            attack=attack,
            armies=armies,
            independent=independent,
            dominating=dominating,
            columns=columns,
        )
    if attack != "queen":
        diagonals, no_touch = False, no_touch or attack == "king"
    if isinstance(n, Board):
        board = Board(n.n, n.blocked + check_cells(blocked, n.n, "blocked cell"))
        placed = (*n.queens, *placed)
        if colours is None:
            colours = 1 + max((colour for *_, colour in n.queens), default=0)
    else:
        size = check_size(n)
        board = Board(size, check_cells(blocked, size, "blocked cell"))
    if colours is None:
        colours = 1
    flags = ((toroidal, "toroidal"), (knight, "knight"), (diagonals, "diagonals"))
    for flag, name in (*flags, (no_touch, "no_touch")):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    if toroidal and not diagonals:
        raise ValueError(
            "toroidal=True wraps the diagonals around the board: it needs diagonals=True, "
            "got diagonals=False"
        )
    grid = None if regions is None else check_region_grid(regions, board.n)
    rules = toroidal or knight or grid is not None or no_touch
    if rules and isinstance(colours, int) and colours > MAX_VARIANT_COLOURS:
        raise ValueError(  # one variant constraint per colour: refused before they are built
            f"colours must be at most {MAX_VARIANT_COLOURS:,} with toroidal or knight, regions "
            f"or no_touch, "
            f"got {colours:,}"
        )
    first, others = _placed_by_colour(placed, board.n, colours)
    extra: list[Constraint] = [Placed(cells, colour) for colour, cells in others.items()]
    if toroidal:
        extra += [Toroidal(colour) for colour in range(colours)]
    if knight:
        extra += [KnightMoves(colour) for colour in range(colours)]
    if grid is not None:
        extra += [Regions(grid, colour) for colour in range(colours)]
    if no_touch:
        extra += [NoTouch(colour) for colour in range(colours)]
    return Model(board, colours, first, tuple(extra), diagonals)


def _is_puzzle(n: object) -> TypeIs[RegionPuzzle]:
    """Whether ``n`` is a region puzzle; none can exist before its module is imported."""
    puzzles = sys.modules.get("cpqueens.vocabulary.regions")
    return puzzles is not None and isinstance(n, puzzles.RegionPuzzle)


def _from_puzzle(
    puzzle: RegionPuzzle,
    placed: Iterable[Cell | tuple[int, int, int]],
    regions: object,
    diagonals: bool,
) -> tuple[Board, list[Any], tuple[tuple[int, ...], ...], bool, bool]:
    """A one-star puzzle's board, placed queens, regions, no-touch rule and diagonals.

    ``diagonals`` left True takes the puzzle's own choice; False turns them off.
    """
    if puzzle.stars != 1:
        raise ValueError(
            f"a model holds one queen per row: a puzzle of {puzzle.stars} stars per row "
            "(Star Battle) is solved by cpqueens.Puzzle itself, got stars="
            f"{puzzle.stars}"
        )
    if regions is not None:
        raise ValueError(f"pass regions or a puzzle, not both: got regions={regions!r}")
    if isinstance(placed, (str, bytes)) or not isinstance(placed, Iterable):
        check_cells(placed, puzzle.n, "placed queen")  # raises its error naming the value
    board = Board(puzzle.n, puzzle.blocked)
    return board, [*puzzle.queens, *placed], puzzle.regions, True, diagonals and puzzle.diagonals


def _placed_by_colour(
    placed: Iterable[Cell | tuple[int, int, int]], n: int, colours: object
) -> tuple[tuple[Cell, ...], dict[int, tuple[Cell, ...]]]:
    """Colour 0's placed cells, and every other colour's, from pairs and (row, col, colour)."""
    if isinstance(placed, (str, bytes)) or not isinstance(placed, Iterable):
        check_cells(placed, n, "placed queen")  # raises its error naming the value
    by_colour: dict[int, set[Cell]] = {}
    for item in placed:
        colour = 0
        if isinstance(item, (tuple, list)) and len(item) == 3:
            colour = item[2]
            if isinstance(colour, bool) or not isinstance(colour, numbers.Integral):
                raise TypeError(f"placed queen {tuple(item)!r}: its colour must be an int")
            count = colours if isinstance(colours, int) and not isinstance(colours, bool) else 1
            if not 0 <= colour < count:
                raise ValueError(
                    f"placed queen {tuple(item)!r}: colour {colour} is outside the "
                    f"model's colours 0..{count - 1}"
                )
            item = tuple(item[:2])
        by_colour.setdefault(int(colour), set()).update(check_cells([item], n, "placed queen"))
    for colour, colour_cells in by_colour.items():
        if colour == 0:
            continue  # Model checks colour 0's rows
        rows: dict[int, Cell] = {}
        for cell in sorted(colour_cells):
            if cell[0] in rows:
                raise ValueError(
                    f"placed queens {rows[cell[0]]!r} and {cell!r} of colour {colour} share "
                    f"row {cell[0]}: expected at most one placed queen per row and colour"
                )
            rows[cell[0]] = cell
    first = tuple(sorted(by_colour.pop(0, ())))
    return first, {colour: tuple(sorted(cells)) for colour, cells in sorted(by_colour.items())}


def _cell_level(
    n: object,
    per_row: object,
    per_column: object,
    per_region: object,
    attack: object,
    armies: object,
    independent: object,
    dominating: object,
    columns: object,
) -> str | None:
    """Why the statement needs the cell level (a phrase), or None if one queen per row holds it.

    One queen per row and column on a square board, one army that is
    independent and not dominating, one per region: the column encoding.
    Queens and rooks with one per row have one per column too (n rows, n
    columns, none sharing a column); kings need both quotas said.
    """
    if attack not in ("queen", "rook", "king"):
        raise ValueError(f"attack must be one of 'queen', 'rook', 'king', got {attack!r}")
    size = n.n if isinstance(n, Board) else n
    if columns is not None and columns != size:
        return f"columns={columns!r}"
    if armies != 1:
        return f"armies={armies!r}"
    if independent is not True:
        return f"independent={independent!r}"
    if dominating is not False:
        return f"dominating={dominating!r}"
    if per_region not in (None, 1):
        return f"per_region={per_region!r}"
    lines = (per_row, per_column)
    if attack == "king":
        return None if lines == (1, 1) else f"per_row={per_row!r}, per_column={per_column!r}"
    if lines in ((1, 1), (1, None), (None, 1)):
        return None
    return f"per_row={per_row!r}, per_column={per_column!r}"


def _cell_model(
    n: int | Board,
    *,
    blocked: Iterable[Cell],
    placed: Iterable[Any],
    toroidal: bool,
    knight: bool,
    diagonals: bool,
    regions: Sequence[Sequence[int]] | None,
    no_touch: bool,
    per_row: int | None,
    per_column: int | None,
    per_region: int | None,
    attack: Attack,
    armies: int,
    independent: bool,
    dominating: bool,
    columns: int | None,
) -> Model:
    """A statement at the cell level: its ``CellProblem`` in a ``Model``, by model()'s keywords.

    Every keyword is named by each caller (no defaults here: model()'s are the ones).
    """
    from cpqueens.vocabulary.cells import CellBoard, CellProblem  # loaded for cell statements

    for flag, name in ((diagonals, "diagonals"), (no_touch, "no_touch")):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    if isinstance(n, Board):
        rows, holes = n.n, (*n.blocked, *blocked)
        placed = (*((r, c) for r, c, *_ in n.queens), *placed)
    else:
        rows, holes = n, tuple(blocked)
    if not diagonals and attack == "queen":
        attack = "rook"
    if no_touch and attack == "rook":  # queens and kings never touch anyway
        raise NotSupportedError(
            "rooks that may not touch have no cell statement yet: use attack='king' with "
            "per_row=1 and per_column=1, or the column encoding (per_row=1)"
        )
    board = CellBoard(
        rows,
        rows if columns is None else columns,
        holes,
        attack=attack,
        toroidal=toroidal,
        knight=knight,
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
    return Model(Board(board.rows), cells=problem)


def _star_puzzle(
    puzzle: RegionPuzzle,
    blocked: Iterable[Cell],
    placed: Iterable[Any],
    regions: object,
    per_region: object,
) -> Model:
    """A puzzle of k stars per row, column and region (Star Battle): its cell statement.

    A one-star puzzle whose givens share a row comes here too: the cell level
    states any placed pieces, and answers that no solution holds them.
    """
    if regions is not None:
        raise ValueError(f"pass regions or a puzzle, not both: got regions={regions!r}")
    if puzzle.diagonals and puzzle.stars != 1:
        raise ValueError(
            f"a puzzle with diagonals and {puzzle.stars} stars has no statement: "
            "the long diagonals are stated for one star only"
        )
    k = puzzle.stars
    return _cell_model(
        puzzle.n,
        blocked=(*puzzle.blocked, *blocked),
        placed=(*puzzle.queens, *placed),
        toroidal=False,
        knight=False,
        diagonals=True,
        regions=puzzle.regions,
        no_touch=False,
        per_row=k,
        per_column=k,
        per_region=k if per_region is None else per_region,  # type: ignore[arg-type]
        attack="queen" if puzzle.diagonals else "king",  # queens' lines hold no two touching
        armies=1,
        independent=True,
        dominating=False,
        columns=None,
    )


def _lower(problem: Model) -> CellProblem:
    """A one-queen-per-row model at the cell level: quotas of one per row and column."""
    from cpqueens.expressions import at_cell_level
    from cpqueens.vocabulary.cells import CellBoard, CellProblem  # loaded for cell statements

    if problem.colours != 1:
        raise NotSupportedError(
            f"a model of {problem.colours} colours has no cell statement: each colour is its own "
            "set of n queens (count it with count(); armies=2 states two armies on cells)"
        )
    kinds = {type(c).__name__ for c in problem.extra} - {
        "Toroidal",
        "KnightMoves",
        "Regions",
        "NoTouch",
        "Placed",
        "Where",
    }
    if kinds:
        raise NotSupportedError(
            f"the cell level cannot state {', '.join(sorted(kinds))} yet: count this model with "
            "count(), or state it with per_row=None"
        )
    extra = {type(c).__name__: c for c in problem.extra}
    attack: Attack = "queen"
    if not problem.diagonals:
        attack = "king" if "NoTouch" in extra else "rook"
    grid = extra["Regions"].grid if "Regions" in extra else None  # type: ignore[union-attr]
    board = CellBoard(
        problem.n,
        problem.n,
        problem.board.blocked,
        attack=attack,
        toroidal="Toroidal" in extra,
        knight="KnightMoves" in extra,
    )
    conditions = tuple(
        at_cell_level(c.condition, problem.n) for c in problem.extra if isinstance(c, Where)
    )
    return CellProblem(
        board,
        placed=problem.placed,  # type: ignore[arg-type]  # (row, col) pairs: army 0
        per_row=1,
        per_column=1,
        regions=grid,
        per_region=None if grid is None else 1,
        conditions=conditions,  # type: ignore[arg-type]  # conditions stay conditions
    )


def _agree(counts: dict[str, int]) -> int:
    """The one count every backend gave, or raise ``CrossCheckError`` naming each."""
    if len(set(counts.values())) != 1:
        found = ", ".join(f"{name}={value}" for name, value in counts.items())
        raise CrossCheckError(f"backends disagree on the count: {found}")
    return next(iter(counts.values()))


def _no_pool(verb: str, **options: object) -> None:
    """Refuse the pool options a count at the cell level does not take, naming them."""
    for name, value in options.items():
        if value is not None:
            raise NotSupportedError(
                f"{verb}({name}=...) runs one-queen-per-row models in pieces; this statement is "
                "counted by one engine's search: leave it out"
            )


def cells(
    n: int | Board,
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
    regions: Sequence[Sequence[int]] | None = None,
    per_region: int | None = None,
) -> Model:
    """A board of n rows and m columns (m = n if None) where any number of pieces stand.

    The same ``Model`` as ``model(n, columns=m, per_row=None,
    per_column=None, ...)``, with the same keywords, always held at the cell
    level (its solutions are (row, col, army) pieces). Star Battle with k
    stars is ``cells(n, attack="king", per_row=k, per_column=k,
    regions=grid, per_region=k)``; the n-queens problem is ``cells(n, per_row=1)``.

    >>> cells(8, per_row=1).count()
    92
    >>> cells(4, attack="rook", per_row=1, per_column=1).count(unique=True)
    7
    """
    if attack not in ("queen", "rook", "king"):
        raise ValueError(f"attack must be one of 'queen', 'rook', 'king', got {attack!r}")
    return _cell_model(
        n,
        blocked=blocked,
        placed=placed,
        toroidal=toroidal,
        knight=knight,
        diagonals=True,
        regions=regions,
        no_touch=False,
        per_row=per_row,
        per_column=per_column,
        per_region=per_region,
        attack=attack,
        armies=armies,
        independent=independent,
        dominating=dominating,
        columns=m,
    )


def independence(
    n: int | Board, m: int | None = None, blocked: Iterable[Cell] = (), **options: Any
) -> Optimum:
    """The most pieces no two of which attack each other, on an n x m board or a ``Board``.

    Keywords of the statement (``attack``, ``toroidal``, ``knight``) go to
    ``cells``; the others (``time_limit``, ``count``, ...) to ``maximize``.

    >>> independence(8).value, independence(3, 5, blocked=[(1, 2)]).value
    (8, 3)
    """
    statement, solve = _split(options)
    return cells(n, m, blocked, **statement).maximize(**solve)


def domination(
    n: int | Board, m: int | None = None, blocked: Iterable[Cell] = (), **options: Any
) -> Optimum:
    """The fewest pieces that occupy or attack every free cell (OEIS A075458 for queens).

    ``independent=True``: no two of them attack each other (A075324).

    >>> domination(8).value, domination(8, independent=True).value
    (5, 5)
    """
    options.setdefault("independent", False)
    statement, solve = _split(options)
    return cells(n, m, blocked, dominating=True, **statement).minimize(**solve)


def peaceable(
    n: int | Board, m: int | None = None, blocked: Iterable[Cell] = (), **options: Any
) -> Optimum:
    """The largest k such that k white and k black pieces attack none of the other army.

    OEIS A250000 for queens; queens come back as (row, col, army). Proved by
    the compiled line search on one core (``workers`` is not used there);
    ``count=True`` counts the optimal armies with CP-SAT.

    >>> peaceable(5).value
    4
    """
    statement, solve = _split(options)
    return cells(n, m, blocked, armies=2, **statement).maximize(**solve)


#: The keywords of the shortcuts that state the problem (the rest go to the verb).
_STATEMENT = frozenset({"toroidal", "attack", "knight", "independent", "placed"})


def _split(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The shortcuts' keywords: (the statement's, the verb's)."""
    statement = {k: v for k, v in options.items() if k in _STATEMENT}
    return statement, {k: v for k, v in options.items() if k not in _STATEMENT}
