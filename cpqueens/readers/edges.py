"""Whether a lattice accounts for the whole board: its border on all four sides, nothing past it.

A lattice fitted to part of a board reads as a smaller puzzle, and a smaller
puzzle can have one solution: it must not be answered. It happens when an
edge region's thin lines are too faint to be seen (its column taken for
frame), when a turned board's lines come apart, when a crop cuts a row to a
sliver. So on each of the grid's four sides, where the picture goes on:

- the board ends: the grid's lines across that side stop there (its two
  outer lines too: a board's border turns at its corners, while an inner
  line runs on to the border further out); the cells stop there (strips past
  the edge cells, varied along the edge as they are and each the colour of
  the cell it touches, are more cells);
- the border is there: a line all along the side, or a change of colour from
  every edge cell to what lies past it; a picture that ends inside the edge
  cells has no border on that side;
- past the border lies the page: one colour all along the side, and the same
  colour past every side. Where the picture ends on the border, the border
  is one grey all along, or that grey blended by one share all along with
  the edge cells it runs beside (a crop through the border's own line,
  resized: each outermost pixel is part border, part cell); a line inside
  the board, thin within a region and thick between two, is not. Colours
  that vary along the side as cells do, or a colour the other sides do not
  have past them, are more of the board.

numpy is imported by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpqueens.readers.lattice import Grid, median

#: The strip looked at beyond an edge: from these fractions of a cell's side past it.
STRIP = (0.12, 0.6)
#: Past the corners, where an outer line running on is looked for (clear of a rounded corner).
CORNER_STRIP = (0.3, 0.7)
#: Fewer rows (or columns) of picture than this beyond an edge: the picture ends there.
LEAST_STRIP = 3
#: A line beyond an edge runs on when it stands out by this share of its contrast inside;
#: the board goes on when two lines, and a quarter of those drawn inside, run on.
RUNS_ON = 0.5
#: An outer line runs on past a corner when it is ink within this many pixels of its place
#: in this share of the rows there (a straight line, not a button's rounded end).
STRAIGHT, ALL_ALONG = 2, 0.9
#: Two colours are one when no channel differs by more than this (grey levels).
SAME = 12.0
#: A line (the border) is ink at least this strong (grey levels, darker or lighter).
BORDER_INK = 12
#: The page is looked at in a band this deep (a share of a cell, within these pixels) past
#: the border.
BAND, BAND_PIXELS = 0.1, (3, 10)
#: A page's colour along one side varies by at most this much (grey levels, any channel).
PAGE_SPREAD = 16.0

SIDES = ("top", "bottom", "left", "right")
#: Grey levels from red, green and blue.
_LUMA = np.array([0.299, 0.587, 0.114])
#: The border greys tried when the picture ends on the border (see :func:`_one_line`).
_GREYS = np.arange(256.0)


@dataclass(frozen=True)
class _Side:
    """One side of a grid, the picture turned so that its rows run along the side."""

    name: str
    ink: np.ndarray  # (across, along)
    rgb: np.ndarray  # (across, along, 3)
    marks: tuple[float, ...]  # the grid's cell boundaries along the side
    ends: tuple[float, ...]  # and across it
    out: int  # -1 or 1: the way out of the grid, across

    @classmethod
    def of(cls, name: str, darkness: np.ndarray, rgb: np.ndarray, grid: Grid) -> _Side:
        """The side ``name`` ("top", "bottom", "left" or "right") of ``grid``."""
        if name in ("top", "bottom"):
            return cls(name, darkness, rgb, grid.xs, grid.ys, -1 if name == "top" else 1)
        return cls(
            name, darkness.T, rgb.transpose(1, 0, 2), grid.ys, grid.xs, -1 if name == "left" else 1
        )

    @property
    def edge(self) -> float:
        """Where the side is, across."""
        return self.ends[0] if self.out < 0 else self.ends[-1]

    def rows(self, near: float, far: float, least: int = LEAST_STRIP) -> tuple[int, int] | None:
        """The rows between ``near`` and ``far`` pixels past the edge, if ``least`` are there."""
        a, b = self.edge + self.out * near, self.edge + self.out * far
        lo, hi = max(int(np.floor(min(a, b))), 0), min(int(np.ceil(max(a, b))), self.ink.shape[0])
        return (lo, hi) if hi - lo >= least else None

    def each_row(self, start: int, stop: float) -> list[int]:
        """The row ``d`` pixels past the edge for d = start, start + 1, ... below ``stop``.

        It stops where the picture ends.
        """
        d = np.arange(start, stop)  # as rows(d, d + 1, least=1) does, for each d at once
        a, b = self.edge + self.out * d, self.edge + self.out * (d + 1)
        lo = np.maximum(np.floor(np.minimum(a, b)), 0)
        hi = np.minimum(np.ceil(np.maximum(a, b)), self.ink.shape[0])
        ended = np.flatnonzero(hi - lo < 1)
        return lo[: ended[0] if ended.size else len(lo)].astype(np.intp).tolist()

    def inked(self, along: slice, stop: float) -> int:
        """How many rows from the edge (below ``stop``) are ink along: the border line's depth.

        A row is ink when the median of its ink ``along`` is ``BORDER_INK`` or more.
        """
        rows = self.each_row(0, stop)
        if not rows:
            return 0
        faint = np.flatnonzero(median(self.ink[rows, along], axis=1) < BORDER_INK)
        return int(faint[0]) if faint.size else len(rows)

    def slot(self, k: int, p: float) -> slice:
        """The middle half of the side's k-th cell, along."""
        lo = max(round(self.marks[k] + 0.25 * p), 0)
        return slice(lo, max(min(round(self.marks[k + 1] - 0.25 * p), self.ink.shape[1]), lo))


