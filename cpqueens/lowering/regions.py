"""The region form of a statement: a region puzzle, for engines with a region search.

A statement of the Queens game's or Star Battle's shape (k pieces on every
row, column and region of an n x n grid of n regions, none touching; with
queens' lines for one per row) lowers to a
:class:`~cpqueens.vocabulary.regions.RegionPuzzle`, which the bitmask engine's
compiled region search answers at once (its fast path, planned by
``cpqueens.strategies.planner``). Any other statement has no region form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpqueens.vocabulary.regions import MAX_N, RegionPuzzle
from cpqueens.vocabulary.statement import Statement

if TYPE_CHECKING:
    from cpqueens.vocabulary.cells import Attack


def region_form(statement: Statement) -> RegionPuzzle | None:
    """The statement as a region puzzle, or None when it has not that shape.

    >>> from cpqueens.vocabulary.cells import CellBoard
    >>> grid = ((0, 0, 1, 1), (0, 0, 1, 1), (2, 2, 3, 3), (2, 2, 3, 3))
    >>> s = Statement(CellBoard(4, 4, attack="king"), regions=grid, per_region=1)
    >>> region_form(s).stars
    1
    """
    board, grid = statement.board, statement.regions
    k = statement.per_row
    if grid is None or k is None or statement.kinds or statement.colours != 1:
        return None
    n = board.rows
    if not (statement.square and statement.per_column == k and statement.per_region == k):
        return None
    if statement.armies != 1 or not statement.independent or statement.dominating:
        return None
    if board.toroidal or board.knight or n > MAX_N or 2 * k - 1 > n:
        return None
    if 1 + max(max(row) for row in grid) != n:
        return None
    apart = board.attack == "king" or not board.touch  # no two touching, rows and columns free
    lines = {"king": True, "bishop": True, "rook": k == 1, "queen": k == 1}[board.attack]
    if not (lines and (apart or board.attack == "queen")):
        return None
    return RegionPuzzle(
        n,
        grid,
        stars=k,
        queens=statement.placed_of(0),
        blocked=board.blocked,
        diagonals=board.attack in ("queen", "bishop"),
    )


def statement_of(puzzle: RegionPuzzle) -> Statement:
    """The statement a region puzzle states: k stars per row, column and region, none touching.

    No two stars touch (king steps); with ``diagonals`` the long diagonals attack too.

    >>> p = RegionPuzzle(4, ((0, 0, 1, 1), (0, 0, 1, 1), (2, 2, 3, 3), (2, 2, 3, 3)))
    >>> region_form(statement_of(p)) == p
    True
    """
    from cpqueens.vocabulary.cells import CellBoard

    k, n = puzzle.stars, puzzle.n
    attack: Attack = "bishop" if puzzle.diagonals else "king"
    return Statement(
        CellBoard(n, n, puzzle.blocked, attack=attack, touch=False),
        per_row=k,
        per_column=k,
        regions=puzzle.regions,
        per_region=k,
        placed=tuple((r, c, 0) for r, c in puzzle.queens),
    )
