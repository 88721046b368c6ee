"""Model: one statement and the verbs that answer it, whatever form an engine reads.

This module holds the facade; :mod:`cpqueens.model` re-exports it.

A :class:`Model` holds a :class:`~cpqueens.vocabulary.statement.Statement`
and nothing else: no encoding, no solver. Its builders (``with_placed``,
``with_constraints``, ``where``) return a model of a new statement; its verbs
(``count``, ``solutions``, ``first``, ``exists``, ``find``, ``cross_check``,
``maximize``, ``minimize``) ask :mod:`cpqueens.tasks.verbs`, which asks the
planner which engine answers and in which form. ``cpqueens.model(...)`` is
the door (:mod:`cpqueens.model.door`); ``cells``, ``independence``,
``domination`` and ``peaceable`` are shortcuts over it
(:mod:`cpqueens.model.shortcuts`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cpqueens.errors import NotSupportedError

if TYPE_CHECKING:  # the door, the verbs, the planner and the tasks load when first called
    from concurrent.futures import Executor

    from cpqueens.backends import BackendName
    from cpqueens.expressions import CellVariables, Variables
    from cpqueens.tasks.optimise import Optimum
    from cpqueens.vocabulary.board import Board
    from cpqueens.vocabulary.cells import Attack, CellProblem
    from cpqueens.vocabulary.constraints import Cell
    from cpqueens.vocabulary.problem import Problem
    from cpqueens.vocabulary.regions import RegionPuzzle
    from cpqueens.vocabulary.statement import Statement

#: The backend every method uses unless told otherwise: the fastest exact engine that fits.
DEFAULT_BACKEND: BackendName = "auto"


@dataclass(frozen=True)
class Model:
    """A problem of the N-Queens family, stated once, with its verbs.

    ``statement`` is the whole problem as plain data. Every verb takes the
    backend first ("auto" by default: the fastest engine that answers), then
    keywords; a named engine that cannot answer raises ``NotSupportedError``
    naming one that can.
    """

    statement: Statement

    # -- the statement, read -------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of rows (the board's size when it is square)."""
        return self.statement.rows

    @property
    def board(self) -> Board:
        """The square board: its size, blocked cells (and no queens)."""
        from cpqueens.vocabulary.board import Board

        board = self.statement.board
        if not self.statement.square:
            raise NotSupportedError(
                f"this {board.rows}x{board.cols} board is not square: read statement.board"
            )
        return Board(board.rows, board.blocked)

    @property
    def colours(self) -> int:
        """How many sets of one queen per row and column (1 unless ``colours`` said more)."""
        return self.statement.colours

    @property
    def placed(self) -> tuple[Cell, ...]:
        """The placed pieces of colour (or army) 0, as (row, col) cells."""
        return self.statement.placed_of(0)

    @property
    def kinds(self) -> tuple[object, ...]:
        """The constraint kinds narrowing the statement (conditions and kinds), as stated."""
        return self.statement.kinds

    @property
    def constraints(self) -> tuple[object, ...]:
        """The column form's constraints (one piece per row and column), as plain data."""
        return self.columns().constraints

    def columns(self) -> Problem:
        """The statement's column form ``q[colour][row]`` (``NotSupportedError`` if none)."""
        from cpqueens.lowering.columns import column_form

        form = column_form(self.statement)
        if form is None:
            raise NotSupportedError(
                "this statement has not one piece per row and column: it has no column form "
                "(its cell form is lowered())"
            )
        return form

    def lowered(self) -> CellProblem:
        """The statement at the cell level: 0/1 per cell, linear sums (every engine states it).

        >>> lowered = model(4, blocked=[(0, 0)]).lowered()
        >>> lowered.per_row, lowered.per_column, lowered.board.blocked
        (1, 1, ((0, 0),))
        """
        from cpqueens.lowering.cells import cell_form

        return cell_form(self.statement)

    def symmetries(self) -> tuple[str, ...]:
        """The symmetries mapping the whole statement onto itself (``unique`` counts under them).

        With two armies, a symmetry that also exchanges them is named "swap"
        or "<board symmetry>+swap".

        >>> model(6, per_row=None, per_column=None, attack="king").symmetries()[:2]
        ('identity', 'rot90')
        """
        return self.statement.symmetries()

    # -- builders ------------------------------------------------------------------------

    def with_placed(self, cells: Iterable[Cell | tuple[int, int, int]]) -> Model:
        """The same model with more placed pieces: (row, col) of group 0, or (row, col, group)."""
        from cpqueens.model.door import one_per_row, placed_pieces

        s = self.statement
        pieces = placed_pieces(cells, s.rows, s.groups, s.column_shaped, s.cols)
        if s.column_shaped:
            one_per_row([*s.placed, *pieces])
        return Model(s.with_placed(pieces))

    def with_constraints(self, *constraints: object) -> Model:
        """The same model narrowed by constraint kinds.

        A kind checks a solution (``violation(by_colour, n)``), names the
        symmetries that keep it (``kept_by(n)``) and lowers itself
        (``decompose(n, colours)``) for the engines that do not know it; a
        kind no engine states is refused when a verb is asked, naming it.
        """
        return Model(self.statement.with_kinds(*constraints))

    @property
    def q(self) -> Variables:
        """The column variables: ``q[row]`` (colour 0), ``q[colour, row]``, on a square board.

        On a statement of any number of pieces ``q[r]`` is the column of row
        r's one piece: a condition that reads it also states that row r holds
        exactly one piece.
        """
        from cpqueens.expressions import Variables

        s = self.statement
        if not s.square:
            raise NotSupportedError(
                f"q[row] is the column of a row's piece on an n x n board; this board is "
                f"{s.rows}x{s.cols}: write conditions with x[row, col]"
            )
        return Variables(s.rows, s.colours)

    @property
    def x(self) -> CellVariables:
        """The cell variables: ``x[row, col]`` is 1 where a piece (of group 0) stands, else 0.

        >>> m = model(8)
        >>> m.where(m.x[0, 0] + m.x[7, 7] == 1).count()
        8
        >>> kings = model(3, attack="king", per_row=None, per_column=None)
        >>> kings.where(kings.x[1, 1] == 1).count()
        1
        """
        from cpqueens.expressions import CellVariables

        s = self.statement
        if s.colours != 1:
            raise ValueError(
                f"x[row, col] reads one piece per cell of one colour; this model has {s.colours} "
                "colours: write q[colour, row] == col"
            )
        return CellVariables(s.rows, s.cols, cells=True)

    def where(self, *conditions: Any, keeps: Iterable[str] = ()) -> Model:
        """The same model narrowed by conditions over ``q[row]`` or ``x[row, col]``.

        Each argument is a condition or an iterable of them. ``keeps``
        declares board symmetries that map every solution meeting the
        conditions to one meeting them too (``symmetries()`` is cut down to
        them; none declared leaves the identity only). A wrong declaration
        makes ``unique`` counts wrong: declare only what you have proved.

        >>> m = model(8)
        >>> m.where(m.q[0] < m.q[7]).count()
        46
        """
        from cpqueens.model.conditions import checked
        from cpqueens.vocabulary.problem import flatten_conditions

        found = checked(self.statement, flatten_conditions(conditions), keeps)
        return Model(self.statement.with_kinds(*found))

    # -- verbs -----------------------------------------------------------------------------

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
        statement; "cpsat", "python-constraint" and "bitmask" name one. A
        statement of one queen per row and column is counted in pieces
        (symmetry-reduced where it allows), more of them the more workers:

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

        ``queens``: the number of pieces per group, for statements whose
        quotas do not fix it (``per_row=None``); None counts every size.

        >>> model(8).count()
        92
        >>> model(8).count(unique=True)
        12
        >>> model(8, per_row=None, per_column=None).count(queens=8)
        92
        """
        from cpqueens.tasks import verbs

        return verbs.count(
            self.statement,
            backend,
            queens=queens,
            unique=unique,
            workers=workers,
            executor=executor,
            progress=progress,
            checkpoint=checkpoint,
            time_limit=time_limit,
        )

    def engine(self, backend: BackendName = DEFAULT_BACKEND, *, path: bool = False) -> str:
        """The engine that counts the statement for ``backend``: itself, or "auto"'s choice.

        It names an engine only if that engine answers the statement. With
        ``path``, the way it counts too: which kernel, or the Python DFS and why.

        >>> model(8).engine()
        'bitmask'
        >>> model(16).engine(path=True)
        'bitmask: classes'
        """
        from cpqueens.tasks import verbs

        return verbs.engine(self.statement, backend, path=path)

    def solutions(
        self,
        backend: BackendName = DEFAULT_BACKEND,
        limit: int | None = None,
        *,
        queens: int | None = None,
        unique: bool = False,
        time_limit: float | None = None,
    ) -> Generator[Any, None, None]:
        """Lazily yield solutions, at most ``limit``.

        A statement of one piece per row and column yields ``Solution``
        objects in lexicographic order (colour 0's columns row by row, then
        colour 1's, ...); any other yields each solution as a
        :class:`~cpqueens.vocabulary.cells.Placement` of (row, col, army)
        pieces, ``queens`` of them per army if given. With ``unique``, one
        solution of each class under ``symmetries()``. A ``time_limit``
        (seconds) that ends the search first ends the iterator with
        ``IncompleteSearchError``, after the solutions found by then.
        """
        from cpqueens.tasks import verbs

        return verbs.solutions(
            self.statement, backend, limit, queens=queens, unique=unique, time_limit=time_limit
        )

    def first(
        self,
        backend: BackendName = DEFAULT_BACKEND,
        *,
        queens: int | None = None,
        time_limit: float | None = None,
    ) -> Any:
        """The first solution (lexicographic with one piece per row and column), or None.

        A ``time_limit`` (seconds) that ends the search first raises
        ``IncompleteSearchError``: None always means there is no solution.

        >>> model(8).first().columns
        (0, 4, 7, 5, 2, 6, 1, 3)
        """
        from cpqueens.tasks import verbs

        return verbs.first(self.statement, backend, queens=queens, time_limit=time_limit)

    def exists(
        self,
        backend: BackendName = DEFAULT_BACKEND,
        *,
        queens: int | None = None,
        time_limit: float | None = None,
    ) -> bool:
        """Whether the statement has at least one solution (``queens`` pieces per group, if given).

        >>> model(3).exists(), model(4).exists()
        (False, True)
        """
        from cpqueens.tasks import verbs

        return verbs.exists(self.statement, backend, queens=queens, time_limit=time_limit)

    def find(
        self,
        backend: BackendName = DEFAULT_BACKEND,
        *,
        queens: int | None = None,
        time_limit: float | None = None,
    ) -> Any:
        """Any one solution (not ordered), checked against the statement; None if provably none.

        "auto" races a construction (free boards), min-conflicts local search
        and CP-SAT's free search (``cpqueens.tasks.find``); a named engine
        searches alone. ``time_limit`` (seconds) ends a search that has neither
        found a solution nor proved there is none with ``IncompleteSearchError``.
        Ctrl-C stops it at once (``KeyboardInterrupt``).

        >>> model(1000).find().columns[:4]
        (1, 3, 5, 7)
        >>> model(3).find() is None
        True
        """
        from cpqueens.tasks import verbs

        return verbs.find(self.statement, backend, queens=queens, time_limit=time_limit)

    def cross_check(
        self,
        backends: Iterable[BackendName] | None = None,
        *,
        queens: int | None = None,
        unique: bool = False,
        time_limit: float | None = None,
    ) -> int:
        """Count with each of ``backends`` (None: every engine that answers); the count.

        Raises ``CrossCheckError`` if any two disagree. Like every verb it takes
        the engines first, then keywords (``queens`` pieces per group).

        >>> model(6).cross_check(), model(6).cross_check(("bitmask", "cpsat"))
        (4, 4)
        """
        from cpqueens.tasks import verbs

        return verbs.cross_check(
            self.statement, backends, queens=queens, unique=unique, time_limit=time_limit
        )

    def maximize(self, backend: BackendName = DEFAULT_BACKEND, **options: Any) -> Optimum:
        """The largest solution (pieces of group 0), proved optimal unless a limit ends it.

        Options: ``time_limit`` (seconds), ``workers`` (CP-SAT's, default 2),
        ``symmetry`` (lex-leader constraints, default True), ``count`` and
        ``unique`` (also count the optimal solutions, or their classes), and
        ``progress(value, bound, seconds)`` called on each better solution;
        ``backend`` "python-constraint" steps the size instead, proving each
        step by exhausting the next (small boards only). A search that runs in
        parts (the fewest queens dominating a free square board, on the bitmask
        engine) also takes ``checkpoint`` (a file: the same call resumes) and
        ``executor`` (a Dask cluster's), and ``workers`` are its processes.

        >>> model(8, per_row=None, per_column=None).maximize().value
        8
        """
        from cpqueens.tasks import verbs

        return verbs.optimise(self.statement, "maximize", backend, **options)  # type: ignore[no-any-return]

    def minimize(self, backend: BackendName = DEFAULT_BACKEND, **options: Any) -> Optimum:
        """The smallest solution, proved optimal unless a limit ends it (options: ``maximize``).

        >>> model(6, per_row=None, per_column=None, independent=False, dominating=True).minimize(
        ...     ).value  # the fewest queens covering 6x6 (A075458)
        3
        """
        from cpqueens.tasks import verbs

        return verbs.optimise(self.statement, "minimize", backend, **options)  # type: ignore[no-any-return]

    # -- exports ---------------------------------------------------------------------------

    def to_cpsat(self) -> tuple[Any, Any]:
        """An OR-Tools ``CpModel`` of the statement and its variables.

        With one piece per row and column: ``q[colour][row]`` (the model the
        cpsat engine solves); otherwise the cell form's 0/1 variables
        ``x[army][(row, col)]``. Enumerated over those variables, it has
        ``count()`` solutions.

        >>> cp, q = model(6).to_cpsat()
        >>> len(q), len(q[0])
        (1, 6)
        """
        from cpqueens.backends.cpsat.export import to_cpsat

        return to_cpsat(self.statement)

    def to_cpmpy(self) -> tuple[Any, Any]:
        """A ``cpmpy.Model`` of the statement and its variables (``q``, or the cells' ``x``).

        ``q`` has shape colours x n; ``x`` armies x rows x columns. Enumerated
        over them, it has ``count()`` solutions. CPMpy is an optional extra:
        ``pip install 'cpqueens[cpmpy]'``.
        """
        from cpqueens.backends.cpsat.export import to_cpmpy

        return to_cpmpy(self.statement)

    # -- pictures ------------------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The board a notebook shows: blocked cells, placed pieces by group, coordinates."""
        from cpqueens.drawing.pictures import rectangle_svg

        board = self.statement.board
        placed = [(group, r, c) for r, c, group in self.statement.placed]
        return rectangle_svg(board.rows, board.cols, board.blocked, placed, coordinates=True)

    def _repr_html_(self) -> str:
        """The summary a notebook shows: size, colours, symmetries, every constraint, the board."""
        from cpqueens.lowering.columns import column_form

        columns = column_form(self.statement)
        if columns is not None:
            from cpqueens.vocabulary import summary

            return summary.html_summary(columns)
        import html

        return f"<pre>{html.escape(str(self))}</pre>{self._repr_svg_()}"

    def __str__(self) -> str:
        """The statement as mathematics: every rule and every kind."""
        from cpqueens.model.text import describe

        return describe(self.statement)


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
      judges' grids and cpqueens' drawings, queens included), or a region
      puzzle (``cpqueens.Puzzle``: the Queens game, Star Battle), whose
      regions, stars, no-touch rule, diagonals, given queens and blocked
      cells come along.
    - ``blocked``: cells where no queen of any colour may stand, as 0-based
      ``(row, col)`` pairs: ``(0, 0)`` is the top-left corner.
    - ``colours``: how many sets of n queens: each colour puts one queen in
      every row and column, no two queens of one colour attack each other,
      and no cell holds two queens. Solutions are ordered placements: with
      ``colours=2`` (the "2n queens" problem) swapping black and white counts
      twice, as the judges count. Default: 1, or as many as the colours of a
      ``Board``'s queens.
    - ``placed``: queens every solution must contain, as 0-based
      ``(row, col)`` pairs of colour 0, or ``(row, col, colour)`` triples.
    - ``toroidal``: the board is a torus: its lines and moves wrap around its
      edges (toroidal queens, OEIS A051906), the knight's moves and the
      king's steps too.
    - ``knight``: no two pieces of one colour a knight's move apart either
      (superqueens, OEIS A051223).
    - ``diagonals``: False leaves the long diagonals out, so that queens
      attack along rows and columns only (rooks: ``model(8,
      diagonals=False).count()`` is 8!).
    - ``regions``: a grid of region numbers, every one used: ``per_region``
      pieces (default 1) of each colour in every region (the Queens game).
    - ``no_touch``: no two pieces of one colour touch, not even diagonally.

    Any number of pieces (0/1 cells):

    - ``per_row``, ``per_column``: exactly that many pieces on every row and
      column; 1 and 1 (the defaults) is the classic problem, None states no
      quota (``cpqueens.cells(...)`` is ``model(..., per_row=None,
      per_column=None)``).
    - ``attack``: "queen", "rook" (rows and columns) or "king" (the 8
      neighbours: Star Battle); ``independent`` (default True): no piece
      attacks another (of another army, with two); ``dominating``: every free
      cell holds a piece or is attacked by one; ``armies=2``: two armies of
      equal size (peaceable when independent); ``columns``: a rectangular
      board of n rows and that many columns.

    The model is one statement whatever it says: the planner lowers it to
    the form each engine reads (one piece per row and column: ``q[r]``;
    otherwise 0/1 cells ``x[r, c]``). Every verb works on every model:
    ``count()`` (exact; ``unique=True`` counts classes under
    ``symmetries()``), ``solutions()`` (lazy), ``first()``, ``exists()``,
    ``find()``, ``cross_check()`` (every engine must agree), ``maximize()``
    and ``minimize()``; ``print(model)`` shows the whole statement.

    Bad input raises a ``ValueError`` or ``TypeError`` naming the bad value; a
    contradictory but well-formed model (a placed queen on a blocked cell)
    simply has no solution.

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
    arguments = dict(locals())  # every parameter by name: the keywords are stated once, above
    from cpqueens.model.door import statement as read_statement

    return Model(read_statement(arguments))
