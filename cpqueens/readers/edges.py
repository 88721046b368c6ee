"""Whether a lattice accounts for the whole board: nothing of the board runs on past its edges.

A lattice fitted to part of a board (a turned board whose lines came apart, a
crop that cuts a row to a sliver) reads as a smaller puzzle, and a smaller
puzzle can have one solution: it must not be answered. So beyond each edge
of the grid, where the picture goes on, the board must end:

- the grid's lines across that edge stop there: a line running on (darker
  than the pixels between the lines, as inside the board) means more cells;
- the cells stop there: strips beyond the edge cells that vary in colour
  along the edge as the cells do, most of them each the colour of the cell
  it touches, are more cells (a page of one colour is not).

numpy is imported by the caller.
"""

from __future__ import annotations

import numpy as np

from cpqueens.readers.lattice import Grid

#: The strip looked at beyond an edge: from these fractions of a cell's side past it.
STRIP = (0.12, 0.6)
#: Fewer rows (or columns) of picture than this beyond an edge: the picture ends there.
LEAST_STRIP = 3
#: A line beyond an edge runs on when it stands out by this share of its contrast inside;
#: the board goes on when two lines, and a quarter of those drawn inside, run on.
RUNS_ON = 0.5
#: Two colours are one when no channel differs by more than this (grey levels).
SAME = 12.0

SIDES = ("top", "bottom", "left", "right")


def _strip(grid: Grid, side: str, size: tuple[int, int]) -> tuple[int, int] | None:
    """The rows (top, bottom) or columns (left, right) just beyond ``side``, in the picture."""
    h, w = size
    p = grid.period
    near, far = STRIP[0] * p, STRIP[1] * p
    if side == "top":
        lo, hi = round(grid.ys[0] - far), round(grid.ys[0] - near)
    elif side == "bottom":
        lo, hi = round(grid.ys[-1] + near), round(grid.ys[-1] + far)
    elif side == "left":
        lo, hi = round(grid.xs[0] - far), round(grid.xs[0] - near)
    else:
        lo, hi = round(grid.xs[-1] + near), round(grid.xs[-1] + far)
    limit = h if side in ("top", "bottom") else w
    lo, hi = max(lo, 0), min(hi, limit)
    return (lo, hi) if hi - lo >= LEAST_STRIP else None


def _contrast(darkness: np.ndarray, at: float, half: int, between: float) -> float:
    """How much darker the columns at ``at`` are than those at ``between`` (medians down)."""
    w = darkness.shape[1]
    lo, hi = max(round(at) - half, 0), min(round(at) + half + 1, w)
    b = min(max(round(between), 0), w - 1)
    if hi <= lo:
        return 0.0
    line = darkness[:, lo:hi].max(axis=1).astype(np.float64)
    gap = darkness[:, b].astype(np.float64)
    return float(np.median(line - gap))


def _lines_run_on(darkness: np.ndarray, grid: Grid, side: str) -> bool:
    """Whether most of the grid's inner lines across ``side`` go on past it."""
    strip = _strip(grid, side, darkness.shape)
    if strip is None or grid.n < 3:
        return False
    lo, hi = strip
    p = grid.period
    half = max(2, round(0.08 * p))
    across = side in ("top", "bottom")
    # the lines across the side, as columns of an array whose rows run along them
    ink = darkness if across else darkness.T
    marks = grid.xs if across else grid.ys
    ends = grid.ys if across else grid.xs
    first = 0 if side in ("top", "left") else grid.n - 1
    inside = ink[round(ends[first] + 0.25 * p) : round(ends[first + 1] - 0.25 * p)]
    beyond = ink[lo:hi]
    seen = running = 0
    for k in range(1, grid.n):
        own = _contrast(inside, marks[k], half, marks[k] + p / 2)
        if own < 8:  # the line is not drawn inside (no thin lines): it says nothing
            continue
        seen += 1
        if _contrast(beyond, marks[k], half, marks[k] + p / 2) >= RUNS_ON * own:
            running += 1
    return running >= 2 and running * 4 >= seen


def _cells_run_on(rgb: np.ndarray, grid: Grid, side: str, colours: np.ndarray) -> bool:
    """Whether the strips beyond ``side``'s cells are more cells: varied, each its neighbour's."""
    strip = _strip(grid, side, rgb.shape[:2])
    if strip is None:
        return False
    lo, hi = strip
    p = grid.period
    across = side in ("top", "bottom")
    marks = grid.xs if across else grid.ys
    edge = 0 if side in ("top", "left") else grid.n - 1
    limit = rgb.shape[1] if across else rgb.shape[0]
    found, touching = [], []
    for k in range(grid.n):
        a, b = max(round(marks[k] + 0.25 * p), 0), min(round(marks[k + 1] - 0.25 * p), limit)
        if b - a < LEAST_STRIP:
            continue
        block = rgb[lo:hi, a:b] if across else rgb[a:b, lo:hi]
        found.append(np.median(block.reshape(-1, 3), axis=0))
        touching.append(colours[edge, k] if across else colours[k, edge])
    if len(found) < 3:
        return False
    strips, cells = np.array(found), np.array(touching)
    varied = float(np.abs(strips - np.median(strips, axis=0)).max()) > SAME
    alike = np.abs(strips - cells).max(axis=1) <= SAME
    return varied and int(alike.sum()) * 2 >= len(found)


def runs_on(darkness: np.ndarray, rgb: np.ndarray, grid: Grid, colours: np.ndarray) -> str | None:
    """Where the board goes on past the grid, in words, or None if the grid is the whole board.

    "its lines run on past its top edge", "its cells run on past its left edge".
    """
    for side in SIDES:
        if _lines_run_on(darkness, grid, side):
            return f"its lines run on past its {side} edge"
        if _cells_run_on(rgb, grid, side, colours):
            return f"its cells run on past its {side} edge"
    return None
