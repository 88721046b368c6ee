"""python-constraint on the column form: one variable per row and colour, its column.

python-constraint has no AllDifferent over expressions, so a colour's column and
diagonal AllDifferent constraints become one :class:`QueenLines` constraint
that forward-checks the lines of each queen as it is placed: a few list
operations per placement instead of one Python lambda call per pair of rows
and value. Every other rule comes as the conditions its kind decomposes into,
each stated over the fewest variables it reads (:func:`split`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import constraint as pc

from cpqueens.backends.translate import domains as cell_domains
from cpqueens.backends.translate import unsupported
from cpqueens.clock import Deadline
from cpqueens.expressions import Comparison, CondNode, Distinct, Logic, evaluate, reads
from cpqueens.lowering.kinds import lower
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Forbidden,
    Invariant,
    LexLeader,
    Placed,
    Where,
)
from cpqueens.vocabulary.geometry import transform

if TYPE_CHECKING:
    from cpqueens.expressions import Variable
    from cpqueens.vocabulary.problem import Problem

NAME = "python-constraint"
#: The column kinds it states natively; every other kind arrives as its decomposition.
SUPPORTS = (AllDifferent, Forbidden, Placed, LexLeader, Invariant, Where)


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
    """

    def __init__(self, rows: list, offsets: frozenset[int]) -> None:
        """Watch the variables ``rows`` (row 0 first) along the lines of ``offsets``."""
        self._rows = list(rows)
        self._index = {variable: i for i, variable in enumerate(self._rows)}
        self._cols, self._anti, self._diag = 0 in offsets, 1 in offsets, -1 in offsets

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


def _variable(colour: int, row: int) -> tuple[int, int]:
    return (colour, row)


def build(model: Problem, ordered: bool = True) -> pc.Problem | None:
    """Translate the column form into a python-constraint ``Problem``.

    ``ordered`` keeps every domain in descending order so that the solutions come
    out in lexicographic order; counting does without. Returns None when a row
    has no free cell (python-constraint refuses empty domains).
    """
    n, colours = model.n, model.colours
    stated = lower(model.constraints, SUPPORTS, n, colours)
    domains, pending = cell_domains(n, colours, stated)  # type: ignore[arg-type]
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
    for colour, colour_offsets in offsets.items():
        rows = [_variable(colour, r) for r in range(n)]
        problem.addConstraint(QueenLines(rows, frozenset(colour_offsets)), rows)
    for item in pending:
        if isinstance(item, (LexLeader, Invariant)):
            _add_symmetry_constraint(problem, item, n, colours)
        elif isinstance(item, Where) and item.reads:
            for part in split(item.condition):
                _add_condition(problem, part)
    return problem


def split(condition: CondNode) -> list[CondNode]:
    """A condition as conditions over as few variables each as it holds the same solutions.

    A conjunction is its parts, and all-different its pairs: python-constraint
    checks a constraint once all its variables have values, so small ones prune early.

    >>> from cpqueens.expressions import Distinct, Var
    >>> [str(part) for part in split(Distinct((Var(0, 0), Var(0, 1), Var(0, 2))))]
    ['q0[0] != q0[1]', 'q0[0] != q0[2]', 'q0[1] != q0[2]']
    """
    if isinstance(condition, Logic) and condition.name == "and":
        return [part for arg in condition.args for part in split(arg)]
    if isinstance(condition, Distinct):
        args = condition.args
        return [Comparison("!=", a, b) for i, a in enumerate(args) for b in args[i + 1 :]]
    return [condition]


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
    """Holds for every assignment, but raises the deadline's error once it has passed.

    Stated over every variable, it is called after each assignment, so the
    solver's search ends within a few assignments of the deadline.
    """

    def __init__(self, deadline: Deadline) -> None:
        """Watch ``deadline``."""
        self.deadline = deadline

    def __call__(self, *args: object, **kwargs: object) -> bool:
        """True, or the deadline's error once it has passed."""
        self.deadline.check()
        return True


def solutions(
    model: Problem, deadline: Deadline | None = None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Lazily yield every solution in lexicographic order.

    A ``deadline`` that passes ends the search with ``IncompleteSearchError``.
    """
    n, colours = model.n, model.colours
    problem = build(model)
    if problem is None:
        return
    if deadline is not None:
        problem.addConstraint(
            Clock(deadline), [_variable(c, r) for c in range(colours) for r in range(n)]
        )
    for found in problem.getSolutionIter():
        yield tuple(tuple(found[_variable(c, r)] for r in range(n)) for c in range(colours))


def count(model: Problem, deadline: Deadline | None = None) -> int:
    """The exact number of solutions (found in whatever order is fastest)."""
    problem = build(model, ordered=False)
    if problem is None:
        return 0
    if deadline is not None:
        n, colours = model.n, model.colours
        problem.addConstraint(
            Clock(deadline), [_variable(c, r) for c in range(colours) for r in range(n)]
        )
    return sum(1 for _ in problem.getSolutionIter())
