"""The last three rows of a one-queen-a-row search, finished by one lookup instead of a search.

Three rows are left with three free columns. Which ways to finish them exist depends only
on the cells each row still has free among those columns (the diagonals of the queens
above struck out) and on how far apart the columns stand (two columns three or more apart
never meet on a diagonal within three rows): 9 gap classes x 2^9 patterns, a table of
4,608 entries (:data:`THREE_ROWS`), frozen into the kernels' machine code. The pattern is
gathered with x86's ``pext`` where :data:`cpqueens.kernels.bits.FAST_PEXT` says it is one
quick instruction, with shifts elsewhere. Used by :mod:`cpqueens.kernels.classes` and
:mod:`cpqueens.kernels.placements` (``tests/test_three_rows.py``).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from cpqueens.kernels.bits import FAST_PEXT, lowest_index, pext
from cpqueens.kernels.jit import kernel

_ONE = np.uint64(1)
_TWO = np.uint64(2)
_THREE = np.uint64(3)


def _three_rows_table() -> np.ndarray:
    """The ways to finish the last three rows, by their free cells and their columns' gaps.

    Index ``gaps * 512 + r0 * 64 + r1 * 8 + r2``: the three free columns, left to right, are
    ``gaps``' (g1 - 1) * 3 + (g2 - 1) apart (g1, g2 capped at 3: farther columns never
    attack within three rows), and bit i of ``r0``, ``r1``, ``r2`` says whether the i-th of
    them is free in each row. An entry has bit 3 * i + k set when queens on free cells, one
    a row and column, none on another's diagonal, finish the rows with the first row's queen
    in the i-th column and the last row's in the k-th (the middle one takes the third).
    """
    table = np.zeros(9 * 512, dtype=np.uint16)
    for g1 in (1, 2, 3):
        for g2 in (1, 2, 3):
            at = (0, g1, g1 + g2)
            # the orders of the columns down the rows that no diagonal forbids
            orders = [
                (i, j, k)
                for i, j, k in permutations(range(3))
                if abs(at[i] - at[j]) != 1 and abs(at[j] - at[k]) != 1 and abs(at[i] - at[k]) != 2
            ]
            base = ((g1 - 1) * 3 + (g2 - 1)) * 512
            for rows in range(512):
                free = (rows >> 6, (rows >> 3) & 7, rows & 7)
                for i, j, k in orders:
                    if (free[0] >> i) & (free[1] >> j) & (free[2] >> k) & 1:
                        table[base + rows] |= 1 << (3 * i + k)
    return table


#: :func:`_three_rows_table`, frozen into the kernels' machine code.
THREE_ROWS = _three_rows_table()


@kernel(inline="always")
def columns(free):
    """The indices of the three set bits of ``free``, lowest first."""
    rest = free & (free - _ONE)
    return lowest_index(free), lowest_index(rest), lowest_index(rest & (rest - _ONE))


if FAST_PEXT:

    @kernel(inline="always")
    def gathered(row, free):
        """The bits of ``row`` at the three bits of ``free``, as bits 0, 1 and 2 (``pext``)."""
        return pext(row, free)

else:

    @kernel(inline="always")
    def gathered(row, free):
        """The bits of ``row`` at the three bits of ``free``, as bits 0, 1 and 2 (shifts)."""
        first, second, third = columns(free)
        return (
            ((row >> first) & _ONE)
            | (((row >> second) & _ONE) << _ONE)
            | (((row >> third) & _ONE) << _TWO)
        )


@kernel(inline="always")
def three_rows(free, row0, row1, row2):
    """The ways to finish the last three rows, as :data:`THREE_ROWS`' entry: a 9-bit mask.

    ``free``: the three free columns; ``row0``, ``row1``, ``row2``: the cells each row has
    free, the diagonals of the queens above struck out. Bit 3i + k: a way with the first
    row's queen in the i-th free column (from the right, the lowest bit first) and the
    last row's in the k-th.
    """
    first, second, third = columns(free)  # the shifts' gathering reads the same ones
    gaps = (min(second - first, _THREE) - _ONE) * _THREE + (min(third - second, _THREE) - _ONE)
    return np.uint64(
        THREE_ROWS[
            (gaps << np.uint64(9))
            | (gathered(row0, free) << np.uint64(6))
            | (gathered(row1, free) << _THREE)
            | gathered(row2, free)
        ]
    )
