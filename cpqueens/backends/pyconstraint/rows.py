"""python-constraint on a cell form with k pieces in every row: one variable per row, its columns.

A statement with a quota of k pieces per row (the Queens game, Star Battle,
rooks or kings with quotas) is searched row by row: each row's value is one
of its k-subsets of free columns whose cells attack no other (the placed
pieces included), two rows whose cells can attack each other are bound by a
constraint that no cell of one attacks a cell of the other, and one
constraint over every row keeps each column and region at or under its quota
(rows x k pieces in all make "at most" exact). Every rule comes from the
form: its attack relation (``board.attacks``), its quotas, its conditions.
It is far faster than one 0/1 variable per cell, and refuses grids whose rows
have more values than it states.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any

from cpqueens.errors import IncompleteSearchError
from cpqueens.expressions import evaluate, reads
from cpqueens.words import plural

if TYPE_CHECKING:
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.cells import CellProblem, Piece

#: The most row values (every row's k-subsets together) python-constraint is handed.
MAX_VALUES = 1 << 16


def fits(problem: CellProblem) -> bool:
    """Whether the row encoding states ``problem``: one army of independent pieces, k per row."""
    return (
        problem.armies == 1
        and problem.independent
        and not problem.dominating
        and problem.per_row is not None
        and problem.per_row >= 1
    )


def _domain(problem: CellProblem, row: int) -> list[tuple[int, ...]]:
    """Row ``row``'s values: k free columns whose cells attack no other, its placed pieces in."""
    board, k = problem.board, problem.per_row
    assert k is not None
    blocked = set(board.blocked)
    must = {c for r, c, _ in problem.placed if r == row}
    free = [c for c in range(board.cols) if (row, c) not in blocked]
    return [
        combo
        for combo in combinations(free, k)
        if must.issubset(combo)
        and not any(board.attacks((row, a), (row, b)) for a, b in combinations(combo, 2))
    ]


def values(problem: CellProblem, most: int = MAX_VALUES) -> int:
    """How many values the rows have in all, counted up to ``most + 1`` (then it stops).

    A row's values are the k-subsets of its free cells that attack no other:
    a search over the columns, cut as soon as the total passes ``most``.
    """
    board, k = problem.board, problem.per_row or 0
    blocked = set(board.blocked)
    total = 0
    for row in range(board.rows):
        free = [c for c in range(board.cols) if (row, c) not in blocked]
        stack: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        while stack:
            start, chosen = stack.pop()
            if len(chosen) == k:
                total += 1
                if total > most:
                    return total
                continue
            for i in range(start, len(free) - (k - len(chosen)) + 1):
                c = free[i]
                if not any(board.attacks((row, c), (row, other)) for other in chosen):
                    stack.append((i + 1, (*chosen, c)))
    return total


def refuses(problem: CellProblem) -> str | None:
    """Why the row encoding will not state ``problem`` (too many row values), or None."""
    if values(problem) <= MAX_VALUES:
        return None
    board = problem.board
    return (
        f"python-constraint states every row's placements as its values, and this "
        f"{board.rows}x{board.cols} statement with {problem.per_row} per row has more than "
        f"{MAX_VALUES:,} of them: expected backend 'cpsat' (or 'auto')"
    )


def _attacking_rows(problem: CellProblem) -> dict[tuple[int, int], set[tuple[int, int]]]:
    """For rows a < b, the (column in a, column in b) pairs whose cells attack each other."""
    board = problem.board
    found: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for (r, c), others in board.neighbours.items():
        for r2, c2 in others:
            if r < r2:
                found.setdefault((r, r2), set()).add((c, c2))
    return found


def build(problem: CellProblem, deadline: Deadline | None = None) -> Any | None:
    """The ``constraint.Problem`` of ``problem``, or None when some row has no value at all."""
    import constraint as pc

    board = problem.board
    quotas = [quota for quota in problem.quotas if not quota.what.startswith("row")]
    where = {cell: [] for cell in board.cells}  # type: dict[tuple[int, int], list[int]]
    for i, quota in enumerate(quotas):
        for cell in quota.cells:
            where[cell].append(i)
    most = [quota.k for quota in quotas]

    class AtMost(pc.Constraint):
        """No column or region holds more than its quota among the assigned rows.

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
            held = [0] * len(quotas)
            for row, value in assignments.items():
                for c in value:
                    for i in where[(row, c)]:
                        held[i] += 1
            return all(h <= k for h, k in zip(held, most, strict=True))

    csp = pc.Problem()
    for row in range(board.rows):
        if deadline is not None:
            deadline.check()
        domain = _domain(problem, row)
        if not domain:
            return None
        csp.addVariable(row, domain)
    for (a, b), pairs in sorted(_attacking_rows(problem).items()):
        csp.addConstraint(
            pc.FunctionConstraint(
                lambda x, y, pairs=frozenset(pairs): not any((p, q) in pairs for p in x for q in y)
            ),
            [a, b],
        )
    for condition in problem.conditions:
        rows = sorted({r for r, _ in reads(condition)})

        def holds(*chosen: tuple[int, ...], condition: Any = condition, rows: list = rows) -> bool:
            grid = [[0] * board.cols for _ in range(board.rows)]
            for row, value in zip(rows, chosen, strict=True):
                for c in value:
                    grid[row][c] = 1
            return bool(evaluate(condition, grid))

        if rows:
            csp.addConstraint(pc.FunctionConstraint(holds), rows)
        elif not holds():
            return None
    if quotas or deadline is not None:
        csp.addConstraint(AtMost(), list(range(board.rows)))
    return csp


def solutions(
    problem: CellProblem, deadline: Deadline | None = None, limit: int | None = None
) -> Iterator[tuple[Piece, ...]]:
    """Every solution (at most ``limit``) as sorted (row, col, 0) pieces, lazily.

    A ``deadline`` that passes raises ``IncompleteSearchError`` naming the
    solutions found by then.
    """
    total = 0
    try:
        csp = build(problem, deadline)
        if csp is None:
            return
        for found in csp.getSolutionIter():
            yield tuple(sorted((r, c, 0) for r, cols in found.items() for c in cols))
            total += 1
            if limit is not None and total >= limit:
                return
    except IncompleteSearchError as error:
        raise IncompleteSearchError(f"{error}; {plural(total, 'solution')} found by then") from None
