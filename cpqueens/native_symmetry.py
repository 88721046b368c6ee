"""Symmetry-reduced N-Queens counting on a free board, compiled with numba.

Takahashi's refinement of Somers' bitmask search: only solutions that are the
canonical representative of their class under the 8 board symmetries are
completed, and each is weighted by the size of its class (8, 4 or 2).

- A queen in a corner of row 0 (column 0): no solution with a corner queen is
  fixed by any non-trivial symmetry, so each representative stands for 8. The
  queen of row 1 sits at column ``b`` (the task), and rows above ``b`` keep
  clear of column 1, which keeps only the representative under the diagonal
  reflection. Every such solution is counted, by
  :func:`cpqueens.native.count_placements` on per-row column masks.
- Otherwise row 0's queen sits at column ``b < n - 1 - b`` (the task). Rows
  above ``b`` and below ``n - 1 - b`` keep clear of both edge columns (else a
  rotation or reflection puts a queen nearer a corner of row 0). Only at a
  leaf where an image can start as near the corner (a queen on the edge at row
  ``b`` or ``n - 1 - b``, or at column ``n - 1 - b`` of the last row) are the
  90, 180 and 270 degree images compared with the board: a solution equal to
  its 90 degree image counts 2, one equal to its 180 degree image 4, any other
  canonical one 8; one with a smaller image is dropped. Every other leaf is a
  representative of class size 8. The search is that of
  :func:`cpqueens.native.count_placements` (explicit stack, last rows unrolled)
  with the leaf test and the edge-column rule added.

The search state is machine integers: ``n`` may be at most 31. Counts are exact;
``tests/test_symmetry.py`` checks them against OEIS A000170 and A002562.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from cpqueens import native

#: The largest board the 64-bit kernels can hold.
MAX_N = 31
#: Below this size the corner / side analysis does not apply; use the general search.
MIN_N = 5
#: From this size on a pool of worker processes pays for its start-up (about a second).
PARALLEL_MIN_N = 17


@njit(cache=True)
def _weight(board: np.ndarray, n: int, b1: int, b2: int, endbit: int) -> int:
    """The class size of the leaf ``board`` (bits per row), or 0 if an image is smaller."""
    last = n - 1
    topbit = 1 << last
    # 90 degrees
    if board[b2] == 1:
        own = 1
        ptn = 2
        while own <= last:
            bit = 1
            you = last
            while board[you] != ptn and board[own] >= bit:
                bit <<= 1
                you -= 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            ptn <<= 1
        if own > last:
            return 2
    # 180 degrees
    if board[last] == endbit:
        own = 1
        you = last - 1
        while own <= last:
            bit = 1
            ptn = topbit
            while ptn != board[you] and board[own] >= bit:
                bit <<= 1
                ptn >>= 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            you -= 1
        if own > last:
            return 4
    # 270 degrees
    if board[b1] == topbit:
        own = 1
        ptn = topbit >> 1
        while own <= last:
            bit = 1
            you = 0
            while board[you] != ptn and board[own] >= bit:
                bit <<= 1
                you += 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            ptn >>= 1
    return 8


@njit(cache=True, inline="always")
def _edges(free: int, cols: int, side: int) -> int:
    """Row ``b2``'s choices: the edge columns not yet taken must be taken here, or none is left."""
    used = cols & side
    if used == side:
        return free
    if used == 0:
        return 0
    return free & side


@njit(cache=True, inline="always")
def _leaf(board, n, b1, b2, endbit, counts):
    """Count the leaf ``board``, weighed by :func:`_weight` only where an image can be as small."""
    if board[n - 1] == endbit or board[b1] == 1 << (n - 1) or board[b2] == 1:
        counts[_weight(board, n, b1, b2, endbit)] += 1
    else:
        counts[8] += 1


