"""The rows of a symmetry-kernel piece, in plain Python: what the searches start from.

Shared by the numba kernels (:mod:`cpqueens.kernels.classes`) and their
entries loaded without numba (:mod:`cpqueens.kernels.class_entries`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial


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


def by_edge_queens(n: int, distance: int, allowed: list[int]) -> list[list[int]]:
    """A piece's rows once per placement of its far edge queens when row 0's queen is near a corner.

    Below ``distance`` n / 3 every edge queen is that near a corner too, so the
    last row keeps few columns, and a top-down search learns only in its last
    rows which placements they leave that row: fixed one at a time, with the
    cells its queen attacks closed in every row beforehand, each part prunes
    from the top. Below n / 5 the parts are split once more by the queen of
    column 0, then of column n - 1 (each within ``distance`` of a corner, often
    in the rows near the bottom). The parts share no leaf and miss none (each
    leaf has one queen in the last row and one in each column) and the kernels
    weigh a leaf by its queens alone, so the parts' counts add up to the
    piece's. Parts with a row left empty are dropped; farther from a corner the
    piece is returned as is. Measured on the pieces of a split of depth 1
    (benchmarks/RESULTS-frontier.md, issue 45): at n = 17 the last row alone
    takes 0.07x to 0.80x the time at distances 1 to 5 with the corners blocked
    (1.02x at 6), 0.63x to 0.96x on the free board; the columns then 0.1x to
    0.9x at distances 1 to 3.

    >>> len(by_edge_queens(7, 1, masks(7, 1, 127, 127)))  # the last row, columns 0 and 6
    3
    >>> by_edge_queens(6, 2, [4, 63, 63, 63, 63, 63]) == [[4, 63, 63, 63, 63, 63]]  # 3 * 2 >= 6
    True
    """
    if 3 * distance >= n:
        return [allowed]
    parts = by_last_row(n, [allowed])
    return by_edge_columns(n, parts) if 5 * distance < n else parts


def by_last_row(n: int, parts: list[list[int]]) -> list[list[int]]:
    """Each part once per queen of its last row, its lines closed (see :func:`by_edge_queens`)."""
    return _placed(n, parts, lambda part: ((n - 1, bit) for bit in _bits(part[n - 1])))


def by_edge_columns(n: int, parts: list[list[int]]) -> list[list[int]]:
    """Each part once per queen of column 0, then of column n - 1, its lines closed."""
    for column in (0, n - 1):
        bit = 1 << column
        parts = _placed(n, parts, partial(_rows_of, bit=bit))
    return parts


def _placed(
    n: int, parts: list[list[int]], cells: Callable[[list[int]], Iterable[tuple[int, int]]]
) -> list[list[int]]:
    """Each part once per cell ``cells(part)`` gives, a queen placed there: its lines closed.

    A part in which some row already holds only that queen's cell is kept as
    it is (the queen is placed already); a part left with an empty row is dropped.
    """
    full = (1 << n) - 1
    found = []
    for part in parts:
        for row, bit in cells(part):
            if part[row] == bit:  # placed already: the part is its own only part
                found.append(part)
                break
            placed = [
                bit if r == row else part[r] & ~_attacks(bit, abs(r - row)) & full for r in range(n)
            ]
            if all(placed):
                found.append(placed)
    return found


def _bits(mask: int) -> list[int]:
    """The one-bit masks of ``mask``, lowest first."""
    found = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        found.append(bit)
    return found


def _rows_of(part: list[int], bit: int) -> list[tuple[int, int]]:
    """The cells (row, ``bit``) of a column that ``part`` allows; a row allowing it alone first."""
    rows = [(r, bit) for r, mask in enumerate(part) if mask & bit]
    return sorted(rows, key=lambda cell: part[cell[0]] != bit)


def _attacks(bit: int, rows: int) -> int:
    """The cells a queen on column ``bit`` (a one-bit mask) attacks ``rows`` rows away."""
    return bit | (bit << rows) | (bit >> rows)
