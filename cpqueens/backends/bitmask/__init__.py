"""The reference engine: the seeds' bitmask search, in Python and in compiled kernels.

The column form is read into row masks (:mod:`~cpqueens.backends.bitmask.plan`)
and counted, listed and decided by :mod:`~cpqueens.backends.bitmask.columns`
(the Python DFS of :mod:`~cpqueens.backends.bitmask.dfs` for small searches,
the numba kernels for big ones); the cell form of one army by the compiled
counter (:mod:`~cpqueens.backends.bitmask.cells`), peaceable armies by the
line-label search (:mod:`~cpqueens.backends.bitmask.lines`); region puzzles by
the compiled region search (:mod:`~cpqueens.backends.bitmask.regions`), its
fast path for k stars per row, column and region. Its submodules load when
first asked for: importing the engine loads no numba.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from cpqueens.backends.base import Capabilities, CellVerb, Columns, Engine
from cpqueens.backends.bitmask.kinds import states
from cpqueens.vocabulary.constraints import BUILT_IN_KINDS

if TYPE_CHECKING:
    from cpqueens.backends.base import PartsRunner
    from cpqueens.backends.outcome import Outcome, Progress
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.cells import CellProblem, Piece
    from cpqueens.vocabulary.problem import Problem
    from cpqueens.vocabulary.regions import Cell, RegionPuzzle


class Bitmask(Engine):
    """The bitmask engine: row masks, compiled kernels, the region search."""

    NAME = "bitmask"
    TITLE = "the bitmask search"
    SUPPORTS = BUILT_IN_KINDS
    #: Counts in the compiled kernels (n = 15 in about half a second, less than starting
    #: worker processes that each load numba: from 16 free rows on a pool pays); decides
    #: plain models with compiled searches; a search returns to Python between chunks.
    CAPABILITIES = Capabilities(
        kernels=True,
        short_below_free_rows=16,
        decides=True,
        stops="chunks",
        whole=True,
    )

    def accepts(self, constraint: object) -> bool:
        """Every built-in kind but the knight's moves and no-touch on a torus (they decompose)."""
        return states(constraint)

    # -- the column form

    def count(self, problem: Problem, deadline: Deadline | None = None) -> int:
        """The exact number of solutions."""
        from cpqueens.backends.bitmask import columns

        return columns.count(problem)

    def solutions(self, problem: Problem, deadline: Deadline | None = None) -> Iterator[Columns]:
        """Every solution in lexicographic order, lazily."""
        from cpqueens.backends.bitmask import columns

        return columns.solutions(problem, deadline)

    def decides(self, problem: Problem) -> bool:
        """Whether the compiled searches decide ``problem``: a plain or a regions model."""
        from cpqueens.backends.bitmask import columns

        return columns.decides(problem)

    def first(
        self, problem: Problem, deadline: Deadline | None, lexicographic: bool
    ) -> Columns | None:
        """The first solution (lexicographic, or any) by the compiled searches; None if none."""
        from cpqueens.backends.bitmask import columns

        return columns.first(problem, deadline, lexicographic)

    def line_search(self, problem: Problem) -> Any | None:
        """The fewest-free-row search of a one-colour plain model the kernels hold, else None."""
        from cpqueens.backends.bitmask import columns

        return columns.line_search(problem)

    def counts_whole(self, problem: Problem) -> bool:
        """Whether one search counts ``problem`` best: a Queens-game model."""
        from cpqueens.backends.translate import tight_regions

        return tight_regions(problem)

    def describe(self, problem: Problem) -> str | None:
        """Which kernel counts ``problem``, or the Python DFS and why."""
        from cpqueens.backends.bitmask import columns

        return columns.describe(problem)

    def warm(self, problem: Problem) -> None:
        """Load the compiled kernel that counts ``problem`` whole: its parts then take it too."""
        from cpqueens.backends.bitmask import columns

        columns.warm(problem)

    # -- the cell form

    def cell_refusal(
        self,
        problem: CellProblem,
        verb: CellVerb,
        size: int | None = None,
        unique: bool = False,
        sense: str | None = None,
    ) -> str | None:
        """The compiled counter: one army, a given size; optimising: peaceable armies."""
        from cpqueens.backends.bitmask import cells

        if verb == "optimise":
            if cells.supports_optimise(problem, sense or "maximize"):
                return None
            return cells.REFUSED_OPTIMISATION
        if verb == "count" and cells.supports(problem, size, unique):
            return None
        return (
            "the compiled counter counts one army of a given number of pieces, with no classes, "
            "quotas or conditions, and lists no solutions"
        )

    def cell_count(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
        run: PartsRunner | None = None,
    ) -> int:
        """The exact number of solutions of ``size`` pieces, by the compiled counter.

        ``run``: the task's runner, for a count that runs in parts (queens dominating a
        free square board: :meth:`runs_parts`).
        """
        from cpqueens.backends.bitmask import cells

        return cells.count(problem, size, unique=unique, deadline=deadline, run=run)

    def runs_parts(self, problem: CellProblem, sense: str) -> bool:
        """Whether the optimisation runs in parts: queens dominating a free square board."""
        from cpqueens.backends.bitmask import cells

        return cells.runs_parts(problem, sense)

    def optimise(
        self,
        problem: CellProblem,
        sense: str,
        *,
        deadline: Deadline | None = None,
        workers: int = 2,
        symmetry: bool = True,
        progress: Progress | None = None,
        run: PartsRunner | None = None,
    ) -> Outcome:
        """The largest peaceable armies, or the fewest queens dominating a free square board."""
        from cpqueens.backends.bitmask import cells

        return cells.optimise(
            problem,
            sense,
            deadline=deadline,
            run=run,
            workers=workers,
            symmetry=symmetry,
            progress=progress,
        )

    # -- region puzzles

    def region_refusal(self, puzzle: RegionPuzzle) -> str | None:
        """Why the compiled region search will not take ``puzzle`` (too many row placements)."""
        from cpqueens.backends.bitmask import regions

        return regions.refuses(puzzle)

    def region_count(
        self, puzzle: RegionPuzzle, limit: int | None, deadline: Deadline | None = None
    ) -> int:
        """The puzzle's number of solutions (at most ``limit``), by the compiled search."""
        from cpqueens.backends.bitmask import regions

        return regions.count(puzzle, limit, deadline)

    def region_solutions(
        self, puzzle: RegionPuzzle, limit: int | None, deadline: Deadline | None = None
    ) -> list[tuple[Cell, ...]]:
        """The puzzle's solutions (the first ``limit``), by the compiled search."""
        from cpqueens.backends.bitmask import regions

        return regions.solutions(puzzle, limit, deadline)

    def region_sample(
        self, puzzle: RegionPuzzle, rng: random.Random, deadline: Deadline | None = None
    ) -> tuple[Cell, ...] | None:
        """A solution of the compiled search with each row's candidates in ``rng``'s order."""
        from cpqueens.backends.bitmask import regions

        _, found = regions.search(puzzle, 1, keep=1, rng=rng, deadline=deadline)
        return found[0] if found else None


#: The engine the registry hands out for "bitmask".
ENGINE = Bitmask()

__all__ = ["ENGINE", "Bitmask", "Piece"]
