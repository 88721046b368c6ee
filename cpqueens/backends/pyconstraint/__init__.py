"""The second, independent backend: python-constraint2's backtracking CSP solver.

python-constraint has no AllDifferent over expressions, so a colour's column and
diagonal AllDifferent constraints become one :class:`QueenLines` constraint
that forward-checks the lines of each queen as it is placed: a few list
operations per placement instead of one Python lambda call per pair of rows
and value. Cell-disjointness uses the built-in ``AllDifferentConstraint``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import constraint as pc

from cpqueens.backends import Capabilities
from cpqueens.backends.translate import domains as cell_domains
from cpqueens.backends.translate import tight_regions, unsupported
from cpqueens.errors import IncompleteSearchError
from cpqueens.expressions import CondNode, evaluate, reads
from cpqueens.vocabulary.constraints import (
    BUILT_IN_KINDS,
    AllDifferent,
    Disjoint,
    Invariant,
    KnightMoves,
    LexLeader,
    NoTouch,
    Regions,
    Toroidal,
    Where,
    lower,
)
from cpqueens.vocabulary.geometry import transform

if TYPE_CHECKING:
    from cpqueens.expressions import Variable
    from cpqueens.vocabulary.problem import Problem

#: The constraint classes this backend translates.
SUPPORTS = BUILT_IN_KINDS

NAME = "python-constraint"
#: The widest board whose domains (n values per row) python-constraint sets up within a
#: time limit (n = 1,000: 2.7 s past a 1 s limit; 100,000: still building after 40 s).
MAX_N = 300

#: Splits by the mirror row; a constraint that checks the clock stops its search.
CAPABILITIES = Capabilities(
    stops="checks",
    regions="cpqueens.backends.pyconstraint.regions",
    cells="cpqueens.backends.pyconstraint.cells",
    whole=True,
)


class RowOrderSolver(pc.OptimizedBacktrackingSolver):
    """python-constraint's backtracking solver, taking the variables in the order given.

    The stock solver orders variables by degree and domain size; taking them
    row by row (and each domain's values smallest first) makes the solutions
    come out in lexicographic order.
    """

    def getSortedVariables(self, domains: dict, vconstraints: dict) -> list:  # noqa: N802
        """Keep the order in which the variables were added: colour by colour, row by row."""
        return list(domains)


class DescendingDomain(pc.Domain):
    """A domain that stays in descending order when forward checking restores values.

    The solver pops values from the end, so descending order tries the smallest
    column first; the stock domain appends restored values at the end instead.
    """

    def popState(self) -> None:  # noqa: N802
        """Restore the values hidden since the last pushed state, keeping the order."""
        super().popState()
        self.sort(reverse=True)


class QueenLines(pc.Constraint):
    """One colour's queens (one variable per row, in row order) share no line.

    ``offsets`` are the AllDifferent offsets: 0 the columns, +1 the
    anti-diagonals (q[r] + r), -1 the diagonals (q[r] - r). The solver calls a
    constraint right after assigning one of its variables, which is then the
    newest entry of ``assignments``: with forward checking, that queen's lines
    are hidden from the unassigned rows' domains (so any value the solver picks
    later is already consistent); without (the solver's last row), it is checked
    against the assigned rows.

    ``toroidal`` wraps the diagonals around the board (mod n); ``knight`` also
    keeps queens a knight's move apart (c±2 one row away, c±1 two rows away).
    """

    def __init__(
        self, rows: list, offsets: frozenset[int], toroidal: bool = False, knight: bool = False
    ) -> None:
        """Watch the variables ``rows`` (row 0 first) along the lines of ``offsets``."""
        self._rows = list(rows)
        self._index = {variable: i for i, variable in enumerate(self._rows)}
        self._cols, self._anti, self._diag = 0 in offsets, 1 in offsets, -1 in offsets
        self._wrap = len(self._rows) if toroidal else 0
        self._knight = knight

    def __call__(
        self,
        variables: list,
        domains: dict,
        assignments: dict,
        forwardcheck: bool | list = False,
        _unassigned: object = pc.Unassigned,
    ) -> bool:
        """Check or forward-check the lines of the newest queen; False if it is attacked."""
        latest = next(reversed(assignments))
        if self._wrap or self._knight:
            return self._call_variant(latest, domains, assignments, forwardcheck, _unassigned)
        col = assignments[latest]
        cols, anti, diag = self._cols, self._anti, self._diag
        gap = -self._index[latest]  # row of the variable below minus the newest queen's row
        for variable in self._rows:
            if gap:
                value = assignments.get(variable, _unassigned)
                if value is _unassigned:
                    if forwardcheck:
                        domain = domains[variable]
                        if cols and col in domain:
                            domain.hideValue(col)
                        if anti and col - gap in domain:
                            domain.hideValue(col - gap)
                        if diag and col + gap in domain:
                            domain.hideValue(col + gap)
                        if not domain:
                            return False
                elif not forwardcheck and (
                    (cols and value == col)
                    or (anti and value == col - gap)
                    or (diag and value == col + gap)
                ):
                    return False
            gap += 1
        return True

    def _call_variant(
        self,
        latest: object,
        domains: dict,
        assignments: dict,
        forwardcheck: object,
        unassigned: object,
    ) -> bool:
        """``__call__`` for toroidal diagonals or knight moves: the columns each other row loses."""
        col = assignments[latest]
        wrap = self._wrap
        gap = -self._index[latest]
        for variable in self._rows:
            if gap:
                attacked = set()
                if self._cols:
                    attacked.add(col)
                if self._anti:
                    attacked.add((col - gap) % wrap if wrap else col - gap)
                if self._diag:
                    attacked.add((col + gap) % wrap if wrap else col + gap)
                if self._knight and abs(gap) <= 2:
                    attacked.update((col - 3 + abs(gap), col + 3 - abs(gap)))
                value = assignments.get(variable, unassigned)
                if value is unassigned:
                    if forwardcheck:
                        domain = domains[variable]
                        for target in attacked:
                            if target in domain:
                                domain.hideValue(target)
                        if not domain:
                            return False
                elif not forwardcheck and value in attacked:
                    return False
            gap += 1
        return True


def _variable(colour: int, row: int) -> tuple[int, int]:
    return (colour, row)


def build(model: Problem, ordered: bool = True) -> pc.Problem | None:
    """Translate ``model.constraints`` into a python-constraint ``Problem``.

    ``ordered`` keeps every domain in descending order so that the solutions come
    out in lexicographic order; counting does without. Returns None when a row
    has no free cell (python-constraint refuses empty domains).
    """
    n, colours = model.n, model.colours
    domains, pending = cell_domains(n, colours, lower(model.constraints, SUPPORTS, n, colours))  # type: ignore[arg-type]
    for item in pending:  # the cell constraints are in the domains already
        if not isinstance(item, SUPPORTS):
            raise unsupported(NAME, item)
        if isinstance(item, Where) and not item.reads and not evaluate(item.condition, ()):
            return None  # a condition on no variable that is false: no solution

    if any(not values for colour_domains in domains for values in colour_domains):
        return None  # a row with no free cell: python-constraint refuses empty domains
    problem = pc.Problem(RowOrderSolver())
    domain_type = DescendingDomain if ordered else pc.Domain
    for colour in range(colours):
        for row in range(n):
            # Values are popped from the end: list them largest first.
            problem.addVariable(
                _variable(colour, row), domain_type(sorted(domains[colour][row], reverse=True))
            )
    # The queens' lines first: the solver runs a variable's constraints in the order
    # added, and the symmetry checks expect the lines to have pruned the domains.
    offsets: dict[int, set[int]] = {}
    for item in pending:
        if isinstance(item, AllDifferent):
            offsets.setdefault(item.colour, set()).add(item.offset)
        elif isinstance(item, (Toroidal, KnightMoves)):
            offsets.setdefault(item.colour, set())
    toroidal = {item.colour for item in pending if isinstance(item, Toroidal)}
    knight = {item.colour for item in pending if isinstance(item, KnightMoves)}
    for colour, colour_offsets in offsets.items():
        rows = [_variable(colour, r) for r in range(n)]
        if colour in toroidal:
            colour_offsets = colour_offsets | {1, -1}  # the wrapped diagonals
        lines = QueenLines(rows, frozenset(colour_offsets), colour in toroidal, colour in knight)
        problem.addConstraint(lines, rows)
    for item in pending:
        if isinstance(item, (Regions, NoTouch)):
            _add_region_rules(problem, item, n)
    for item in pending:
        if isinstance(item, (LexLeader, Invariant)):
            _add_symmetry_constraint(problem, item, n, colours)
        elif isinstance(item, Disjoint):
            for row in range(n):
                problem.addConstraint(
                    pc.AllDifferentConstraint(), [_variable(c, row) for c in item.colours]
                )
        elif isinstance(item, Where) and item.reads:
            _add_condition(problem, item.condition)
    return problem


def _add_region_rules(problem: pc.Problem, item: Regions | NoTouch, n: int) -> None:
    """State ``Regions`` (two rows' queens in different regions) or ``NoTouch``, pairwise."""
    colour = item.colour
    if isinstance(item, NoTouch):
        for row in range(n - 1):
            problem.addConstraint(
                pc.FunctionConstraint(lambda a, b: abs(a - b) != 1),
                [_variable(colour, row), _variable(colour, row + 1)],
            )
        return
    grid = item.grid
    for first in range(n):
        for second in range(first + 1, n):
            problem.addConstraint(
                pc.FunctionConstraint(
                    lambda a, b, top=grid[first], bottom=grid[second]: top[a] != bottom[b]
                ),
                [_variable(colour, first), _variable(colour, second)],
            )


def _add_condition(problem: pc.Problem, condition: CondNode) -> None:
    """State a condition as one constraint over exactly the variables it reads.

    The check evaluates the node tree on the values (``expressions.evaluate``);
    the node and its variables are bound as defaults, never captured late.
    """
    variables = reads(condition)

    def holds(
        *values: int, condition: CondNode = condition, variables: tuple[Variable, ...] = variables
    ) -> bool:
        table: dict[int, dict[int, int]] = {}
        for (colour, row), value in zip(variables, values, strict=True):
            table.setdefault(colour, {})[row] = value
        return bool(evaluate(condition, table))  # type: ignore[arg-type]

    problem.addConstraint(
        pc.FunctionConstraint(holds), [_variable(colour, row) for colour, row in variables]
    )


def _add_symmetry_constraint(
    problem: pc.Problem, item: LexLeader | Invariant, n: int, colours: int
) -> None:
    """State a symmetry constraint: ``Invariant`` pairwise, ``LexLeader`` as one n-ary check."""
    if isinstance(item, Invariant):
        for colour in range(colours):
            for row in range(n):
                for other in range(n):
                    # q[row] = a forces q[other] = b when (row, a) maps to (other, b).
                    def keeps(
                        a: int, b: int | None = None, row: int = row, other: int = other
                    ) -> bool:
                        target_row, target_col = transform(item.symmetry, (row, a), n)
                        if target_row != other:
                            return True
                        return target_col == (a if b is None else b)

                    names = [_variable(colour, row)]
                    if other != row:
                        names.append(_variable(colour, other))
                    problem.addConstraint(pc.FunctionConstraint(keeps), names)
        return
    names = [_variable(c, r) for c in range(colours) for r in range(n)]

    def leads(*values: int) -> bool:
        by_colour = tuple(tuple(values[c * n : (c + 1) * n]) for c in range(colours))
        return item.violation(by_colour, n) is None

    problem.addConstraint(pc.FunctionConstraint(leads), names)


class Clock(pc.Constraint):
    """Holds for every assignment, but raises ``IncompleteSearchError`` once the limit has passed.

    Stated over every variable, it is called after each assignment, so the
    solver's search ends within a few assignments of the deadline.
    """

    def __init__(self, time_limit: float) -> None:
        """Start the clock now: the search may run ``time_limit`` seconds."""
        self.time_limit = time_limit
        self.deadline = time.monotonic() + time_limit

    def __call__(self, *args: object, **kwargs: object) -> bool:
        """True, or the error once the deadline has passed."""
        if time.monotonic() > self.deadline:
            raise IncompleteSearchError(
                f"the time limit of {self.time_limit:g} s ended the search before it was complete"
            )
        return True


def solutions(
    model: Problem, time_limit: float | None = None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Lazily yield every solution in lexicographic order.

    ``time_limit`` (seconds) ends a longer search with ``IncompleteSearchError``.
    """
    n, colours = model.n, model.colours
    problem = build(model)
    if problem is None:
        return
    if time_limit is not None:
        problem.addConstraint(
            Clock(time_limit), [_variable(c, r) for c in range(colours) for r in range(n)]
        )
    for found in problem.getSolutionIter():
        yield tuple(tuple(found[_variable(c, r)] for r in range(n)) for c in range(colours))


def count(model: Problem) -> int:
    """The exact number of solutions (found in whatever order is fastest)."""
    problem = build(model, ordered=False)
    if problem is None:
        return 0
    return sum(1 for _ in problem.getSolutionIter())


def counts_whole(model: Problem) -> bool:
    """Whether one search counts ``model`` best: a Queens-game model (``tight_regions``)."""
    return tight_regions(model)
