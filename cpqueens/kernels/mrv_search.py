"""A complete DFS for one solution of a small hard board: fewest choices first, random restarts.

One variable per (colour, row), its domain a ``uint64`` of allowed columns
(n <= 64). Placing a queen removes its column and diagonals from the other
rows of its colour and its cell from the other colours of its row (forward
checking: a domain left empty ends the branch at once); the next variable is
the one with the fewest columns left, ties broken at random, and columns are
tried in random order. The search state lives in arrays, so the numba kernel
runs in chunks of nodes and the caller sees Ctrl-C and its deadline between
them. Each run is complete: one that ends without a solution proves there is
none. Runs restart with a fresh random order after a node budget that grows
by half each time (a lucky order finds a solution early; the growing budget
keeps the search complete).
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels import MAX_COLUMNS
from cpqueens.kernels.bits import popcount
from cpqueens.kernels.jit import kernel

#: The widest board: one uint64 of columns per row.
MAX_N = MAX_COLUMNS
#: Nodes per chunk: a few milliseconds.
CHUNK_NODES = 20_000
#: Nodes of the first run before a restart; each later run gets half as many more.
FIRST_BUDGET = 2_000

PAUSED, FOUND, EXHAUSTED = 0, 1, 2
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel(nogil=True)
def _random_bit(mask):  # pragma: no cover - compiled
    """One set bit of a non-zero mask, chosen uniformly."""
    pick = np.random.randint(popcount(mask))
    for _ in range(pick):
        mask &= mask - _ONE
    return mask & (~mask + _ONE)


@kernel(nogil=True)
def _choose(dom, assigned, level):  # pragma: no cover - compiled
    """The unassigned variable with the fewest columns left at ``level`` (ties at random)."""
    best = -1
    best_size = 65
    ties = 0
    for u in range(dom.shape[1]):
        if assigned[u]:
            continue
        size = popcount(dom[level, u])
        if size < best_size:
            best, best_size, ties = u, size, 1
        elif size == best_size:
            ties += 1
            if np.random.randint(ties) == 0:
                best = u
    return best


@kernel(nogil=True)
def start(dom, assigned, var_at, left, state, seed):  # pragma: no cover - compiled
    """Begin a run from the domains in ``dom[0]``: pick the first variable."""
    np.random.seed(seed)
    assigned[:] = False
    v = _choose(dom, assigned, 0)
    var_at[0] = v
    assigned[v] = True
    left[0] = dom[0, v]
    state[0] = 0  # depth
    state[1] = 0  # nodes of this run


@kernel(nogil=True)
def run(dom, assigned, var_at, left, state, n, nodes):  # pragma: no cover - compiled
    """Search for at most ``nodes`` nodes; return PAUSED, FOUND (dom[depth + 1]) or EXHAUSTED."""
    total = dom.shape[1]
    depth = state[0]
    done = 0
    while done < nodes:
        if depth < 0:
            state[0] = depth
            return 2
        v = var_at[depth]
        if left[depth] == _ZERO:
            assigned[v] = False
            depth -= 1
            continue
        b = _random_bit(left[depth])
        left[depth] &= ~b
        done += 1
        nxt = depth + 1
        dom[nxt, :] = dom[depth, :]
        dom[nxt, v] = b
        colour = v // n
        row = v % n
        ok = True
        for other in range(n):  # the same colour's other rows: column and diagonals
            u = colour * n + other
            if other == row or assigned[u]:
                continue
            gap = np.uint64(abs(other - row))
            dom[nxt, u] &= ~(b | (b << gap) | (b >> gap))
            if dom[nxt, u] == _ZERO:
                ok = False
                break
        if ok:
            for u in range(row, total, n):  # the other colours' queens of this row
                if u != v and not assigned[u]:
                    dom[nxt, u] &= ~b
                    if dom[nxt, u] == _ZERO:
                        ok = False
                        break
        if not ok:
            continue
        if nxt == total:
            state[0] = depth
            state[1] += done
            return 1
        u = _choose(dom, assigned, nxt)
        depth = nxt
        var_at[depth] = u
        assigned[u] = True
        left[depth] = dom[depth, u]
    state[0] = depth
    state[1] += done
    return 0


class Search:
    """The restarting DFS over one board, advanced in chunks by :meth:`step`.

    ``allowed[colour][row]`` is the mask of columns that colour's queen may
    take in that row (placed queens: one bit).
    """

    def __init__(self, n: int, allowed: np.ndarray, seed: int = 0) -> None:
        """Set the search up; ``allowed`` has shape (colours, n), dtype uint64."""
        colours = allowed.shape[0]
        total = colours * n
        self.n, self.colours = n, colours
        self.dom = np.zeros((total + 1, total), dtype=np.uint64)
        self.dom[0] = allowed.reshape(-1)
        self.assigned = np.zeros(total, dtype=np.bool_)
        self.var_at = np.zeros(total, dtype=np.int64)
        self.left = np.zeros(total, dtype=np.uint64)
        self.state = np.zeros(2, dtype=np.int64)
        self.rng = np.random.default_rng(seed)
        self.budget = FIRST_BUDGET
        self.status = PAUSED
        self.restart()

    def restart(self) -> None:
        """Start a fresh run in a new random order."""
        start(self.dom, self.assigned, self.var_at, self.left, self.state,
              int(self.rng.integers(2**31)))  # fmt: skip

    def step(self) -> int:
        """Search one chunk; return PAUSED, FOUND or EXHAUSTED (a proof that there is none)."""
        self.status = run(self.dom, self.assigned, self.var_at, self.left, self.state,
                          self.n, CHUNK_NODES)  # fmt: skip
        if self.status == PAUSED and self.state[1] >= self.budget:
            self.budget += self.budget // 2
            self.restart()
        return self.status

    def solution(self) -> tuple[tuple[int, ...], ...]:
        """The solution found, one column tuple per colour."""
        level = self.dom[int(self.state[0]) + 1]
        columns = [int(mask).bit_length() - 1 for mask in level]
        n = self.n
        return tuple(tuple(columns[c * n : (c + 1) * n]) for c in range(self.colours))


def allowed_masks(n: int, colours: int, blocked, fixed: list[dict[int, int]]) -> np.ndarray:
    """Each (colour, row)'s allowed columns: free cells, or the placed queen's column alone."""
    full = (1 << n) - 1
    rows = [full] * n
    for row, col in blocked:
        rows[row] &= ~(1 << col)
    masks = np.zeros((colours, n), dtype=np.uint64)
    for colour in range(colours):
        for row in range(n):
            col = fixed[colour].get(row)
            masks[colour, row] = rows[row] if col is None else rows[row] & (1 << col)
    return masks
