"""Symmetry-reduced N-Queens counting on a free board, compiled with numba.

Every solution has four edge queens: the queens of row 0, row n - 1, column 0
and column n - 1 (a corner queen sits on two edges). An edge queen's distance
is how far it stands from the nearer corner of its edge. The 8 board
symmetries permute the edges and keep the distances, so the largest one, ``D``,
belongs to the whole class. Representatives are the solutions whose row-0
queen is at that largest distance ("max edge" representatives):

- The search pins row 0's queen to column ``D`` (the mirror gives column
  ``n - 1 - D``), keeps every other edge queen within ``D`` of a corner (the
  edge columns are closed in the rows farther than ``D`` from row 0 and row
  n - 1, the last row's middle columns are closed), and finds every solution
  left: none is lost, as every class has its largest edge on top in some image.
- A class whose largest distance is reached by ``k`` edges appears ``2k``
  times among the 8 images with that edge on top (counted with their
  stabiliser), so each leaf found weighs ``8 / 2k`` and every class, whatever
  its stabiliser, adds up to its size: ``total = sum(4 / k)``, twice that
  over the search's half (row 0's queen, or on odd boards row 1's when row
  0's is in the middle, in the left half). The search weighs each leaf by the
  other edges tying with row 0 (the queens of column 0 and n - 1 in rows
  ``D`` and ``n - 1 - D``, the last row's queen in column ``D`` or ``n - 1 - D``).
- Class sizes by Burnside: no reflection fixes a solution, so
  ``two = fix90 / 2``, ``four = (fix180 - fix90) / 4`` and
  ``eight = (total - fix180) / 8``, where fix180 / fix90 count the solutions
  equal to their 180 / 90 degree turn, found by a search over row pairs.

The representatives' trees are those of the pinned central columns, where
solutions are densest, rather than those of the columns next to the corners
(Takahashi's smallest-distance representatives, this module's earlier
choice): about a quarter less search at n = 16, the same DFS on both. A
piece whose row-0 queen is within n / 3 of a corner is searched once per
queen of its last row (within n / 5, of columns 0 and n - 1 too), that
queen's lines closed beforehand (:func:`cpqueens.kernels.edges.by_edge_queens`):
the top-down search would learn only in its last rows that every edge queen
must be that near a corner.

The search is that of :func:`cpqueens.kernels.placements.count_placements` (explicit
stack, the last rows unrolled, here ten; nine in the hole sums' kernel) with a
look-ahead in the last rows: a row's queen is skipped when it would leave the
row below it no free cell, which removes a third of the nodes, all dead ends.
The last three rows are not searched: one lookup in a table keyed by their
free cells and the gaps of their three columns gives every way to finish them
(:func:`_last_three`; 0.93-0.96x the CPU of their search, whole counts of
n = 17 and 18). The hole sums' kernel reads each way's three cells too
(:func:`_last_three_hits`; 0.92x the CPU of a 17 x 17 board with four holes).

The search state is machine integers: ``n`` may be at most 31. The pieces are
listed, shared among processes and summed by :mod:`cpqueens.strategies.class_count`;
``tests/test_symmetry.py`` checks the counts against OEIS. The searches release
the GIL (``nogil``): threads of one process count pieces side by side, with no
worker process to start.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import carray, njit, types

from cpqueens.kernels.bits import live, lowest_index, popcount
from cpqueens.kernels.edges import by_edge_queens, marks, masks
from cpqueens.kernels.jit import kernel
from cpqueens.kernels.last_rows import columns, gathered, three_rows

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_TWO = np.uint64(2)


@kernel(inline="always")
def _last_three(free, row0, row1, row2, marked, bottom, ties):
    """The last three rows' leaves, each weighed 12 / k as :func:`_weighed_leaves` weighs them.

    ``free``: their three free columns; ``row0``, ``row1``, ``row2``: each row's free cells,
    the diagonals of the queens above struck out; ``marked``: the tying cells of the first
    of them, ``bottom`` the last row's; ``ties``: the tying edges so far. One lookup in
    :func:`cpqueens.kernels.last_rows.three_rows` instead of a search.
    """
    ways = three_rows(free, row0, row1, row2)
    if ((marked | bottom) & free) == _ZERO:
        return np.int64(popcount(ways)) * _share(ties)
    # the ways whose first row's queen ties (bits 3i..3i+2), whose last row's queen ties (bits k)
    top = gathered(marked, free)
    top = (
        (top & _ONE)
        | ((top & np.uint64(2)) << np.uint64(2))
        | ((top & np.uint64(4)) << np.uint64(4))
    ) * np.uint64(7)
    last = gathered(bottom, free) * np.uint64(73)
    return (
        np.int64(popcount(ways & ~(top | last))) * _share(ties)
        + np.int64(popcount(ways & (top ^ last))) * _share(ties + 1)
        + np.int64(popcount(ways & top & last)) * _share(ties + 2)
    )


@kernel(inline="always")
def _last_three_hits(free, row0, row1, row2, marked, bottom, ties, cellw, last, above):
    """:func:`_last_three`'s weighed leaves, and their weights times their queens' ``cellw``.

    As :func:`_last_three`, with ``cellw`` (per cell), ``last`` (the last row's index) and
    ``above`` (the cell weights of the queens above): each way of the lookup's mask is
    read in turn, its three queens' cells added to ``above``.
    """
    ways = three_rows(free, row0, row1, row2)
    if ways == _ZERO:
        return np.int64(0), np.int64(0)
    first, second, third = columns(free)
    twelfths = np.int64(0)
    hits = np.int64(0)
    while ways != _ZERO:
        way = lowest_index(ways)
        ways &= ways - _ONE
        i = (way * np.uint64(11)) >> np.uint64(5)  # way // 3 for way < 9
        k = way - i * np.uint64(3)
        top = first if i == 0 else (second if i == 1 else third)
        end = first if k == 0 else (second if k == 1 else third)
        middle = first + second + third - top - end
        tie = ties + np.int64((marked >> top) & _ONE) + np.int64((bottom >> end) & _ONE)
        w = _share(tie)
        twelfths += w
        hits += w * (above + cellw[last - 2, top] + cellw[last - 1, middle] + cellw[last, end])
    return twelfths, hits


@kernel(inline="always")
def _share(ties):
    """A leaf's weight in twelfths when ``ties`` (0 to 3) other edges tie: 12 / (1 + ties).

    The four shares 12, 6, 4, 3 are packed one per byte (no division in the hot loop).
    """
    return (0x0304060C >> (8 * ties)) & 0xFF


@kernel(nogil=True)
def _weighed_leaves(allowed, marks, bottom, ties, stack):
    """The placements on per-row ``allowed`` masks, each weighed 12 / k: their sum.

    k is 1 + the number of other edges tying with row 0: the queens standing
    on ``marks`` cells (per row, the last row's ignored), plus one if the last
    row's queen is in ``bottom``. With no marks and no bottom the sum is 12
    times the number of placements. The last ten rows are unrolled unless
    row n - 2 holds marks (then the search is tiny): ten rather than nine, some
    3-4% less time at n = 17, measured side by side (eleven: no better).
    ``ties`` (n zeros: per row,
    the tying edge cells taken so far) and ``stack`` (n x 4) are its scratch,
    made by the caller (see :func:`scratch`).
    """
    n = allowed.shape[0]
    last = n - 1
    full = (_ONE << np.uint64(n)) - _ONE
    twelfths = np.int64(0)
    free = allowed[0]
    c = _ZERO
    d = _ZERO
    a = _ZERO
    unrolled = last - 9 if n >= 10 and marks[last - 1] == _ZERO else -1
    depth = 0
    while True:
        if depth == unrolled:
            # The last ten rows, unrolled: level j places row last - 9 + j (choices
            # fj, queen bj, tying cells so far tj, then columns cj and diagonals dj,
            # aj for the row below). From level 2 on, where dead ends abound, a
            # row's choices skip the queens that leave the row below no free cell,
            # so the last row needs no loop.
            row1 = allowed[last - 8]
            row2 = allowed[last - 7]
            row3 = allowed[last - 6]
            row4 = allowed[last - 5]
            row5 = allowed[last - 4]
            row6 = allowed[last - 3]
            row7 = allowed[last - 2]
            row8 = allowed[last - 1]
            row9 = allowed[last]
            m0 = marks[last - 9]
            m1 = marks[last - 8]
            m2 = marks[last - 7]
            m3 = marks[last - 6]
            m4 = marks[last - 5]
            m5 = marks[last - 4]
            m6 = marks[last - 3]
            m7 = marks[last - 2]
            t = ties[depth]
            f0 = free
            while f0 != _ZERO:
                b0 = f0 & (~f0 + _ONE)
                f0 ^= b0
                t0 = t | (b0 & m0)
                c0 = c | b0
                d0 = (d | b0) << _ONE
                a0 = (a | b0) >> _ONE
                f1 = row1 & ~(c0 | d0 | a0)  # few dead ends this high: no look-ahead
                while f1 != _ZERO:
                    b1 = f1 & (~f1 + _ONE)
                    f1 ^= b1
                    t1 = t0 | (b1 & m1)
                    c1 = c0 | b1
                    d1 = (d0 | b1) << _ONE
                    a1 = (a0 | b1) >> _ONE
                    f2 = live(row2 & ~(c1 | d1 | a1), row3 & ~(c1 | (d1 << _ONE) | (a1 >> _ONE)))
                    while f2 != _ZERO:
                        b2 = f2 & (~f2 + _ONE)
                        f2 ^= b2
                        t2 = t1 | (b2 & m2)
                        c2 = c1 | b2
                        d2 = (d1 | b2) << _ONE
                        a2 = (a1 | b2) >> _ONE
                        f3 = live(
                            row3 & ~(c2 | d2 | a2), row4 & ~(c2 | (d2 << _ONE) | (a2 >> _ONE))
                        )
                        while f3 != _ZERO:
                            b3 = f3 & (~f3 + _ONE)
                            f3 ^= b3
                            t3 = t2 | (b3 & m3)
                            c3 = c2 | b3
                            d3 = (d2 | b3) << _ONE
                            a3 = (a2 | b3) >> _ONE
                            f4 = live(
                                row4 & ~(c3 | d3 | a3), row5 & ~(c3 | (d3 << _ONE) | (a3 >> _ONE))
                            )
                            while f4 != _ZERO:
                                b4 = f4 & (~f4 + _ONE)
                                f4 ^= b4
                                t4 = t3 | (b4 & m4)
                                c4 = c3 | b4
                                d4 = (d3 | b4) << _ONE
                                a4 = (a3 | b4) >> _ONE
                                f5 = live(
                                    row5 & ~(c4 | d4 | a4),
                                    row6 & ~(c4 | (d4 << _ONE) | (a4 >> _ONE)),
                                )
                                while f5 != _ZERO:
                                    b5 = f5 & (~f5 + _ONE)
                                    f5 ^= b5
                                    t5 = t4 | (b5 & m5)
                                    c5 = c4 | b5
                                    d5 = (d4 | b5) << _ONE
                                    a5 = (a4 | b5) >> _ONE
                                    f6 = live(
                                        row6 & ~(c5 | d5 | a5),
                                        row7 & ~(c5 | (d5 << _ONE) | (a5 >> _ONE)),
                                    )
                                    while f6 != _ZERO:
                                        b6 = f6 & (~f6 + _ONE)
                                        f6 ^= b6
                                        t6 = t5 | (b6 & m6)
                                        c6 = c5 | b6
                                        d6 = (d5 | b6) << _ONE
                                        a6 = (a5 | b6) >> _ONE
                                        # the last three rows: one lookup
                                        twelfths += _last_three(
                                            full & ~c6,
                                            row7 & ~(c6 | d6 | a6),
                                            row8 & ~(c6 | (d6 << _ONE) | (a6 >> _ONE)),
                                            row9 & ~(c6 | (d6 << _TWO) | (a6 >> _TWO)),
                                            m7,
                                            bottom,
                                            np.int64(popcount(t6)),
                                        )
        else:
            descended = False
            while free != _ZERO:
                bit = free & (~free + _ONE)
                free ^= bit
                nt = ties[depth] | (bit & marks[depth])
                nc = c | bit
                nd = (d | bit) << _ONE
                na = (a | bit) >> _ONE
                nxt = allowed[depth + 1] & ~(nc | nd | na)
                if depth + 1 == last:
                    if nxt != _ZERO:
                        tie = np.int64(popcount(nt)) + np.int64((nxt & bottom) != _ZERO)
                        twelfths += _share(tie)
                elif nxt != _ZERO:
                    stack[depth, 0] = free
                    stack[depth, 1] = c
                    stack[depth, 2] = d
                    stack[depth, 3] = a
                    depth += 1
                    ties[depth] = nt
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
    return twelfths


@kernel(nogil=True)
def _weighed_hits(allowed, marks, bottom, cellw, sums, ties, stack):
    """:func:`_weighed_leaves`'s sum, and the sum of each leaf's weight times its queens' ``cellw``.

    ``cellw[r, c]`` is an integer per cell; a leaf's queens add theirs up. Both
    sums come back: (weights, weights times cell sums). ``sums`` (n zeros: per
    row, the cell weights of the queens above), ``ties`` and ``stack`` are its
    scratch, as :func:`_weighed_leaves`'s.
    """
    n = allowed.shape[0]
    last = n - 1
    full = (_ONE << np.uint64(n)) - _ONE
    twelfths = np.int64(0)
    hits = np.int64(0)
    free = allowed[0]
    c = _ZERO
    d = _ZERO
    a = _ZERO
    unrolled = last - 8 if marks[last - 1] == _ZERO else -1
    depth = 0
    while True:
        if depth == unrolled:
            # The last nine rows, unrolled: level j places row last - 8 + j (choices
            # fj, queen bj, tying cells so far tj, cell weights sj, then columns cj
            # and diagonals dj, aj for the row below). From level 2 on, where dead
            # ends abound, a row's choices skip the queens that leave the row below
            # no free cell. The last three rows are one lookup.
            row1 = allowed[last - 7]
            row2 = allowed[last - 6]
            row3 = allowed[last - 5]
            row4 = allowed[last - 4]
            row5 = allowed[last - 3]
            row6 = allowed[last - 2]
            row7 = allowed[last - 1]
            row8 = allowed[last]
            m0 = marks[last - 8]
            m1 = marks[last - 7]
            m2 = marks[last - 6]
            m3 = marks[last - 5]
            m4 = marks[last - 4]
            m5 = marks[last - 3]
            m6 = marks[last - 2]
            t = ties[depth]
            s = sums[depth]
            base = last - 8
            f0 = free
            while f0 != _ZERO:
                b0 = f0 & (~f0 + _ONE)
                s0 = s + cellw[base + 0, lowest_index(b0)]
                f0 ^= b0
                t0 = t | (b0 & m0)
                c0 = c | b0
                d0 = (d | b0) << _ONE
                a0 = (a | b0) >> _ONE
                f1 = row1 & ~(c0 | d0 | a0)  # few dead ends this high: no look-ahead
                while f1 != _ZERO:
                    b1 = f1 & (~f1 + _ONE)
                    s1 = s0 + cellw[base + 1, lowest_index(b1)]
                    f1 ^= b1
                    t1 = t0 | (b1 & m1)
                    c1 = c0 | b1
                    d1 = (d0 | b1) << _ONE
                    a1 = (a0 | b1) >> _ONE
                    f2 = live(row2 & ~(c1 | d1 | a1), row3 & ~(c1 | (d1 << _ONE) | (a1 >> _ONE)))
                    while f2 != _ZERO:
                        b2 = f2 & (~f2 + _ONE)
                        s2 = s1 + cellw[base + 2, lowest_index(b2)]
                        f2 ^= b2
                        t2 = t1 | (b2 & m2)
                        c2 = c1 | b2
                        d2 = (d1 | b2) << _ONE
                        a2 = (a1 | b2) >> _ONE
                        f3 = live(
                            row3 & ~(c2 | d2 | a2), row4 & ~(c2 | (d2 << _ONE) | (a2 >> _ONE))
                        )
                        while f3 != _ZERO:
                            b3 = f3 & (~f3 + _ONE)
                            s3 = s2 + cellw[base + 3, lowest_index(b3)]
                            f3 ^= b3
                            t3 = t2 | (b3 & m3)
                            c3 = c2 | b3
                            d3 = (d2 | b3) << _ONE
                            a3 = (a2 | b3) >> _ONE
                            f4 = live(
                                row4 & ~(c3 | d3 | a3), row5 & ~(c3 | (d3 << _ONE) | (a3 >> _ONE))
                            )
                            while f4 != _ZERO:
                                b4 = f4 & (~f4 + _ONE)
                                s4 = s3 + cellw[base + 4, lowest_index(b4)]
                                f4 ^= b4
                                t4 = t3 | (b4 & m4)
                                c4 = c3 | b4
                                d4 = (d3 | b4) << _ONE
                                a4 = (a3 | b4) >> _ONE
                                f5 = live(
                                    row5 & ~(c4 | d4 | a4),
                                    row6 & ~(c4 | (d4 << _ONE) | (a4 >> _ONE)),
                                )
                                while f5 != _ZERO:
                                    b5 = f5 & (~f5 + _ONE)
                                    s5 = s4 + cellw[base + 5, lowest_index(b5)]
                                    f5 ^= b5
                                    t5 = t4 | (b5 & m5)
                                    c5 = c4 | b5
                                    d5 = (d4 | b5) << _ONE
                                    a5 = (a4 | b5) >> _ONE
                                    # the last three rows: one lookup, each way's cells read
                                    found = _last_three_hits(
                                        full & ~c5,
                                        row6 & ~(c5 | d5 | a5),
                                        row7 & ~(c5 | (d5 << _ONE) | (a5 >> _ONE)),
                                        row8 & ~(c5 | (d5 << _TWO) | (a5 >> _TWO)),
                                        m6,
                                        bottom,
                                        np.int64(popcount(t5)),
                                        cellw,
                                        last,
                                        s5,
                                    )
                                    twelfths += found[0]
                                    hits += found[1]
        else:
            descended = False
            while free != _ZERO:
                bit = free & (~free + _ONE)
                free ^= bit
                nt = ties[depth] | (bit & marks[depth])
                ns = sums[depth] + cellw[depth, lowest_index(bit)]
                nc = c | bit
                nd = (d | bit) << _ONE
                na = (a | bit) >> _ONE
                nxt = allowed[depth + 1] & ~(nc | nd | na)
                if depth + 1 == last:
                    if nxt != _ZERO:
                        tie = np.int64(popcount(nt)) + np.int64((nxt & bottom) != _ZERO)
                        twelfths += _share(tie)
                        hits += _share(tie) * (ns + cellw[last, lowest_index(nxt)])
                elif nxt != _ZERO:
                    stack[depth, 0] = free
                    stack[depth, 1] = c
                    stack[depth, 2] = d
                    stack[depth, 3] = a
                    depth += 1
                    ties[depth] = nt
                    sums[depth] = ns
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
    return twelfths, hits


@kernel(nogil=True)
def _turn_fixed(n, rows, columns, stack):
    """The solutions equal to their 180 degree turn, and those equal to their 90 degree turn.

    A solution fixed by the half turn pairs row r's queen (r, p) with
    (n - 1 - r, n - 1 - p), so the search places the pairs of rows from the
    outside in: the top queens' diagonals move down as usual, the bottom
    queens' (masks ``up`` and ``down``, the latter offset by n bits) move up to
    meet them. A pair attacks itself when p = r or p = n - 1 - r; on odd
    boards the middle queen sits in the centre, attacking exactly those cells.
    ``rows`` are the allowed columns of each row (a board whose holes the half
    turn keeps, so that a top queen's partner is allowed with it). ``columns``
    (n) and ``stack`` (n // 2 + 1 x 6: free, cols, diag, anti, up, down per
    row pair) are its scratch, zeros, made by the caller.
    """
    half = n // 2
    if n % 2 and not (rows[half] >> half) & 1:
        return 0, 0  # the centre is a hole: no solution is its own half turn
    start = 1 << half if n % 2 else 0
    fixed180 = 0
    fixed90 = 0
    stack[0, 1] = start
    stack[0, 0] = rows[0] & ~start & ~(1 | (1 << (n - 1)))
    depth = 0
    while depth >= 0:
        free = stack[depth, 0]
        if free == 0:
            depth -= 1
            continue
        bit = free & -free
        stack[depth, 0] = free ^ bit
        col = np.int64(lowest_index(np.uint64(bit)))
        columns[depth] = col
        if depth + 1 == half:
            fixed180 += 1
            if n % 4 in (0, 1):
                for r in range(half):
                    columns[n - 1 - r] = n - 1 - columns[r]
                if n % 2:
                    columns[half] = half
                turns = True
                for r in range(n):
                    if columns[columns[r]] != n - 1 - r:
                        turns = False
                        break
                fixed90 += turns
            continue
        mirror = n - 1 - col
        span = n - 2 - 2 * depth  # from the new bottom queen to the next top row
        cols = stack[depth, 1] | bit | (1 << mirror)
        diag = (stack[depth, 2] | bit) << 1
        anti = (stack[depth, 3] | bit) >> 1
        up = (stack[depth, 4] >> 1) | (1 << (mirror + span))
        down = (stack[depth, 5] << 1) | (1 << (mirror - span + n))
        row = depth + 1
        depth = row
        stack[row, 1] = cols
        stack[row, 2] = diag
        stack[row, 3] = anti
        stack[row, 4] = up
        stack[row, 5] = down
        own = (1 << row) | (1 << (n - 1 - row))
        stack[row, 0] = rows[row] & ~(cols | diag | anti | up | (down >> n) | own)
    return fixed180, fixed90


def scratch(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The weighed searches' scratch for n rows: ties (zeros) and the stack.

    Made here, in Python, rather than inside the kernels: an array made in a
    kernel makes numba import its array implementation (some 0.06 s) when the
    kernel is loaded from the cache, a fresh process's first count.
    """
    return np.zeros(n, np.uint64), np.empty((n, 4), np.uint64)


def count_piece(
    n: int, piece: tuple[str, int, int, int], rows: tuple[int, ...] | None = None
) -> int:
    """One piece's count: its leaves weighed in twelfths, or the solutions a turn fixes.

    A piece is ("top", distance, row-1 columns, row-2 columns), "fixed180" or
    "fixed90", as listed by :func:`cpqueens.strategies.class_count.pieces`. Leaves are
    doubled: each stands for its mirror image too (see :func:`cpqueens.kernels.edges.masks`).
    ``rows``, if given, are the allowed columns of each row of a board whose
    holes all 8 symmetries keep (None: the free board).
    """
    kind, distance, row1, row2 = piece
    full = (1 << n) - 1
    board = np.array(rows if rows is not None else [full] * n, np.uint64)
    if kind in ("fixed180", "fixed90"):
        fixed180, fixed90 = turn_fixed(n, board)  # one search finds both, in milliseconds
        return fixed180 if kind == "fixed180" else fixed90
    edge, bottom = marks(n, distance)  # edge-column queens as far from a corner as row 0's
    allowed = [a & b for a, b in zip(masks(n, distance, row1, row2), board.tolist(), strict=True)]
    edges, ties, stack = np.array(edge, np.uint64), *scratch(n)
    twelfths = 0
    for part in by_edge_queens(n, distance, allowed):  # near a corner: per edge queens
        twelfths += int(
            _weighed_leaves(np.array(part, np.uint64), edges, np.uint64(bottom), ties, stack)
        )
    return 2 * twelfths


def turn_fixed(n: int, rows: np.ndarray | tuple[int, ...]) -> tuple[int, int]:
    """The placements on per-row ``rows`` equal to their half turn, and to their quarter turn.

    ``rows``: the allowed columns of each row of a board the half turn keeps.
    """
    board = np.array(rows, np.uint64).astype(np.int64)
    columns, stack = np.zeros(n, np.int64), np.zeros((n // 2 + 1, 6), np.int64)
    fixed180, fixed90 = _turn_fixed(n, board, columns, stack)
    return int(fixed180), int(fixed90)


def _images(n: int, r: int, c: int) -> list[tuple[int, int]]:
    """The 8 images of cell (r, c) under the board symmetries, with repeats."""
    return [
        (r, c),
        (c, n - 1 - r),
        (n - 1 - r, n - 1 - c),
        (n - 1 - c, r),
        (r, n - 1 - c),
        (n - 1 - r, c),
        (c, r),
        (n - 1 - c, n - 1 - r),
    ]


def count_less_holes(
    n: int, piece: tuple[str, int, int, int], holes: tuple[tuple[int, int], ...]
) -> int:
    """A "top" piece of the free board, each leaf weighed by 8 less its queens on the holes' images.

    Summed over the pieces of a split and divided by 24, this is the free
    board's count less, for every hole h, the count of solutions with a queen
    on h: a class C of solutions s has ``sum(h in s for s in C) = |C| / 8 *
    #{(g, h): g(h) in s0}`` for any s0 of C, and the leaves of C weigh |C| in
    all, so each leaf's weight times (8 - the cells of its queens counted with
    the multiplicity of the images of the holes landing on them) adds up to
    ``8 * |C| - 8 * hits``.
    """
    kind, distance, row1, row2 = piece
    if kind != "top":
        raise ValueError(f"expected a 'top' piece, got {piece!r}")
    cellw = np.zeros((n, n), np.int64)
    for r, c in holes:
        for image in _images(n, r, c):
            cellw[image] += 1
    edge, bottom = marks(n, distance)
    sums, (ties, stack) = np.zeros(n, np.int64), scratch(n)
    edges = np.array(edge, np.uint64)
    twelfths = hits = 0
    for part in by_edge_queens(n, distance, masks(n, distance, row1, row2)):  # as count_piece
        found = _weighed_hits(
            np.array(part, np.uint64), edges, np.uint64(bottom), cellw, sums, ties, stack
        )
        twelfths += int(found[0])
        hits += int(found[1])
    return 2 * (8 * twelfths - hits)


def _leaves_entry(n, allowed, edge, bottom, ties, stack):
    """:func:`_weighed_leaves` on pointers (n uint64 each, the stack n x 4): its sum."""
    return _weighed_leaves(
        carray(allowed, (n,)),
        carray(edge, (n,)),
        bottom,
        carray(ties, (n,)),
        carray(stack, (n, 4)),
    )


def _turns_entry(n, rows, columns, stack, out):
    """:func:`_turn_fixed` on pointers (n int64 each, the stack n // 2 + 1 x 6): out[0], out[1]."""
    fixed180, fixed90 = _turn_fixed(
        n, carray(rows, (n,)), carray(columns, (n,)), carray(stack, (n // 2 + 1, 6))
    )
    out[0] = fixed180
    out[1] = fixed90
    return 0


def entries() -> dict[str, tuple[Any, Any]]:
    """The searches' entries with a C signature, for :func:`cpqueens.kernels.objects.emit`.

    Each is (dispatcher, signature): "leaves" is :func:`_weighed_leaves`,
    "turns" :func:`_turn_fixed`, on pointers to scratch the caller made. They
    compile here (each calls the cached kernel's code: the same machine code).
    """
    words = types.CPointer(types.uint64)
    longs = types.CPointer(types.int64)
    return {
        "leaves": (
            njit(nogil=True)(_leaves_entry),
            types.int64(types.int64, words, words, types.uint64, words, words),
        ),
        "turns": (
            njit(nogil=True)(_turns_entry),
            types.int64(types.int64, longs, longs, longs, longs),
        ),
    }
