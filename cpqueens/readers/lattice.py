"""Finding the board in a screenshot: the square lattice of its lines, dark or light.

The game draws every cell boundary as a thin line and every region boundary
as a thick one, each running the whole width (or height) of the board: dark
on its light theme, light thin lines on its dark one (its region borders
dark or light). So the board is where many long straight lines, of one
common extent, are equally spaced in both directions:

1. the thin structures darker or lighter than their surroundings (the black
   and white top-hats of the grey levels, :func:`inks`) are marked;
2. each row's marked runs as long as a fair part of the picture are kept, and
   grouped by their extent; consecutive rows of a group are one line (a thick
   border spans several rows);
3. the group of horizontal lines and the group of vertical lines that cross
   each other best are the board;
4. along each axis a lattice ``phase + k * period`` is fitted to the lines
   (the period that explains most lines with the fewest gaps), and the cells
   are the lattice intervals that lie within the lines' extent. Whether they
   are the whole board is for :mod:`~cpqueens.readers.edges` to say.

numpy is imported by the caller; nothing here knows colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cpqueens.errors import ImageReadError

#: How much darker than its surroundings (grey levels, 0-255) a line's pixel is.
LINE_CONTRAST = 32
#: Fainter lines looked for when none of ``LINE_CONTRAST`` make a board.
FAINTER = (20, 12)
#: The lattices tried at each contrast, best first.
MAX_GRIDS = 3
#: Half the window of the top-hat: lines up to about twice this wide are found.
HALF_WINDOW = 5
#: Half the window of the opening that takes away bright specks (text strokes) first.
SPECK = 2
#: The board sizes read.
MIN_N, MAX_N = 4, 20
#: The fewest pixels a cell may span.
MIN_PERIOD = 8.0
#: More long runs than the picture's width and height together: noise, not a board.
MAX_RUNS_PER_PIXEL = 1.0
#: More than this share of pixels darker than their surroundings: noise, not a board.
MAX_INK = 0.4
#: The line groups (longest first) tried as the board's rows or columns, each way.
MAX_GROUPS = 12


@dataclass(frozen=True)
class Grid:
    """A board found: ``n`` cells a side, cell boundaries ``xs`` and ``ys`` (n + 1 each)."""

    n: int
    xs: tuple[float, ...]
    ys: tuple[float, ...]

    @property
    def period(self) -> float:
        """The mean side of a cell, in pixels."""
        return ((self.xs[-1] - self.xs[0]) + (self.ys[-1] - self.ys[0])) / (2 * self.n)

    def box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """Cell (row, col) as (left, top, right, bottom) pixel coordinates."""
        return self.xs[col], self.ys[row], self.xs[col + 1], self.ys[row + 1]


@dataclass(frozen=True)
class _Line:
    at: float
    lo: int
    hi: int


def running(a: np.ndarray, half: int, axis: int, op: Any) -> np.ndarray:
    """The running ``op`` (np.maximum or np.minimum) over a window of 2 * half + 1 on ``axis``."""
    out, done, step = a, 0, 1  # the window grows by doubling: out covers [x - done, x + done]
    n = a.shape[axis]
    while done < half:
        step = min(step, half - done)
        ahead = [slice(None)] * a.ndim
        behind = [slice(None)] * a.ndim
        ahead[axis], behind[axis] = slice(step, n), slice(0, n - step)
        new = out.copy()
        op(new[tuple(behind)], out[tuple(ahead)], out=new[tuple(behind)])
        op(new[tuple(ahead)], out[tuple(behind)], out=new[tuple(ahead)])
        out, done, step = new, done + step, step * 2
    return out


def median(a: np.ndarray, axis: int | None = None) -> Any:
    """``np.median(a, axis)``, the same values, without its cost per call (a few microseconds).

    The reader takes thousands of medians of small parts of a picture; NumPy's
    own spends most of its time checking its arguments. ``a`` must hold no
    NaN; an empty ``a`` goes to NumPy's (which warns and gives NaN).
    """
    if axis is None:
        a, axis = a.ravel(), 0
    m = a.shape[axis]
    if m == 0:
        return np.median(a, axis=axis)
    half = m // 2
    if m % 2:
        middle = np.partition(a, half, axis=axis).take(half, axis=axis)
        return middle.astype(np.float64) if a.dtype.kind in "biu" else middle
    part = np.partition(a, (half - 1, half), axis=axis)
    lo, hi = part.take(half - 1, axis=axis), part.take(half, axis=axis)
    if a.dtype.kind in "biu":  # as NumPy's mean of the two: in float64
        lo, hi = lo.astype(np.float64), hi.astype(np.float64)
    return (lo + hi) / 2


def inks(grey: np.ndarray, half: int = HALF_WINDOW) -> tuple[np.ndarray, np.ndarray]:
    """How much darker, and how much lighter, each pixel is than its surroundings.

    Dark: the black top-hat of ``grey`` (the closing, a running maximum then
    minimum over a square window, minus the picture): thin dark structures
    (lines, text, marks) keep their darkness, broad areas (cells, a page)
    become 0. Bright specks thinner than ``SPECK`` pixels (the strokes of light
    text on a dark page) are first taken away (an opening): otherwise the dark
    gaps between lines of such text would be long dark lines, and lattices of
    them crowded out the board. Light: the white top-hat (the picture minus
    its opening), the game's light thin lines on its dark theme.
    """
    eroded = running(running(grey, SPECK, 0, np.minimum), SPECK, 1, np.minimum)
    opened = running(running(eroded, SPECK, 0, np.maximum), SPECK, 1, np.maximum)
    dilated = running(running(opened, half, 0, np.maximum), half, 1, np.maximum)
    closed = running(running(dilated, half, 0, np.minimum), half, 1, np.minimum)
    shrunk = running(running(grey, half, 0, np.minimum), half, 1, np.minimum)
    grown = running(running(shrunk, half, 0, np.maximum), half, 1, np.maximum)
    return closed - opened, grey - grown


def ink(grey: np.ndarray, half: int = HALF_WINDOW) -> np.ndarray:
    """How far each pixel stands out from its surroundings, darker or lighter (:func:`inks`).

    The board's lines are dark on the game's light theme and light on its
    dark one (its region borders may be either): both are ink.
    """
    dark, light = inks(grey, half)
    return np.maximum(dark, light)


def _close_gaps(mask: np.ndarray) -> np.ndarray:
    """``mask`` with single-pixel gaps along each row filled (JPEG noise on a line)."""
    out = mask.copy()
    out[:, 1:-1] |= mask[:, :-2] & mask[:, 2:]
    return out


def runs(mask: np.ndarray, least: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's runs of True at least ``least`` long: (row, start, end) arrays, end exclusive."""
    h, w = mask.shape
    flat = np.zeros(h * (w + 1) + 1, dtype=np.int8)  # a False before all, and after each row
    flat[1:].reshape(h, w + 1)[:, :w] = mask
    changes = np.flatnonzero(np.diff(flat))  # alternately a run's start and its end
    starts, ends = changes[0::2], changes[1::2]
    keep = (ends - starts) >= least
    starts, ends = starts[keep], ends[keep]
    rows = starts // (w + 1)
    return rows, starts - rows * (w + 1), ends - rows * (w + 1)


