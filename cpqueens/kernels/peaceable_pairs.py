"""Peaceable queens on a free n x n board: rows and columns first, one diagonal family searched.

Labels, as in :mod:`cpqueens.kernels.peaceable`: each line is white or black,
a cell is white when its four lines are white, black when all four are black;
the armies are the white and the black cells, and ``min(W, B)`` is to be
maximised. Here the lines are labelled family by family:

1. the rows (``S``, bit r set: row r white) and the columns (``T``), a pair
   (S, T) per call of :func:`pair`. The white cells lie in S x T, the black
   ones in the complements: at most ``|S||T|`` and ``(n-|S|)(n-|T|)``;
2. the sum diagonals (p = r + c) by a depth-first search;
3. the difference diagonals (q = r - c + n - 1) by no search at all: once the
   rows, the columns and the sum diagonals are labelled, a cell can still be
   white or black only as its q-diagonal goes, and each cell lies on one
   q-diagonal, so the best split of the q-diagonals between the armies is a
   two-way knapsack, solved exactly (:func:`reach`, :func:`best_split`).

The same knapsack over the q-diagonals, with every cell counted that no
labelled sum diagonal has killed yet, bounds every node of the search (any
completion keeps a subset of those cells on each q-diagonal); a knapsack over
the p-diagonals bounds it too (each p-diagonal goes to one army). Both are
relaxations: a node is cut only when one says that ``target`` armies cannot
be reached below it.

The pairs (S, T) are taken up to the 16 symmetries (the square's 8 and the
colour swap; :func:`canonical`): a pair is searched only if its key
``(S, T)`` is the least of its orbit's. Every labelling's orbit holds one
whose pair is canonical, with the same ``min(W, B)``.

numba code only; the plan and the checks are in :mod:`cpqueens.backends.bitmask.armies`.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.jit import kernel

#: Slots of a part's ``state``: the index of the next row set, the next column set, the best
#: value found (or the floor), nodes, done (1 when the part is exhausted), pairs searched.
REP = 0
NEXT_T = 1
BEST = 2
NODES = 3
DONE = 4
PAIRS = 5
#: Slots of ``witness``: the row set, column set and white sum diagonals of the best armies.
W_ROWS = 0
W_COLS = 1
W_SUMS = 2


@kernel()
def reversals(n):  # pragma: no cover - compiled
    """``rev[x]``: the n-bit mask x read backwards (bit i to bit n - 1 - i)."""
    size = 1 << n
    rev = np.zeros(size, dtype=np.int64)
    for x in range(size):
        y = 0
        for i in range(n):
            if x >> i & 1:
                y |= 1 << (n - 1 - i)
        rev[x] = y
    return rev


@kernel()
def popcount(x):  # pragma: no cover - compiled
    """The number of set bits of an int64 below 2**62 (SWAR: bits summed in parallel)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@kernel()
def canonical(s, t, full, rev):  # pragma: no cover - compiled
    """Whether (s, t) is the least key of its orbit under the square's 8 symmetries and the swap.

    Row reversal reverses s, column reversal t, the transpose exchanges them,
    the colour swap complements both.
    """
    sc = full ^ s
    tc = full ^ t
    for swap in range(2):
        a = sc if swap else s
        b = tc if swap else t
        for ra in range(2):
            x = rev[a] if ra else a
            for rb in range(2):
                y = rev[b] if rb else b
                if x < s or (x == s and y < t):  # rows and columns kept apart
                    return False
                if y < s or (y == s and x < t):  # transposed
                    return False
    return True


@kernel()
def _shifted(x, k, full):  # pragma: no cover - compiled
    """``x << k`` for k >= 0, ``x >> -k`` otherwise, cut to the n bits of ``full``."""
    if k >= 0:
        return (x << k) & full
    return x >> (-k)


