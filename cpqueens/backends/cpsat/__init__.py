"""The declarative engine: OR-Tools CP-SAT, which states every form and every kind.

The column form (:mod:`~cpqueens.backends.cpsat.columns`), the cell form
(:mod:`~cpqueens.backends.cpsat.cells`) and the expression language
(:mod:`~cpqueens.backends.cpsat.conditions`) each read like the mathematics;
:mod:`~cpqueens.backends.cpsat.export` hands the same models to a user.
ortools is imported when a search first needs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from cpqueens.backends.base import Capabilities, CellVerb, Columns, Engine
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Forbidden,
    Invariant,
    LexLeader,
    Placed,
    Where,
)

if TYPE_CHECKING:
    from cpqueens.backends.base import PartsRunner
    from cpqueens.backends.outcome import Outcome, Progress
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.cells import CellProblem, Piece
    from cpqueens.vocabulary.problem import Problem


class CpSat(Engine):
    """CP-SAT: enumeration with one worker, optimisation with several, its own free search."""

    NAME = "cpsat"
    TITLE = "CP-SAT"
    #: The column kinds it states natively; every other kind arrives as its decomposition.
    SUPPORTS = (AllDifferent, Forbidden, Placed, LexLeader, Invariant, Where)
    #: The widest board whose model CP-SAT builds and presolves within a time limit
    #: (n = 3,000: 4 s past a 1 s limit; 10,000: still building after 20 s).
    MAX_N = 1000
    #: Splits a symmetric model into lex-leader classes; decides with its own free search;
    #: stopped by its own time limit and stop call.
    CAPABILITIES = Capabilities(
        lex_leader_split=True,
        free_search=True,
        stops="solver",
        whole=True,
    )

    # -- the column form

    def count(self, problem: Problem, deadline: Deadline | None = None) -> int:
        """The exact number of solutions; a passed deadline raises, never a part."""
        from cpqueens.backends.cpsat import columns

        return columns.count(problem, deadline)

    def solutions(self, problem: Problem, deadline: Deadline | None = None) -> Iterator[Columns]:
        """Every solution in lexicographic order, lazily, the solver in a thread."""
        from cpqueens.backends.cpsat import columns

        return columns.solutions(problem, deadline)

    def exists(self, problem: Problem, deadline: Deadline | None = None) -> bool:
        """One decision solve with CP-SAT's own search."""
        from cpqueens.backends.cpsat import columns

        return columns.exists(problem, deadline)

    def free_search(self, problem: Problem, limit: float | None, workers: int) -> Any:
        """CP-SAT's free search for one solution, in a thread that can be stopped."""
        from cpqueens.backends.cpsat import columns

        return columns.FreeSearch(problem, limit, workers)

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
        """CP-SAT states every cell form: counts, classes, solutions, optima."""
        return None

    def cell_count(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
    ) -> int:
        """The exact number of solutions (of ``size`` pieces per army), or of their classes."""
        from cpqueens.backends.cpsat import cells

        return cells.count(problem, size, unique=unique, deadline=deadline, limit=limit)

    def cell_solutions(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
    ) -> Iterator[tuple[Piece, ...]]:
        """Every solution (one per class if ``unique``), enumerated by one CP-SAT worker."""
        from cpqueens.backends.cpsat import cells

        return cells.solutions(problem, size, unique=unique, deadline=deadline, limit=limit)

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
        """Maximise or minimise the size of a solution; "optimal" only with CP-SAT's proof."""
        from cpqueens.backends.cpsat import cells

        return cells.optimise(
            problem,
            sense,  # type: ignore[arg-type]
            deadline=deadline,
            workers=workers,
            symmetry=symmetry,
            progress=progress,
        )


#: The engine the registry hands out for "cpsat".
ENGINE = CpSat()
