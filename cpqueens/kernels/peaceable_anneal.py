"""Peaceable armies by simulated annealing on line labels: large armies fast, never a proof.

The armies are a function of one label per line (see :mod:`cpqueens.kernels.peaceable`):
a cell is white when every line through it is labelled white, black when
every one is labelled black. A move flips one line's label; ``whites[c]``
counts the lines through cell c labelled white, so a flip updates the two
army sizes in O(length of the line). The score is ``4 * min(W, B) + max(W, B)``:
the objective first, then the larger army (slack the smaller one can take). A
move that lowers the score by d is kept with probability ``exp(-d / T)``,
``T`` falling geometrically from ``T_START`` to ``T_END`` over one run.

One run is ``state[ITERS]`` moves from random labels; it runs in slices of
``budget`` moves (resumable: every bit of the search is in the caller's
arrays, the random numbers too: xorshift64*), so the caller sees its deadline
and Ctrl-C between slices. Each run's best labelling is kept in ``best_label``.

numba code only; the arrays are made by :mod:`cpqueens.backends.bitmask.armies`.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.jit import kernel

#: The temperature of a run's first move and of its last.
T_START = 5.0
T_END = 0.2

#: Slots of ``state``: moves done, moves per run, white cells, black cells, best min(W, B),
#: the random generator's state (as a signed 64-bit integer).
DONE = 0
ITERS = 1
WHITES = 2
BLACKS = 3
BEST = 4
RANDOM = 5


@kernel()
def _next(state):  # pragma: no cover - compiled
    """The next 64 random bits (xorshift64*), the generator's state kept in ``state[RANDOM]``."""
    x = np.uint64(state[RANDOM])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[RANDOM] = np.int64(x)
    return x * np.uint64(2685821657736338717)


@kernel()
def start(state, label, whites, best_label, cell_lines):  # pragma: no cover
    """Random labels, their cell counts and army sizes: a fresh run (``state[RANDOM]`` seeded)."""
    for line in range(label.shape[0]):
        label[line] = np.int8(_next(state) >> np.uint64(63))
    cells = cell_lines.shape[0]
    white = 0
    black = 0
    for c in range(cells):
        w = 0
        d = 0
        for j in range(cell_lines.shape[1]):
            line = cell_lines[c, j]
            if line < 0:
                break
            d += 1
            if label[line] == 0:
                w += 1
        whites[c] = w
        if w == d:
            white += 1
        if w == 0:
            black += 1
    state[DONE] = 0
    state[WHITES] = white
    state[BLACKS] = black
    state[BEST] = min(white, black)
    best_label[:] = label


@kernel()
def run(
    state, label, whites, degree, best_label, line_start, line_cells, budget
):  # pragma: no cover
    """At most ``budget`` moves of the current run; True when the run has ended."""
    lines = label.shape[0]
    total = state[ITERS]
    white = state[WHITES]
    black = state[BLACKS]
    best = state[BEST]
    ratio = np.log(T_END / T_START)
    scale = 1.0 / 9007199254740992.0  # 2**-53
    done = state[DONE]
    end = min(total, done + budget)
    while done < end:
        done += 1
        line = np.int64(_next(state) >> np.uint64(33)) % lines
        step = 1 if label[line] == 1 else -1  # black -> white adds one white line per cell
        dw = 0
        db = 0
        for k in range(line_start[line], line_start[line + 1]):
            c = line_cells[k]
            old = whites[c]
            new = old + step
            if old == degree[c]:
                dw -= 1
            elif new == degree[c]:
                dw += 1
            if old == 0:
                db -= 1
            elif new == 0:
                db += 1
        nw = white + dw
        nb = black + db
        change = 4 * (min(nw, nb) - min(white, black)) + max(nw, nb) - max(white, black)
        if change < 0:
            temperature = T_START * np.exp(ratio * done / total)
            if np.float64(_next(state) >> np.uint64(11)) * scale >= np.exp(change / temperature):
                continue
        label[line] = 1 - label[line]
        for k in range(line_start[line], line_start[line + 1]):
            whites[line_cells[k]] += step
        white = nw
        black = nb
        if min(white, black) > best:
            best = min(white, black)
            best_label[:] = label
    state[DONE] = done
    state[WHITES] = white
    state[BLACKS] = black
    state[BEST] = best
    return done >= total