def _contrast(ink: np.ndarray, at: float, half: int, between: float) -> float:
    """How much more ink the columns at ``at`` hold than those at ``between`` (medians down)."""
    w = ink.shape[1]
    lo, hi = max(round(at) - half, 0), min(round(at) + half + 1, w)
    b = min(max(round(between), 0), w - 1)
    if hi <= lo or ink.shape[0] == 0:
        return 0.0
    line = ink[:, lo:hi].max(axis=1).astype(np.float64)
    gap = ink[:, b].astype(np.float64)
    return float(median(line - gap))


def _lines_run_on(s: _Side, grid: Grid) -> bool:
    """Whether the grid's lines across the side go on past it: most inner ones, or an outer one."""
    p = grid.period
    strip = s.rows(STRIP[0] * p, STRIP[1] * p)
    if strip is None or grid.n < 3:
        return False
    half = max(2, round(0.08 * p))
    first = 0 if s.out < 0 else grid.n - 1
    inside = s.ink[round(s.ends[first] + 0.25 * p) : round(s.ends[first + 1] - 0.25 * p)]
    beyond = s.ink[strip[0] : strip[1]]
    seen = running = 0
    for k in range(1, grid.n):
        own = _contrast(inside, s.marks[k], half, s.marks[k] + p / 2)
        if own < 8:  # the line is not drawn inside (no thin lines): it says nothing
            continue
        seen += 1
        if _contrast(beyond, s.marks[k], half, s.marks[k] + p / 2) >= RUNS_ON * own:
            running += 1
    if running >= 2 and running * 4 >= seen:
        return True
    corner = s.rows(CORNER_STRIP[0] * p, CORNER_STRIP[1] * p)
    if corner is None:
        return False
    past = s.ink[corner[0] : corner[1]]
    first_cell = s.ink[round(s.ends[first] + 0.25 * p) : round(s.ends[first + 1] - 0.25 * p)]
    for k in (0, grid.n):  # the border turns at a corner; a line of a larger board runs on
        at = round(s.marks[k])
        if not 0 <= at < s.ink.shape[1]:
            continue
        lo, hi = max(at - STRAIGHT, 0), at + STRAIGHT + 1
        own = float(median(first_cell[:, lo:hi].max(axis=1))) if first_cell.size else 0.0
        if own < BORDER_INK:
            continue
        there = past[:, lo:hi].max(axis=1) >= max(RUNS_ON * own, BORDER_INK)
        if float(there.mean()) >= ALL_ALONG:
            return True
    return False