def line_groups(mask: np.ndarray, least: int, fewest: int = 3) -> list[list[_Line]]:
    """The long runs of ``mask``'s rows grouped by extent; each group's lines (rows merged)."""
    rows, starts, ends = runs(_close_gaps(mask), least)
    if len(rows) > MAX_RUNS_PER_PIXEL * sum(mask.shape):
        raise ImageReadError(
            "no board found: the picture is full of dark streaks (noise?), not a grid of lines"
        )
    order = np.argsort(starts - ends, kind="stable")  # longest first
    groups: list[tuple[int, int, list[tuple[int, int, int]]]] = []
    for i in order.tolist():
        row, start, end = int(rows[i]), int(starts[i]), int(ends[i])
        tol = max(4, (end - start) // 30)
        for lo, hi, members in groups:
            if abs(start - lo) <= tol and abs(end - hi) <= tol:
                members.append((row, start, end))
                break
        else:
            groups.append((start, end, [(row, start, end)]))
    found = []
    for _, _, members in groups:
        members.sort()
        lines: list[_Line] = []
        block: list[tuple[int, int, int]] = []
        for member in [*members, (-10, 0, 0)]:
            if block and member[0] != block[-1][0] + 1:
                at = sum(m[0] for m in block) / len(block)
                lines.append(_Line(at, min(m[1] for m in block), max(m[2] for m in block)))
                block = []
            if member[0] >= 0:
                block.append(member)
        if len(lines) >= fewest:
            found.append(lines)
    found.sort(key=len, reverse=True)
    return found[:MAX_GROUPS]


def extent(lines: list[_Line]) -> tuple[float, float]:
    """The median start and end of a group's lines."""
    return float(np.median([x.lo for x in lines])), float(np.median([x.hi for x in lines]))


def _fit(positions: list[float]) -> tuple[float, float, float] | None:
    """The lattice ``phase + k * period`` that best explains ``positions``: (period, phase, score).

    Candidate periods are the gaps between lines and their halves, thirds and
    quarters. A period scores the lines it explains times the share of its
    lattice points between the first and last of them that hold a line, so
    half the true period (half its points empty) and twice it (half the
    lines unexplained) both score lower.
    """
    x = np.asarray(sorted(positions))
    gaps = np.diff(x)
    candidates = np.unique(np.round(np.concatenate([gaps / m for m in (1, 2, 3, 4)]), 1))
    candidates = candidates[candidates >= MIN_PERIOD]
    best: tuple[float, float, float] | None = None
    for period in candidates.tolist():
        angle = 2 * np.pi * x / period
        phase = float(np.angle(np.exp(1j * angle).sum()) / (2 * np.pi) * period)
        k = np.round((x - phase) / period)
        tol = max(1.5, 0.06 * period)
        inliers = np.abs(x - phase - k * period) <= tol
        if inliers.sum() < 3:
            continue
        ks, xs = k[inliers], x[inliers]
        if len(np.unique(ks)) >= 2:  # refine: least squares through the lines explained
            slope, intercept = np.polyfit(ks, xs, 1)
            if slope >= MIN_PERIOD:
                period, phase = float(slope), float(intercept)
                k = np.round((x - phase) / period)
                inliers = np.abs(x - phase - k * period) <= max(1.5, 0.06 * period)
                ks = k[inliers]
        held = len(np.unique(ks))
        if held < 3:
            continue
        coverage = held / (ks.max() - ks.min() + 1)
        score = float(inliers.sum()) * coverage
        if (
            best is None
            or score > best[2] + 1e-9
            or (abs(score - best[2]) <= 1e-9 and period > best[0])
        ):
            best = (period, phase, score)
    return best


def _cells(period: float, phase: float, lo: float, hi: float) -> list[float]:
    """The lattice boundaries of the cells that lie at least half within [lo, hi]."""
    first = int(np.floor((lo - phase) / period)) - 1
    last = int(np.ceil((hi - phase) / period)) + 1
    bounds: list[float] = []
    for k in range(first, last):
        a, b = phase + k * period, phase + (k + 1) * period
        if min(b, hi) - max(a, lo) >= 0.5 * period:
            if not bounds:
                bounds.append(a)
            bounds.append(b)
    return bounds


def elsewhere(darkness: np.ndarray, grid: Grid) -> list[Grid]:
    """The lattices of other boards in the picture: those found with ``grid``'s board hidden.

    Lines as short as a few of the smallest cells count here (a second
    board may be a small one), and the board read is blanked first, so that
    a board touching it is not taken for more of its lines.
    """
    mask = darkness >= LINE_CONTRAST
    h, w = mask.shape
    pad = HALF_WINDOW + 1
    top, bottom = max(round(grid.ys[0]) - pad, 0), min(round(grid.ys[-1]) + pad + 1, h)
    left, right = max(round(grid.xs[0]) - pad, 0), min(round(grid.xs[-1]) + pad + 1, w)
    mask[top:bottom, left:right] = False
    try:
        return find(mask, least=round(MIN_N * MIN_PERIOD))
    except ImageReadError:
        return []


def find(mask: np.ndarray, least: int | None = None) -> list[Grid]:
    """The board's lattice in ``mask``, the pixels of dark lines at least ``least`` long."""
    h, w = mask.shape
    if least is None:
        least = max(24, int(0.12 * min(h, w)))
    if mask.mean() > MAX_INK:
        raise ImageReadError(
            "no board found: the picture is dark detail all over (noise?), not a grid of lines"
        )
    across = line_groups(mask, least)  # horizontal lines: their y, their x extent
    down = line_groups(np.ascontiguousarray(mask.T), least)  # vertical lines
    if not across or not down:
        raise ImageReadError("no board found: no grid of long straight lines in the picture")
    found: list[tuple[float, Grid]] = []
    seen = ""
    down_extents = [extent(cols) for cols in down]
    for rows in across:
        x_lo, x_hi = extent(rows)
        for cols, (y_lo, y_hi) in zip(down, down_extents, strict=True):
            width, height = x_hi - x_lo, y_hi - y_lo
            if min(width, height) < 0.7 * max(width, height):
                continue  # not square
            slack = 0.05 * max(width, height) + 2 * HALF_WINDOW
            inside_rows = [r.at for r in rows if y_lo - slack <= r.at <= y_hi + slack]
            inside_cols = [c.at for c in cols if x_lo - slack <= c.at <= x_hi + slack]
            if len(inside_rows) < 3 or len(inside_cols) < 3:
                continue
            fit_rows, fit_cols = _fit(inside_rows), _fit(inside_cols)
            if fit_rows is None or fit_cols is None:
                continue
            (p_rows, ph_rows, s_rows), (p_cols, ph_cols, s_cols) = fit_rows, fit_cols
            ys = _cells(p_rows, ph_rows, y_lo, y_hi)
            xs = _cells(p_cols, ph_cols, x_lo, x_hi)
            if abs(p_rows - p_cols) > 0.04 * max(p_rows, p_cols):
                seen = seen or (
                    f"lines {p_cols:.0f} pixels apart across but {p_rows:.0f} down: "
                    "not a grid of square cells"
                )
                continue
            if len(xs) - 1 != len(ys) - 1:
                seen = seen or (f"a grid of {len(xs) - 1} columns but {len(ys) - 1} rows")
                continue
            n = len(xs) - 1
            if not MIN_N <= n <= MAX_N:
                seen = seen or f"a {n}x{n} grid, expected {MIN_N} to {MAX_N} cells a side"
                continue
            found.append((s_rows + s_cols, Grid(n, tuple(xs), tuple(ys))))
    if not found:
        raise ImageReadError(
            "no board found: " + (seen or "the long lines in the picture form no square grid")
        )
    found.sort(key=lambda item: -item[0])
    return [grid for _, grid in found]
