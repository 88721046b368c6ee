"""The player's deduction rules, compiled: the generator's thousands of trial grids, fast.

The same rules as :class:`cpqueens.tasks.deduce.Deducer` run without words
(``record=False``), tried in the same order on the same grid, so each step
and the end are the same: the cells decided, whether the grid is solved,
the deepest level used. Only the grid is laid out differently: a unit (row,
column, region) is n row masks of uint64, bit c for column c of that row,
so any n up to 62 fits. The rules, easiest first:

- level 1, the last cells: a unit with as many unknown cells as queens it
  needs fills them;
- levels 2-3, confined units: ``size`` units of one kind whose unknown cells
  lie within as many units of another kind (needing as many queens) cross
  out the other cells of those;
- level 3, the trial: a cell whose queen would leave some unit fewer unknown
  cells than queens it needs is crossed out (every such cell at once).

:func:`deduce` returns the deepest level used, whether the rules solved the
grid (-1: a unit was left without room), and the generator's score: the
cells decided, plus for each unit still short of queens
1 / (1 + its unknown cells - the queens it needs).
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import lowest_index, popcount
from cpqueens.kernels.jit import kernel

#: The pairs (inner kind, outer kind) of the confined rule, in the order it tries them:
#: region in row, region in column, row in region, column in region, row in column, column in row.
PAIRS = np.array([[2, 0], [2, 1], [0, 2], [1, 2], [0, 1], [1, 0]], dtype=np.int64)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel(nogil=True)
def board(n, region):  # pragma: no cover
    """The units of a grid of regions (rows, then columns, then regions) and each cell's three.

    ``region``: the region of each cell, row by row. Returns (units, of): the
    row masks of each unit (3n, n), the three units of each cell (n * n, 3).
    """
    units = np.zeros((3 * n, n), dtype=np.uint64)
    of = np.zeros((n * n, 3), dtype=np.int64)
    full = (_ONE << np.uint64(n)) - _ONE
    for r in range(n):
        units[r, r] = full
        for c in range(n):
            units[n + c, r] |= _ONE << np.uint64(c)
            g = region[r * n + c]
            units[2 * n + g, r] |= _ONE << np.uint64(c)
            of[r * n + c, 0] = r
            of[r * n + c, 1] = n + c
            of[r * n + c, 2] = 2 * n + g
    return units, of


@kernel(inline="always")
def _count(mask, n):  # pragma: no cover
    """The set bits of a grid of n row masks."""
    total = 0
    for r in range(n):
        total += popcount(mask[r])
    return total


@kernel(inline="always")
def _inside(units, u, mask, n):  # pragma: no cover
    """The cells of unit ``u`` in ``mask``."""
    total = 0
    for r in range(n):
        total += popcount(units[u, r] & mask[r])
    return total


@kernel(inline="always")
def _unknown(queens, crossed, n, full):  # pragma: no cover
    """The cells neither holding a queen nor crossed out."""
    out = np.empty(n, dtype=np.uint64)
    for r in range(n):
        out[r] = full & ~queens[r] & ~crossed[r]
    return out


@kernel(nogil=True)
def _place(cell, n, k, units, of, attacks, queens, crossed):  # pragma: no cover
    """A queen on ``cell``: its neighbours crossed out, and the rest of each unit it fills."""
    queens[cell // n] |= _ONE << np.uint64(cell % n)
    for r in range(n):
        crossed[r] |= attacks[cell, r] & ~queens[r]
    for j in range(3):
        u = of[cell, j]
        if _inside(units, u, queens, n) == k:
            for r in range(n):
                crossed[r] |= units[u, r] & ~queens[r]


@kernel(nogil=True)
def _singles(n, k, units, of, attacks, queens, crossed, full):  # pragma: no cover
    """Level 1: the first unit with exactly as many unknown cells as queens it needs fills them."""
    unknown = _unknown(queens, crossed, n, full)
    for u in range(3 * n):
        need = k - _inside(units, u, queens, n)
        if need > 0 and _inside(units, u, unknown, n) == need:
            for r in range(n):
                free = units[u, r] & unknown[r]
                while free:
                    low = free & (~free + _ONE)
                    free ^= low
                    if (queens[r] | crossed[r]) & low:
                        continue
                    _place(
                        r * n + int(lowest_index(low)), n, k, units, of, attacks, queens, crossed
                    )
            return True
    return False


@kernel(nogil=True)
def _confined(n, k, units, queens, crossed, full, size):  # pragma: no cover
    """Levels 2-3: the first group of ``size`` units confined to as many others crosses out."""
    unknown = _unknown(queens, crossed, n, full)
    m = 3 * n
    need = np.empty(m, dtype=np.int64)
    free = np.empty((m, n), dtype=np.uint64)
    for u in range(m):
        need[u] = k - _inside(units, u, queens, n)
        for r in range(n):
            free[u, r] = units[u, r] & unknown[r]
    touch = np.empty(n, dtype=np.int64)  # per inner unit: a bit per outer unit it meets
    inner = np.empty(n, dtype=np.int64)
    outer = np.empty(n, dtype=np.int64)
    usable = np.empty(n, dtype=np.int64)
    chosen = np.empty(size + 1, dtype=np.int64)  # positions in ``usable``
    met = np.zeros(size + 1, dtype=np.int64)  # the outers met by chosen[0..j - 1]
    closed = np.empty(n, dtype=np.uint64)
    for p in range(len(PAIRS)):
        inner_kind, outer_kind = PAIRS[p, 0], PAIRS[p, 1]
        inners = 0
        for u in range(inner_kind * n, inner_kind * n + n):
            if need[u] > 0:
                inner[inners] = u
                inners += 1
        if inners <= size:
            continue
        outers = 0
        for r in range(n):
            closed[r] = _ZERO
        for u in range(outer_kind * n, outer_kind * n + n):
            if need[u] > 0:
                outer[outers] = u
                outers += 1
            else:
                for r in range(n):
                    closed[r] |= free[u, r]
        count = 0
        for a in range(inners):
            i = inner[a]
            shut = False
            for r in range(n):
                if free[i, r] & closed[r]:
                    shut = True
            if shut:
                continue
            bits = 0
            for b in range(outers):
                for r in range(n):
                    if free[i, r] & free[outer[b], r]:
                        bits |= 1 << b
                        break
            touch[i - inner_kind * n] = bits
            if popcount(np.uint64(bits)) <= size:
                usable[count] = i
                count += 1
        # The groups of ``size`` usable units in combinations' order, a branch cut once it
        # meets more than ``size`` outers.
        depth = 0
        chosen[0] = -1
        while depth >= 0:
            chosen[depth] += 1
            position = chosen[depth]
            if position > count - (size - depth):
                depth -= 1
                continue
            more = met[depth] | touch[usable[position] - inner_kind * n]
            if popcount(np.uint64(more)) > size:
                continue
            if depth + 1 < size:
                met[depth + 1] = more
                depth += 1
                chosen[depth] = position
                continue
            if popcount(np.uint64(more)) == size and _claim(
                n, units, usable, chosen, size, outer, outers, more, need, free, crossed
            ):
                return True
    return False


@kernel(nogil=True)
def _claim(
    n, units, usable, chosen, size, outer, outers, met, need, free, crossed
):  # pragma: no cover
    """Cross out the met units' cells the group does not use, if they need as many queens."""
    wanted = 0
    for j in range(size):
        wanted -= need[usable[chosen[j]]]
    for b in range(outers):
        if met >> b & 1:
            wanted += need[outer[b]]
    if wanted != 0:
        return False
    out = np.zeros(n, dtype=np.uint64)
    any_out = False
    for r in range(n):
        mine = _ZERO
        for j in range(size):
            mine |= free[usable[chosen[j]], r]
        there = _ZERO
        for b in range(outers):
            if met >> b & 1:
                there |= free[outer[b], r]
        out[r] = there & ~mine
        if out[r]:
            any_out = True
    if not any_out:
        return False
    for r in range(n):
        crossed[r] |= out[r]
    return True


