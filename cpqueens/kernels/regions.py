"""The compiled search of region puzzles: k queens per row, column and region, none touching.

Rows are filled top to bottom. Each row's candidates are its allowed subsets
of k columns (no two adjacent, no blocked cell, every given queen of the
row), precomputed as 64-bit masks with their columns listed, in
lexicographic order. A candidate must miss the cells touching the row above
(``prev | prev << 1 | prev >> 1``), the columns and regions already full,
and, when the long diagonals attack, the two diagonal masks of the classic
bitmask DFS; a candidate that hits one of these at its j-th column jumps
(``skip``) past every later candidate sharing its first j + 1 columns.
Column and region counts are arrays; after each row a column that can no
longer reach k in the rows left (no two in adjacent rows) or a region that
cannot cuts the branch. A region's room in the rows below counts the
no-touch rule: two rows at a time, in columns not yet full, the next row's
cells touching this row's queens left out, a pair of rows holds at most as
many stars as there are non-adjacent columns among the region's cells in
either row (a 2 x 2 block holds one star at most), and never more than
the two rows' own bounds (a row: k, and one star per two free cells in a
run).

:func:`search` counts up to ``limit`` solutions (0: all) and copies the
first ones' row masks out, so a uniqueness proof is ``limit=2``; with
``last`` below ``n - 1`` it counts the partial placements of rows
``0..last`` that pass every check instead (how the engine compares the
board's orientations before it searches). Its whole search state lives in
arrays the caller owns (:func:`first_state`), and each call tries at most
``budget`` candidates before it returns ``PAUSED``: Python sees Ctrl-C and
its clock between calls, and the next call goes on where the last one
stopped.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.jit import kernel

DONE, PAUSED = 0, -1
#: The rows of the state array: per row of the grid (and one more), then the counters.
COLCNT, REGCNT, IDX, PLACED, PREV, LEFT, RIGHT, BAD = range(8)


def first_state(n: int, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A fresh state for :func:`search`: the per-row arrays and the counters (row, count)."""
    state = np.zeros((8, n + 1), dtype=np.int64)
    state[PLACED, :] = -1
    state[BAD, :] = -1  # a row's barred cells: worked out when the search enters it
    state[IDX, 0] = start[0]
    counters = np.zeros(2, dtype=np.int64)  # the row being filled (-1: done), solutions so far
    return state, counters


@kernel(nogil=True)
def independent(x, cap):  # pragma: no cover
    """The most bits of ``x`` no two adjacent (one per two in a run), stopping at ``cap``."""
    found = 0
    while x and found < cap:
        low = x & -x
        x &= ~(low | (low << 1))
        found += 1
    return found


@kernel(nogil=True)
def pair_room(a, b, k):  # pragma: no cover
    """The most stars two adjacent rows with free cells ``a`` and ``b`` hold, none touching."""
    both = independent(a | b, 2 * k)
    apart = independent(a, k) + independent(b, k)
    return both if both < apart else apart


