"""Region puzzles' verbs: solve, count, prove unique, explain, rate and generate.

:class:`Puzzle` is the public entry (``cpqueens.Puzzle``): the frozen
:class:`~cpqueens.vocabulary.regions.RegionPuzzle` data plus the verbs.

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
'easy'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from cpqueens.backends import BackendName, get
from cpqueens.clock import Deadline
from cpqueens.drawing import regions as region_drawing
from cpqueens.errors import IncompleteSearchError, InvalidSolutionError
from cpqueens.lowering.regions import statement_of
from cpqueens.strategies.planner import Route, route
from cpqueens.tasks import generate, levels, optimise, screenshots
from cpqueens.tasks.deduce import SEARCH, Deducer, Step, name
from cpqueens.vocabulary.checks import check_time_limit
from cpqueens.vocabulary.regions import DIFFICULTIES, Cell, Difficulty, RegionPuzzle, cells_of
from cpqueens.vocabulary.statement import Statement

#: The engines a puzzle counts with; "auto" is the compiled search.
#: What :meth:`Puzzle.rate` and :meth:`Puzzle.explain` say: a difficulty, or why there is none.
Verdict = Literal[
    "easy", "medium", "hard", "expert", "needs search", "no solution", "several solutions"
]


def _route(puzzle: RegionPuzzle, backend: object, verb: str) -> Route:
    """The engine and form that answer ``verb`` on ``puzzle``: the planner's, as for any model.

    The puzzle is a statement (k stars per row, column and region, none
    touching); an engine with a region search answers the puzzle itself,
    any other its cell form.
    """
    return route(statement_of(puzzle), verb, str(backend), forms=("regions", "cells"))


def _count(route_: Route, limit: int | None, deadline: Deadline | None) -> int:
    """The count of ``route_``'s form, stopping at ``limit``."""
    if route_.form == "regions":
        return get(route_.engine).region_count(route_.problem, limit, deadline)
    return optimise.count(route_.problem, route_.engine, None, deadline=deadline, limit=limit)


def _listed(route_: Route, limit: int | None, deadline: Deadline | None) -> list[tuple[Cell, ...]]:
    """The solutions of ``route_``'s form (the first ``limit``) as sorted (row, col) cells."""
    if route_.form == "regions":
        return list(get(route_.engine).region_solutions(route_.problem, limit, deadline))
    found = optimise.solutions(route_.problem, route_.engine, None, deadline=deadline, limit=limit)
    return [tuple(sorted((r, c) for r, c, _ in pieces)) for pieces in found]


def _clock(time_limit: object) -> Deadline | None:
    """The deadline of ``time_limit`` seconds from now (None: no limit), the option checked."""
    seconds = check_time_limit(time_limit)
    return None if seconds is None else Deadline(seconds)


def _check_limit(limit: object) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be None or an int >= 1, got {limit!r}")
    return limit


