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
