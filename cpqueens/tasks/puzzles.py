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
'medium'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from types import ModuleType
from typing import Any, Literal

from cpqueens.backends import capabilities, check_name, choices, is_installed, part, preference
from cpqueens.errors import IncompleteSearchError, InvalidSolutionError, NotSupportedError
from cpqueens.tasks import optimise
from cpqueens.vocabulary import region_drawing
from cpqueens.vocabulary.checks import Deadline, check_time_limit
from cpqueens.vocabulary.regions import Cell, RegionPuzzle

#: The engines a puzzle counts with; "auto" is the compiled search.
PuzzleBackend = Literal["auto", "bitmask", "cpsat", "python-constraint"]
#: A difficulty: the deepest rule a player needs, or "needs search" when rules do not finish.
Difficulty = Literal["easy", "medium", "hard", "needs search"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard", "needs search")
#: What :meth:`Puzzle.rate` and :meth:`Puzzle.explain` say: a difficulty, or why there is none.
Verdict = Literal["easy", "medium", "hard", "needs search", "no solution", "several solutions"]
LEVEL_NAMES = {1: "easy", 2: "medium", 3: "hard"}


def _engine(backend: object, puzzle: RegionPuzzle | None = None) -> ModuleType:
    """The module that states and searches ``puzzle`` for ``backend`` (the engine declares it).

    An engine's module may refuse a puzzle (its ``refuses(puzzle)`` gives the
    reason: too many row placements to list): "auto" passes over it, a named
    backend raises ``NotSupportedError`` with the reason.
    """
    name = check_name(backend, choices())
    if name == "auto":  # the fastest installed engine that solves region puzzles
        for candidate in preference():
            if not (is_installed(candidate) and capabilities(candidate).regions):
                continue
            module = part(candidate, "regions")
            if puzzle is None or _refusal(module, puzzle) is None:
                return module
        raise NotSupportedError("no installed backend solves this region puzzle")
    module = part(name, "regions")
    if module is None:
        raise NotSupportedError(f"backend {name!r} does not solve region puzzles")
    reason = None if puzzle is None else _refusal(module, puzzle)
    if reason is not None:
        raise NotSupportedError(reason)
    return module


def _refusal(module: ModuleType, puzzle: RegionPuzzle) -> str | None:
    """Why the engine ``module`` will not search ``puzzle``, or None."""
    refuses = getattr(module, "refuses", None)
    return None if refuses is None else refuses(puzzle)


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
class Step:
    """One deduction: the rule used, its level (1 easy .. 3 hard, 4 search), words, and effects."""

    rule: str
    level: int
    text: str
    queens: tuple[Cell, ...] = ()
    crossed: tuple[Cell, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The step as a JSON-ready dict."""
        return {
            "rule": self.rule,
            "level": self.level,
            "text": self.text,
            "queens": [list(cell) for cell in self.queens],
            "crossed": [list(cell) for cell in self.crossed],
        }


@dataclass(frozen=True)
class Explanation:
    """The deduction steps that solve a puzzle, its difficulty and the queens they reach."""

    steps: tuple[Step, ...]
    difficulty: Verdict
    queens: tuple[Cell, ...]

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


def name(cell: Cell) -> str:
    """A cell as every output writes it: 0-based ``(row, col)``, row 0 at the top."""
    return f"({cell[0]}, {cell[1]})"


class _Deducer:
    """A player's grid: cells unknown, queen or crossed out; rules applied lowest level first."""

    def __init__(
        self,
        puzzle: RegionPuzzle,
        deadline: Deadline | None = None,
        player: tuple[Cell, ...] = (),
        max_level: int = 3,
    ) -> None:
        self.p = puzzle
        self.player = player  # a player's queens, placed after the givens
        self.max_level = max_level  # the deepest rule tried (1 easy .. 3 hard)
        self.deadline = deadline
        n = puzzle.n
        self.k = puzzle.stars
        self.state: dict[Cell, int] = {(r, c): 0 for r in range(n) for c in range(n)}  # 0 ? 1 Q 2 x
        self.units: list[tuple[str, int, tuple[Cell, ...]]] = []
        for r in range(n):
            self.units.append(("row", r, tuple((r, c) for c in range(n))))
        for c in range(n):
            self.units.append(("column", c, tuple((r, c) for r in range(n))))
        for g in range(n):
            self.units.append(("region", g, puzzle.region_cells(g)))
        self.of: dict[Cell, list[int]] = {cell: [] for cell in self.state}
        for i, (_, _, cells) in enumerate(self.units):
            for cell in cells:
                self.of[cell].append(i)
        self.steps: list[Step] = []
        self.contradiction = False

    def label(self, i: int) -> str:
        kind, index, _ = self.units[i]
        if kind == "region":
            return f"region {self.p.labels[index]}"
        return f"{kind} {index}"

    def free(self, i: int, state: dict[Cell, int] | None = None) -> list[Cell]:
        state = self.state if state is None else state
        return [cell for cell in self.units[i][2] if state[cell] == 0]

    def need(self, i: int, state: dict[Cell, int] | None = None) -> int:
        state = self.state if state is None else state
        return self.k - sum(1 for cell in self.units[i][2] if state[cell] == 1)

    def attacked(self, cell: Cell) -> list[Cell]:
        """The cells a queen on ``cell`` rules out by touching (and diagonals, if they attack)."""
        r, c = cell
        n = self.p.n
        out = [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n
        ]
        if self.p.diagonals:
            for d in range(2, n):
                for dr, dc in ((d, d), (d, -d), (-d, d), (-d, -d)):
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        out.append((r + dr, c + dc))
        return out

    def place(self, cell: Cell, state: dict[Cell, int]) -> list[Cell]:
        """Queen on ``cell`` in ``state``: cross what it rules out; return the crossed cells."""
        state[cell] = 1
        crossed = [x for x in self.attacked(cell) if state[x] == 0]
        for x in crossed:
            state[x] = 2
        for i in self.of[cell]:
            if self.need(i, state) == 0:
                for x in self.free(i, state):
                    state[x] = 2
                    crossed.append(x)
        return crossed

    def broken(self, state: dict[Cell, int]) -> int | None:
        """A unit that can no longer get its queens in ``state``, or None."""
        for i in range(len(self.units)):
            need = self.need(i, state)
            if need < 0 or len(self.free(i, state)) < need:
                return i
        return None

    def record(self, rule: str, level: int, text: str, queens=(), crossed=()) -> None:
        self.steps.append(Step(rule, level, text, tuple(queens), tuple(sorted(set(crossed)))))

    # -- the rules, lowest level first ------------------------------------------

    def givens(self) -> None:
        for cell in self.p.blocked:
            self.state[cell] = 2
        if self.p.blocked:
            self.record(
                "blocked", 1, f"{len(self.p.blocked)} blocked cell(s) are crossed out",
                crossed=self.p.blocked,
            )  # fmt: skip
        placing = [(cell, "given", "the given queen") for cell in self.p.queens]
        placing += [(cell, "yours", "your queen") for cell in self.player]
        for cell, rule, whose in placing:
            if self.state[cell] == 1:
                continue
            if self.state[cell] == 2:
                self.contradiction = True
                self.record(rule, 1, f"{whose} at {name(cell)} stands on a cell ruled out", (cell,))
                return
            crossed = self.place(cell, self.state)
            self.record(rule, 1, f"{whose} at {name(cell)}", (cell,), crossed)

    def singles(self) -> bool:
        """Level 1: a unit with exactly as many free cells as queens it needs fills them."""
        for i in range(len(self.units)):
            free, need = self.free(i), self.need(i)
            if need > 0 and len(free) == need:
                crossed: list[Cell] = []
                placed = []
                for cell in free:
                    if self.state[cell] == 0:
                        placed.append(cell)
                        crossed += self.place(cell, self.state)
                where = " and ".join(name(cell) for cell in placed)
                if len(placed) == 1:
                    text = f"{where} is the last cell left in {self.label(i)}: a queen there"
                else:
                    text = f"{where} are the last cells left in {self.label(i)}: queens there"
                self.record("last cells", 1, text, placed, crossed)
                return True
        return False

    def confined(self, size: int) -> bool:
        """Levels 2-3: ``size`` units of one kind inside as many of another claim those."""
        kinds = {"row": [], "column": [], "region": []}
        for i, (kind, _, _) in enumerate(self.units):
            if self.need(i) > 0:
                kinds[kind].append(i)
        for inner_kind, outer_kind in (
            ("region", "row"), ("region", "column"), ("row", "region"), ("column", "region"),
            ("row", "column"), ("column", "row"),
        ):  # fmt: skip
            inner_units = kinds[inner_kind]
            if len(inner_units) <= size:
                continue
            outer_index = {cell: i for i in kinds[outer_kind] for cell in self.units[i][2]}
            for group in combinations(inner_units, size):
                self.tick()
                cells = [cell for i in group for cell in self.free(i)]
                outer = {outer_index.get(cell) for cell in cells}
                if None in outer or len(outer) != size:
                    continue
                if sum(self.need(i) for i in group) != sum(self.need(j) for j in outer):
                    continue
                mine = set(cells)
                crossed = [x for j in outer for x in self.free(j) if x not in mine]
                if not crossed:
                    continue
                for x in crossed:
                    self.state[x] = 2
                inner_names = " and ".join(self.label(i) for i in group)
                outer_names = " and ".join(self.label(j) for j in sorted(outer))
                verb = "lies" if size == 1 else "lie"
                self.record(
                    "confined" if size == 1 else "confined group", 2 if size == 1 else 3,
                    f"{inner_names} {verb} within {outer_names}: cross out the other "
                    f"{len(crossed)} cell{'s' if len(crossed) > 1 else ''} there",
                    crossed=crossed,
                )  # fmt: skip
                return True
        return False

    def tick(self) -> None:
        """Raise ``IncompleteSearchError`` if the time limit has passed."""
        if self.deadline is not None:
            self.deadline.check()

    def trial(self) -> bool:
        """Level 3: a cell whose queen would leave some unit without room is crossed out."""
        for cell, value in self.state.items():
            if value != 0:
                continue
            self.tick()
            state = dict(self.state)
            self.place(cell, state)
            broken = self.broken(state)
            if broken is not None:
                self.state[cell] = 2
                self.record(
                    "would empty", 3,
                    f"a queen at {name(cell)} would leave {self.label(broken)} without room: "
                    "cross it out",
                    crossed=(cell,),
                )  # fmt: skip
                return True
        return False

    def run(self, steps: int | None = None) -> tuple[int, bool]:
        """Apply the rules until solved or stuck: (the deepest level used, whether solved).

        ``steps``: stop after that many deductions past the givens (a hint is one).
        """
        self.givens()
        first = len(self.steps)
        deepest = 1
        n = self.p.n
        while not self.contradiction and self.broken(self.state) is None:
            self.tick()
            if sum(1 for v in self.state.values() if v == 1) == n * self.k:
                return deepest, True
            if steps is not None and len(self.steps) - first >= steps:
                return deepest, False
            if self.singles():
                continue
            size = 1
            moved = False
            while self.max_level >= 2 and size <= max(1, n // 2):
                if size > 1 and self.max_level < 3:
                    break
                if self.confined(size):
                    moved = True
                    deepest = max(deepest, 2 if size == 1 else 3)
                    break
                if size == 1 and self.max_level >= 3 and self.trial():
                    moved = True
                    deepest = max(deepest, 3)
                    break
                size += 1
            if not moved:
                return deepest, False
        self.contradiction = True
        return deepest, False

    def decided(self) -> int:
        """How many cells hold a queen or are crossed out."""
        return sum(1 for v in self.state.values() if v)


class Puzzle(RegionPuzzle):
    """A region puzzle (LinkedIn's Queens game, Star Battle) with its verbs.

    Build one with :meth:`parse` (a letter grid), :meth:`from_json`,
    :meth:`loads` (either) or :meth:`generate`; the constructor takes the
    fields of :class:`~cpqueens.vocabulary.regions.RegionPuzzle`.
    """

    def count(
        self,
        limit: int | None = None,
        backend: PuzzleBackend = "auto",
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
        return int(_engine(backend, self).count(self, limit, deadline=deadline))

    def solutions(
        self,
        limit: int | None = None,
        backend: PuzzleBackend = "auto",
        *,
        time_limit: float | None = None,
    ) -> list[tuple[Cell, ...]]:
        """Solutions (the first ``limit``), each as sorted (row, col) cells, each checked."""
        limit = _check_limit(limit)
        return self._solutions(limit, backend, _clock(time_limit))

    def _solutions(
        self, limit: int | None, backend: PuzzleBackend, deadline: Deadline | None
    ) -> list[tuple[Cell, ...]]:
        found = _engine(backend, self).solutions(self, limit, deadline=deadline)
        for queens in found:
            self._verify(queens)
        return found

    def solve(
        self, backend: PuzzleBackend = "auto", *, time_limit: float | None = None
    ) -> tuple[Cell, ...] | None:
        """A solution as sorted (row, col) cells, or None if there is none."""
        found = self.solutions(limit=1, backend=backend, time_limit=time_limit)
        return found[0] if found else None

    def is_unique(
        self, backend: PuzzleBackend = "auto", *, time_limit: float | None = None
    ) -> bool:
        """Whether the puzzle has exactly one solution (a count that stops at 2)."""
        return self.count(limit=2, backend=backend, time_limit=time_limit) == 1

    def check(
        self, backend: PuzzleBackend = "auto", *, time_limit: float | None = None
    ) -> tuple[bool, list[tuple[Cell, ...]]]:
        """(unique or not, up to two solutions): the uniqueness proof with its witnesses."""
        found = self.solutions(limit=2, backend=backend, time_limit=time_limit)
        return len(found) == 1, found

    def cross_check(
        self,
        limit: int | None = None,
        backends: tuple[PuzzleBackend, ...] = ("bitmask", "cpsat", "python-constraint"),
    ) -> int:
        """Count with each of ``backends``; raise ``CrossCheckError`` if any two disagree.

        python-constraint is the slow one: a minute or more on a 10x10 two-star grid.
        """
        from cpqueens.errors import CrossCheckError

        counts = {b: self.count(limit, backend=b) for b in backends}
        if len(set(counts.values())) != 1:
            raise CrossCheckError(f"the engines disagree on the puzzle's count: {counts}")
        return next(iter(counts.values()))

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
        return self._explain(_clock(time_limit))

    def _explain(self, deadline: Deadline | None) -> Explanation:
        deducer = _Deducer(self, deadline)
        deepest, solved = deducer.run()
        steps = list(deducer.steps)
        queens = tuple(sorted(cell for cell, v in deducer.state.items() if v == 1))
        if solved:
            self._verify(queens)
            return Explanation(tuple(steps), LEVEL_NAMES[deepest], queens)
        if deducer.contradiction:  # the rules are sound: no solution holds these queens
            steps.append(Step("search", 4, "a rule is broken here: the puzzle has no solution"))
            return Explanation(tuple(steps), "no solution", queens)
        found = self._solutions(2, "auto", deadline)
        if len(found) == 1:
            rest = tuple(cell for cell in found[0] if cell not in queens)
            steps.append(
                Step(
                    "search",
                    4,
                    "the rules stop here; search places the rest: "
                    + ", ".join(name(cell) for cell in rest),
                    rest,
                )
            )
            return Explanation(tuple(steps), "needs search", found[0])
        verdict: Verdict = "no solution" if not found else "several solutions"
        why = "no solution" if not found else "at least 2 solutions"
        steps.append(Step("search", 4, f"the rules stop here; the puzzle has {why}"))
        return Explanation(tuple(steps), verdict, queens)

    def hint(self, queens: Iterable[Cell] = (), *, time_limit: float | None = None) -> Step | None:
        """The next deduction for a player who has placed ``queens``: one :class:`Step`.

        From the same rules as :meth:`explain`, easiest first; when the rules
        stop, the step names one queen that search places. None when every
        queen is placed. A ValueError when no solution holds ``queens`` (one
        of them is wrong), or when the puzzle has no solution or several.
        """
        deadline = _clock(time_limit)
        mine = _player(self, queens)
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
        deducer = _Deducer(self, deadline, mine)
        deducer.run(steps=1)
        fresh = [step for step in deducer.steps if step.rule not in ("blocked", "given", "yours")]
        if fresh:
            return fresh[0]
        placed = {cell for cell, v in deducer.state.items() if v == 1}
        rest = [cell for cell in found[0] if cell not in placed]
        if not rest:
            return None
        return Step(
            "search", 4, f"the rules stop here; search puts a queen at {name(rest[0])}", rest[:1]
        )

    def rate(self, *, time_limit: float | None = None) -> Verdict:
        """The difficulty: the deepest rule :meth:`explain` needs, "needs search", or why none.

        "no solution" and "several solutions" when the puzzle has not exactly one.
        """
        return self._rate(_clock(time_limit))

    def _rate(self, deadline: Deadline | None) -> Verdict:
        deducer = _Deducer(self, deadline)
        deepest, solved = deducer.run()
        if solved:
            return LEVEL_NAMES[deepest]
        if deducer.contradiction:
            return "no solution"
        found = self._solutions(2, "auto", deadline)
        return ("no solution", "needs search", "several solutions")[len(found)]

    def verify(self, queens: Iterable[Cell]) -> list[str]:
        """Every rule a player's answer breaks (an empty list: it solves the puzzle).

        The same words as :meth:`violations`, cells 0-based ``(row, col)``;
        a cell off the grid or not a pair is a ValueError.
        """
        return self.violations(_player(self, queens, given_ok=True))

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

    def cell_model(self) -> optimise.CellModel:
        r"""The puzzle as a cell model: its stars as quotas per row, column and region.

        No two stars touch (king steps); with ``diagonals`` (one star only)
        queens' lines attack, which with one star per row and column is the
        same rule. Givens become placed pieces, blocked cells blocked. Its
        ``count()`` and ``solutions()`` are those of the puzzle, by other
        engines (CP-SAT and python-constraint state the quotas as sums).

        >>> p = Puzzle.parse("AAACC\nBAACC\nAACCC\nADCCE\nDDDDE")
        >>> p.solutions() == [tuple((r, c) for r, c, _ in s) for s in p.cell_model().solutions()]
        True
        """
        if self.diagonals and self.stars != 1:
            raise ValueError(
                f"a puzzle with diagonals and {self.stars} stars has no cell model: "
                "the long diagonals are stated for one star only"
            )
        k = self.stars
        return optimise.cells(
            self.n,
            blocked=self.blocked,
            placed=self.queens,
            attack="queen" if self.diagonals else "king",
            per_row=k,
            per_column=k,
            regions=self.regions,
            per_region=k,
        )

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
        deadline = _clock(time_limit)
        try:
            return _generate(cls, size, stars, difficulty, seed, attempts, deadline)
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
    from cpqueens.vocabulary.regions import _cells

    cells = _cells(queens, puzzle.n, "your queens")
    return cells if given_ok else tuple(cell for cell in cells if cell not in set(puzzle.queens))


def _generate(
    cls: type[Puzzle],
    size: int,
    stars: int,
    difficulty: Difficulty | None,
    seed: int | None,
    attempts: int,
    deadline: Deadline | None,
) -> tuple[Puzzle, tuple[Cell, ...]]:
    """:meth:`Puzzle.generate` once its options are checked."""
    free = cls(size, tuple((r,) * size for r in range(size)), stars=stars)
    if _engine("auto", free).count(free, 1, deadline=deadline) == 0:
        raise ValueError(
            f"no {size}x{size} grid holds {stars} star(s) in every row and column with "
            "none touching: expected a larger size"
        )
    rng = random.Random(seed)
    for _ in range(attempts):
        if deadline is not None:
            deadline.check()
        solution = _random_solution(size, stars, rng, deadline)
        if solution is None:
            continue
        regions = _grow_regions(size, stars, solution, rng)
        if regions is None:
            continue
        puzzle = _make_unique(cls, size, stars, regions, solution, rng, deadline)
        if puzzle is None:
            continue
        if difficulty is None or puzzle._rate(deadline) == difficulty:
            return puzzle, tuple(sorted(solution))
    raise ValueError(
        f"no {size}x{size} puzzle with {stars} star(s)"
        + (f" rated {difficulty!r}" if difficulty else "")
        + f" in {attempts} attempts; try another seed or more attempts"
    )


def _random_solution(
    n: int, k: int, rng: random.Random, deadline: Deadline | None = None
) -> list[Cell] | None:
    """Place k queens per row and column, none touching, at random; None if there is no way."""
    from cpqueens.backends.bitmask import regions as regions_bitmask

    free = RegionPuzzle(n, tuple((r,) * n for r in range(n)), stars=k)  # rows as regions
    _, found = regions_bitmask.search(free, 1, keep=1, rng=rng, deadline=deadline)
    return list(found[0]) if found else None


def _neighbours(n: int, cell: Cell) -> Iterator[Cell]:
    r, c = cell
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < n and 0 <= cc < n:
            yield rr, cc


def _grow_regions(
    n: int, k: int, solution: list[Cell], rng: random.Random
) -> list[list[int]] | None:
    """Grow n connected regions holding k of the queens each, at random; None if stuck.

    Each region starts at one queen and, while it holds fewer than k, claims
    the shortest path to the nearest unclaimed queen; then every region grows
    in turn into the free cells next to it (even sizes).
    """
    queens = set(solution)
    grid = [[-1] * n for _ in range(n)]
    seeds = rng.sample(solution, n) if k > 1 else list(solution)
    held = [1] * n
    for g, (r, c) in enumerate(seeds):
        grid[r][c] = g
    hungry = [g for g in range(n) if held[g] < k]
    while hungry:
        g = rng.choice(hungry)
        start = [(r, c) for r in range(n) for c in range(n) if grid[r][c] == g]
        came: dict[Cell, Cell | None] = {cell: None for cell in start}
        todo = list(start)
        rng.shuffle(todo)
        target = None
        while todo and target is None:
            step = []
            for cell in todo:
                for x in _neighbours(n, cell):
                    if x in came or grid[x[0]][x[1]] != -1:
                        continue
                    came[x] = cell
                    if x in queens:
                        target = x
                        break
                    step.append(x)
                if target is not None:
                    break
            rng.shuffle(step)
            todo = step
        if target is None:
            return None
        cell: Cell | None = target
        while cell is not None and grid[cell[0]][cell[1]] == -1:
            grid[cell[0]][cell[1]] = g
            cell = came[cell]
        held[g] += 1
        hungry = [g for g in range(n) if held[g] < k]
    frontier = [[(r, c) for r in range(n) for c in range(n) if grid[r][c] == g] for g in range(n)]
    left = sum(row.count(-1) for row in grid)
    while left:
        growing = [g for g in range(n) if frontier[g]]
        if not growing:
            return None
        g = rng.choice(growing)  # each region grows as often as any other: even sizes
        cell = rng.choice(frontier[g])
        options = [x for x in _neighbours(n, cell) if grid[x[0]][x[1]] == -1]
        if not options:
            frontier[g].remove(cell)
            continue
        r, c = rng.choice(options)
        grid[r][c] = g
        frontier[g].append((r, c))
        left -= 1
    return grid


def _make_unique(
    cls: type[Puzzle],
    n: int,
    k: int,
    regions: list[list[int]],
    solution: list[Cell],
    rng: random.Random,
    deadline: Deadline | None = None,
    moves: int = 400,
) -> Puzzle | None:
    """Move border cells between regions until only ``solution`` is left, or None."""
    from cpqueens.backends.bitmask import regions as regions_bitmask

    queens = set(solution)
    limit = 64
    puzzle = cls(n, regions, stars=k)
    total, found = regions_bitmask.search(puzzle, limit, keep=2, deadline=deadline)
    for _ in range(moves):
        if total == 1:
            return _renumbered(puzzle)
        other = next((s for s in found if set(s) != queens), None)
        targets = [x for x in other if x not in queens] if other else []
        if targets and rng.random() < 0.8:
            cell = rng.choice(targets)
        else:
            cell = (rng.randrange(n), rng.randrange(n))
        if cell in queens:
            continue
        g = regions[cell[0]][cell[1]]
        into = [regions[r][c] for r, c in _neighbours(n, cell) if regions[r][c] != g]
        if not into:
            continue
        h = rng.choice(into)
        regions[cell[0]][cell[1]] = h
        if not _connected(regions, g):
            regions[cell[0]][cell[1]] = g
            continue
        trial = cls(n, regions, stars=k)
        count, witnesses = regions_bitmask.search(trial, limit, keep=2, deadline=deadline)
        if count <= total:
            puzzle, total, found = trial, count, witnesses
        else:
            regions[cell[0]][cell[1]] = g
    return _renumbered(puzzle) if total == 1 else None


def _renumbered(puzzle: Puzzle) -> Puzzle:
    """The same puzzle with its regions numbered in order of first appearance, row by row."""
    order: dict[int, int] = {}
    for row in puzzle.regions:
        for g in row:
            order.setdefault(g, len(order))
    regions = tuple(tuple(order[g] for g in row) for row in puzzle.regions)
    return type(puzzle)(puzzle.n, regions, stars=puzzle.stars)


def _connected(regions: list[list[int]], g: int) -> bool:
    """Whether region ``g`` is one orthogonally connected piece."""
    n = len(regions)
    cells = {(r, c) for r in range(n) for c in range(n) if regions[r][c] == g}
    if not cells:
        return False
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for x in _neighbours(n, todo.pop()):
            if x in cells and x not in seen:
                seen.add(x)
                todo.append(x)
    return len(seen) == len(cells)
