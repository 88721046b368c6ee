"""Region puzzles for python-constraint: one variable per row, its value the row's queen columns.

A row's domain is its allowed subsets of k columns (the same candidates as the
bitmask engine's, listed independently here); binary constraints keep
neighbouring rows from touching (and, with ``diagonals``, every two rows off
each other's diagonals); one constraint over every row keeps each column and
each region at no more than k queens, checked on the rows assigned so far.
With n rows of k queens each, at most k per column and per region means
exactly k.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from cpqueens.errors import IncompleteSearchError, NotSupportedError

if TYPE_CHECKING:
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.regions import Cell, RegionPuzzle

NAME = "python-constraint"
#: The most row values (over all rows) the engine states: past it, refused at once.
MAX_VALUES = 1 << 16


def refuses(puzzle: RegionPuzzle) -> str | None:
    """Why the engine will not search ``puzzle`` (too many row values to state), or None."""
    total = puzzle.row_placements()
    if total <= MAX_VALUES:
        return None
    return (
        f"python-constraint states every row's star placements as its values, and this "
        f"{puzzle.n}x{puzzle.n} puzzle with {puzzle.stars} star(s) has {total:,} of them, more "
        f"than its {MAX_VALUES:,}: expected backend 'cpsat' (or 'auto')"
    )


def _domain(puzzle: RegionPuzzle, row: int) -> list[tuple[int, ...]]:
    """Row ``row``'s values: k free columns, pairwise at least 2 apart, the row's givens in."""
    blocked = set(puzzle.blocked)
    must = {c for r, c in puzzle.queens if r == row}
    free = [c for c in range(puzzle.n) if (row, c) not in blocked]
    return [
        combo
        for combo in combinations(free, puzzle.stars)
        if must.issubset(combo) and all(abs(a - b) > 1 for a, b in combinations(combo, 2))
    ]


def _build(puzzle: RegionPuzzle, deadline: Deadline | None = None):  # type: ignore[no-untyped-def]
    """The ``constraint.Problem`` of ``puzzle``, or None when some row has no value at all."""
    import constraint as pc

    n, k = puzzle.n, puzzle.stars
    regions = puzzle.regions

    class AtMostK(pc.Constraint):
        """No column and no region holds more than k queens among the assigned rows.

        It also checks the ``deadline``: it is called at every node of the search.
        """

        def __call__(  # type: ignore[override]
            self,
            variables: list,
            domains: dict,
            assignments: dict,
            forwardcheck: bool = False,
            _unassigned: object = pc.Unassigned,
        ) -> bool:
            if deadline is not None:
                deadline.check()
            columns = [0] * n
            areas = [0] * n
            for row, value in assignments.items():
                for c in value:
                    columns[c] += 1
                    areas[regions[row][c]] += 1
            return max(columns) <= k and max(areas) <= k

    problem = pc.Problem()
    for row in range(n):
        if deadline is not None:
            deadline.check()
        domain = _domain(puzzle, row)
        if not domain:
            return None
        problem.addVariable(row, domain)
    for row in range(n - 1):
        problem.addConstraint(
            pc.FunctionConstraint(
                lambda a, b: all(abs(x - y) > 1 for x in a for y in b)  # no queen touches
            ),
            [row, row + 1],
        )
    if puzzle.diagonals:
        for r1, r2 in combinations(range(n), 2):
            problem.addConstraint(
                pc.FunctionConstraint(
                    lambda a, b, gap=r2 - r1: all(abs(x - y) != gap for x in a for y in b)
                ),
                [r1, r2],
            )
    problem.addConstraint(AtMostK(), list(range(n)))
    return problem


def search(
    puzzle: RegionPuzzle, limit: int | None = None, keep: int = 2, deadline: Deadline | None = None
) -> tuple[int, list[tuple[Cell, ...]]]:
    """The number of solutions (stopping at ``limit``, None: all) and the first ``keep``.

    A ``deadline`` is checked at every node: once it has passed,
    ``IncompleteSearchError``, with the solutions found by then.
    """
    reason = refuses(puzzle)
    if reason is not None:
        raise NotSupportedError(reason)
    try:
        problem = _build(puzzle, deadline)
    except IncompleteSearchError as error:
        raise IncompleteSearchError(f"{error}; 0 solution(s) found by then") from None
    if problem is None:
        return 0, []
    total = 0
    found: list[tuple[Cell, ...]] = []
    try:
        for solution in problem.getSolutionIter():
            total += 1
            if len(found) < keep:
                found.append(tuple(sorted((r, c) for r, cols in solution.items() for c in cols)))
            if limit is not None and total >= limit:
                break
    except IncompleteSearchError as error:
        raise IncompleteSearchError(f"{error}; {total:,} solution(s) found by then") from None
    return total, sorted(found)


def count(puzzle: RegionPuzzle, limit: int | None = None, deadline: Deadline | None = None) -> int:
    """The number of solutions, stopping at ``limit`` (None: every one)."""
    return search(puzzle, limit, keep=0, deadline=deadline)[0]


def solutions(
    puzzle: RegionPuzzle, limit: int | None = None, deadline: Deadline | None = None
) -> list[tuple[Cell, ...]]:
    """The solutions (``limit`` of them at most), each as sorted (row, col) cells, sorted."""
    keep = limit if limit is not None else 10**9
    return search(puzzle, limit, keep=keep, deadline=deadline)[1]
