"""Compiled counters of piece sets on a board's cells: independent sets and dominating sets.

Cells are numbered row by row; a set of cells is a ``uint64`` array of W words
(cell i is bit i % 64 of word i // 64), so any board size fits. Each search
takes cells in increasing order (lowest set bit first), so every set is met
once. numba code only: the masks are made by :mod:`cpqueens.backends.cells_bitmask`.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import lowest_index
from cpqueens.kernels.jit import kernel


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


@kernel()
def independent_counts(attack: np.ndarray, avail: np.ndarray, most: int) -> np.ndarray:
    """``counts[k]``: the sets of k cells of ``avail`` no two of which attack each other.

    ``attack[i]`` is the cells cell i attacks; sets of more than ``most`` cells
    are not searched (their counts stay 0).
    """
    cells, words = attack.shape
    counts = np.zeros(cells + 1, dtype=np.int64)
    counts[0] = 1
    if most == 0:
        return counts
    stack = np.zeros((most + 1, words), dtype=np.uint64)
    stack[0, :] = avail
    depth = 0
    while depth >= 0:
        cell = _lowest(stack[depth])
        if cell < 0:
            depth -= 1
            continue
        _clear(stack[depth], cell)  # the cells left at this depth all come after ``cell``
        counts[depth + 1] += 1
        if depth + 1 < most:
            for w in range(words):
                stack[depth + 1, w] = stack[depth, w] & ~attack[cell, w]
            depth += 1
    return counts


@kernel()
def dominating_count(
    closed: np.ndarray,
    attack: np.ndarray,
    avail: np.ndarray,
    covered: np.ndarray,
    target: np.ndarray,
    size: int,
    independent: bool,
) -> int:
    """The sets of ``size`` cells of ``avail`` that, with ``covered``, cover ``target``.

    ``closed[i]`` is cell i and the cells it attacks; with ``independent`` no
    two cells of a set attack each other (``attack[i]``). A branch ends as
    soon as the lowest uncovered target cell has no cell left that covers it.
    """
    words = closed.shape[1]
    if size == 0:
        for w in range(words):
            if target[w] & ~covered[w]:
                return 0
        return 1
    left = np.zeros((size, words), dtype=np.uint64)
    cover = np.zeros((size, words), dtype=np.uint64)
    left[0, :] = avail
    cover[0, :] = covered
    uncovered = np.zeros(words, dtype=np.uint64)
    total = 0
    depth = 0
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
    return total
