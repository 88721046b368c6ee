"""The compiled search of region puzzles: k queens per row, column and region, none touching.

Rows are filled top to bottom. Each row's candidates are its allowed subsets
of k columns (no two adjacent, no blocked cell, every given queen of the
row), precomputed as 64-bit masks with their columns listed. A candidate must
miss the cells touching the row above (``prev | prev << 1 | prev >> 1``),
and, when the long diagonals attack, the two diagonal masks of the classic
bitmask DFS. Column and region counts are arrays; after each row a column
that can no longer reach k in the rows left (no two in adjacent rows) or a
region that cannot (at most min(k, its free cells in columns not yet full)
per row below, the next row's cells touching this row's queens left out)
cuts the branch.

:func:`search` counts up to ``limit`` solutions (0: all) and copies the
first ones' row masks out, so a uniqueness proof is ``limit=2``. Its whole
search state lives in arrays the caller owns (:func:`first_state`), and each
call tries at most ``budget`` candidates before it returns ``PAUSED``: Python
sees Ctrl-C and its clock between calls, and the next call goes on where the
last one stopped.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import popcount
from cpqueens.kernels.jit import kernel

DONE, PAUSED = 0, -1
#: The rows of the state array: per row of the grid (and one more), then the counters.
COLCNT, REGCNT, IDX, PLACED, PREV, LEFT, RIGHT = range(7)


def first_state(n: int, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A fresh state for :func:`search`: the per-row arrays and the counters (row, count)."""
    state = np.zeros((7, n + 1), dtype=np.int64)
    state[PLACED, :] = -1
    state[IDX, 0] = start[0]
    counters = np.zeros(2, dtype=np.int64)  # the row being filled (-1: done), solutions so far
    return state, counters


@kernel(nogil=True)
def search(
    n, k, diagonals, region, cand, cols, start, cells, limit, out, state, counters, budget
):  # pragma: no cover
    """Count solutions up to ``limit`` (0: all), trying at most ``budget`` candidates.

    ``region`` is the grid flattened row by row; row r's candidates are
    ``cand[start[r]:start[r + 1]]``, candidate i's columns
    ``cols[i * k:(i + 1) * k]``; ``cells[r * n + g]`` is the mask of region
    g's free cells in row r. The first ``len(out)`` solutions go to ``out``
    as row masks. ``state`` and ``counters`` (from :func:`first_state`) hold
    the search; it returns ``DONE`` (every solution seen, or ``limit``
    reached: the count is ``counters[1]``) or ``PAUSED`` (call again).
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
    r = counters[0]
    count = counters[1]
    tried = 0
    while r >= 0:
        if tried >= budget:
            counters[0] = r
            counters[1] = count
            _save(state, colcnt, regcnt, idx, placed, prev, left, right)
            return PAUSED
        i = placed[r]
        if i >= 0:  # take back this row's last candidate
            for j in range(k):
                c = cols[i * k + j]
                colcnt[c] -= 1
                regcnt[region[r * n + c]] -= 1
            placed[r] = -1
        found = False
        near = prev[r] | (prev[r] << 1) | (prev[r] >> 1)
        attacked = left[r] | right[r]
        while idx[r] < start[r + 1]:
            i = idx[r]
            idx[r] += 1
            tried += 1
            m = cand[i]
            if m & near:
                continue
            if diagonals and (m & attacked):
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
                    for below in range(r + 1, n):
                        free = cells[below * n + g] & open_cols
                        if below == r + 1:
                            free &= ~near_next
                        if free:
                            room += min(k, popcount(np.uint64(free)))
                            if room >= need:
                                break
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
        if r == n - 1:
            if count < out.shape[0]:
                for row in range(n):
                    out[count, row] = cand[placed[row]]
            count += 1
            if limit > 0 and count >= limit:
                counters[0] = r
                counters[1] = count
                _save(state, colcnt, regcnt, idx, placed, prev, left, right)
                return DONE
            continue
        m = cand[placed[r]]
        prev[r + 1] = m
        left[r + 1] = ((left[r] | m) << 1) & full
        right[r + 1] = (right[r] | m) >> 1
        r += 1
        idx[r] = start[r]
        placed[r] = -1
    counters[0] = -1
    counters[1] = count
    return DONE


@kernel(nogil=True)
def _save(state, colcnt, regcnt, idx, placed, prev, left, right):  # pragma: no cover
    """Write the search's arrays back into ``state``."""
    state[COLCNT, :] = colcnt
    state[REGCNT, :] = regcnt
    state[IDX, :] = idx
    state[PLACED, :] = placed
    state[PREV, :] = prev
    state[LEFT, :] = left
    state[RIGHT, :] = right