@njit(cache=True)
def _side(n: int, b1: int, allowed: np.ndarray) -> tuple[int, int, int]:
    """Representatives with row 0's queen at bit ``b1`` (not a corner): (weight-2, -4, -8).

    Every row's queen is kept to its bits of ``allowed`` (see :func:`_side_masks`),
    row ``n - 1 - b1`` takes the edge columns still free (or the branch ends),
    and a leaf is weighed by :func:`_weight` only where an image can be as small.
    The search is that of :func:`cpqueens.native.count_placements`: an explicit
    stack, the last nine rows unrolled.
    """
    last = n - 1
    b2 = last - b1
    side = (1 << last) | 1
    endbit = (1 << last) >> b1
    board = np.zeros(n, np.int64)
    counts = np.zeros(9, np.int64)
    stack = np.empty((n, 4), np.int64)
    free = allowed[0]
    c = 0
    d = 0
    a = 0
    depth = 0
    while True:
        if depth == last - 8:
            r1 = last - 7
            row1 = allowed[r1]
            row2 = allowed[r1 + 1]
            row3 = allowed[r1 + 2]
            row4 = allowed[r1 + 3]
            row5 = allowed[r1 + 4]
            row6 = allowed[r1 + 5]
            row7 = allowed[r1 + 6]
            row8 = allowed[last]
            f0 = free
            while f0:
                q0 = f0 & -f0
                f0 ^= q0
                board[depth] = q0
                c0 = c | q0
                d0 = (d | q0) << 1
                a0 = (a | q0) >> 1
                f1 = row1 & ~(c0 | d0 | a0)
                if r1 == b2:
                    f1 = _edges(f1, c0, side)
                while f1:
                    q1 = f1 & -f1
                    f1 ^= q1
                    board[r1] = q1
                    c1 = c0 | q1
                    d1 = (d0 | q1) << 1
                    a1 = (a0 | q1) >> 1
                    f2 = row2 & ~(c1 | d1 | a1)
                    if r1 + 1 == b2:
                        f2 = _edges(f2, c1, side)
                    while f2:
                        q2 = f2 & -f2
                        f2 ^= q2
                        board[r1 + 1] = q2
                        c2 = c1 | q2
                        d2 = (d1 | q2) << 1
                        a2 = (a1 | q2) >> 1
                        f3 = row3 & ~(c2 | d2 | a2)
                        if r1 + 2 == b2:
                            f3 = _edges(f3, c2, side)
                        while f3:
                            q3 = f3 & -f3
                            f3 ^= q3
                            board[r1 + 2] = q3
                            c3 = c2 | q3
                            d3 = (d2 | q3) << 1
                            a3 = (a2 | q3) >> 1
                            f4 = row4 & ~(c3 | d3 | a3)
                            if r1 + 3 == b2:
                                f4 = _edges(f4, c3, side)
                            while f4:
                                q4 = f4 & -f4
                                f4 ^= q4
                                board[r1 + 3] = q4
                                c4 = c3 | q4
                                d4 = (d3 | q4) << 1
                                a4 = (a3 | q4) >> 1
                                f5 = row5 & ~(c4 | d4 | a4)
                                if r1 + 4 == b2:
                                    f5 = _edges(f5, c4, side)
                                while f5:
                                    q5 = f5 & -f5
                                    f5 ^= q5
                                    board[r1 + 4] = q5
                                    c5 = c4 | q5
                                    d5 = (d4 | q5) << 1
                                    a5 = (a4 | q5) >> 1
                                    f6 = row6 & ~(c5 | d5 | a5)
                                    while f6:
                                        q6 = f6 & -f6
                                        f6 ^= q6
                                        board[r1 + 5] = q6
                                        c6 = c5 | q6
                                        d6 = (d5 | q6) << 1
                                        a6 = (a5 | q6) >> 1
                                        f7 = row7 & ~(c6 | d6 | a6)
                                        while f7:
                                            q7 = f7 & -f7
                                            f7 ^= q7
                                            f8 = row8 & ~(
                                                c6 | q7 | ((d6 | q7) << 1) | ((a6 | q7) >> 1)
                                            )
                                            if f8:
                                                board[r1 + 6] = q7
                                                board[last] = f8
                                                _leaf(board, n, b1, b2, endbit, counts)
        else:
            descended = False
            while free:
                bit = free & -free
                free ^= bit
                board[depth] = bit
                nc = c | bit
                nd = (d | bit) << 1
                na = (a | bit) >> 1
                nxt = allowed[depth + 1] & ~(nc | nd | na)
                if depth + 1 == b2:
                    nxt = _edges(nxt, nc, side)
                if depth + 1 == last:
                    if nxt:
                        board[last] = nxt
                        _leaf(board, n, b1, b2, endbit, counts)
                elif nxt:
                    stack[depth, 0] = free
                    stack[depth, 1] = c
                    stack[depth, 2] = d
                    stack[depth, 3] = a
                    depth += 1
                    free = nxt
                    c = nc
                    d = nd
                    a = na
                    descended = True
                    break
            if descended:
                continue
        if depth == 0:
            break
        depth -= 1
        free = stack[depth, 0]
        c = stack[depth, 1]
        d = stack[depth, 2]
        a = stack[depth, 3]
    return counts[2], counts[4], counts[8]


