"""The independent engine: python-constraint2's backtracking CSP solver.

It shares no search with the others: the column form
(:mod:`~cpqueens.backends.pyconstraint.columns`) with one variable per row, the
cell form (:mod:`~cpqueens.backends.pyconstraint.cells`) with one 0/1 variable
per free cell, or, for statements with k pieces on every row, one variable per
row whose value is the row's set of columns
(:mod:`~cpqueens.backends.pyconstraint.rows`). Small boards only: it is the
second opinion that keeps the other engines honest.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from cpqueens.backends.base import Capabilities, CellVerb, Columns, Engine
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Forbidden,
    Invariant,
    LexLeader,
    Placed,
    Where,
)
from cpqueens.words import plural

if TYPE_CHECKING:
    from cpqueens.backends.base import PartsRunner
    from cpqueens.backends.outcome import Outcome, Progress
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.cells import CellProblem, Piece
    from cpqueens.vocabulary.problem import Problem


class PyConstraint(Engine):
    """python-constraint: forward-checking backtracking, in pure Python."""

    NAME = "python-constraint"
    TITLE = "python-constraint"
    #: The column kinds it states natively; every other kind arrives as its decomposition.
    SUPPORTS = (AllDifferent, Forbidden, Placed, LexLeader, Invariant, Where)
    #: The widest board whose domains (n values per row) python-constraint sets up within a
    #: time limit (n = 1,000: 2.7 s past a 1 s limit; 100,000: still building after 40 s).
    MAX_N = 300
    #: A constraint that checks the clock stops its search.
    CAPABILITIES = Capabilities(stops="checks", whole=True)

    # -- the column form

    def count(self, problem: Problem, deadline: Deadline | None = None) -> int:
        """The exact number of solutions (found in whatever order is fastest)."""
        from cpqueens.backends.pyconstraint import columns

        return columns.count(problem, deadline)

    def solutions(self, problem: Problem, deadline: Deadline | None = None) -> Iterator[Columns]:
        """Every solution in lexicographic order, lazily."""
        from cpqueens.backends.pyconstraint import columns

        return columns.solutions(problem, deadline)

    def counts_whole(self, problem: Problem) -> bool:
        """Whether one search counts ``problem`` best: a Queens-game model."""
        from cpqueens.backends.translate import tight_regions

        return tight_regions(problem)

    # -- the cell form

    def cell_refusal(
        self,
        problem: CellProblem,
        verb: CellVerb,
        size: int | None = None,
        unique: bool = False,
        sense: str | None = None,
    ) -> str | None:
        """Every cell form, but no classes: it breaks no symmetry."""
        if unique:
            return "python-constraint does not break symmetries: no class counts"
        from cpqueens.backends.pyconstraint import rows

        return rows.refuses(problem) if rows.fits(problem) else None

    def quick(self, problem: CellProblem) -> str | None:
        """Why a cross-check leaves it out: more free cells than it answers in seconds."""
        from cpqueens.backends.pyconstraint import cells

        return cells.quick(problem)

    def cell_count(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
    ) -> int:
        """The exact number of solutions (at most ``limit``); a time limit raises."""
        from cpqueens.errors import IncompleteSearchError

        total = 0
        try:
            for _ in self.cell_solutions(problem, size, deadline=deadline, limit=limit):
                total += 1
        except IncompleteSearchError as error:
            if "found by then" in str(error):
                raise
            raise IncompleteSearchError(
                f"{error}; {plural(total, 'solution')} found by then"
            ) from None
        return total

    def cell_solutions(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
    ) -> Iterator[tuple[Piece, ...]]:
        """Every solution (at most ``limit``), lazily, in the solver's order.

        A statement with k pieces per row is searched row by row
        (:mod:`~cpqueens.backends.pyconstraint.rows`), any other cell by cell.
        """
        from cpqueens.backends.pyconstraint import cells, rows

        if rows.fits(problem) and (size is None or size == problem.size):
            return rows.solutions(problem, deadline, limit)
        return cells.solutions(problem, size, deadline=deadline, limit=limit)

    def optimise(
        self,
        problem: CellProblem,
        sense: str,
        *,
        deadline: Deadline | None = None,
        workers: int = 2,
        symmetry: bool = True,
        progress: Progress | None = None,
        run: PartsRunner | None = None,  # never given: one search (runs_parts is False)
    ) -> Outcome:
        """The largest or smallest solution, each step proved by exhausting the next."""
        from cpqueens.backends.pyconstraint import cells

        return cells.optimise(
            problem,
            sense,  # type: ignore[arg-type]
            deadline=deadline,
            progress=progress,
        )


#: The engine the registry hands out for "python-constraint".
ENGINE = PyConstraint()
