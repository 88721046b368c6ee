"""Local search for k queens that dominate an n x n board (numba kernels, in chunks).

The state is k queens on distinct cells and, for each of the four line
families (rows, columns, diagonals ``c - r``, anti-diagonals ``r + c``), how
many queens stand on each line; a cell is uncovered when its four lines are
empty, and ``hits[x]`` counts the queens that see cell x (a queen on x counts
four times, one per line).

The search is a weighted local search for covering (in the manner of Gao et
al.'s RWLS for set cover): every cell has a weight, the cost is the weight of
the uncovered cells, and after a step that found no better cost the weight
of each uncovered cell grows by one, so a cell that stays uncovered pulls
harder on later steps. A step picks an uncovered cell at random and moves one
queen onto a cell that covers it, the move of least cost (ties at random):
for every queen i the cells that only i covers (``hits`` 1 on i's lines) are
summed along the four families, so that the gain of any cell q, with i gone,
is four line sums less the overlap at q (any two lines through q meet only at
q). A cell left by a queen stays empty for ``tabu`` steps.

The search never proves that there is no set: :func:`walk` runs at most
``budget`` steps per call and says whether the queens cover the board.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.jit import kernel

#: state[...]: the steps so far, the uncovered cells, the random generator's word.
STEPS, UNCOVERED, SEED = 0, 1, 2
STATE = 3


#: The state of a walk: queens, lines, hits, weight, sums, where, uncovered, left, state.
State = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray,
]  # fmt: skip


def start(n: int, k: int, seed: int) -> State:
    """A fresh state for :func:`walk`: k queens on random distinct cells (``seed``'s)."""
    rng = np.random.default_rng(seed)
    queens = rng.choice(n * n, size=k, replace=False).astype(np.int64)
    cells = n * n
    lines = np.zeros((4, 2 * n - 1), dtype=np.int64)
    hits = np.zeros(cells, dtype=np.int64)
    weight = np.ones(cells, dtype=np.int64)
    sums = np.zeros((4, 2 * n - 1), dtype=np.int64)  # the weight of the uncovered cells per line
    where = np.full(cells, -1, dtype=np.int64)  # the cell's place in ``uncovered``, or -1
    uncovered = np.zeros(cells, dtype=np.int64)
    left = np.full(cells, -(1 << 40), dtype=np.int64)  # the step a queen last left the cell
    state = np.zeros(STATE, dtype=np.int64)
    state[SEED] = int(rng.integers(1, 1 << 62))
    _setup(n, queens, lines, hits, weight, sums, where, uncovered, state)
    return queens, lines, hits, weight, sums, where, uncovered, left, state


@kernel()
def _setup(n, queens, lines, hits, weight, sums, where, uncovered, state):
    """Fill the line counts, the hits and the list of uncovered cells for ``queens``."""
    for q in queens:
        r = q // n
        c = q % n
        lines[0, r] += 1
        lines[1, c] += 1
        lines[2, c - r + n - 1] += 1
        lines[3, r + c] += 1
    m = 0
    for x in range(n * n):
        r = x // n
        c = x % n
        hits[x] = lines[0, r] + lines[1, c] + lines[2, c - r + n - 1] + lines[3, r + c]
        if hits[x] == 0:
            where[x] = m
            uncovered[m] = x
            m += 1
            sums[0, r] += weight[x]
            sums[1, c] += weight[x]
            sums[2, c - r + n - 1] += weight[x]
            sums[3, r + c] += weight[x]
    state[UNCOVERED] = m


@kernel()
def _random(state, bound):
    """A random int in [0, bound): xorshift64* on ``state[SEED]``."""
    x = np.uint64(state[SEED])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[SEED] = np.int64(x)
    return np.int64((x * np.uint64(2685821657736338717)) >> np.uint64(33)) % bound


@kernel()
def _line(n, family, r, c, out):
    """The cells of the line of ``family`` through (r, c), in ``out``; return how many."""
    m = 0
    if family == 0:
        for t in range(n):
            out[m] = r * n + t
            m += 1
    elif family == 1:
        for t in range(n):
            out[m] = t * n + c
            m += 1
    elif family == 2:
        for t in range(n):
            u = t + c - r
            if 0 <= u < n:
                out[m] = t * n + u
                m += 1
    else:
        for t in range(n):
            u = r + c - t
            if 0 <= u < n:
                out[m] = t * n + u
                m += 1
    return m


@kernel()
def _toggle(n, x, covered, weight, sums, where, uncovered, state):
    """Cell x became covered (``covered``) or uncovered: update the list and the line sums."""
    r = x // n
    c = x % n
    sign = -1 if covered else 1
    sums[0, r] += sign * weight[x]
    sums[1, c] += sign * weight[x]
    sums[2, c - r + n - 1] += sign * weight[x]
    sums[3, r + c] += sign * weight[x]
    if covered:
        last = uncovered[state[UNCOVERED] - 1]
        uncovered[where[x]] = last
        where[last] = where[x]
        where[x] = -1
        state[UNCOVERED] -= 1
    else:
        where[x] = state[UNCOVERED]
        uncovered[state[UNCOVERED]] = x
        state[UNCOVERED] += 1


@kernel()
def _move(n, q, sign, lines, hits, weight, sums, where, uncovered, state, buffer):
    """Add (``sign`` 1) or remove (-1) the queen on cell q, keeping every count up to date."""
    r = q // n
    c = q % n
    lines[0, r] += sign
    lines[1, c] += sign
    lines[2, c - r + n - 1] += sign
    lines[3, r + c] += sign
    for family in range(4):
        m = _line(n, family, r, c, buffer)
        for t in range(m):
            x = buffer[t]
            before = hits[x]
            hits[x] += sign
            if before == 0 and sign > 0:
                _toggle(n, x, True, weight, sums, where, uncovered, state)
            elif hits[x] == 0:
                _toggle(n, x, False, weight, sums, where, uncovered, state)


@kernel()
def walk(n, queens, lines, hits, weight, sums, where, uncovered, left, state, tabu, budget):
    """Up to ``budget`` steps of the weighted local search; True once the queens cover the board."""
    k = queens.shape[0]
    width = 2 * n - 1
    lost = np.zeros((4, width), dtype=np.int64)  # weight only queen i covers, per line
    loss = np.zeros(k, dtype=np.int64)
    mine = np.zeros(n * n, dtype=np.int64)  # 1 + i where queen i alone covers the cell
    own = np.zeros(4 * n, dtype=np.int64)
    targets = np.zeros(4 * n, dtype=np.int64)
    buffer = np.zeros(n, dtype=np.int64)
    occupied = np.zeros(n * n, dtype=np.uint8)
    for i in range(k):
        occupied[queens[i]] = 1
    cost = 0
    for t in range(state[UNCOVERED]):
        cost += weight[uncovered[t]]
    for _ in range(budget):
        if state[UNCOVERED] == 0:
            return True
        state[STEPS] += 1
        target = uncovered[_random(state, state[UNCOVERED])]
        tr = target // n
        tc = target % n
        # the cells that cover the target
        nt = 0
        for family in range(4):
            m = _line(n, family, tr, tc, buffer)
            for t in range(m):
                q = buffer[t]
                if q != target or family == 0:
                    targets[nt] = q
                    nt += 1
        best = 1 << 60
        best_i = -1
        best_q = -1
        ties = 0
        for i in range(k):
            p = queens[i]
            pr = p // n
            pc = p % n
            # what only queen i covers (each cell once: only p lies on two of its lines)
            no = 0
            loss[i] = 0
            for family in range(4):
                m = _line(n, family, pr, pc, buffer)
                for t in range(m):
                    x = buffer[t]
                    alone = 4 if x == p else 1
                    if hits[x] == alone and mine[x] == 0:
                        mine[x] = i + 1
                        own[no] = x
                        no += 1
                        w = weight[x]
                        loss[i] += w
                        xr = x // n
                        xc = x % n
                        lost[0, xr] += w
                        lost[1, xc] += w
                        lost[2, xc - xr + n - 1] += w
                        lost[3, xr + xc] += w
            for t in range(nt):
                q = targets[t]
                if occupied[q] or state[STEPS] - left[q] <= tabu:
                    continue
                qr = q // n
                qc = q % n
                d = qc - qr + n - 1
                a = qr + qc
                gain = (
                    sums[0, qr] + sums[1, qc] + sums[2, d] + sums[3, a]
                    + lost[0, qr] + lost[1, qc] + lost[2, d] + lost[3, a]
                )  # fmt: skip
                if hits[q] == 0 or mine[q] == i + 1:
                    gain -= 3 * weight[q]
                change = loss[i] - gain
                if change < best:
                    best, best_i, best_q, ties = change, i, q, 1
                elif change == best:
                    ties += 1
                    if _random(state, ties) == 0:
                        best_i, best_q = i, q
            for t in range(no):  # undo what queen i alone covers
                x = own[t]
                mine[x] = 0
                w = weight[x]
                xr = x // n
                xc = x % n
                lost[0, xr] -= w
                lost[1, xc] -= w
                lost[2, xc - xr + n - 1] -= w
                lost[3, xr + xc] -= w
        if best_i < 0:
            continue
        p = queens[best_i]
        _move(n, p, -1, lines, hits, weight, sums, where, uncovered, state, buffer)
        _move(n, best_q, 1, lines, hits, weight, sums, where, uncovered, state, buffer)
        occupied[p] = 0
        occupied[best_q] = 1
        queens[best_i] = best_q
        left[p] = state[STEPS]
        cost += best
        if best >= 0:  # no better cost: the cells still uncovered weigh more
            for t in range(state[UNCOVERED]):
                x = uncovered[t]
                weight[x] += 1
                xr = x // n
                xc = x % n
                sums[0, xr] += 1
                sums[1, xc] += 1
                sums[2, xc - xr + n - 1] += 1
                sums[3, xr + xc] += 1
                cost += 1
    return state[UNCOVERED] == 0
