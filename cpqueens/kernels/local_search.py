"""Min-conflicts local search for one solution of a big board (numba kernels, in chunks).

Each colour's queens form a permutation of the columns its placed queens
leave free, so columns never clash; a move swaps the columns of two free
rows of one colour (Sosic and Gu's QS4 for n-queens). The cost counts, over
both diagonal families of every colour, the queens beyond the first on each
line, plus every queen on a blocked cell and every cell two colours share.
A swap is kept when it lowers the cost (or keeps it, now and then, to cross
plateaus) and undone otherwise, each in O(k) with line counters.

The search never proves that there is no solution; it runs in chunks of a
bounded number of steps, so the caller sees Ctrl-C and its deadline between
them, and restarts from a fresh random start when a chunk made no progress.
Placed queens are fixed; blocked cells are read from per-row sorted lists.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.jit import kernel

#: Steps of the first chunk (a small board is often solved, or proved empty by CP-SAT, at once).
FIRST_STEPS = 2_000
#: Steps per chunk at most: a few milliseconds to a few tens of them.
CHUNK_STEPS = 200_000
#: Random partners tried for one attacked queen before moving on.
PARTNERS = 32


@kernel(nogil=True)
def _is_blocked(blocked_start, blocked_cols, row, col):  # pragma: no cover - compiled
    """Whether (row, col) is blocked: a binary search in the row's sorted blocked columns."""
    lo = blocked_start[row]
    hi = blocked_start[row + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        value = blocked_cols[mid]
        if value == col:
            return True
        if value < col:
            lo = mid + 1
        else:
            hi = mid
    return False


@kernel(nogil=True)
def _shared(q, colour, row, col):  # pragma: no cover - compiled
    """How many queens of other colours stand on (row, col)."""
    found = 0
    for other in range(q.shape[0]):
        if other != colour and q[other, row] == col:
            found += 1
    return found


@kernel(nogil=True)
def _remove(q, up, down, blocked_start, blocked_cols, colour, row, col):  # pragma: no cover
    """Take colour's queen off (row, col); return the change of the cost (<= 0)."""
    n = q.shape[1]
    delta = 0
    up[colour, row + col] -= 1
    if up[colour, row + col] >= 1:
        delta -= 1
    down[colour, col - row + n - 1] -= 1
    if down[colour, col - row + n - 1] >= 1:
        delta -= 1
    if _is_blocked(blocked_start, blocked_cols, row, col):
        delta -= 1
    q[colour, row] = -1
    delta -= _shared(q, colour, row, col)
    return delta


@kernel(nogil=True)
def _add(q, up, down, blocked_start, blocked_cols, colour, row, col):  # pragma: no cover
    """Put colour's queen on (row, col); return the change of the cost (>= 0)."""
    n = q.shape[1]
    delta = 0
    if up[colour, row + col] >= 1:
        delta += 1
    up[colour, row + col] += 1
    if down[colour, col - row + n - 1] >= 1:
        delta += 1
    down[colour, col - row + n - 1] += 1
    if _is_blocked(blocked_start, blocked_cols, row, col):
        delta += 1
    delta += _shared(q, colour, row, col)
    q[colour, row] = col
    return delta


@kernel(nogil=True)
def _attacked(q, up, down, blocked_start, blocked_cols, colour, row):  # pragma: no cover
    """Whether colour's queen in ``row`` adds to the cost."""
    n = q.shape[1]
    col = q[colour, row]
    return (
        up[colour, row + col] > 1
        or down[colour, col - row + n - 1] > 1
        or _is_blocked(blocked_start, blocked_cols, row, col)
        or _shared(q, colour, row, col) > 0
    )


@kernel(nogil=True)
def start(
    q, free_rows, free_count, up, down, blocked_start, blocked_cols, seed
):  # pragma: no cover - compiled
    """Fill every free row of every colour greedily at random; return the cost.

    ``q[colour, row]`` holds the placed queens and -1 in free rows; each
    colour's free rows take the columns its placed queens leave, a row taking
    the first of a few random columns left that costs nothing (else the last).
    """
    np.random.seed(seed)
    colours, n = q.shape
    up[:, :] = 0
    down[:, :] = 0
    cost = 0
    free = np.zeros(n, dtype=np.bool_)
    for colour in range(colours):
        for i in range(free_count[colour]):
            q[colour, free_rows[colour, i]] = -1
    for colour in range(colours):  # the placed queens first
        for row in range(n):
            col = q[colour, row]
            if col >= 0:
                cost += _add(q, up, down, blocked_start, blocked_cols, colour, row, col)
    for colour in range(colours):
        free[:] = True
        for row in range(n):
            if q[colour, row] >= 0:
                free[q[colour, row]] = False
        pool = np.empty(free_count[colour], dtype=np.int64)
        size = 0
        for col in range(n):
            if free[col]:
                pool[size] = col
                size += 1
        order = free_rows[colour, : free_count[colour]].copy()
        np.random.shuffle(order)
        for row in order:
            pick = 0
            for _ in range(min(size, 64)):
                pick = np.random.randint(size)
                col = pool[pick]
                if (
                    up[colour, row + col] == 0
                    and down[colour, col - row + n - 1] == 0
                    and not _is_blocked(blocked_start, blocked_cols, row, col)
                    and _shared(q, colour, row, col) == 0
                ):
                    break
            col = pool[pick]
            size -= 1
            pool[pick] = pool[size]
            cost += _add(q, up, down, blocked_start, blocked_cols, colour, row, col)
    return cost


@kernel(nogil=True)
def improve(
    q, free_rows, free_count, up, down, blocked_start, blocked_cols, cost, steps, sideways
):  # pragma: no cover - compiled
    """Swap columns to lower ``cost`` for at most ``steps`` steps; return the cost reached.

    Rows are visited in turn, colour by colour; an attacked queen tries up to
    ``PARTNERS`` random partners of its colour. A swap that keeps the cost is
    kept with probability ``sideways``.
    """
    colours = q.shape[0]
    if free_count.max() < 2:
        return cost  # nothing can move: every free row's column is forced
    done = 0
    while done < steps and cost > 0:
        for colour in range(colours):
            count = free_count[colour]
            if count < 2:
                continue
            for index in range(count):
                done += 1
                row = free_rows[colour, index]
                if not _attacked(q, up, down, blocked_start, blocked_cols, colour, row):
                    continue
                for _ in range(PARTNERS):
                    done += 1
                    other = free_rows[colour, np.random.randint(count)]
                    if other == row:
                        continue
                    a = q[colour, row]
                    b = q[colour, other]
                    delta = _remove(q, up, down, blocked_start, blocked_cols, colour, row, a)
                    delta += _remove(q, up, down, blocked_start, blocked_cols, colour, other, b)
                    delta += _add(q, up, down, blocked_start, blocked_cols, colour, row, b)
                    delta += _add(q, up, down, blocked_start, blocked_cols, colour, other, a)
                    if delta < 0 or (delta == 0 and np.random.random() < sideways):
                        cost += delta
                        if delta < 0:
                            break
                    else:  # undo
                        _remove(q, up, down, blocked_start, blocked_cols, colour, row, b)
                        _remove(q, up, down, blocked_start, blocked_cols, colour, other, a)
                        _add(q, up, down, blocked_start, blocked_cols, colour, row, a)
                        _add(q, up, down, blocked_start, blocked_cols, colour, other, b)
                if cost == 0 or done >= steps:
                    return cost
    return cost


class Search:
    """One local search over a board's free rows, advanced in chunks by :meth:`step`.

    ``fixed[colour]`` maps rows to the columns of that colour's placed
    queens; ``blocked`` lists the blocked cells. The placed queens of each
    colour must stand in distinct columns (else there is no solution).
    """

    def __init__(
        self,
        n: int,
        colours: int,
        blocked: tuple[tuple[int, int], ...],
        fixed: list[dict[int, int]],
        seed: int = 0,
    ) -> None:
        """Set the board up and make the first random start."""
        self.n, self.colours = n, colours
        self.q = np.full((colours, n), -1, dtype=np.int64)
        self.free_rows = np.zeros((colours, n), dtype=np.int64)
        self.free_count = np.zeros(colours, dtype=np.int64)
        for colour in range(colours):
            rows = [row for row in range(n) if row not in fixed[colour]]
            self.free_rows[colour, : len(rows)] = rows
            self.free_count[colour] = len(rows)
            for row, col in fixed[colour].items():
                self.q[colour, row] = col
        cells = np.array(sorted(blocked), dtype=np.int64).reshape(-1, 2)
        self.blocked_cols = np.ascontiguousarray(cells[:, 1])
        self.blocked_start = np.searchsorted(cells[:, 0], np.arange(n + 1)).astype(np.int64)
        self.up = np.zeros((colours, 2 * n - 1), dtype=np.int64)
        self.down = np.zeros((colours, 2 * n - 1), dtype=np.int64)
        self.rng = np.random.default_rng(seed)
        self.best = self.cost = 0
        self.stalled = 0
        self.steps = FIRST_STEPS
        self.restart()

    def restart(self) -> None:
        """Start again from a fresh random placement of the free rows."""
        seed = int(self.rng.integers(2**31))
        self.cost = start(
            self.q, self.free_rows, self.free_count, self.up, self.down,
            self.blocked_start, self.blocked_cols, seed,
        )  # fmt: skip
        self.best, self.stalled = self.cost, 0

    def step(self) -> bool:
        """Search for one chunk of steps; return whether the placement is a solution.

        Chunks double from ``FIRST_STEPS`` up to ``CHUNK_STEPS``.
        """
        steps, self.steps = self.steps, min(2 * self.steps, CHUNK_STEPS)
        self.cost = improve(
            self.q, self.free_rows, self.free_count, self.up, self.down,
            self.blocked_start, self.blocked_cols, self.cost, steps, 0.1,
        )  # fmt: skip
        if self.cost == 0:
            return True
        if self.cost < self.best:
            self.best, self.stalled = self.cost, 0
        else:
            self.stalled += 1
            if self.stalled >= 5:
                self.restart()
        return False

    def solution(self) -> tuple[tuple[int, ...], ...]:
        """The current placement, one column tuple per colour."""
        return tuple(tuple(int(c) for c in row) for row in self.q)