@kernel()
def reach(target, fa, fb, ca, cb, count, dp):  # pragma: no cover - compiled
    """Whether items split between two armies can give both at least ``target``.

    ``fa`` white and ``fb`` black are fixed; each of the ``count`` contested
    items i goes whole to one army: ``ca[i]`` white or ``cb[i]`` black. The
    white items X must bring ``need = target - fa`` white while losing at
    most ``spare`` black (all contested black less what black still needs):
    a knapsack, by the smaller of the two capacities (``dp`` is scratch).
    """
    need = target - fa
    need_b = target - fb
    if need <= 0 and need_b <= 0:
        return True
    most_a = 0
    most_b = 0
    for i in range(count):
        most_a += ca[i]
        most_b += cb[i]
    if most_a < need or most_b < need_b:
        return False
    if need <= 0 or need_b <= 0:  # none white, or all of them
        return True
    spare = most_b - need_b
    big = 1 << 30
    if need <= spare:  # dp[w]: the least black lost for w white (capped at need)
        for j in range(need + 1):
            dp[j] = big
        dp[0] = 0
        for i in range(count):
            a = ca[i]
            b = cb[i]
            if b > spare:
                continue
            for j in range(need, -1, -1):
                if dp[j] < big:
                    t = min(j + a, need)
                    if dp[j] + b < dp[t]:
                        dp[t] = dp[j] + b
            if dp[need] <= spare:
                return True
        return dp[need] <= spare
    # dp[l]: the most white for exactly l black lost
    for j in range(spare + 1):
        dp[j] = -1
    dp[0] = 0
    for i in range(count):
        a = ca[i]
        b = cb[i]
        if b > spare:
            continue
        for j in range(spare - b, -1, -1):
            if dp[j] >= 0 and dp[j] + a > dp[j + b]:
                dp[j + b] = dp[j] + a
                if dp[j + b] >= need:
                    return True
    return False


@kernel()
def best_split(fa, fb, ca, cb, count, dp):  # pragma: no cover - compiled
    """The largest ``min(white, black)`` a split of the items gives (see :func:`reach`)."""
    cap = fa
    for i in range(count):
        cap += ca[i]
    for j in range(cap + 1):
        dp[j] = -1
    dp[fa] = fb
    for i in range(count):
        a = ca[i]
        b = cb[i]
        for j in range(cap, -1, -1):
            white = dp[j]
            if white >= 0:
                dp[j] = white + b
                if a > 0 and white > dp[j + a]:
                    dp[j + a] = white
    best = 0
    for j in range(cap + 1):
        if dp[j] >= 0 and min(j, dp[j]) > best:
            best = min(j, dp[j])
    return best


@kernel()
def _q_items(n, wq, bq, wset, bset, ca, cb, totals):  # pragma: no cover - compiled
    """The q-diagonals' items at a node: cells no labelled sum diagonal killed; fixed sums first.

    Writes the contested items into ``ca``/``cb`` and returns their count;
    ``totals`` gets [fixed white, fixed black, all white, all black].
    """
    fa = 0
    fb = 0
    aw = 0
    ab = 0
    count = 0
    for q in range(2 * n - 1):
        a = popcount(wq[q] & ~bset)
        b = popcount(bq[q] & ~wset)
        aw += a
        ab += b
        if a > 0 and b > 0:
            ca[count] = a
            cb[count] = b
            count += 1
        else:
            fa += a
            fb += b
    totals[0] = fa
    totals[1] = fb
    totals[2] = aw
    totals[3] = ab
    return count


