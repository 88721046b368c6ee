"""Native-speed counting for the family's variants: toroidal queens and superqueens.

One kernel, :func:`count_variant`, reads one colour's per-row allowed masks
(``numpy.uint64``, bit c = column c, n <= 64) like :mod:`cpqueens.kernels.placements`
and adds what the variants change in the row / ld / rd DFS:

- toroidal: the diagonal masks rotate within the board's n bits instead of
  shifting off its edge, so a diagonal wraps around (diagonals mod n);
- knight: the queens of the two rows above take the columns a knight's move
  away (c ± 2 from the row above, c ± 1 from the row two above).
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import popcount
from cpqueens.kernels.jit import kernel

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel()
def count_variant(allowed, toroidal, knight):
    """The number of one-colour placements with wrapping diagonals and/or knight moves.

    An iterative DFS over an explicit stack of (free, columns, ld, rd, queen)
    per row; the last row is counted by a popcount.
    """
    n = allowed.shape[0]
    if n == 1:
        return np.int64(popcount(allowed[0]))
    full = allowed[0] | ~allowed[0]
    if n < 64:
        full = (_ONE << np.uint64(n)) - _ONE
    top = np.uint64(n - 1)
    last = n - 1
    free = np.empty(n, dtype=np.uint64)
    cols = np.zeros(n, dtype=np.uint64)
    ld = np.zeros(n, dtype=np.uint64)
    rd = np.zeros(n, dtype=np.uint64)
    queen = np.zeros(n, dtype=np.uint64)
    total = _ZERO
    free[0] = allowed[0]
    row = 0
    while row >= 0:
        f = free[row]
        if f == _ZERO:
            row -= 1
            continue
        bit = f & (~f + _ONE)
        free[row] = f ^ bit
        queen[row] = bit
        c = cols[row] | bit
        d = ld[row] | bit
        a = rd[row] | bit
        if toroidal:
            d = ((d << _ONE) | (d >> top)) & full
            a = (a >> _ONE) | ((a & _ONE) << top)
        else:
            d = (d << _ONE) & full
            a = a >> _ONE
        taken = c | d | a
        if knight:
            taken |= ((bit << np.uint64(2)) | (bit >> np.uint64(2))) & full
            if row >= 1:
                above = queen[row - 1]
                taken |= ((above << _ONE) | (above >> _ONE)) & full
        nxt = allowed[row + 1] & ~taken
        if row + 1 == last:
            total += popcount(nxt)
            continue
        if nxt == _ZERO:
            continue
        row += 1
        free[row] = nxt
        cols[row] = c
        ld[row] = d
        rd[row] = a
    return np.int64(total)
