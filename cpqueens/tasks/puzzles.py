"""Region puzzles' player verbs: explain, hint and rate, by the rules a player names.

:class:`~cpqueens.model.puzzle.Puzzle` (``cpqueens.Puzzle``) holds the
puzzle and its verbs; counting, listing and solving go through
:mod:`cpqueens.tasks.verbs` like any model's. Here are the verbs a player
asks for: the deduction steps (:func:`explain`), the next one (:func:`hint`)
and the difficulty they need (:func:`rate`), with search only where the
rules stop.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from cpqueens.clock import Deadline
from cpqueens.drawing import regions as region_drawing
from cpqueens.errors import InvalidSolutionError
from cpqueens.lowering.regions import statement_of
from cpqueens.strategies.planner import Form
from cpqueens.tasks import levels, verbs
from cpqueens.tasks.deduce import SEARCH, Deducer, Step, name
from cpqueens.vocabulary.regions import Cell, RegionPuzzle, cells_of

#: What :meth:`Puzzle.rate` and :meth:`Puzzle.explain` say: a difficulty, or why there is none.
Verdict = Literal[
    "easy", "medium", "hard", "expert", "needs search", "no solution", "several solutions"
]

#: The forms a puzzle is answered in: its region search, else its cells (never the column
#: form, which counts whole: a puzzle's count stops at its limit, 2 for "is it unique?").
PUZZLE_FORMS: tuple[Form, ...] = ("regions", "cells")


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


def solutions(
    puzzle: RegionPuzzle,
    backend: str,
    limit: int | None,
    deadline: Deadline | None,
) -> list[tuple[Cell, ...]]:
    """The puzzle's solutions (the first ``limit``) through the one door, each checked.

    Each is a sorted tuple of (row, col) cells, as a player writes an answer.
    """
    found = verbs.solutions(  # the route is planned (a backend refused) here; the search is lazy
        statement_of(puzzle), backend, limit, time_limit=deadline, forms=PUZZLE_FORMS
    )
    if puzzle.crowded():  # two neighbouring rows cannot hold their stars: no search
        return []
    cells = [tuple(sorted((r, c) for r, c, _ in placement)) for placement in found]
    for queens in cells:
        check(puzzle, queens)
    return cells


def check(puzzle: RegionPuzzle, queens: Iterable[Cell]) -> None:
    """Raise ``InvalidSolutionError`` naming the first rule ``queens`` break."""
    problems = puzzle.violations(queens)
    if problems:
        raise InvalidSolutionError(f"a puzzle solution breaks the rules: {problems[0]}")


def explain(puzzle: RegionPuzzle, deadline: Deadline | None) -> Explanation:
    """The deduction steps that solve ``puzzle`` and the difficulty (see ``Puzzle.explain``)."""
    deducer = Deducer(puzzle, deadline)
    _, solved = deducer.run()
    steps = list(deducer.steps)
    queens = deducer.placed()
    if solved:
        check(puzzle, queens)
        level = levels.level(step.rule for step in steps)
        return Explanation(tuple(steps), level, queens, puzzle)
    if deducer.contradiction:  # the rules are sound: no solution holds these queens
        steps.append(Step("search", SEARCH, "a rule is broken here: the puzzle has no solution"))
        return Explanation(tuple(steps), "no solution", queens, puzzle)
    found = solutions(puzzle, "auto", 2, deadline)
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
        return Explanation(tuple(steps), "needs search", found[0], puzzle)
    verdict: Verdict = "no solution" if not found else "several solutions"
    why = "no solution" if not found else "at least 2 solutions"
    steps.append(Step("search", SEARCH, f"the rules stop here; the puzzle has {why}"))
    return Explanation(tuple(steps), verdict, queens, puzzle)


def hint(
    puzzle: RegionPuzzle,
    queens: Iterable[Cell],
    crossed: Iterable[Cell],
    deadline: Deadline | None,
) -> Step | None:
    """The next deduction for a player past ``queens`` and ``crossed`` (see ``Puzzle.hint``)."""
    mine = player_cells(puzzle, queens)
    crosses = cells_of(crossed, puzzle.n, "your crossed cells")
    found = solutions(puzzle, "auto", 2, deadline)
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
    deducer = Deducer(puzzle, deadline, mine, crossed=crosses)
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


def rate(puzzle: RegionPuzzle, deadline: Deadline | None) -> Verdict:
    """The difficulty of ``puzzle``: the one :func:`explain` gives (see ``Puzzle.rate``)."""
    return explain(puzzle, deadline).difficulty


def player_cells(
    puzzle: RegionPuzzle, queens: Iterable[Cell], given_ok: bool = False
) -> tuple[Cell, ...]:
    """A player's queens checked: (row, col) pairs on the grid, sorted, the givens left out."""
    cells = cells_of(queens, puzzle.n, "your queens")
    return cells if given_ok else tuple(cell for cell in cells if cell not in set(puzzle.queens))
