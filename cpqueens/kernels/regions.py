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
first ones' row masks out, so a uniqueness proof is ``limit=2``.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import popcount
from cpqueens.kernels.jit import kernel


@kernel(nogil=True)
def search(n, k, diagonals, region, cand, cols, start, cells, limit, out):  # pragma: no cover
    """Count solutions up to ``limit`` (0: all); the first ``len(out)`` go to ``out`` as masks.

    ``region`` is the grid flattened row by row; row r's candidates are
    ``cand[start[r]:start[r + 1]]``, candidate i's columns
    ``cols[i * k:(i + 1) * k]``; ``cells[r * n + g]`` is the mask of region
    g's free cells in row r.
    """
    full = (np.int64(1) << n) - 1
    colcnt = np.zeros(n, np.int64)
    regcnt = np.zeros(n, np.int64)
    idx = np.zeros(n + 1, np.int64)
    placed = np.full(n + 1, -1, np.int64)
    prev = np.zeros(n + 1, np.int64)
    left = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    count = 0
    r = 0
    idx[0] = start[0]
    while r >= 0:
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
                return count
            continue
        m = cand[placed[r]]
        prev[r + 1] = m
        left[r + 1] = ((left[r] | m) << 1) & full
        right[r + 1] = (right[r] | m) >> 1
        r += 1
        idx[r] = start[r]
        placed[r] = -1
    return count
