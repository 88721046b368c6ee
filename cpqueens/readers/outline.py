"""Where the board is when its lines do not show it: by level, then by its outline.

:func:`levels` is the order the reader tries lattices in: the long lines of
:mod:`~cpqueens.readers.lattice` at each contrast, then the board's outline.
A board whose thin lines are too faint to run across it (a dark theme's
light lines, scaled down and compressed) still shows its outline: its border
(two long lines each way), or its cells as a square block apart from the
page; inside it, the region borders fall on the lattice, and the size whose
lattice they fit best is the board's.

numpy is imported by the caller; nothing here knows regions.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from cpqueens.errors import ImageReadError
from cpqueens.readers import lattice
from cpqueens.readers.lattice import (
    FAINTER,
    LINE_CONTRAST,
    MAX_GROUPS,
    MAX_INK,
    MAX_N,
    MAX_RUNS_PER_PIXEL,
    MIN_N,
    MIN_PERIOD,
    Grid,
)

#: A boundary between cells changes some channel by at least this much across 3 pixels.
STEP = 24
#: A pixel is apart from the page when a channel differs from the page's by more than this.
APART = 24


def levels(darkness: np.ndarray, rgb: np.ndarray | None = None) -> Iterator[list[Grid]]:
    """The lattices that could be the board, by level, likeliest first.

    Lines are looked for in ``darkness`` (the ink of lines of either colour,
    :func:`~cpqueens.readers.lattice.ink`) as at least ``LINE_CONTRAST``
    darker or lighter than their surroundings, then fainter (the game's thin
    lines are a light shade, fainter still in a scaled JPEG); then, with
    ``rgb``, as the boundaries between cells, lines or changes of colour alike
    (a line between a dark cell and a light one is no darker than the dark
    cell, and breaks the lines across it); last, by the board's outline (its
    border, or its cells apart from the page) and where the ink falls inside
    it. Each level yields every lattice it found that no earlier level gave
    (the caller tries the first ``MAX_GRIDS`` and looks among all of them for
    a second board). Raises ImageReadError, once the levels are used up, if
    no level found any.
    """
    failure: ImageReadError | None = None
    seen: set[Grid] = set()
    for mask in _masks(darkness, rgb):
        try:
            grids = lattice.find(mask)
        except ImageReadError as error:
            failure = failure or error
            continue
        fresh = [grid for grid in dict.fromkeys(grids) if grid not in seen]
        seen.update(fresh)
        if fresh:
            yield fresh
    fresh = [grid for grid in dict.fromkeys(_by_outline(darkness, rgb)) if grid not in seen]
    seen.update(fresh)
    if fresh:
        yield fresh
    if not seen:
        assert failure is not None
        raise failure


def _masks(darkness: np.ndarray, rgb: np.ndarray | None) -> Iterator[np.ndarray]:
    """The pixels of lines at each level, each made only when it is asked for."""
    for contrast in (LINE_CONTRAST, *FAINTER):
        yield darkness >= contrast
    if rgb is not None:
        yield boundaries(rgb) >= STEP


def boundaries(rgb: np.ndarray) -> np.ndarray:
    """How much the colour changes around each pixel: the largest channel's 3 x 3 range.

    Lines and changes of colour alike (every cell boundary of a board is one
    or the other); a broad area of one colour is 0.
    """
    out = np.zeros(rgb.shape[:2], dtype=np.uint8)
    for k in range(3):
        channel = np.ascontiguousarray(rgb[..., k])
        top = lattice.running(lattice.running(channel, 1, 0, np.maximum), 1, 1, np.maximum)
        low = lattice.running(lattice.running(channel, 1, 0, np.minimum), 1, 1, np.minimum)
        np.maximum(out, top - low, out=out)
    return out


def _by_outline(darkness: np.ndarray, rgb: np.ndarray | None = None) -> list[Grid]:
    """Boards found by their outline, the size told by where the ink falls inside.

    For boards whose thin lines are too faint to run across the board: the
    outer border still does (top and bottom, left and right, each a long
    line of one extent), and the cells make a square block apart from the
    page. Inside, the thick region borders fall on the lattice: each size n
    from ``MIN_N`` to ``MAX_N`` is scored by the ink on its lattice lines
    less the ink halfway between them; the best, if it stands out, is the
    board.
    """
    h, w = darkness.shape
    least = max(24, int(0.12 * min(h, w)))
    mask = darkness >= LINE_CONTRAST
    if mask.mean() > MAX_INK:
        return []
    boxes = _outlines(mask, least)
    if rgb is not None:
        boxes += _blocks(rgb, least)
    ink = darkness.astype(np.float32)
    found: list[tuple[float, Grid]] = []
    for left, right, top, bottom in boxes:
        inside = ink[round(top) : round(bottom), round(left) : round(right) + 1]
        scores = sorted(
            (
                (_lattice_score(inside.mean(axis=0), n) + _lattice_score(inside.mean(axis=1), n), n)
                for n in range(MIN_N, MAX_N + 1)
            ),
            reverse=True,
        )
        (best, n), (second, _) = scores[0], scores[1]
        if best <= 0 or best < 1.3 * max(second, 0):
            continue
        xs = tuple(left + k * (right - left) / n for k in range(n + 1))
        ys = tuple(top + k * (bottom - top) / n for k in range(n + 1))
        found.append((best, Grid(n, xs, ys)))
    found.sort(key=lambda item: -item[0])
    return [grid for _, grid in found]


Box = tuple[float, float, float, float]


def _outlines(mask: np.ndarray, least: int) -> list[Box]:
    """Squares (left, right, top, bottom) framed by two long lines each way, of matching extents."""
    across = lattice.line_groups(mask, least, fewest=2)
    down = lattice.line_groups(np.ascontiguousarray(mask.T), least, fewest=2)
    boxes = []
    for rows in across:
        top, bottom = rows[0].at, rows[-1].at
        x_lo, x_hi = lattice.extent(rows)
        for cols in down:
            left, right = cols[0].at, cols[-1].at
            y_lo, y_hi = lattice.extent(cols)
            side = right - left
            if side < MIN_N * MIN_PERIOD or abs((bottom - top) - side) > 0.04 * side:
                continue
            tol = 0.12 * side
            if abs(x_lo - left) > tol or abs(x_hi - right) > tol:
                continue
            if abs(y_lo - top) > tol or abs(y_hi - bottom) > tol:
                continue
            boxes.append((left, right, top, bottom))
    return boxes


def _blocks(rgb: np.ndarray, least: int) -> list[Box]:
    """Squares of pixels apart from the page, lines aside: the cells of a board.

    The page is the colour of the picture's edges; a pixel is apart from it
    when a channel differs by more than ``APART`` (on the game's dark theme,
    muted cells on a near-black page, whose border and lines may not show).
    The rows' long runs of such pixels, of one extent, give the board's left
    and right, the columns' its top and bottom (a rounded corner shortens
    only the outermost); a square whose runs fill most of its side is a board.
    """
    frame = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]]).reshape(-1, 3)
    page = np.median(frame, axis=0).astype(np.int16)
    apart = (np.abs(rgb.astype(np.int16) - page).max(axis=2) > APART).astype(np.uint8)
    rows = _groups_of_runs(lattice.running(apart, 2, 1, np.maximum) > 0, least)
    cols = _groups_of_runs(
        np.ascontiguousarray(lattice.running(apart, 2, 0, np.maximum).T) > 0, least
    )
    boxes = []
    for (left, right), many_rows in rows:
        for (top, bottom), many_cols in cols:
            side = right - left
            if side < MIN_N * MIN_PERIOD or abs((bottom - top) - side) > 0.04 * side:
                continue
            if min(many_rows, many_cols) < 0.7 * side:
                continue
            boxes.append((float(left), float(right), float(top), float(bottom)))
    return boxes


def _groups_of_runs(mask: np.ndarray, least: int) -> list[tuple[tuple[int, int], int]]:
    """The extents (start, end) shared by many rows' long runs of ``mask``, and how many rows."""
    rows, starts, ends = lattice.runs(mask, least)
    if len(rows) > MAX_RUNS_PER_PIXEL * sum(mask.shape):
        return []
    counts: dict[tuple[int, int], int] = {}
    for start, end in zip((starts // 3).tolist(), (ends // 3).tolist(), strict=True):
        counts[(start, end)] = counts.get((start, end), 0) + 1
    best = sorted(counts.items(), key=lambda item: -item[1])[:MAX_GROUPS]
    return [((3 * a, 3 * b), count) for (a, b), count in best]


def _lattice_score(profile: np.ndarray, n: int) -> float:
    """Mean ink on the n - 1 inner lines of a lattice of n cells over ``profile``, less between."""
    period = (len(profile) - 1) / n
    if period < MIN_PERIOD:
        return -1.0
    size = len(profile)

    def near(x: float) -> float:
        i = round(x)
        return float(profile[max(i - 1, 0) : min(i + 2, size)].max())

    on = np.mean([near(k * period) for k in range(1, n)])
    off = np.mean([near((k + 0.5) * period) for k in range(n)])
    return float(on - off)
