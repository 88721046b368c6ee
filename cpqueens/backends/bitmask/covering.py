"""Covering queens found fast: on lattices, by local search, or greedily (independent ones).

:func:`find` looks for k queens that cover the free n x n board on lattices
(one queen in each of k chosen rows and k chosen columns,
:mod:`cpqueens.kernels.domination_lattice`), then by local search
(:mod:`cpqueens.kernels.domination_local`); :func:`greedy` gives a maximal
set of independent queens, which covers the board. Nothing found here proves
anything: the exhaustive search of :mod:`cpqueens.backends.bitmask.domination`
does. :func:`dominates` and :func:`apart` check a set in plain Python.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from cpqueens.clock import Deadline
from cpqueens.errors import InvalidSolutionError

#: Nodes of one lattice's search, the first round (each later round ten times more).
LATTICE_NODES = 50_000
#: Rounds of lattice searches, before the local search; nodes per kernel call.
LATTICE_ROUNDS, LATTICE_CHUNK = 3, 10_000
#: Steps of local search per kernel call; steps a cell stays empty after a queen leaves it.
LOCAL_STEPS, TABU = 20_000, 2


def dominates(n: int, cells: Sequence[int]) -> bool:
    """Whether queens on ``cells`` (r * n + c) cover every cell of the n x n board.

    Plain Python, sharing nothing with the kernels: the check of every answer.

    >>> dominates(4, [5, 15]), dominates(4, [0, 15])
    (True, False)
    """
    queens = [divmod(cell, n) for cell in cells]
    return all(
        any(r == a or c == b or r - c == a - b or r + c == a + b for a, b in queens)
        for r in range(n)
        for c in range(n)
    )


def apart(n: int, cells: Sequence[int]) -> bool:
    """Whether no two queens on ``cells`` (r * n + c) share a line (are independent). Plain Python.

    >>> apart(4, [1, 7]), apart(4, [0, 15])
    (True, False)
    """
    queens = [divmod(cell, n) for cell in cells]
    return not any(
        r == a or c == b or r - c == a - b or r + c == a + b
        for i, (r, c) in enumerate(queens)
        for a, b in queens[:i]
    )


def lattices(n: int, k: int) -> list[tuple[int, ...]]:
    """The row (and column) sets the lattice search tries for k queens: k lines each.

    Every other line (either parity) with its ends trimmed or the board's
    edges added to make k, then central bands; no set twice.

    >>> lattices(6, 3)
    [(1, 3, 5), (0, 2, 4), (1, 2, 3), (2, 3, 4), (0, 1, 2), (3, 4, 5)]
    """
    found: list[tuple[int, ...]] = []
    for parity in (1, 0):
        base = list(range(parity, n, 2))
        others = [line for line in (0, n - 1) if line not in base]
        if len(base) >= k:
            extra = len(base) - k
            variants = [base[low : len(base) - (extra - low)] for low in range(extra + 1)]
        else:
            need = k - len(base)
            variants = [sorted(base + others[:need]), sorted(base + others[len(others) - need :])]
            variants += [sorted(base + [n // 2 + i for i in range(need)])]
        found.extend(tuple(v) for v in variants if len(set(v)) == k and len(v) == k)
    for low in sorted(range(n - k + 1), key=lambda low: abs(2 * low + k - n)):
        found.append(tuple(range(low, low + k)))
    return list(dict.fromkeys(found))


def _lattice(n: int, k: int, clock: Deadline | None, cutoff: float) -> tuple[int, ...] | None:
    """A set of k covering queens on a lattice (:func:`lattices`), in rounds of growing quotas.

    Every pair of row and column sets gets ``LATTICE_NODES`` nodes in the
    first round, ten times more in each next one (its search goes on where it
    stopped), in chunks of ``LATTICE_CHUNK`` nodes between which the clock is read.
    """
    import numpy as np

    from cpqueens.kernels import domination_lattice as kernel

    sets = [np.array(lines, dtype=np.int64) for lines in lattices(n, k)]
    searches = [
        (rows, cols, kernel.start(n, rows, cols))
        for i, rows in enumerate(sets)
        for cols in sets[i:]
    ]
    quota = LATTICE_NODES
    for _ in range(LATTICE_ROUNDS):
        alive = []
        for rows, cols, state in searches:
            status = kernel.PAUSED
            while status == kernel.PAUSED and state[-1][kernel.NODES] < quota:
                if time.monotonic() > cutoff:
                    return None
                if clock is not None:
                    clock.check()
                status = kernel.search(n, rows, cols, *state, LATTICE_CHUNK)
            if status == kernel.FOUND:
                columns = state[2]
                return tuple(
                    sorted(int(r) * n + int(c) for r, c in zip(rows, columns, strict=True))
                )
            if status == kernel.PAUSED:
                alive.append((rows, cols, state))
        searches, quota = alive, quota * 10
    return None


def _local(n: int, k: int, clock: Deadline | None, cutoff: float) -> tuple[int, ...] | None:
    """A set of k covering queens by local search, restarted now and then, until ``cutoff``."""
    from cpqueens.kernels import domination_local as kernel

    seed = 0
    while time.monotonic() < cutoff:
        state = kernel.start(n, k, seed)
        for _ in range(50):  # a restart after a million steps
            if clock is not None:
                clock.check()
            if kernel.walk(n, *state, TABU, LOCAL_STEPS):
                return tuple(sorted(int(cell) for cell in state[0]))
            if time.monotonic() > cutoff:
                return None
        seed += 1
    return None


def warm_local() -> None:
    """Compile (or load) the local search's kernels with a small search: 3 queens on 5 x 5.

    The exhaustive search and the lattices compile with any small question;
    the local search runs only on boards over ``QUICK_PROOF``, where the
    lattices miss a size, so ``cpqueens warm`` asks for it by name.
    """
    if _local(5, 3, None, float("inf")) is None:  # pragma: no cover - the search is exhaustive
        raise InvalidSolutionError("the local search found no 3 queens covering 5 x 5")


def find(
    n: int,
    k: int,
    clock: Deadline | None = None,
    seconds: float | None = None,
    local: bool = True,
) -> tuple[int, ...] | None:
    """A set of k queens (cells r * n + c) covering the n x n board, or None if none was found.

    Lattices first, then (if ``local``) local search, for at most ``seconds``
    (None: until the clock ends it, ``IncompleteSearchError``). None proves
    nothing.
    """
    if k >= n:  # a queen on every row of the first column covers it all
        column = [r * n for r in range(n)]
        rest = [cell for cell in range(n * n) if cell % n][: k - n]
        return tuple(sorted(column + rest)) if k <= n * n else None
    cutoff = float("inf") if seconds is None else time.monotonic() + seconds
    found = _lattice(n, k, clock, cutoff)
    if found is None and local:
        found = _local(n, k, clock, cutoff)
    if found is not None and not dominates(n, found):
        raise InvalidSolutionError(f"the search's set {found} leaves a cell uncovered")
    return found


def greedy(n: int) -> tuple[int, ...]:
    """A maximal set of independent queens, cells taken in order: it covers the board.

    Every cell it leaves empty is attacked (else a queen would stand there).

    >>> greedy(4)
    (0, 6, 13)
    """
    taken: list[int] = []
    for cell in range(n * n):
        if apart(n, [*taken, cell]):
            taken.append(cell)
    return tuple(taken)
