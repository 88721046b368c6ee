"""Region puzzles stated for OR-Tools CP-SAT: one Boolean per cell, read like the rules.

The declarative reference for the compiled search: every rule is one block of
constraints, nothing puzzle-specific is searched by hand. Enumeration runs
with one worker (CP-SAT's parallel enumeration loses solutions) and stops
at ``limit``; a ``deadline`` is CP-SAT's own time limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.regions import Cell, RegionPuzzle

NAME = "cpsat"


def build(puzzle: RegionPuzzle) -> tuple[Any, list[list[Any]]]:
    """The CP-SAT model of ``puzzle`` and its cell Booleans ``x[row][col]``."""
    from ortools.sat.python import cp_model

    n, k = puzzle.n, puzzle.stars
    cp = cp_model.CpModel()
    x = [[cp.new_bool_var(f"x[{r},{c}]") for c in range(n)] for r in range(n)]
    # k queens in every row, every column and every region.
    for i in range(n):
        cp.add(sum(x[i]) == k)
        cp.add(sum(x[r][i] for r in range(n)) == k)
    for g in range(n):
        cp.add(sum(x[r][c] for r, c in puzzle.region_cells(g)) == k)
    # No two queens touch: each cell and its right, lower-left, lower and lower-right neighbours.
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    cp.add_bool_or([x[r][c].Not(), x[r + dr][c + dc].Not()])
    # Long diagonals attack, when asked: at most one queen on each diagonal.
    if puzzle.diagonals:
        for d in range(-(n - 1), n):
            cp.add_at_most_one(x[r][r - d] for r in range(n) if 0 <= r - d < n)
            cp.add_at_most_one(x[r][d + n - 1 - r] for r in range(n) if 0 <= d + n - 1 - r < n)
    # Givens: queens placed, cells blocked.
    for r, c in puzzle.queens:
        cp.add(x[r][c] == 1)
    for r, c in puzzle.blocked:
        cp.add(x[r][c] == 0)
    return cp, x


def search(
    puzzle: RegionPuzzle, limit: int | None = None, keep: int = 2, deadline: Deadline | None = None
) -> tuple[int, list[tuple[Cell, ...]]]:
    """The number of solutions (stopping at ``limit``, None: all) and the first ``keep``.

    A ``deadline`` that ends the search first raises ``IncompleteSearchError``.
    """
    from ortools.sat.python import cp_model

    from cpqueens.backends.cpsat.solve import run

    cp, x = build(puzzle)
    n = puzzle.n
    found: list[tuple[Cell, ...]] = []
    total = 0

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            nonlocal total
            total += 1
            if len(found) < keep:
                found.append(
                    tuple((r, c) for r in range(n) for c in range(n) if self.boolean_value(x[r][c]))
                )
            if limit is not None and total >= limit:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(deadline.left(), 1e-3)
    status = run(solver, cp, Collector())  # in a thread: Ctrl-C stops it
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE, cp_model.MODEL_INVALID)
    if deadline is not None and not complete and (limit is None or total < limit):
        error = deadline.error()
        raise type(error)(f"{error}; {total:,} solution(s) found by then")
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