@kernel(nogil=True)
def search(
    n,
    k,
    diagonals,
    region,
    cand,
    cols,
    skip,
    start,
    cells,
    limit,
    last,
    out,
    state,
    counters,
    budget,
):  # pragma: no cover
    """Count solutions up to ``limit`` (0: all), trying at most ``budget`` candidates.

    ``region`` is the grid flattened row by row; row r's candidates are
    ``cand[start[r]:start[r + 1]]``, candidate i's columns
    ``cols[i * k:(i + 1) * k]`` and ``skip[i * k + j]`` the first later
    candidate of its row whose first j + 1 columns differ (``i + 1`` when the
    candidates are in no order); ``cells[r * n + g]`` is the mask of region
    g's free cells in row r. A placement of rows ``0..last`` counts (``n -
    1``: a solution). The first ``len(out)`` solutions go to ``out`` as row
    masks. ``state`` and ``counters`` (from :func:`first_state`) hold the
    search; it returns ``DONE`` (every solution seen, or ``limit`` reached:
    the count is ``counters[1]``) or ``PAUSED`` (call again).
    """
    full = (np.int64(1) << n) - 1
    # Fresh copies while the kernel runs (written back when it returns): arrays the
    # compiler knows apart search some 20% faster than rows of one shared array.
    colcnt = state[COLCNT].copy()
    regcnt = state[REGCNT].copy()
    idx = state[IDX].copy()
    placed = state[PLACED].copy()
    prev = state[PREV].copy()
    left = state[LEFT].copy()
    right = state[RIGHT].copy()
    barred = state[BAD].copy()
    r = counters[0]
    count = counters[1]
    tried = 0
    while r >= 0:
        if tried >= budget:
            counters[0] = r
            counters[1] = count
            _save(state, colcnt, regcnt, idx, placed, prev, left, right, barred)
            return PAUSED
        i = placed[r]
        if i >= 0:  # take back this row's last candidate
            for j in range(k):
                c = cols[i * k + j]
                colcnt[c] -= 1
                regcnt[region[r * n + c]] -= 1
            placed[r] = -1
        found = False
        bad = barred[r]
        if bad < 0:  # first entry into this row since the rows above changed
            bad = prev[r] | (prev[r] << 1) | (prev[r] >> 1)
            if diagonals:
                bad |= left[r] | right[r]
            for c in range(n):
                if colcnt[c] >= k:
                    bad |= np.int64(1) << c
            for g in range(n):
                if regcnt[g] >= k:
                    bad |= cells[r * n + g]
            barred[r] = bad
        while idx[r] < start[r + 1]:
            i = idx[r]
            idx[r] += 1
            tried += 1
            m = cand[i]
            if m & bad:  # jump past the candidates sharing the columns up to the first bad one
                for j in range(k):
                    if (np.int64(1) << cols[i * k + j]) & bad:
                        idx[r] = skip[i * k + j]
                        break
                continue
            ok = True
            for j in range(k):
                c = cols[i * k + j]
                colcnt[c] += 1
                g = region[r * n + c]
                regcnt[g] += 1
                if colcnt[c] > k or regcnt[g] > k:
                    ok = False
            if ok:
                rows_left = n - 1 - r
                for c in range(n):
                    room = rows_left // 2 if (m >> c) & 1 else (rows_left + 1) // 2
                    if k - colcnt[c] > room:
                        ok = False
                        break
            if ok:  # every region still short must have room in the columns not yet full
                open_cols = np.int64(0)
                for c in range(n):
                    if colcnt[c] < k:
                        open_cols |= np.int64(1) << c
                near_next = m | (m << 1) | (m >> 1)
                for g in range(n):
                    need = k - regcnt[g]
                    if need == 0:
                        continue
                    room = 0
                    below = r + 1
                    while below < n and room < need:  # two rows at a time
                        a = cells[below * n + g] & open_cols
                        if below == r + 1:
                            a &= ~near_next
                        if below + 1 < n:
                            b = cells[(below + 1) * n + g] & open_cols
                            if a | b:
                                room += pair_room(a, b, k)
                        elif a:
                            room += independent(a, k)
                        below += 2
                    if room < need:
                        ok = False
                        break
            if not ok:
                for j in range(k):
                    c = cols[i * k + j]
                    colcnt[c] -= 1
                    regcnt[region[r * n + c]] -= 1
                continue
            placed[r] = i
            found = True
            break
        if not found:
            r -= 1
            continue
        if r == last:
            if count < out.shape[0]:
                for row in range(last + 1):
                    out[count, row] = cand[placed[row]]
            count += 1
            if limit > 0 and count >= limit:
                counters[0] = r
                counters[1] = count
                _save(state, colcnt, regcnt, idx, placed, prev, left, right, barred)
                return DONE
            continue
        m = cand[placed[r]]
        prev[r + 1] = m
        left[r + 1] = ((left[r] | m) << 1) & full
        right[r + 1] = (right[r] | m) >> 1
        r += 1
        idx[r] = start[r]
        placed[r] = -1
        barred[r] = -1
    counters[0] = -1
    counters[1] = count
    return DONE


@kernel(nogil=True)
def _save(state, colcnt, regcnt, idx, placed, prev, left, right, barred):  # pragma: no cover
    """Write the search's arrays back into ``state``."""
    state[COLCNT, :] = colcnt
    state[REGCNT, :] = regcnt
    state[IDX, :] = idx
    state[PLACED, :] = placed
    state[PREV, :] = prev
    state[LEFT, :] = left
    state[RIGHT, :] = right
    state[BAD, :] = barred
