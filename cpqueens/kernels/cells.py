"""Compiled counters of piece sets on a board's cells: independent sets and dominating sets.

Cells are numbered row by row; a set of cells is a ``uint64`` array of W words
(cell i is bit i % 64 of word i // 64), so any board size fits. Each search
takes cells in increasing order (lowest set bit first), so every set is met
once. numba code only: the masks are made by :mod:`cpqueens.backends.bitmask.cells`.

Both counters keep their whole search state in arrays the caller owns (made by
:func:`independent_state` and :func:`dominating_state`) and run at most
``budget`` nodes per call, then return ``PAUSED``: Python sees Ctrl-C and its
clock between calls, and the next call goes on where the last one stopped.
``EXHAUSTED`` means the count is complete.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import lowest_index
from cpqueens.kernels.jit import kernel

EXHAUSTED, PAUSED = 0, -1


@kernel()
def _lowest(words: np.ndarray) -> int:
    """The index of the lowest set bit of ``words``, or -1 if there is none."""
    for w in range(words.shape[0]):
        word = words[w]
        if word:
            return w * 64 + int(lowest_index(word))
    return -1


@kernel()
def _clear(words: np.ndarray, index: int) -> None:
    words[index // 64] &= ~(np.uint64(1) << np.uint64(index % 64))


def independent_state(avail: np.ndarray, most: int) -> tuple[np.ndarray, ...]:
    """A fresh state for :func:`independent_counts`: the stack, the counts, the counters."""
    words = avail.shape[0]
    stack = np.zeros((max(most, 0) + 1, words), dtype=np.uint64)
    stack[0, :] = avail
    counts = np.zeros(most + 1, dtype=np.int64)
    counts[0] = 1
    counters = np.zeros(2, dtype=np.int64)  # the depth (-1 once exhausted), the nodes so far
    if most == 0:
        counters[0] = -1
    return stack, counts, counters


@kernel()
def independent_counts(attack, stack, counts, counters, budget):
    """Count the sets of k cells no two of which attack each other, k = 0..``most``.

    ``attack[i]`` is the cells cell i attacks; ``stack[d]`` the cells still to
    try at depth d (``stack[0]``: the free cells at the start), so sets of
    more than ``most = len(stack) - 1`` cells are not searched; ``counts[k]``
    grows as the sets of k cells are met. Runs at most ``budget`` nodes, then
    returns ``PAUSED`` (call again) or ``EXHAUSTED`` (``counts`` is complete).
    """
    words = attack.shape[1]
    most = stack.shape[0] - 1
    depth = counters[0]
    nodes = 0
    status = EXHAUSTED
    # work on copies the kernel owns, the stack allocated from ``words`` (as the one-call kernel
    # did: LLVM then knows its row stride and that nothing else writes it), copied back at the end
    caller_stack, caller_counts = stack, counts
    stack = np.zeros((most + 1, words), dtype=np.uint64)
    for d in range(most + 1):
        for w in range(words):
            stack[d, w] = caller_stack[d, w]
    counts = caller_counts.copy()
    while depth >= 0:
        cell = _lowest(stack[depth])
        if cell < 0:
            depth -= 1
            continue
        if nodes >= budget:
            status = PAUSED
            break
        nodes += 1
        _clear(stack[depth], cell)  # the cells left at this depth all come after ``cell``
        counts[depth + 1] += 1
        if depth + 1 < most:
            for w in range(words):
                stack[depth + 1, w] = stack[depth, w] & ~attack[cell, w]
            depth += 1
    caller_stack[:] = stack
    caller_counts[:] = counts
    counters[0] = depth
    counters[1] += nodes
    return status


def dominating_state(avail: np.ndarray, covered: np.ndarray, size: int) -> tuple[np.ndarray, ...]:
    """A fresh state for :func:`dominating_count`: the cells left, the cover, the counters."""
    words = avail.shape[0]
    left = np.zeros((max(size, 1), words), dtype=np.uint64)
    cover = np.zeros((max(size, 1), words), dtype=np.uint64)
    left[0, :] = avail
    cover[0, :] = covered
    counters = np.zeros(3, dtype=np.int64)  # the depth (-1 once exhausted), the total, the nodes
    return left, cover, counters


@kernel()
def dominating_count(closed, attack, target, left, cover, counters, size, independent, budget):
    """Count the sets of ``size`` cells that, with the cells covered already, cover ``target``.

    ``closed[i]`` is cell i and the cells it attacks; with ``independent`` no
    two cells of a set attack each other (``attack[i]``). ``left[d]`` is the
    cells still to try at depth d and ``cover[d]`` the cells covered there
    (``left[0]``: the free cells, ``cover[0]``: those the placed pieces
    cover). A branch ends as soon as the lowest uncovered target cell has no
    cell left that covers it. The count so far is ``counters[1]``; runs at
    most ``budget`` nodes, then returns ``PAUSED`` or ``EXHAUSTED``.
    """
    words = closed.shape[1]
    depth = counters[0]
    if size == 0:
        if depth >= 0:
            counters[1] = 1
            for w in range(words):
                if target[w] & ~cover[0, w]:
                    counters[1] = 0
            counters[0] = -1
        return EXHAUSTED
    uncovered = np.zeros(words, dtype=np.uint64)
    # work on copies allocated from ``words``, as above (``.copy()`` was some 25% slower on 8 x 8)
    caller_left, caller_cover = left, cover
    rows = caller_left.shape[0]
    left = np.zeros((rows, words), dtype=np.uint64)
    cover = np.zeros((rows, words), dtype=np.uint64)
    for d in range(rows):
        for w in range(words):
            left[d, w] = caller_left[d, w]
            cover[d, w] = caller_cover[d, w]
    total = counters[1]
    nodes = 0
    status = EXHAUSTED
    while depth >= 0:
        for w in range(words):
            uncovered[w] = target[w] & ~cover[depth, w]
        first = _lowest(uncovered)
        if first >= 0:
            reachable = False
            for w in range(words):
                if left[depth, w] & closed[first, w]:
                    reachable = True
                    break
            if not reachable:
                depth -= 1
                continue
        cell = _lowest(left[depth])
        if cell < 0:
            depth -= 1
            continue
        if nodes >= budget:
            status = PAUSED
            break
        nodes += 1
        _clear(left[depth], cell)
        if depth + 1 == size:
            done = True
            for w in range(words):
                if target[w] & ~(cover[depth, w] | closed[cell, w]):
                    done = False
                    break
            if done:
                total += 1
            continue
        for w in range(words):
            cover[depth + 1, w] = cover[depth, w] | closed[cell, w]
            kept = left[depth, w]
            if independent:
                kept &= ~attack[cell, w]
            left[depth + 1, w] = kept
        depth += 1
    caller_left[:] = left
    caller_cover[:] = cover
    counters[0] = depth
    counters[1] = total
    counters[2] += nodes
    return status
