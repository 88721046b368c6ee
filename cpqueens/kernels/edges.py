"""The rows of a symmetry-kernel piece, in plain Python: what the searches start from.

Shared by the numba kernels (:mod:`cpqueens.kernels.classes`) and their
entries loaded without numba (:mod:`cpqueens.kernels.class_entries`).
"""

from __future__ import annotations


def masks(n: int, distance: int, row1: int, row2: int) -> list[int]:
    """Each row's columns when row 0's queen is the farthest edge queen, at column ``distance``.

    The edge columns close in the rows farther than ``distance`` from row 0 and
    row n - 1, the last row's columns farther than ``distance`` from a corner
    close too. Rows 1 and 2 are kept to ``row1`` and ``row2`` (to split the
    work) and row 1, when row 0's queen is in the middle column (its own mirror
    image), to the left half: the mirror image of each solution found is then
    the one left out.

    >>> [bin(row) for row in masks(5, 1, 31, 31)]
    ['0b10', '0b11111', '0b1110', '0b11111', '0b11011']
    """
    full = (1 << n) - 1
    edges = 1 | (1 << (n - 1))
    middle = sum(1 << col for col in range(n) if min(col, n - 1 - col) > distance)
    allowed = [full] * n
    allowed[0] = 1 << distance
    for row in range(1, n - 1):
        if min(row, n - 1 - row) > distance:
            allowed[row] = full & ~edges
    allowed[1] &= row1
    allowed[2] &= row2
    if 2 * distance == n - 1:
        allowed[1] &= (1 << distance) - 1
    allowed[n - 1] = full & ~middle
    return allowed


def marks(n: int, distance: int) -> tuple[list[int], int]:
    """The cells whose queens tie with row 0's at ``distance``: per row, and in the last row.

    Per row, the edge columns of the rows ``distance`` from row 0 and from row
    n - 1 (the queens of column 0 and n - 1 as far from a corner as row 0's);
    and the last row's columns ``distance`` from a corner.

    >>> marks(6, 1)
    ([0, 33, 0, 0, 33, 0], 18)
    """
    far = n - 1 - distance
    edge = [0] * n
    edge[distance] = edge[far] = 1 | (1 << (n - 1))
    return edge, (1 << distance) | (1 << far)


def upside_down(n: int, distance: int, rows: list[int] | tuple[int, ...] | None) -> bool:
    """Whether a piece is searched upside down: a board whose corners are holes, a near queen.

    Measured per piece, the kernel's time at n = 16 and 17 with the four
    corners blocked: at ``distance`` <= n // 4 the turned search takes 0.06-0.66x
    the time (n = 17: 0.44 s against 0.67 s at distance 4, 0.009 s against 0.14 s
    at 1), and from n // 4 + 2 on 1.3-1.8x; on the free board and on boards with
    other symmetric holes (the centre, the cells next to the corners) it is no
    faster at any distance, and up to 1.7x slower.
    """
    return rows is not None and not int(rows[0]) & 1 and distance <= n // 4


def piece_rows(
    n: int, distance: int, row1: int, row2: int, rows: list[int] | tuple[int, ...] | None
) -> tuple[list[int], list[int], int]:
    """A "top" piece's rows, tie marks and last-row tie cells, as the weighed search takes them.

    :func:`masks` and :func:`marks` on the board ``rows`` (None: the free
    board); or, where :func:`upside_down` says so, the same piece turned upside
    down: row r becomes row n - 1 - r, row 0's queen the last row's, its lines
    closed in every other row beforehand (a search from the top meets it last),
    the last row's tie cells row 0's marks. A row-by-row search counts the same
    placements, each with the same ties, whichever way up the board is.
    """
    allowed = masks(n, distance, row1, row2)
    if rows is not None:
        allowed = [a & int(r) for a, r in zip(allowed, rows, strict=True)]
    edge, bottom = marks(n, distance)
    if not allowed[0] or not upside_down(n, distance, rows):
        return allowed, edge, bottom  # (a hole under row 0's queen: the search ends at once)
    full = (1 << n) - 1
    for r in range(1, n):  # row 0's queen, at column `distance`: its column and diagonals
        allowed[r] &= ~((1 << distance) | (1 << (distance + r)) | (1 << distance >> r)) & full
    turned = [bottom, *edge[n - 2 : 0 : -1], 0]  # the last row's marks are never read
    return allowed[::-1], turned, edge[0]