@dataclass(frozen=True)
class Explanation:
    """The deduction steps that solve a puzzle, its difficulty and the queens they reach."""

    steps: tuple[Step, ...]
    difficulty: Verdict
    queens: tuple[Cell, ...]
    #: The puzzle explained, for the picture (not part of equality).
    puzzle: RegionPuzzle | None = field(default=None, compare=False, repr=False)

    def _repr_svg_(self) -> str:
        """The picture a notebook shows: the puzzle with the queens the steps reach."""
        if self.puzzle is None:
            return ""
        return region_drawing.svg(self.puzzle, self.queens)

    def __str__(self) -> str:
        """The steps numbered, one per line, then the difficulty (or "no solution", ...)."""
        lines = [f"{i}. {step.text}" for i, step in enumerate(self.steps, start=1)]
        lines.append(f"difficulty: {self.difficulty}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The explanation as a JSON-ready dict: steps, difficulty, queens."""
        return {
            "steps": [step.to_json() for step in self.steps],
            "difficulty": self.difficulty,
            "queens": [list(cell) for cell in self.queens],
        }


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
        limit = _check_limit(limit)
        deadline = _clock(time_limit)
        way = _route(self, backend, "count")
        if self.crowded():
            return 0
        return int(_count(way, limit, deadline))

    def solutions(
        self,
        backend: BackendName = "auto",
        limit: int | None = None,
        *,
        time_limit: float | None = None,
    ) -> list[tuple[Cell, ...]]:
        """Solutions (the first ``limit``), each as sorted (row, col) cells, each checked."""
        limit = _check_limit(limit)
        return self._solutions(limit, backend, _clock(time_limit))

    def _solutions(
        self, limit: int | None, backend: BackendName, deadline: Deadline | None
    ) -> list[tuple[Cell, ...]]:
        way = _route(self, backend, "solutions")
        if self.crowded():
            return []
        found = _listed(way, limit, deadline)
        for queens in found:
            self._verify(queens)
        return found

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
        """Count with each of ``backends`` (None: every installed engine); raise if two disagree.

        python-constraint is the slow one: a minute or more on a 10x10 two-star grid.
        The same first parameter as ``Model.cross_check``.
        """
        from cpqueens.backends import backends as installed
        from cpqueens.errors import CrossCheckError

        names = installed() if backends is None else tuple(backends)
        counts = {b: self.count(b, limit, time_limit=time_limit) for b in names}
        if len(set(counts.values())) != 1:
            raise CrossCheckError(f"the engines disagree on the puzzle's count: {counts}")
        return next(iter(counts.values()))

    def explain(self, *, time_limit: float | None = None) -> Explanation:
        """The deduction steps a player would take, and the difficulty they need.

        Each step uses the easiest rule that makes progress, named as players
        name them: the last cell of a row, column or region; a region
        confined to one line claims it (or a line confined to one region); a
        region's shape (the cells every free cell of a region rules out); k
        regions in k lines; a cell whose queen would empty a unit; a
        lookahead of 1, then 2 rounds of the first rules after a trial queen.
        The difficulty comes from the techniques used and how often
        (:mod:`cpqueens.tasks.levels`): "easy", "medium", "hard", "expert".
        When even the lookahead stops short, the rest comes from search and
        the difficulty is "needs search"; a puzzle without exactly one
        solution has the difficulty "no solution" or "several solutions" (its
        steps end where the rules stop). Cells are 0-based ``(row, col)``,
        rows and columns numbered from 0 as everywhere else.
        """
        return self._explain(_clock(time_limit))

    def _explain(self, deadline: Deadline | None) -> Explanation:
        deducer = Deducer(self, deadline)
        _, solved = deducer.run()
        steps = list(deducer.steps)
        queens = deducer.placed()
        if solved:
            self._verify(queens)
            level = levels.level(step.rule for step in steps)
            return Explanation(tuple(steps), level, queens, self)
        if deducer.contradiction:  # the rules are sound: no solution holds these queens
            steps.append(
                Step("search", SEARCH, "a rule is broken here: the puzzle has no solution")
            )
            return Explanation(tuple(steps), "no solution", queens, self)
        found = self._solutions(2, "auto", deadline)
        if len(found) == 1:
            rest = tuple(cell for cell in found[0] if cell not in queens)
            steps.append(
                Step(
                    "search",
                    SEARCH,
                    "the rules stop here; search places the rest: "
                    + ", ".join(name(cell) for cell in rest),
                    rest,
                )
            )
            return Explanation(tuple(steps), "needs search", found[0], self)
        verdict: Verdict = "no solution" if not found else "several solutions"
        why = "no solution" if not found else "at least 2 solutions"
        steps.append(Step("search", SEARCH, f"the rules stop here; the puzzle has {why}"))
        return Explanation(tuple(steps), verdict, queens, self)

    def hint(
        self,
        queens: Iterable[Cell] = (),
        *,
        crossed: Iterable[Cell] = (),
        time_limit: float | None = None,
    ) -> Step | None:
        """The next deduction for a player who has placed ``queens`` and crossed out ``crossed``.

        One :class:`Step`, from the same rules as :meth:`explain`, easiest
        first, past what the player has done (a step that would only cross
        out cells already crossed is not news); when the rules stop, the step
        names one queen that search places. None when every queen is placed.
        A ValueError when no solution holds ``queens`` or ``crossed`` (a queen
        or a cross is wrong), or when the puzzle has no solution or several.
        """
        deadline = _clock(time_limit)
        mine = _player(self, queens)
        crosses = cells_of(crossed, self.n, "your crossed cells")
        found = self._solutions(2, "auto", deadline)
        if len(found) != 1:
            raise ValueError(
                "the puzzle has no solution"
                if not found
                else "the puzzle has at least 2 solutions: no hint can be sure"
            )
        wrong = [cell for cell in mine if cell not in found[0]]
        if wrong:
            raise ValueError(
                "no solution holds your queen"
                + ("s " if len(wrong) > 1 else " ")
                + ", ".join(name(cell) for cell in wrong)
            )
        wrong = [cell for cell in crosses if cell in found[0]]
        if wrong:
            raise ValueError(
                "the solution has a queen on your crossed cell"
                + ("s " if len(wrong) > 1 else " ")
                + ", ".join(name(cell) for cell in wrong)
            )
        deducer = Deducer(self, deadline, mine, crossed=crosses)
        deducer.run(steps=1)
        done = ("blocked", "given", "yours", "your crosses")
        fresh = [step for step in deducer.steps if step.rule not in done]
        if fresh:
            return fresh[0]
        placed = set(deducer.placed())
        rest = [cell for cell in found[0] if cell not in placed]
        if not rest:
            return None
        return Step(
            "search",
            SEARCH,
            f"the rules stop here; search puts a queen at {name(rest[0])}",
            rest[:1],  # type: ignore[arg-type]
        )

    def rate(self, *, time_limit: float | None = None) -> Verdict:
        """The difficulty :meth:`explain` gives: a level, "needs search", or why there is none.

        "no solution" and "several solutions" when the puzzle has not exactly one.
        """
        return self._explain(_clock(time_limit)).difficulty

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
        cells = _player(self, listed, given_ok=True)
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
        (king steps); with ``diagonals`` no two share a diagonal either (any
        diagonal, of any length).
        Givens become placed pieces, blocked cells blocked. Every verb of the
        puzzle answers this statement, the bitmask engine by its region search.

        >>> p = Puzzle.parse("AAACC\nBAACC\nAACCC\nADCCE\nDDDDE")
        >>> p.statement().per_row, p.statement().board.attack
        (1, 'king')
        """
        return statement_of(self)

    def _verify(self, queens: Iterable[Cell]) -> None:
        problems = self.violations(queens)
        if problems:
            raise InvalidSolutionError(f"a puzzle solution breaks the rules: {problems[0]}")

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


def _fields(puzzle: RegionPuzzle) -> dict[str, Any]:
    """The constructor's arguments that make ``puzzle`` again."""
    return {
        "n": puzzle.n,
        "regions": puzzle.regions,
        "stars": puzzle.stars,
        "queens": puzzle.queens,
        "blocked": puzzle.blocked,
        "diagonals": puzzle.diagonals,
        "labels": puzzle.labels,
    }


def _player(
    puzzle: RegionPuzzle, queens: Iterable[Cell], given_ok: bool = False
) -> tuple[Cell, ...]:
    """A player's queens checked: (row, col) pairs on the grid, sorted, the givens left out."""
    cells = cells_of(queens, puzzle.n, "your queens")
    return cells if given_ok else tuple(cell for cell in cells if cell not in set(puzzle.queens))
