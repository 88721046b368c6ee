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


def by_last_row(n: int, distance: int, allowed: list[int]) -> list[list[int]]:
    """A piece's rows once per last-row queen when row 0's queen is near a corner, else as is.

    Below ``distance`` n / 3 every edge queen is that near a corner too, so the
    last row keeps few columns, and a top-down search learns only in its last
    rows which placements they leave that row: fixed one at a time, with the
    cells its queen attacks closed in every row beforehand, each part prunes
    from the top. The parts share no leaf and miss none (each leaf has one
    last-row queen) and the kernels weigh a leaf by its queens alone, so the
    parts' counts add up to the piece's. Parts with a row left empty are dropped.
    Measured on pieces of a split of depth 1 (benchmarks/RESULTS-frontier.md, issue 45):
    n = 17 with the corners blocked, 0.07x to 0.82x the time at distances 1 to 5
    (1.09x at 6); the free board, 0.66x to 0.97x.

    >>> [bin(part[-1]) for part in by_last_row(5, 1, masks(5, 1, 31, 31))]  # column 1 is row 0's
    ['0b1', '0b1000', '0b10000']
    >>> by_last_row(5, 2, [4, 31, 31, 31, 31]) == [[4, 31, 31, 31, 31]]
    True
    """
    if 3 * distance >= n:
        return [allowed]
    last = n - 1
    full = (1 << n) - 1
    parts = []
    free = allowed[last]
    while free:
        bit = free & -free
        free ^= bit
        part = [
            bit if row == last else allowed[row] & ~_attacks(bit, last - row) & full
            for row in range(n)
        ]
        if all(part):
            parts.append(part)
    return parts


def _attacks(bit: int, rows: int) -> int:
    """The cells a queen on column ``bit`` (a one-bit mask) attacks ``rows`` rows away."""
    return bit | (bit << rows) | (bit >> rows)