def _cells_run_on(s: _Side, grid: Grid, colours: np.ndarray) -> bool:
    """Whether the strips beyond the side's cells are more cells: varied, each its neighbour's."""
    p = grid.period
    strip = s.rows(STRIP[0] * p, STRIP[1] * p)
    if strip is None:
        return False
    edge = 0 if s.out < 0 else grid.n - 1
    found, touching = [], []
    for k in range(grid.n):
        block = s.rgb[strip[0] : strip[1], s.slot(k, p)]
        if block.shape[1] < LEAST_STRIP:
            continue
        found.append(median(block.reshape(-1, 3), axis=0))
        touching.append(colours[edge, k] if s.name in ("top", "bottom") else colours[k, edge])
    if len(found) < 3:
        return False
    strips, cells = np.array(found), np.array(touching)
    varied = float(np.abs(strips - median(strips, axis=0)).max()) > SAME
    alike = np.abs(strips - cells).max(axis=1) <= SAME
    return varied and int(alike.sum()) * 2 >= len(found)


@dataclass(frozen=True)
class _Past:
    """What lies past a side: a line at each edge cell?, the colour past each (None: nothing).

    ``page``: whether the picture goes on far enough past the border for
    that colour to be the page's; otherwise it is what the picture holds
    between the border and its end (the border itself, or a sliver of the page).
    """

    lined: list[bool]
    colours: np.ndarray | None
    page: bool
    last: np.ndarray | None = None  # where the picture ends on the border: its grey at each cell


def _past(s: _Side, grid: Grid) -> _Past:
    """The border along ``s`` (a line at each edge cell?) and the colours just past it."""
    p = grid.period
    tol = max(2, round(0.06 * p))
    lined = []
    for k in range(grid.n):
        rows = s.rows(-tol, tol + 1, least=1)
        part = s.ink[rows[0] : rows[1], s.slot(k, p)] if rows else s.ink[:0]
        lined.append(part.size > 0 and float(median(part, axis=1).max()) >= BORDER_INK)
    reach = max(round(0.3 * p), tol + 1)
    depth = int(np.clip(BAND * p, *BAND_PIXELS))
    room = s.ink.shape[0] - s.edge if s.out > 0 else s.edge
    if room >= reach + depth + 2:  # the page: past the border line (its ink), a band
        along = slice(max(round(s.marks[0] + 0.25 * p), 0), round(s.marks[-1] - 0.25 * p))
        gap = s.inked(along, reach)
        band = s.rows(gap + 2, gap + 2 + depth)
    else:  # the picture ends: what it holds past the edge cells (the border, the page)
        band = s.rows(2, room, least=1)
    if band is None:  # the picture ends on the border: its outermost pixels there
        end = s.rgb[:1] if s.out < 0 else s.rgb[-1:]
        last = [
            float(median(end[:, s.slot(k, p)].reshape(-1, 3) @ _LUMA))
            if s.slot(k, p).stop > s.slot(k, p).start
            else np.nan
            for k in range(grid.n)
        ]
        return _Past(lined, None, False, np.array(last))
    found = []
    for k in range(grid.n):
        block = s.rgb[band[0] : band[1], s.slot(k, p)].reshape(-1, 3)
        found.append(median(block, axis=0) if len(block) else np.full(3, np.nan))
    return _Past(lined, np.array(found), room >= reach + depth + 2)


