"""Symmetry-reduced N-Queens counting on a free board, compiled with numba.

Takahashi's refinement of Somers' bitmask search: only solutions that are the
canonical representative of their class under the 8 board symmetries are
completed, and each is weighted by the size of its class (8, 4 or 2).

- A queen in a corner of row 0 (column 0): no solution with a corner queen is
  fixed by any non-trivial symmetry, so each representative stands for 8. The
  queen of row 1 sits at column ``b`` (the task), and rows above ``b`` keep
  clear of column 1, which keeps only the representative under the diagonal
  reflection.
- Otherwise row 0's queen sits at column ``b < n - 1 - b`` (the task). Rows
  above ``b`` and below ``n - 1 - b`` keep clear of both edge columns (else a
  rotation or reflection puts a queen nearer a corner of row 0), and at the
  leaves the 90, 180 and 270 degree images are compared with the board: a
  solution equal to its 90 degree image counts 2, one equal to its 180 degree
  image 4, any other canonical one 8; one with a smaller image is dropped.

The search state is machine integers: ``n`` may be at most 31. Counts are exact;
``tests/test_symmetry.py`` checks them against OEIS A000170 and A002562.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

#: The largest board the 64-bit kernels can hold.
MAX_N = 31
#: Below this size the corner / side analysis does not apply; use the general search.
MIN_N = 5
#: From this size on a pool of worker processes pays for its start-up (about a second).
PARALLEL_MIN_N = 17


@njit(cache=True)
def _corner(n: int, b: int) -> int:
    """Representatives with row 0's queen in the corner and row 1's at bit ``b`` (weight 8)."""
    mask = (1 << n) - 1
    last = n - 1
    avail = np.zeros(n + 1, np.int64)
    left = np.zeros(n + 1, np.int64)
    down = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    bit = 1 << b
    left[2] = ((2 | bit) << 1) & mask
    down[2] = 1 | bit
    right[2] = bit >> 1
    free = mask & ~(left[2] | down[2] | right[2])
    if last == 2:
        return 1 if free else 0
    if 2 < b:
        free &= ~2
    avail[2] = free
    found = 0
    y = 2
    while y >= 2:
        free = avail[y]
        if free == 0:
            y -= 1
            continue
        bit = free & -free
        avail[y] = free ^ bit
        lft = ((left[y] | bit) << 1) & mask
        d = down[y] | bit
        r = (right[y] | bit) >> 1
        nxt = mask & ~(lft | d | r)
        y1 = y + 1
        if y1 == last:
            if nxt:
                found += 1
            continue
        if y1 < b:
            nxt &= ~2
        left[y1] = lft
        down[y1] = d
        right[y1] = r
        avail[y1] = nxt
        y = y1
    return found


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


@njit(cache=True)
def _side(n: int, b1: int, row1: int) -> tuple[int, int, int]:
    """Representatives with row 0's queen at bit ``b1`` (not a corner): (weight-2, -4, -8).

    Row 1's queen is kept to the bits of ``row1`` (all of them, or one to split the work).
    """
    mask = (1 << n) - 1
    last = n - 1
    topbit = 1 << last
    b2 = last - b1
    sidemask = topbit | 1
    lastmask = topbit | 1
    for _ in range(b1 - 1):
        lastmask |= (lastmask >> 1) | (lastmask << 1)
    endbit = topbit >> b1
    board = np.zeros(n, np.int64)
    avail = np.zeros(n + 1, np.int64)
    left = np.zeros(n + 1, np.int64)
    down = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    counts = np.zeros(9, np.int64)
    bit = 1 << b1
    board[0] = bit
    left[1] = (bit << 1) & mask
    down[1] = bit
    right[1] = bit >> 1
    free = row1 & mask & ~(left[1] | down[1] | right[1])
    if 1 < b1:
        free &= ~sidemask
    avail[1] = free
    y = 1
    while y >= 1:
        free = avail[y]
        if free == 0:
            y -= 1
            continue
        bit = free & -free
        avail[y] = free ^ bit
        board[y] = bit
        lft = ((left[y] | bit) << 1) & mask
        d = down[y] | bit
        r = (right[y] | bit) >> 1
        nxt = mask & ~(lft | d | r)
        y1 = y + 1
        if y1 == last:
            if nxt and not (nxt & lastmask):
                board[last] = nxt
                counts[_weight(board, n, b1, b2, endbit)] += 1
            continue
        if y1 < b1:
            nxt &= ~sidemask
        elif y1 == b2:
            if not (d & sidemask):
                continue
            if (d & sidemask) != sidemask:
                nxt &= sidemask
        left[y1] = lft
        down[y1] = d
        right[y1] = r
        avail[y1] = nxt
        y = y1
    return counts[2], counts[4], counts[8]


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
        return 0, 0, int(_corner(n, b))
    two, four, eight = _side(n, b, row1)
    return int(two), int(four), int(eight)


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
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            results = list(pool.map(run_task, [n] * len(pieces), pieces))
    return tuple(sum(r[i] for r in results) for i in range(3))  # type: ignore[return-value]
