"""Resumable numba kernels that look for one placement instead of counting them all.

Both read one colour's per-row allowed-column masks (``numpy.uint64``, bit c =
column c, so n <= 64) and keep their whole search state in arrays the caller
owns, so that each call runs at most ``budget`` nodes and returns: Python sees
Ctrl-C and its clock between calls, and the next call goes on where the last
one stopped.

- :func:`next_placement`: the plain DFS, rows in order and the smallest column
  first, so the placements come out in lexicographic order (``first()``);
- :func:`search_any`: a DFS that fills the row with the fewest free cells next
  and backtracks as soon as a row or a column has no free cell left
  (``exists()``); far fewer nodes on hard blocked boards, the placements in
  no particular order.

Each returns ``FOUND`` (the placement is in ``columns``), ``EXHAUSTED`` (no
more placements) or ``PAUSED`` (the budget ran out; call again).
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import lowest_index, popcount
from cpqueens.kernels.jit import kernel

FOUND, EXHAUSTED, PAUSED = 1, 0, -1

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def first_state(allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A fresh state for :func:`next_placement`: the row stack, the columns, the counters."""
    n = allowed.shape[0]
    stack = np.zeros((n, 4), dtype=np.uint64)  # per row: columns left to try, cols, diag, anti
    stack[0, 0] = allowed[0]
    columns = np.zeros(n, dtype=np.int64)
    counters = np.zeros(2, dtype=np.int64)  # the depth (-1 once exhausted), the nodes so far
    return stack, columns, counters


@kernel()
def next_placement(allowed, stack, columns, counters, budget):
    """Advance the lexicographic DFS to its next placement, for at most ``budget`` nodes.

    ``stack[r]`` holds row r's columns not yet tried and the columns and
    diagonals the rows above attack there (the row being filled lives in
    locals while the kernel runs); ``counters`` the depth and the nodes
    (queens placed) so far. A found placement is in ``columns``; the next call
    goes on to the one after it.
    """
    n = allowed.shape[0]
    last = n - 1
    depth = counters[0]
    nodes = 0
    status = EXHAUSTED
    if depth < 0:
        return status
    f = stack[depth, 0]
    c = stack[depth, 1]
    d = stack[depth, 2]
    a = stack[depth, 3]
    while True:
        if f == _ZERO:
            if depth == 0:
                depth = -1
                break
            depth -= 1
            f = stack[depth, 0]
            c = stack[depth, 1]
            d = stack[depth, 2]
            a = stack[depth, 3]
            continue
        if nodes >= budget:
            status = PAUSED
            break
        bit = f & (~f + _ONE)
        f ^= bit
        nodes += 1
        if depth == last:
            columns[depth] = lowest_index(bit)
            status = FOUND
            break
        nc = c | bit
        nd = (d | bit) << _ONE
        na = (a | bit) >> _ONE
        nxt = allowed[depth + 1] & ~(nc | nd | na)
        if nxt == _ZERO:
            continue
        columns[depth] = lowest_index(bit)
        stack[depth, 0] = f
        stack[depth, 1] = c
        stack[depth, 2] = d
        stack[depth, 3] = a
        depth += 1
        f = nxt
        c = nc
        d = nd
        a = na
    if depth >= 0:
        stack[depth, 0] = f
        stack[depth, 1] = c
        stack[depth, 2] = d
        stack[depth, 3] = a
    counters[0] = depth
    counters[1] += nodes
    return status


def any_state(
    allowed: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A fresh state for :func:`search_any`: avail, done, rows, candidates, columns, counters."""
    n = allowed.shape[0]
    avail = np.zeros((n + 1, n), dtype=np.uint64)
    avail[0] = allowed
    done = np.zeros((n + 1, 2), dtype=np.uint64)  # per depth: the rows filled, the columns taken
    rows = np.zeros(n + 1, dtype=np.int64)
    candidates = np.zeros(n + 1, dtype=np.uint64)  # none at depth n: a found placement resumes
    sizes = [int(mask).bit_count() for mask in allowed]
    rows[0] = sizes.index(min(sizes))  # the row with the fewest free cells goes first
    candidates[0] = allowed[rows[0]]
    columns = np.zeros(n, dtype=np.int64)
    counters = np.zeros(2, dtype=np.int64)  # the depth (-1 once exhausted), the nodes so far
    return avail, done, rows, candidates, columns, counters


@kernel()
def search_any(avail, done, rows, candidates, columns, counters, budget):
    """Look for a placement, the most constrained row first, for at most ``budget`` nodes.

    At depth k, ``avail[k, r]`` is row r's free columns after the k queens
    placed so far and ``done[k]`` the rows and columns they fill; ``rows[k]``
    is the row filled at depth k and ``candidates[k]`` its columns not yet
    tried. A queen is kept only if every open row keeps a free cell and every
    open column keeps a free cell in some open row (look-ahead). The next row
    is the open row with the fewest free cells, unless some open column has a
    single free cell left: then that cell is the only choice there is. The
    next call after a found placement goes on to another one: calls until
    ``EXHAUSTED`` list every placement once, in no particular order.
    """
    n = avail.shape[1]
    full = (~_ZERO) >> np.uint64(64 - n)
    depth = counters[0]
    nodes = 0
    status = EXHAUSTED
    while depth >= 0:
        f = candidates[depth]
        if f == _ZERO:
            depth -= 1
            continue
        if nodes >= budget:
            status = PAUSED
            break
        bit = f & (~f + _ONE)
        candidates[depth] = f ^ bit
        nodes += 1
        row = rows[depth]
        filled = done[depth, 0] | (_ONE << np.uint64(row))
        taken = done[depth, 1] | bit
        once = _ZERO  # the columns free in at least one open row
        twice = _ZERO  # ... in at least two
        best = -1
        fewest = np.uint64(65)
        alive = True
        rest = full & ~filled
        while rest != _ZERO:
            r = np.int64(lowest_index(rest))
            rest &= rest - _ONE
            gap = r - row if r > row else row - r
            attacked = bit | (bit << np.uint64(gap)) | (bit >> np.uint64(gap))
            left = avail[depth, r] & ~attacked
            if left == _ZERO:
                alive = False
                break
            avail[depth + 1, r] = left
            twice |= once & left
            once |= left
            size = popcount(left)
            if size < fewest:
                fewest = size
                best = r
        if not alive or (once | taken) != full:
            continue  # an open row or an open column without a free cell
        columns[row] = lowest_index(bit)
        if depth + 1 == n:
            depth += 1
            status = FOUND
            break
        single = once & ~twice
        if single != _ZERO and fewest > _ONE:
            single &= ~single + _ONE  # a column only one open row can fill: fill it now
            for r in range(n):
                if (filled >> np.uint64(r)) & _ONE == _ZERO and avail[depth + 1, r] & single:
                    best = r
                    break
            choice = single
        else:
            choice = avail[depth + 1, best]
        depth += 1
        done[depth, 0] = filled
        done[depth, 1] = taken
        rows[depth] = best
        candidates[depth] = choice
    counters[0] = depth
    counters[1] += nodes
    return status
