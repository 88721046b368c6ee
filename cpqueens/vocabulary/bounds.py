"""True bounds on a cell problem's optimum, known before any search.

An optimisation stopped by a limit reports the best bound proved; these are
bounds that hold by a counting argument or a theorem, so the report is never
worse than them:

- the most pieces (one army, independent): every line of a family of
  pairwise disjoint lines holds at most one piece, every free cell on none of
  them at most one: the family's lines plus those cells (the rows: n);
- the largest peaceable armies: over a family of disjoint lines, each line
  goes to one army, so the two armies split the family's cells (a knapsack:
  the largest m both can reach); and where rows and columns are lines (queens,
  rooks), one army holds its rows and columns, the other the rest: m white
  and m black on R x C need ``m <= s t`` and ``m <= (R - s)(C - t)`` for some
  s rows and t columns (:func:`grid_bound`);
- the fewest queens dominating a full n x n board (no holes, not toroidal,
  no knight's moves): ``ceil(n/2)``, except n = 3 and 11 where it is
  ``(n-1)/2`` (Raghavan & Venkatesan 1987 and Spencer for ``(n-1)/2``;
  Finozhenok & Weakley, Australas. J. Combin. 37 (2007) for ``n/2``).
  Independent domination needs at least as many.

Quotas fix the size of every solution; placed pieces of army 0 are a floor.
"""

from __future__ import annotations

from collections.abc import Sequence

from cpqueens.vocabulary.cells import Cell, CellProblem


def disjoint_families(lines: Sequence[Sequence[Cell]]) -> list[list[int]]:
    """Families of pairwise disjoint lines (indices into ``lines``), filled greedily in order.

    >>> disjoint_families([((0, 0), (0, 1)), ((1, 0), (1, 1)), ((0, 0), (1, 0))])
    [[0, 1], [2]]
    """
    families: list[list[int]] = []
    used: list[set[Cell]] = []
    for i, line in enumerate(lines):
        if len(line) < 2:
            continue
        for family, cells in zip(families, used, strict=True):
            if cells.isdisjoint(line):
                family.append(i)
                cells.update(line)
                break
        else:
            families.append([i])
            used.append(set(line))
    return families


def free_lines(problem: CellProblem) -> list[tuple[Cell, ...]]:
    """The board's lines restricted to free cells, those of two cells or more, longest first."""
    board = problem.board
    blocked = set(board.blocked)
    found = {tuple(c for c in line if c not in blocked) for line in board.lines}
    return sorted((line for line in found if len(line) >= 2), key=lambda line: (-len(line), line))


def split_bound(sizes: Sequence[int]) -> int:
    """The largest m such that ``sizes`` split into two parts of totals >= m each.

    >>> split_bound([3, 3, 2]), split_bound([5, 1])
    (3, 1)
    """
    total = sum(sizes)
    reach = 1  # bit t: some subset sums to t
    for size in sizes:
        reach |= reach << size
    return max(min(t, total - t) for t in range(total + 1) if reach >> t & 1)


def grid_bound(rows: int, cols: int) -> int:
    """The largest m such that m <= s t and m <= (rows - s)(cols - t) for some s and t.

    >>> grid_bound(8, 8), grid_bound(13, 13), grid_bound(3, 5)
    (16, 42, 3)
    """
    return max(
        min(s * t, (rows - s) * (cols - t)) for s in range(rows + 1) for t in range(cols + 1)
    )


def upper(problem: CellProblem) -> int | None:
    """A true upper bound on the size of any solution (None: no bound short of the free cells).

    >>> from cpqueens.vocabulary.cells import CellBoard
    >>> upper(CellProblem(CellBoard(8, 8))), upper(CellProblem(CellBoard(5, 5), armies=2))
    (8, 6)
    """
    free = len(problem.board.free)
    if problem.size is not None:
        return problem.size
    if not problem.independent:
        return free // problem.armies
    lines = free_lines(problem)
    best = free // problem.armies
    for family in disjoint_families(lines):
        sizes = [len(lines[i]) for i in family]
        outside = free - sum(sizes)
        if problem.armies == 1:
            best = min(best, len(family) + outside)
        else:
            best = min(best, split_bound(sizes + [1] * outside))
    board = problem.board
    if problem.armies == 2 and board.attack in ("queen", "rook"):
        best = min(best, grid_bound(board.rows, board.cols))
    return best


def lower(problem: CellProblem) -> int:
    """A true lower bound on the size of any solution (0 when nothing better is known).

    >>> from cpqueens.vocabulary.cells import CellBoard
    >>> [lower(CellProblem(CellBoard(n, n), dominating=True)) for n in (3, 8, 11, 13)]
    [1, 4, 5, 7]
    """
    if problem.size is not None:
        return problem.size
    floor = sum(1 for *_, army in problem.placed if army == 0)
    board = problem.board
    if (
        problem.dominating
        and problem.armies == 1
        and board.attack == "queen"
        and board.rows == board.cols
        and not (board.blocked or board.toroidal or board.knight)
    ):
        n = board.rows
        floor = max(floor, n // 2 if n in (3, 11) else (n + 1) // 2)
    return floor