def _side_masks(n: int, b1: int, row1: int) -> np.ndarray:
    """Each row's columns in the side task ``b1`` (row 1 further kept to ``row1``).

    Row 0 holds bit ``b1``; the rows above ``b1`` and below ``n - 1 - b1`` keep
    clear of both edge columns, and the last row also of the ``b1 - 1`` columns
    next to them (else an image puts a queen nearer a corner of row 0).
    """
    mask = (1 << n) - 1
    side = (1 << (n - 1)) | 1
    near = side
    for _ in range(b1 - 1):
        near |= (near >> 1) | (near << 1)
    allowed = np.full(n, mask, np.int64)
    allowed[0] = 1 << b1
    allowed[1:b1] = mask & ~side
    allowed[n - b1 : n - 1] = mask & ~side
    allowed[n - 1] = mask & ~near
    allowed[1] &= row1
    return allowed


def _side_classes(n: int, b1: int, row1: int) -> tuple[int, int, int]:
    """The side task ``b1``'s representatives by class size: (classes of 2, of 4, of 8)."""
    two, four, eight = _side(n, b1, _side_masks(n, b1, row1))
    return int(two), int(four), int(eight)


def _corner_masks(n: int, b: int) -> np.ndarray:
    """Each row's columns in the corner task ``b``: rows 2 to ``b - 1`` keep clear of bit 1."""
    mask = (1 << n) - 1
    allowed = np.full(n, mask, np.uint64)
    allowed[0] = 1
    allowed[1] = 1 << b
    allowed[2:b] = mask & ~2
    return allowed


def tasks(n: int, split: bool = False) -> list[tuple[str, int, int]]:
    """The independent pieces of the search on an n x n board, largest first (roughly).

    Each is (kind, b, row-1 columns); ``split`` cuts the side pieces further by
    row 1's queen, so that several workers share the largest ones.
    """
    full = (1 << n) - 1
    side_rows = [1 << c for c in range(n)] if split else [full]
    side = [("side", b, row1) for b in range(1, n) if b < n - 1 - b for row1 in side_rows]
    corner = [("corner", b, full) for b in range(2, n - 1)]
    return side + corner


def run_task(n: int, task: tuple[str, int, int]) -> tuple[int, int, int]:
    """One piece's representatives by class size: (classes of 2, of 4, of 8)."""
    kind, b, row1 = task
    if kind == "corner":
        return 0, 0, int(native.count_placements(_corner_masks(n, b)))
    return _side_classes(n, b, row1)


def check_size(n: int) -> None:
    """Raise ValueError unless the kernels handle an n x n board."""
    if not MIN_N <= n <= MAX_N:
        raise ValueError(f"the symmetry kernels need {MIN_N} <= n <= {MAX_N}, got n={n}")


def classes(n: int, workers: int | None = 1) -> tuple[int, int, int]:
    """The solution classes of the free n x n board by size: (of 2, of 4, of 8).

    The unique count is their sum; the total is ``2 * two + 4 * four + 8 * eight``.
    ``workers`` processes share the pieces; None means every core from
    ``PARALLEL_MIN_N`` on, else one.

    >>> classes(8)
    (0, 1, 11)
    """
    check_size(n)
    if workers is None:
        workers = (os.cpu_count() or 1) if n >= PARALLEL_MIN_N else 1
    pieces = tasks(n, split=workers > 1)
    if workers == 1:
        results = [run_task(n, task) for task in pieces]
    else:
        from cpqueens.pool import local_pool  # spawned workers that leave no orphan behind

        with local_pool(workers) as pool:
            results = list(pool.map(run_task, [n] * len(pieces), pieces))
    return tuple(sum(r[i] for r in results) for i in range(3))  # type: ignore[return-value]