@kernel()
def pair(n, s, t, target, rev, full, wq, bq, wp, bp, order, level_w, level_b, phase, ca, cb, dp,
         totals, found):  # fmt: skip  # pragma: no cover - compiled
    """Search the pair (s, t): the largest ``min(W, B) >= target`` below it, else -1.

    Returns (value or -1, nodes). ``found[0]`` gets the white sum diagonals
    (a mask over p) of the best labelling found. ``target`` rises past each
    value found: the answer is the pair's best if it reaches ``target``.
    The other arrays are scratch space of 2n - 1 (``dp``: n * n + 1) slots.
    """
    lines = 2 * n - 1
    ns = popcount(s)
    nt = popcount(t)
    if ns * nt < target or (n - ns) * (n - nt) < target:
        return -1, 0
    sc = full ^ s
    tc = full ^ t
    rt = rev[t]
    rtc = rev[tc]
    # the cells of each diagonal as row masks; the p-diagonals' counts and q-diagonals' items
    fa = 0
    fb = 0
    count = 0
    for q in range(lines):
        k = q - (n - 1)
        a = popcount(s & _shifted(t, k, full))
        b = popcount(sc & _shifted(tc, k, full))
        if a > 0 and b > 0:
            ca[count] = a
            cb[count] = b
            count += 1
        else:
            fa += a
            fb += b
    if not reach(target, fa, fb, ca, cb, count, dp):
        return -1, 1
    fa = 0
    fb = 0
    count = 0
    for p in range(lines):
        k = p - (n - 1)
        wp[p] = popcount(s & _shifted(rt, k, full))
        bp[p] = popcount(sc & _shifted(rtc, k, full))
        if wp[p] > 0 and bp[p] > 0:
            ca[count] = wp[p]
            cb[count] = bp[p]
            count += 1
        else:
            fa += wp[p]
            fb += bp[p]
    if not reach(target, fa, fb, ca, cb, count, dp):
        return -1, 1
    # the q-diagonals' cells as masks over p: cell (r, c) lies on p = r + c, q = r - c + n - 1
    for q in range(lines):
        wq[q] = 0
        bq[q] = 0
    for r in range(n):
        for c in range(n):
            if (s >> r) & 1 and (t >> c) & 1:
                wq[r - c + n - 1] |= 1 << (r + c)
            elif not (s >> r) & 1 and not (t >> c) & 1:
                bq[r - c + n - 1] |= 1 << (r + c)
    # the sum diagonals with cells of one army only take its label at once; the others are
    # searched, the most contested first
    wset = 0
    bset = 0
    depth = 0
    for p in range(lines):
        if bp[p] == 0:
            wset |= 1 << p
        elif wp[p] == 0:
            bset |= 1 << p
        else:
            order[depth] = p
            depth += 1
    levels = depth
    for i in range(1, levels):  # insertion sort: min(white, black) descending
        p = order[i]
        key = min(wp[p], bp[p])
        j = i - 1
        while j >= 0 and min(wp[order[j]], bp[order[j]]) < key:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = p
    best = -1
    nodes = 0
    depth = 0
    level_w[0] = wset
    level_b[0] = bset
    entering = True
    while True:
        if entering:
            nodes += 1
            wset = level_w[depth]
            bset = level_b[depth]
            count = _q_items(n, wq, bq, wset, bset, ca, cb, totals)
            ok = totals[2] >= target and totals[3] >= target
            if ok:
                ok = reach(target, totals[0], totals[1], ca, cb, count, dp)
            if ok and depth < levels:
                p = order[depth]
                # the side that leaves more slack first: white kills the black cells of p
                first = 0 if totals[3] - bp[p] >= totals[2] - wp[p] else 1
                phase[depth] = first
                if first == 0:
                    level_w[depth + 1] = wset | (1 << p)
                    level_b[depth + 1] = bset
                else:
                    level_w[depth + 1] = wset
                    level_b[depth + 1] = bset | (1 << p)
                depth += 1
                continue
            if ok:  # every sum diagonal labelled: the knapsack is exact
                value = best_split(totals[0], totals[1], ca, cb, count, dp)
                if value >= target:
                    best = value
                    target = value + 1
                    found[0] = wset
        # go back up: the other side of the deepest label, or pop
        entering = False
        while depth > 0:
            depth -= 1
            if phase[depth] < 2:
                p = order[depth]
                wset = level_w[depth]
                bset = level_b[depth]
                if phase[depth] == 0:
                    level_w[depth + 1] = wset
                    level_b[depth + 1] = bset | (1 << p)
                else:
                    level_w[depth + 1] = wset | (1 << p)
                    level_b[depth + 1] = bset
                phase[depth] = 2
                depth += 1
                entering = True
                break
        if not entering:
            break
    return best, nodes


