"""Dominating queens on a lattice: one queen in each of k given rows and k given columns.

The queens take the rows R and the columns C one each (a bijection R -> C),
so every cell of a row of R or a column of C is covered; the cells left,
off R and off C, must lie on a queen's diagonal (``r - c``) or anti-diagonal
(``r + c``). A queen on row r covers such a cell (a, b) only from column
``r - a + b`` or ``a + b - r``: two choices per row. The search takes the
uncovered cell with the fewest (row, column) choices left, branches on them
(each later branch forbids the choices before it) and cuts a node when the
rows left, each at its best column, cannot cover what is uncovered.

The caller picks R and C (:mod:`cpqueens.backends.bitmask.domination` tries
every other row and column, with the edges, and central bands): for n up to
25 some such lattice holds ceil(n/2) dominating queens, found in a few
thousand nodes. The search is complete for its R and C; it keeps its state
in arrays the caller owns (:func:`start`) and runs at most ``budget`` nodes
per call. numba code only.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.jit import kernel

FOUND, NONE, PAUSED = 1, 0, -1
#: counters[...]: the depth, whether the node there is new, the nodes so far, the cells left.
DEPTH, FRESH, NODES, CELLS = 0, 1, 2, 3
#: The state of a search (:func:`start`).
State = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
]  # fmt: skip


@kernel()
def _choices(n, k, rows, inside, used, forbidden, assigned, a, b, out_i, out_c):
    """The (row index, column) pairs that cover cell (a, b); return how many."""
    m = 0
    for i in range(k):
        if assigned[i] >= 0:
            continue
        first = rows[i] - a + b
        second = a + b - rows[i]
        if 0 <= first < n and inside[first] and not used[first] and not forbidden[i, first]:
            out_i[m] = i
            out_c[m] = first
            m += 1
        if (
            second != first
            and 0 <= second < n
            and inside[second]
            and not used[second]
            and not forbidden[i, second]
        ):
            out_i[m] = i
            out_c[m] = second
            m += 1
    return m


@kernel()
def _left_cells(n, rows, cols, inside, left):
    """Mark the lattice's columns in ``inside``; list the cells off its rows and columns."""
    on_row = np.zeros(n, dtype=np.bool_)
    for i in range(rows.shape[0]):
        inside[cols[i]] = True
        on_row[rows[i]] = True
    m = 0
    for a in range(n):
        for b in range(n):
            if not on_row[a] and not inside[b]:
                left[m] = a * n + b
                m += 1
    return m


@kernel()
def _uncovered(n, left, cells, diag, anti, udiag, uanti):
    """How many of the ``cells`` left no queen's diagonal covers, counted per diagonal too."""
    udiag[:] = 0
    uanti[:] = 0
    uncovered = 0
    for t in range(cells):
        a = left[t] // n
        b = left[t] % n
        if diag[b - a + n - 1] == 0 and anti[a + b] == 0:
            uncovered += 1
            udiag[b - a + n - 1] += 1
            uanti[a + b] += 1
    return uncovered


@kernel()
def _reach(n, rows, cols, used, forbidden, assigned, udiag, uanti):
    """The most the rows left can cover: each at its best column's two diagonals."""
    k = rows.shape[0]
    reach = 0
    for i in range(k):
        if assigned[i] < 0:
            best = 0
            for t in range(k):
                c = cols[t]
                if not used[c] and not forbidden[i, c]:
                    best = max(best, udiag[c - rows[i] + n - 1] + uanti[rows[i] + c])
            reach += best
    return reach


@kernel()
def _fewest(n, rows, inside, used, forbidden, assigned, left, cells, diag, anti, pick_i, pick_c):
    """The uncovered cell with the fewest (row, column) choices, and how many it has."""
    k = rows.shape[0]
    fewest = 2 * k + 1
    target = -1
    for t in range(cells):
        a = left[t] // n
        b = left[t] % n
        if diag[b - a + n - 1] == 0 and anti[a + b] == 0:
            m = _choices(n, k, rows, inside, used, forbidden, assigned, a, b, pick_i, pick_c)
            if m < fewest:
                fewest = m
                target = left[t]
    return target, fewest


@kernel()
def _most_first(n, rows, m, pick_i, pick_c, udiag, uanti, gain):
    """Order the m choices by what their diagonals cover, the most first."""
    for t in range(m):
        r = rows[pick_i[t]]
        c = pick_c[t]
        gain[t] = udiag[c - r + n - 1] + uanti[r + c]
    for t in range(1, m):
        s = t
        while s > 0 and gain[s - 1] < gain[s]:
            gain[s - 1], gain[s] = gain[s], gain[s - 1]
            pick_i[s - 1], pick_i[s] = pick_i[s], pick_i[s - 1]
            pick_c[s - 1], pick_c[s] = pick_c[s], pick_c[s - 1]
            s -= 1