def _band(s: _Side, grid: Grid) -> tuple[np.ndarray, int] | None:
    """The colour just past the side's border line, and how deep it stays that colour (rows).

    None when the picture ends before a band is seen. A row stays the colour
    while at most a tenth of its pixels along the side are off it.
    """
    p = grid.period
    along = slice(max(round(s.marks[0] + 0.25 * p), 0), round(s.marks[-1] - 0.25 * p))
    gap = s.inked(along, 0.3 * p)  # past the border line
    start = s.rows(gap + 2, gap + 2 + int(np.clip(BAND * p, *BAND_PIXELS)))
    if start is None:
        return None
    colour = median(s.rgb[start[0] : start[1], along].reshape(-1, 3), axis=0)
    rows = s.each_row(gap + 2, 1.5 * p)
    if not rows or not np.isfinite(colour).all():  # (no colour: nothing is off it)
        return colour, gap + 2 + len(rows)
    # a channel off by more than SAME: above floor(colour + SAME) or below ceil(colour - SAME)
    high, low = np.floor(colour + SAME).astype(np.int16), np.ceil(colour - SAME).astype(np.int16)
    block = s.rgb[rows, along]
    off = ((block > high) | (block < low)).any(axis=2)
    other = np.flatnonzero(off.mean(axis=1) > 0.1)  # the first row off the colour
    return colour, gap + 2 + (int(other[0]) if other.size else len(rows))


def _strip_of_cells(s: _Side, grid: Grid) -> np.ndarray | None:
    """The colour of a strip a cell deep past the side's border that ends all along, or None.

    Such a strip is a row or column of cells (an edge region coloured close
    to the frame or page, its thin lines too faint to be seen) with the
    board's border past it, where a page would go on, or the picture end.
    """
    p = grid.period
    band = _band(s, grid)
    if band is None or not 0.7 * p <= band[1] < 1.3 * p:
        return None
    colour, d = band
    along = slice(max(round(s.marks[0] + 0.25 * p), 0), round(s.marks[-1] - 0.25 * p))
    for e in range(d, min(d + 3, round(1.3 * p))):  # a change all along: a line or a colour
        rows = s.rows(e, e + 1, least=1)
        if rows is None:
            return None
        off = np.abs(s.rgb[rows[0], along].astype(np.float64) - colour).max(axis=1) > SAME
        if float(off.mean()) >= ALL_ALONG:
            return colour
    return None


def strips_of_cells(darkness: np.ndarray, rgb: np.ndarray, grid: Grid) -> list[str]:
    """The sides past which an edge row or column of cells lies, as if taken for frame.

    A side with a strip a cell deep, one colour, ending all along in a line
    or a change of colour (:func:`_strip_of_cells`); and a side beside it
    past which the same colour runs at least 0.7 of a cell deep (the strip's
    end may be the picture's, or a frame of about its colour). In the order
    top, bottom, left, right.
    """
    sides = {name: _Side.of(name, darkness, rgb, grid) for name in SIDES}
    found = {}
    for name, side in sides.items():
        colour = _strip_of_cells(side, grid)
        if colour is not None:
            found[name] = colour
    for name, colour in list(found.items()):
        for other in ("left", "right") if name in ("top", "bottom") else ("top", "bottom"):
            if other in found:
                continue
            band = _band(sides[other], grid)
            if (
                band is not None
                and band[1] >= 0.7 * grid.period
                and float(np.abs(band[0] - colour).max()) <= SAME
            ):
                found[other] = band[0]
    return [name for name in SIDES if name in found]