@kernel()
def column_sets(n):  # pragma: no cover - compiled
    """(every n-bit mask, by popcount then value; ``start[k]``: the first of popcount k)."""
    size = 1 << n
    counts = np.zeros(n + 2, dtype=np.int64)
    for x in range(size):
        counts[popcount(x) + 1] += 1
    start = np.zeros(n + 2, dtype=np.int64)
    for k in range(1, n + 2):
        start[k] = start[k - 1] + counts[k]
    masks = np.zeros(size, dtype=np.int64)
    at = start.copy()
    for x in range(size):
        k = popcount(x)
        masks[at[k]] = x
        at[k] += 1
    return masks, start


@kernel()
def search(n, reps, state, witness, rev, masks, start, budget, symmetry):  # pragma: no cover
    """Search the pairs of the row sets ``reps`` for armies larger than ``state[BEST]``.

    The column sets come from ``masks`` (:func:`column_sets`), only those
    whose size the product bound allows with the row set's. Resumable:
    stops at the first pair boundary past ``budget`` nodes, with the place to
    go on in ``state`` (``NEXT_T`` an index into ``masks``); ``state[DONE]``
    is 1 when every pair is searched. ``witness`` gets the best armies'
    (rows, columns, white sum diagonals). ``symmetry``: only canonical pairs
    (else every pair).
    """
    lines = 2 * n - 1
    full = (1 << n) - 1
    wq = np.zeros(lines, dtype=np.int64)
    bq = np.zeros(lines, dtype=np.int64)
    wp = np.zeros(lines, dtype=np.int64)
    bp = np.zeros(lines, dtype=np.int64)
    order = np.zeros(lines, dtype=np.int64)
    level_w = np.zeros(lines + 1, dtype=np.int64)
    level_b = np.zeros(lines + 1, dtype=np.int64)
    phase = np.zeros(lines + 1, dtype=np.int64)
    ca = np.zeros(lines, dtype=np.int64)
    cb = np.zeros(lines, dtype=np.int64)
    dp = np.zeros(n * n + 2, dtype=np.int64)
    totals = np.zeros(4, dtype=np.int64)
    found = np.zeros(1, dtype=np.int64)
    nodes = 0
    i = state[REP]
    while i < reps.shape[0]:
        s = reps[i]
        ns = popcount(s)
        target = state[BEST] + 1
        # the column set sizes k the product bound allows: an interval
        low = n + 1
        high = -1
        for k in range(n + 1):
            if ns * k >= target and (n - ns) * (n - k) >= target:
                low = min(low, k)
                high = k
        at = max(state[NEXT_T], start[low]) if high >= 0 else 0
        end = start[high + 1] if high >= 0 else 0
        while at < end:
            if nodes >= budget:
                state[REP] = i
                state[NEXT_T] = at
                state[NODES] += nodes
                return
            t = masks[at]
            if symmetry == 0 or canonical(s, t, full, rev):
                state[PAIRS] += 1
                value, spent = pair(n, s, t, state[BEST] + 1, rev, full, wq, bq, wp, bp, order,
                                    level_w, level_b, phase, ca, cb, dp, totals, found)  # fmt: skip
                nodes += spent + 1
                if value > state[BEST]:
                    state[BEST] = value
                    witness[W_ROWS] = s
                    witness[W_COLS] = t
                    witness[W_SUMS] = found[0]
            else:
                nodes += 1
            at += 1
        i += 1
        state[NEXT_T] = 0
        nodes += 1
    state[REP] = i
    state[NEXT_T] = 0
    state[NODES] += nodes
    state[DONE] = 1