@kernel()
def _complete(rows, cols, used, assigned):
    """Give the rows left the columns left, in order (every cell is covered already)."""
    t = 0
    for i in range(rows.shape[0]):
        if assigned[i] < 0:
            while used[cols[t]]:
                t += 1
            assigned[i] = cols[t]
            used[cols[t]] = True


def start(n: int, rows: np.ndarray, cols: np.ndarray) -> State:
    """A fresh state for :func:`search` on the lattice ``rows`` x ``cols``.

    (left, inside, assigned, used, diag, anti, forbidden, pick_i, pick_c,
    count, nxt, counters); ``assigned[i]`` is the column of the queen on
    ``rows[i]`` (-1: none yet), ``counters`` the depth, whether the node
    there is new, the nodes so far and how many cells ``left`` lists.
    """
    k = rows.shape[0]
    lines = 2 * n - 1
    inside = np.zeros(n, dtype=np.bool_)
    left = np.zeros(n * n, dtype=np.int64)  # the cells off the lattice's rows and columns
    counters = np.zeros(4, dtype=np.int64)
    counters[FRESH] = 1
    counters[CELLS] = _left_cells(n, rows, cols, inside, left)
    return (
        left,
        inside,
        np.full(k, -1, dtype=np.int64),
        np.zeros(n, dtype=np.bool_),
        np.zeros(lines, dtype=np.int64),  # queens per diagonal c - r + n - 1
        np.zeros(lines, dtype=np.int64),  # queens per anti-diagonal r + c
        np.zeros((k + 1, k, n), dtype=np.bool_),
        np.zeros((k + 1, 2 * k), dtype=np.int64),
        np.zeros((k + 1, 2 * k), dtype=np.int64),
        np.zeros(k + 1, dtype=np.int64),
        np.zeros(k + 1, dtype=np.int64),
        counters,
    )


@kernel()
def search(
    n, rows, cols, left, inside, assigned, used, diag, anti, forbidden, pick_i, pick_c, count,
    nxt, counters, budget,
):  # fmt: skip
    """Find queens on ``rows`` x ``cols`` (one per row and column) that dominate the n x n board.

    The state is :func:`start`'s. Runs at most ``budget`` nodes, then
    returns ``PAUSED`` (call again); ``FOUND`` (``assigned[i]`` is the column
    of the queen on ``rows[i]``) or ``NONE`` (no such queens: the search is
    exhausted) at the end.
    """
    k = rows.shape[0]
    lines = 2 * n - 1
    cells = counters[CELLS]
    udiag = np.zeros(lines, dtype=np.int64)
    uanti = np.zeros(lines, dtype=np.int64)
    gain = np.zeros(2 * k, dtype=np.int64)
    depth = counters[DEPTH]
    nodes = 0
    status = NONE
    while depth >= 0:
        if counters[FRESH]:
            if nodes >= budget:
                status = PAUSED
                break
            counters[FRESH] = 0
            nodes += 1
            count[depth] = 0
            nxt[depth] = 0
            uncovered = _uncovered(n, left, cells, diag, anti, udiag, uanti)
            if uncovered == 0:
                _complete(rows, cols, used, assigned)
                status = FOUND
                break
            if _reach(n, rows, cols, used, forbidden[depth], assigned, udiag, uanti) < uncovered:
                depth -= 1
                continue
            target, fewest = _fewest(
                n, rows, inside, used, forbidden[depth], assigned, left, cells, diag, anti,
                pick_i[depth], pick_c[depth],
            )  # fmt: skip
            if fewest == 0:
                depth -= 1
                continue
            m = _choices(
                n, k, rows, inside, used, forbidden[depth], assigned, target // n, target % n,
                pick_i[depth], pick_c[depth],
            )  # fmt: skip
            _most_first(n, rows, m, pick_i[depth], pick_c[depth], udiag, uanti, gain)
            count[depth] = m
            continue
        if nxt[depth] > 0:  # take back the last branch, and forbid it to the next ones
            t = nxt[depth] - 1
            i = pick_i[depth, t]
            c = pick_c[depth, t]
            assigned[i] = -1
            used[c] = False
            diag[c - rows[i] + n - 1] -= 1
            anti[rows[i] + c] -= 1
            forbidden[depth, i, c] = True
        if nxt[depth] >= count[depth]:
            depth -= 1
            continue
        t = nxt[depth]
        nxt[depth] += 1
        i = pick_i[depth, t]
        c = pick_c[depth, t]
        assigned[i] = c
        used[c] = True
        diag[c - rows[i] + n - 1] += 1
        anti[rows[i] + c] += 1
        forbidden[depth + 1] = forbidden[depth]
        depth += 1
        counters[FRESH] = 1
    counters[DEPTH] = depth
    counters[NODES] += nodes
    return status
