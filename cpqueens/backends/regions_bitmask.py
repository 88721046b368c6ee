"""The bitmask engine for region puzzles: arrays for ``cpqueens.kernels.regions.search``.

Each row's candidates are its subsets of ``stars`` allowed columns with no two
adjacent (``itertools.combinations`` over the free cells, every given queen
of the row included); the compiled kernel does the rest.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, pairwise
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from cpqueens.vocabulary.regions import Cell, RegionPuzzle

NAME = "bitmask"


def row_candidates(puzzle: RegionPuzzle, row: int) -> list[tuple[int, ...]]:
    """Row ``row``'s allowed column subsets: k columns, none adjacent, none blocked, givens in."""
    n, k = puzzle.n, puzzle.stars
    blocked = {c for r, c in puzzle.blocked if r == row}
    given = {c for r, c in puzzle.queens if r == row}
    free = [c for c in range(n) if c not in blocked]
    return [
        combo
        for combo in combinations(free, k)
        if given <= set(combo) and all(b - a > 1 for a, b in pairwise(combo))
    ]


@cache
def _compiled():  # type: ignore[no-untyped-def]
    from cpqueens.kernels.regions import search

    return search


def arrays(puzzle: RegionPuzzle, rng: random.Random | None = None) -> tuple[np.ndarray, ...]:
    """The kernel's inputs: region grid, candidate masks and columns, row starts, region cells.

    ``rng`` shuffles each row's candidates, so the first solution found is a random one.
    """
    n = puzzle.n
    region = np.array([g for row in puzzle.regions for g in row], dtype=np.int64)
    masks: list[int] = []
    columns: list[int] = []
    start = [0]
    for row in range(n):
        combos = row_candidates(puzzle, row)
        if rng is not None:
            rng.shuffle(combos)
        for combo in combos:
            masks.append(sum(1 << c for c in combo))
            columns.extend(combo)
        start.append(len(masks))
    cells = np.zeros(n * n, dtype=np.int64)
    blocked = set(puzzle.blocked)
    for row in range(n):
        for c in range(n):
            if (row, c) not in blocked:
                cells[row * n + puzzle.regions[row][c]] |= 1 << c
    return (
        region,
        np.array(masks, dtype=np.int64),
        np.array(columns, dtype=np.int64),
        np.array(start, dtype=np.int64),
        cells,
    )


def search(
    puzzle: RegionPuzzle, limit: int | None = None, keep: int = 2, rng: random.Random | None = None
) -> tuple[int, list[tuple[Cell, ...]]]:
    """The number of solutions (stopping at ``limit``, None: all) and the first ``keep`` of them.

    Solutions come in lexicographic order of their rows' columns (in a random
    order of each row's candidates with ``rng``), each as sorted (row, col) cells.
    """
    n = puzzle.n
    region, masks, columns, start, cells = arrays(puzzle, rng)
    out = np.zeros((max(keep, 0), n), dtype=np.int64)
    if len(masks) == 0:
        return 0, []
    total = _compiled()(
        n, puzzle.stars, puzzle.diagonals, region, masks, columns, start, cells, limit or 0, out
    )
    found = [
        tuple((row, c) for row in range(n) for c in range(n) if (int(out[i, row]) >> c) & 1)
        for i in range(min(total, len(out)))
    ]
    return int(total), found


def count(puzzle: RegionPuzzle, limit: int | None = None) -> int:
    """The number of solutions, stopping at ``limit`` (None: every one)."""
    return search(puzzle, limit, keep=0)[0]


def solutions(puzzle: RegionPuzzle, limit: int | None = None) -> list[tuple[Cell, ...]]:
    """The solutions (the first ``limit`` of them), each as sorted (row, col) cells."""
    if limit is None:
        total = count(puzzle)
        return search(puzzle, total, keep=total)[1]
    return search(puzzle, limit, keep=limit)[1]


def search_masks(
    grid: tuple[tuple[int, ...], ...],
    allowed: list[int],
    diagonals: bool,
    limit: int | None = None,
    keep: int = 0,
) -> tuple[int, list[tuple[int, ...]]]:
    """One queen per row, column and region of ``grid``, none touching, on per-row masks.

    The kernel's input for a model (``cpqueens.backends.bitmask``): row r may
    hold its queen on the columns of ``allowed[r]`` (bit c: column c, the
    blocked cells and placed queens already applied); ``diagonals`` lets the
    long diagonals attack too. Returns the number of solutions (stopping at
    ``limit``, None: all) and the first ``keep`` of them as column tuples, in
    lexicographic order.
    """
    n = len(grid)
    region = np.array([g for row in grid for g in row], dtype=np.int64)
    masks: list[int] = []
    start = [0]
    cells = np.zeros(n * n, dtype=np.int64)
    for row in range(n):
        for c in range(n):
            if (allowed[row] >> c) & 1:
                masks.append(1 << c)
                cells[row * n + grid[row][c]] |= 1 << c
        start.append(len(masks))
    if any(start[row] == start[row + 1] for row in range(n)):
        return 0, []  # a row with no free cell
    columns = np.array([mask.bit_length() - 1 for mask in masks], dtype=np.int64)
    out = np.zeros((max(keep, 0), n), dtype=np.int64)
    total = _compiled()(
        n,
        1,
        diagonals,
        region,
        np.array(masks, dtype=np.int64),
        columns,
        np.array(start, dtype=np.int64),
        cells,
        limit or 0,
        out,
    )
    found = [
        tuple(int(out[i, row]).bit_length() - 1 for row in range(n))
        for i in range(min(int(total), len(out)))
    ]
    return int(total), found
