"""The second, independent backend: python-constraint2's backtracking CSP solver.

Columns and cell-disjointness use the built-in ``AllDifferentConstraint``;
python-constraint has no AllDifferent over expressions, so each diagonal
AllDifferent becomes one pairwise constraint per pair of rows, its distance
bound as a default argument (a closure would capture the loop variable late).
"""

from __future__ import annotations

from collections.abc import Iterator

import constraint as pc

from cpqueens.backends._translate import unsupported
from cpqueens.constraints import AllDifferent, Disjoint, Forbidden, Invariant, LexLeader, Placed

NAME = "python-constraint"


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


def _variable(colour: int, row: int) -> tuple[int, int]:
    return (colour, row)


def build(model) -> pc.Problem | None:
    """Translate ``model.constraints`` into a python-constraint ``Problem``.

    Returns None when a row has no free cell (python-constraint refuses empty domains).
    """
    n, colours = model.n, model.colours
    domains = [[set(range(n)) for _ in range(n)] for _ in range(colours)]
    pending = []
    for item in model.constraints:
        if isinstance(item, Forbidden):
            for row, col in item.cells:
                for colour_domains in domains:
                    colour_domains[row].discard(col)
        elif isinstance(item, Placed):
            for row, col in item.cells:
                domains[item.colour][row] &= {col}
        elif isinstance(item, (AllDifferent, Disjoint, LexLeader, Invariant)):
            pending.append(item)
        else:
            raise unsupported(NAME, item)

    if any(not values for colour_domains in domains for values in colour_domains):
        return None  # a row with no free cell: python-constraint refuses empty domains
    problem = pc.Problem(RowOrderSolver())
    for colour in range(colours):
        for row in range(n):
            # Values are popped from the end: list them largest first.
            problem.addVariable(
                _variable(colour, row), DescendingDomain(sorted(domains[colour][row], reverse=True))
            )
    for item in pending:
        if isinstance(item, (LexLeader, Invariant)):
            _add_symmetry_constraint(problem, item, n, colours)
        elif isinstance(item, Disjoint):
            for row in range(n):
                problem.addConstraint(
                    pc.AllDifferentConstraint(), [_variable(c, row) for c in item.colours]
                )
        elif item.offset == 0:
            problem.addConstraint(
                pc.AllDifferentConstraint(), [_variable(item.colour, r) for r in range(n)]
            )
        else:
            # q[i] + k*i != q[j] + k*j  <=>  q[i] - q[j] != k*(j - i)
            for i in range(n):
                for j in range(i + 1, n):
                    problem.addConstraint(
                        pc.FunctionConstraint(lambda a, b, gap=item.offset * (j - i): a - b != gap),
                        [_variable(item.colour, i), _variable(item.colour, j)],
                    )
    return problem


def _add_symmetry_constraint(
    problem: pc.Problem, item: LexLeader | Invariant, n: int, colours: int
) -> None:
    """State a symmetry constraint: ``Invariant`` pairwise, ``LexLeader`` as one n-ary check."""
    from cpqueens.symmetry import satisfies, transform

    if isinstance(item, Invariant):
        for colour in range(colours):
            for row in range(n):
                for other in range(n):
                    # q[row] = a forces q[other] = b when (row, a) maps to (other, b).
                    def keeps(a, b=None, row=row, other=other):
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

    def leads(*values):
        by_colour = tuple(tuple(values[c * n : (c + 1) * n]) for c in range(colours))
        return satisfies(by_colour, item, n)

    problem.addConstraint(pc.FunctionConstraint(leads), names)


def solutions(model) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Lazily yield every solution in lexicographic order."""
    n, colours = model.n, model.colours
    problem = build(model)
    if problem is None:
        return
    for found in problem.getSolutionIter():
        yield tuple(tuple(found[_variable(c, r)] for r in range(n)) for c in range(colours))


def count(model) -> int:
    """The exact number of solutions."""
    return sum(1 for _ in solutions(model))