def _one_line(last: np.ndarray, cells: np.ndarray) -> bool:
    """Whether the picture's outermost pixels along a side are one line: the board's border.

    ``last`` is their grey at each edge cell (nan: none), ``cells`` those
    cells' greys. They are one line when, for one border grey ``b`` and one
    share ``t`` (0 to 1) of cell all along, each is ``b + t * (cell - b)``
    within ``PAGE_SPREAD / 2``: the border alone (``t = 0``: one grey), or
    the border cut through and resized, each pixel part border, part the
    cell beside it. A line inside the board is not: thick (the line's ink
    alone) where it parts two regions, thin (the cells showing through)
    within one.
    """
    seen = ~np.isnan(last)
    if not seen.any() or float(np.ptp(last[seen])) <= PAGE_SPREAD:
        return True
    ends, inner = last[seen], cells[seen]
    away = inner[None, :] - _GREYS[:, None]  # (grey, cell): each cell from each border grey
    off = ends[None, :] - _GREYS[:, None]
    held = (away * away).sum(axis=1)
    share = np.clip((off * away).sum(axis=1) / np.where(held > 0, held, 1.0), 0.0, 1.0)
    misfit = np.abs(off - share[:, None] * away).max(axis=1)
    return float(misfit.min()) <= PAGE_SPREAD / 2


def _hex(colour: np.ndarray) -> str:
    return "#" + "".join(f"{round(float(v)):02X}" for v in colour)


def _border(grid: Grid, colours: np.ndarray, sides: list[_Side]) -> str | None:
    """Why the grid's border is not found all round with the page past it, or None."""
    n = grid.n
    pasts = [_past(s, grid) for s in sides]
    for s, past in zip(sides, pasts, strict=True):
        edge = 0 if s.out < 0 else n - 1
        cells = colours[edge, :] if s.name in ("top", "bottom") else colours[:, edge]
        stepped = (
            np.abs(past.colours - cells).max(axis=1) > SAME
            if past.colours is not None
            else np.zeros(n, dtype=bool)
        )
        if not all(line or bool(step) for line, step in zip(past.lined, stepped, strict=True)):
            if not past.page:
                return (
                    f"its {s.name} border was not found: the picture ends inside its edge cells "
                    "(crop the picture with the board's border)"
                )
            return f"its {s.name} border was not found (no line or change of colour all along it)"
        if past.last is not None and not _one_line(past.last, cells @ _LUMA):
            return (
                f"its {s.name} border was not found: the picture ends on a line that changes "
                "along it, a line inside the board (crop the picture with the board's border)"
            )
        if past.colours is None:
            continue
        spread = float(np.nanmax(np.abs(past.colours - np.nanmedian(past.colours, axis=0))))
        if spread > PAGE_SPREAD:
            return (
                f"its {s.name} border was not found: past it the colours change as cells do, "
                "not a page (more of the board?)"
            )
    pages = {
        s.name: np.nanmedian(past.colours, axis=0)
        for s, past in zip(sides, pasts, strict=True)
        if past.colours is not None and past.page
    }
    if len(pages) >= 2:
        page = median(np.array(list(pages.values())), axis=0)
        for name, colour in pages.items():
            if float(np.abs(colour - page).max()) > PAGE_SPREAD:
                return (
                    f"its {name} border was not found: past it lies {_hex(colour)}, not the "
                    f"page ({_hex(page)}) past its other sides (more of the board?)"
                )
    return None


def runs_on(darkness: np.ndarray, rgb: np.ndarray, grid: Grid, colours: np.ndarray) -> str | None:
    """Why the grid is not the whole board, in words, or None if it is.

    "its lines run on past its top edge", "its cells run on past its left
    edge", "its left border was not found: ...". ``darkness`` is the ink of
    lines of either colour (:func:`cpqueens.readers.lattice.ink`), ``colours``
    the cells' (n, n, 3).
    """
    sides = [_Side.of(name, darkness, rgb, grid) for name in SIDES]
    for s in sides:
        if _lines_run_on(s, grid):
            return f"its lines run on past its {s.name} edge"
        if _cells_run_on(s, grid, colours):
            return f"its cells run on past its {s.name} edge"
    return _border(grid, colours, sides)
