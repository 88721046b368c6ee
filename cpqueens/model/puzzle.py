"""The region puzzle a player holds (the Queens game, Star Battle), beside the model.

:class:`Puzzle` (``cpqueens.Puzzle``) is the frozen
:class:`~cpqueens.vocabulary.regions.RegionPuzzle` data with its verbs. It
states a model like any other (:meth:`Puzzle.statement`): counting, listing
and solving go through the one door, :mod:`cpqueens.tasks.verbs`, which
asks the planner for the engine and the form. The player's verbs (explain,
hint, rate) are in :mod:`cpqueens.tasks.puzzles`, generating in
:mod:`cpqueens.tasks.generate`, reading a screenshot in
:mod:`cpqueens.tasks.screenshots`.

>>> import cpqueens
>>> p = cpqueens.Puzzle.parse('''
... AAACC
... BAACC
... AACCC
... ADCCE
... DDDDE
... ''')
>>> p.count(), p.solve()
(1, ((0, 2), (1, 0), (2, 3), (3, 1), (4, 4)))
>>> p.rate()
'medium'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from cpqueens.backends import BackendName, check_backend
from cpqueens.clock import Deadline
from cpqueens.drawing import regions as region_drawing
from cpqueens.errors import IncompleteSearchError
from cpqueens.lowering.regions import statement_of
from cpqueens.tasks import generate, puzzles, screenshots, verbs
from cpqueens.tasks.deduce import Step
from cpqueens.tasks.puzzles import Explanation, Verdict
from cpqueens.vocabulary.checks import check_limit, check_time_limit
from cpqueens.vocabulary.regions import DIFFICULTIES, Cell, Difficulty, RegionPuzzle
from cpqueens.vocabulary.statement import Statement

__all__ = ["Explanation", "Puzzle", "Verdict"]

PUZZLE_FORMS = puzzles.PUZZLE_FORMS


def _clock(time_limit: object) -> Deadline | None:
    """The deadline of ``time_limit`` seconds from now (None: no limit), the option checked."""
    seconds = check_time_limit(time_limit)
    return None if seconds is None else Deadline(seconds)


class Puzzle(RegionPuzzle):
    """A region puzzle (LinkedIn's Queens game, Star Battle) with its verbs.

    Build one with :meth:`parse` (a letter grid), :meth:`from_json`,
    :meth:`loads` (either) or :meth:`generate`; the constructor takes the
    fields of :class:`~cpqueens.vocabulary.regions.RegionPuzzle`.
    """

    def count(
        self,
        backend: BackendName = "auto",
        limit: int | None = None,
        *,
        time_limit: float | None = None,
    ) -> int:
        """The exact number of solutions, or ``limit`` if there are at least that many.

        ``count(limit=2)`` stops at the second solution: 1 means unique. A
        ``time_limit`` (seconds) that ends the search first raises
        ``IncompleteSearchError`` (never a partial count; its message says
        how many solutions were found by then); Ctrl-C raises
        ``KeyboardInterrupt`` within some 10 ms on the compiled search.
        Every verb below takes ``time_limit`` the same way.
        """
        limit = check_limit(limit)
        deadline = _clock(time_limit)
        if self.crowded():  # two neighbouring rows cannot hold their stars
            check_backend(str(backend))
            return 0
        return verbs.count(
            self.statement(), str(backend), limit=limit, time_limit=deadline, forms=PUZZLE_FORMS
        )

    def solutions(
        self,
        backend: BackendName = "auto",
        limit: int | None = None,
        *,
        time_limit: float | None = None,
    ) -> list[tuple[Cell, ...]]:
        """Solutions (the first ``limit``), each as sorted (row, col) cells, each checked."""
        limit = check_limit(limit)
        return puzzles.solutions(self, str(backend), limit, _clock(time_limit))

    def solve(
        self, backend: BackendName = "auto", *, time_limit: float | None = None
    ) -> tuple[Cell, ...] | None:
        """A solution as sorted (row, col) cells, or None if there is none."""
        found = self.solutions(backend, 1, time_limit=time_limit)
        return found[0] if found else None

    def is_unique(self, backend: BackendName = "auto", *, time_limit: float | None = None) -> bool:
        """Whether the puzzle has exactly one solution (a count that stops at 2)."""
        return self.count(backend, 2, time_limit=time_limit) == 1

    def check(
        self, backend: BackendName = "auto", *, time_limit: float | None = None
    ) -> tuple[bool, list[tuple[Cell, ...]]]:
        """(unique or not, up to two solutions): the uniqueness proof with its witnesses."""
        found = self.solutions(backend, 2, time_limit=time_limit)
        return len(found) == 1, found

    def cross_check(
        self,
        backends: Iterable[BackendName] | None = None,
        limit: int | None = None,
        *,
        time_limit: float | None = None,
    ) -> int:
        """Count with each of ``backends`` (None: every engine that answers); raise if two disagree.

        The same verb as ``Model.cross_check``, with the same first
        parameter: each engine's route is planned once; with None, an engine
        that would take long on the puzzle's cell form is left out (at least
        two must answer). ``limit`` stops each count there.
        """
        limit = check_limit(limit)
        return verbs.cross_check(
            self.statement(), backends, limit=limit, time_limit=time_limit, forms=PUZZLE_FORMS
        )

    def explain(self, *, time_limit: float | None = None) -> Explanation:
        """The deduction steps a player would take, and the difficulty they need.

        Each step uses the easiest rule that makes progress: the last cells of
        a row, column or region (easy); a region confined to one row or column
        claims it, or a line to one region (medium); k units confined to k
        others, or a cell whose queen would leave a unit without room (hard).
        When the rules stop short, the rest comes from search and the
        difficulty is "needs search"; a puzzle without exactly one solution
        has the difficulty "no solution" or "several solutions" (its steps
        end where the rules stop). Cells are 0-based ``(row, col)``, rows and
        columns numbered from 0 as everywhere else.
        """
        return puzzles.explain(self, _clock(time_limit))

    def hint(
        self,
        queens: Iterable[Cell] = (),
        *,
        crossed: Iterable[Cell] = (),
        time_limit: float | None = None,
    ) -> Step | None:
        """The next deduction for a player who has placed ``queens`` and crossed out ``crossed``.

        One :class:`~cpqueens.tasks.deduce.Step`, from the same rules as
        :meth:`explain`, easiest first, past what the player has done (a step
        that would only cross out cells already crossed is not news); when the
        rules stop, the step names one queen that search places. None when
        every queen is placed. A ValueError when no solution holds ``queens``
        or ``crossed`` (a queen or a cross is wrong), or when the puzzle has
        no solution or several.
        """
        return puzzles.hint(self, queens, crossed, _clock(time_limit))

    def rate(self, *, time_limit: float | None = None) -> Verdict:
        """The difficulty: the deepest rule :meth:`explain` needs, "needs search", or why none.

        "no solution" and "several solutions" when the puzzle has not exactly one.
        """
        return puzzles.rate(self, _clock(time_limit))

    def verify(self, queens: Iterable[Cell]) -> list[str]:
        r"""Every rule a player's answer breaks (an empty list: it solves the puzzle).

        The same words as :meth:`violations`, cells 0-based ``(row, col)``; a
        queen given twice is a broken rule too (one cell holds one queen); a
        cell off the grid or not a pair is a ValueError.

        >>> p = Puzzle.parse("AB\nBB")
        >>> p.verify([(0, 0), (0, 0)])[0]
        'the queen at (0, 0) is given 2 times: a cell holds one queen'
        """
        listed: list[Cell] = [tuple(cell) for cell in queens]  # type: ignore[misc]
        cells = puzzles.player_cells(self, listed, given_ok=True)
        twice = [
            f"the queen at {cell} is given {listed.count(cell)} times: a cell holds one queen"
            for cell in cells
            if listed.count(cell) > 1
        ]
        return twice + self.violations(cells)

    # -- reading screenshots -----------------------------------------------------

    @classmethod
    def from_image(
        cls,
        source: Any,
        *,
        with_queens: bool = False,
        stars: int | None = None,
        time_limit: float | None = None,
    ) -> Puzzle:
        """The puzzle a screenshot of the Queens game or Star Battle shows (``cpqueens[image]``).

        ``source`` is a path, bytes, a binary file or a PIL image (PNG, JPEG
        or WebP). The board is found among whatever surrounds it (a phone's
        or a browser's frame, light or dark; or a tight crop; turned back
        first if it is a little askew), each cell's colour sampled from a ring
        inside it, the colours grouped into n regions (a darker or lighter
        cell merged into its region's colour). ``stars`` is the stars per
        row, column and region; None tries 1, 2, 3, ... and keeps the one
        count that gives exactly one solution. The reading is answered only
        if the grid is the whole board, its regions are connected and it has
        exactly one solution; otherwise an
        :class:`~cpqueens.errors.ImageReadError` says what was seen ("found a
        9x9 grid with 8 colour groups ...") and carries the partial reading.
        ``with_queens`` makes the queens drawn on the board givens;
        ``time_limit`` bounds the whole reading.
        """
        return cls.read_screenshot(
            source, with_queens=with_queens, stars=stars, time_limit=time_limit
        ).puzzle

    @classmethod
    def read_screenshot(
        cls,
        source: Any,
        *,
        with_queens: bool = False,
        stars: int | None = None,
        time_limit: float | None = None,
    ) -> screenshots.Screenshot:
        """:meth:`from_image` with the reading: ``.puzzle``, ``.reading``, ``.overlay(queens)``.

        ``.solutions`` holds the puzzle's one solution, found by the check.
        """
        return screenshots.read_puzzle(
            cls, source, with_queens=with_queens, stars=stars, time_limit=time_limit
        )

    # -- drawing ---------------------------------------------------------------

    def draw(
        self,
        queens: Iterable[Cell] = (),
        style: Literal["board", "svg", "json"] = "board",
        colour: bool = False,
    ) -> str:
        """The puzzle with ``queens``: letter grid (``colour``: ANSI), SVG, or JSON text."""
        import json

        if style == "board":
            return region_drawing.text(self, queens, colour=colour)
        if style == "svg":
            return region_drawing.svg(self, queens)
        if style == "json":
            return json.dumps({"queens": [list(cell) for cell in sorted(set(queens))]})
        raise ValueError(f"unknown drawing style {style!r}: expected 'board', 'svg' or 'json'")

    def svg(self, queens: Iterable[Cell] = (), size: int | None = None) -> str:
        """An SVG picture: regions in their own colours, givens and ``queens`` on top."""
        return region_drawing.svg(self, queens, size=size)

    def _repr_svg_(self) -> str:
        """Jupyter's picture of the puzzle."""
        return region_drawing.svg(self)

    def __str__(self) -> str:
        """The letter grid (it reads back with :meth:`parse`)."""
        return self.to_text()

    def statement(self) -> Statement:
        r"""The puzzle as a statement: ``cpqueens.model(puzzle)`` holds it for any number of stars.

        Its stars are quotas per row, column and region; no two stars touch
        (king steps); with ``diagonals`` no two stars share a diagonal either.
        Givens become placed pieces, blocked cells blocked. Every verb of the
        puzzle answers this statement, the bitmask engine by its region search.

        >>> p = Puzzle.parse("AAACC\nBAACC\nAACCC\nADCCE\nDDDDE")
        >>> p.statement().per_row, p.statement().board.attack
        (1, 'king')
        """
        return statement_of(self)

    # -- generating --------------------------------------------------------------

    @classmethod
    def generate(
        cls,
        size: int,
        stars: int = 1,
        difficulty: Difficulty | None = None,
        seed: int | None = None,
        *,
        attempts: int = 2000,
        time_limit: float | None = None,
    ) -> tuple[Puzzle, tuple[Cell, ...]]:
        """A new puzzle with exactly one solution, and that solution.

        Regions are grown at random around a random solution (each region
        holding ``stars`` of its queens, every region connected), then cells
        are moved between neighbouring regions until the other solutions are
        gone. ``difficulty`` ("easy", "medium", "hard", "needs search") keeps
        only puzzles that :meth:`rate` so; ``seed`` makes the result
        reproducible. A ValueError after ``attempts`` grids without one; an
        ``IncompleteSearchError`` if ``time_limit`` seconds pass first.
        """
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 62:
            raise ValueError(f"size must be an int from 1 to 62, got {size!r}")
        if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= 2 * stars - 1 <= size:
            raise ValueError(
                f"stars must be an int from 1 to {(size + 1) // 2} on a {size}x{size} grid, "
                f"got {stars!r}"
            )
        if difficulty is not None and difficulty not in DIFFICULTIES:
            expected = ", ".join(repr(d) for d in DIFFICULTIES)
            raise ValueError(f"unknown difficulty {difficulty!r}: expected one of {expected}")
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
            raise ValueError(f"attempts must be an int >= 1, got {attempts!r}")
        deadline = _clock(time_limit)
        try:
            return generate.generate(cls, size, stars, difficulty, seed, attempts, deadline)
        except IncompleteSearchError:
            assert deadline is not None
            raise IncompleteSearchError(
                f"the time limit of {deadline.time_limit:g} s ended the generation before it "
                f"found a {size}x{size} puzzle"
            ) from None
