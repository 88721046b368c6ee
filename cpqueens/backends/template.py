"""The engine template: copy this file to add an engine; it is a complete, working one.

An engine is a subclass of :class:`~cpqueens.backends.base.Engine` and one
line that registers it::

    from cpqueens.backends import register
    register("exhaustive", Exhaustive())  # or register("exhaustive", "my_package.my_module")

(a module path names a module whose ``ENGINE`` is the instance). The planner
then offers it to every verb: "auto" tries it after the built-in engines, and
``backend="exhaustive"`` names it. Everything it does not override refuses by
name (``NotSupportedError``), and the planner names another engine that can.

This template answers every statement of tiny boards by trying every
placement: the column form by every permutation of the columns, the cell
form by every set of free cells (every colouring, for two armies), each
checked against the form itself (``verify`` for the column form,
``CellProblem.check`` for the cell form). It declares no capability beyond
the defaults. Each method says which capability it stands for; replace the
search with your solver's and keep the signatures.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations, product
from typing import TYPE_CHECKING

from cpqueens.backends.base import Capabilities, CellVerb, Columns, Engine
from cpqueens.vocabulary import verify
from cpqueens.vocabulary.constraints import ConstraintKind

if TYPE_CHECKING:
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.cells import CellProblem, Piece
    from cpqueens.vocabulary.problem import Problem

#: The most cells (times armies) the template tries every subset of.
MOST_CELLS = 16


class Exhaustive(Engine):
    """Every placement, checked: the slowest exact engine, and the template for a real one."""

    #: The name users pass as ``backend``.
    NAME = "exhaustive"
    #: How messages name the solver.
    TITLE = "exhaustive search"
    #: The column kinds it states natively: any kind that checks itself (``violation``), so a
    #: kind needs no decomposition here. A solver that translates kinds lists the ones it
    #: translates; the planner hands it the decompositions of the others.
    SUPPORTS = (ConstraintKind,)
    #: The widest column board it takes (None: any). Permutations of 9 columns: 362,880.
    MAX_N = 9
    #: What it declares (see ``Capabilities``): here the defaults, but a short search always.
    CAPABILITIES = Capabilities(short_below_free_rows=99)

    # -- the column form: count and solutions are the two methods every engine has

    def solutions(self, problem: Problem, deadline: Deadline | None = None) -> Iterator[Columns]:
        """Every solution in lexicographic order (permutations come in that order)."""
        one = list(permutations(range(problem.n)))
        for by_colour in product(one, repeat=problem.colours):
            if deadline is not None:
                deadline.check()
            if verify.violation(problem, by_colour) is None:
                yield by_colour

    def count(self, problem: Problem, deadline: Deadline | None = None) -> int:
        """The number of solutions."""
        return sum(1 for _ in self.solutions(problem, deadline))

    # -- the cell form: say what you answer, then answer it

    def cell_refusal(
        self,
        problem: CellProblem,
        verb: CellVerb,
        size: int | None = None,
        unique: bool = False,
        sense: str | None = None,
    ) -> str | None:
        """Counts and solutions of tiny boards; no classes, no optimisation (None: answers)."""
        cells = len(problem.board.free) * problem.armies
        if cells > MOST_CELLS:
            return f"{cells} free cells, more than the {MOST_CELLS} it tries every set of"
        if unique or verb == "optimise":
            return "it counts and lists solutions only"
        return None

    def cell_solutions(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
    ) -> Iterator[tuple[Piece, ...]]:
        """Every solution (``size`` pieces per army if given), at most ``limit``."""
        found = 0
        for pieces in _placements(problem, size):
            if deadline is not None:
                deadline.check()
            if problem.check(pieces) is None:
                yield pieces
                found += 1
                if found == limit:
                    return

    def cell_count(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
    ) -> int:
        """The number of solutions (at most ``limit``)."""
        found = self.cell_solutions(problem, size, deadline=deadline, limit=limit)
        return sum(1 for _ in found)


def _placements(problem: CellProblem, size: int | None) -> Iterator[tuple[Piece, ...]]:
    """Every set of free cells (of ``size`` per army), each cell given to one army or none."""
    free = problem.board.free
    if problem.armies == 1:
        sizes = range(len(free) + 1) if size is None else (size,)
        for k in sizes:
            for cells in combinations(free, k):
                yield tuple((r, c, 0) for r, c in cells)
        return
    for owners in product((None, 0, 1), repeat=len(free)):
        pieces = tuple((r, c, a) for (r, c), a in zip(free, owners, strict=True) if a is not None)
        if size is None or sum(1 for *_, a in pieces if a == 0) == size:
            yield pieces


#: The engine a registry entry names by this module's path.
ENGINE = Exhaustive()