@kernel(nogil=True)
def _trial(n, k, units, of, attacks, queens, crossed, full):  # pragma: no cover
    """Level 3: every cell whose queen would leave some unit without room is crossed out."""
    unknown = _unknown(queens, crossed, n, full)
    m = 3 * n
    need = np.empty(m, dtype=np.int64)
    for u in range(m):
        need[u] = k - _inside(units, u, queens, n)
    ruled = np.empty(n, dtype=np.uint64)
    bad = np.zeros(n, dtype=np.uint64)
    hit = False
    for r0 in range(n):
        row = unknown[r0]
        while row:
            low = row & (~row + _ONE)
            row ^= low
            cell = r0 * n + int(lowest_index(low))
            for r in range(n):
                ruled[r] = attacks[cell, r]
            ruled[r0] |= low
            for j in range(3):
                u = of[cell, j]
                if need[u] == 1:
                    for r in range(n):
                        ruled[r] |= units[u, r]
            for u in range(m):
                left = 0
                for r in range(n):
                    left += popcount(unknown[r] & ~ruled[r] & units[u, r])
                still = need[u]
                if units[u, r0] & low:
                    still -= 1
                if left < still:
                    bad[r0] |= low
                    hit = True
                    break
    if hit:
        for r in range(n):
            crossed[r] |= bad[r]
    return hit


@kernel(nogil=True)
def _broken(n, k, units, queens, crossed, full):  # pragma: no cover
    """Whether some unit has more queens than k, or fewer unknown cells than queens it needs."""
    unknown = _unknown(queens, crossed, n, full)
    for u in range(3 * n):
        need = k - _inside(units, u, queens, n)
        if need < 0 or _inside(units, u, unknown, n) < need:
            return True
    return False


@kernel(nogil=True)
def deduce(n, k, region, attacks, max_level, max_group, queens, crossed):  # pragma: no cover
    """Apply the rules to the grid (``queens``, ``crossed``: row masks, updated in place).

    Returns (the deepest level used, 1 solved / 0 stuck / -1 a unit without
    room, the generator's score).
    """
    units, of = board(n, region)
    full = (_ONE << np.uint64(n)) - _ONE
    deepest = 1
    state = -1
    while not _broken(n, k, units, queens, crossed, full):
        if _count(queens, n) == n * k:
            state = 1
            break
        if _singles(n, k, units, of, attacks, queens, crossed, full):
            continue
        moved = False
        size = 1
        while max_level >= 2 and size <= max_group:
            if size > 1 and max_level < 3:
                break
            if _confined(n, k, units, queens, crossed, full, size):
                moved = True
                deepest = max(deepest, 2 if size == 1 else 3)
                break
            if (
                size == 1
                and max_level >= 3
                and _trial(n, k, units, of, attacks, queens, crossed, full)
            ):
                moved = True
                deepest = max(deepest, 3)
                break
            size += 1
        if not moved:
            state = 0
            break
    unknown = _unknown(queens, crossed, n, full)
    near = 0.0
    for u in range(3 * n):
        need = k - _inside(units, u, queens, n)
        if need > 0:
            near += 1.0 / (1 + max(0, _inside(units, u, unknown, n) - need))
    decided = 0
    for r in range(n):
        decided += popcount(queens[r] | crossed[r])
    return deepest, state, decided + near
