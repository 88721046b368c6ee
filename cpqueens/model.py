"""Model: the facade, a problem's data (``Problem``) with the verbs that solve it.

A model is immutable and knows no solver; ``constraints`` is the whole
problem. Each verb checks its options and calls down into ``cpqueens.tasks``.
"""

from __future__ import annotations

import numbers
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeGuard

from cpqueens.backends import backends as installed_backends
from cpqueens.errors import CrossCheckError
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
    check_region_grid,
)
from cpqueens.vocabulary.limits import MAX_VARIANT_COLOURS, no_room
from cpqueens.vocabulary.problem import Problem
from cpqueens.vocabulary.solution import Solution

if TYPE_CHECKING:  # the verbs import the planner and the tasks when first called
    from concurrent.futures import Executor

    from cpqueens.strategies.planner import BackendName
    from cpqueens.vocabulary.regions import RegionPuzzle

#: The backend every method uses unless told otherwise: the fastest exact engine that fits
#: (the planner's ``AUTO``).
DEFAULT_BACKEND: BackendName = "auto"


@dataclass(frozen=True)
class Model(Problem):
    """An N-Queens-family problem with its verbs: count, solutions, first, exists, find.

    The data (board, colours, placed queens, constraints; ``where`` and
    ``q``) is :class:`cpqueens.vocabulary.problem.Problem`'s; each verb calls
    down into its task (``cpqueens.tasks``).
    """

    def count(
        self,
        backend: BackendName = DEFAULT_BACKEND,
        *,
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

        >>> model(8).count()
        92
        >>> model(8).count(unique=True)
        12
        """
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
        unique: bool = False,
        time_limit: float | None = None,
    ) -> Iterator[Solution]:
        """Lazily yield solutions in lexicographic order, at most ``limit``.

        The order is that of colour 0's columns row by row, then colour 1's, and
        so on. With ``unique``, only the canonical representative of each class
        under ``symmetries()`` (the smallest solution of its class). A
        ``time_limit`` (seconds) that ends the search first ends the iterator
        with ``IncompleteSearchError``, after the solutions found by then.
        """
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 0
        ):
            raise ValueError(f"limit must be None or an int >= 0, got {limit!r}")
        if not isinstance(unique, bool):
            raise TypeError(f"unique must be True or False, got {unique!r}")
        from cpqueens.strategies.planner import resolve

        seconds = check_time_limit(time_limit)
        resolve(self, backend)  # an unknown or missing backend fails here, not when iterated
        return self._solutions(backend, limit, unique, seconds)

    def _solutions(
        self, backend: BackendName, limit: int | None, unique: bool, time_limit: float | None
    ) -> Iterator[Solution]:
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
    ) -> Solution | None:
        """The lexicographically first solution (as ``solutions()`` orders them), or None.

        Plain models on at most 64 columns are searched by compiled code. A
        ``time_limit`` (seconds) that ends the search first raises
        ``IncompleteSearchError``: None always means there is no solution.

        >>> model(8).first().columns
        (0, 4, 7, 5, 2, 6, 1, 3)
        """
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
        from cpqueens.tasks import decide as decide_task  # on first use: counts never load it

        return decide_task.exists(self, backend, check_time_limit(time_limit))

    def find(
        self, backend: BackendName = DEFAULT_BACKEND, *, time_limit: float | None = None
    ) -> Solution | None:
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
        from cpqueens.tasks import find as find_task  # on first use: counts never load it

        return find_task.find(self, backend, time_limit)

    def to_cpsat(self) -> tuple[Any, list[list[Any]]]:
        """The OR-Tools ``CpModel`` the cpsat backend solves, and its ``q[colour][row]`` variables.

        >>> cp, q = model(6).to_cpsat()
        >>> len(q), len(q[0])
        (1, 6)
        """
        from cpqueens.backends.export import to_cpsat

        return to_cpsat(self)

    def to_cpmpy(self) -> tuple[Any, Any]:
        """A ``cpmpy.Model`` of this model and its variables ``q`` (colours x n).

        CPMpy is an optional extra: ``pip install 'cpqueens[cpmpy]'``.
        """
        from cpqueens.backends.export import to_cpmpy

        return to_cpmpy(self)

    def cross_check(self) -> int:
        """Count with every installed backend; return the count, or raise if any two disagree."""
        counts = {name: self.count(name) for name in installed_backends()}
        if len(set(counts.values())) != 1:
            found = ", ".join(f"{name}={value}" for name, value in counts.items())
            raise CrossCheckError(f"backends disagree on the count: {found}")
        return next(iter(counts.values()))

    def _repr_svg_(self) -> str:
        """The board a notebook shows: blocked cells, placed queens by colour, coordinates."""
        from cpqueens.vocabulary import summary

        return summary.svg(self)

    def _repr_html_(self) -> str:
        """The summary a notebook shows: size, colours, symmetries and every constraint."""
        from cpqueens.vocabulary import summary

        return summary.html_summary(self)


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
) -> Model:
    """Build a model: an n x n board (or a ``Board``), blocked cells, colours, placed queens.

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
    """
    if _is_puzzle(n):
        n, placed, regions, no_touch, diagonals = _from_puzzle(n, placed, regions, diagonals)
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


def _is_puzzle(n: object) -> TypeGuard[RegionPuzzle]:
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
