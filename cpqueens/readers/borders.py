"""The lines between cells, thin or thick: the game's own drawing of the regions.

The game draws a thin line between two cells of one region and a thick one
between regions. Each line is measured across a band a quarter of a cell
wide, at every pixel along its middle half (the median is kept): its ink
(its share of ink summed across it: how wide and how dark it is) and its
width (that ink divided by its peak: how wide, whatever its colour, its
opacity and the cells' beside it). When either measure falls in two clearly
separate groups, every line that is plainly thin or plainly thick is a fact
a reading of the colours must agree with; otherwise (a board drawn with
lines of one width, or too small to tell) the lines say nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpqueens.readers.lattice import Grid, median

#: The half-width of the band across a line, as a fraction of a cell's side.
BAND = 0.12
#: A line whose ink peaks below this share (of the room it had) is not drawn: no width.
FAINTEST = 0.06
#: Nor is one whose ink peaks below this many grey levels: on a dark cell a few levels are a
#: large share, and a resized picture's ringing beside a light line is that dark (4-9 levels).
FAINTEST_LEVELS = 12.0
#: Thin and thick lines are told apart only when this share of their spread lies between them.
CLEAR = 0.85
#: Lines split less clearly than this overrule no reading of the colours: where they disagree,
#: the colours alone decide (as they do where the lines split less clearly than ``CLEAR``).
SURE = 0.9
#: Thick lines carry at least this many times the ink of thin ones, or their ink says nothing.
RATIO = 1.6
#: Thick lines are at least this many times as wide as thin ones, or their widths say nothing
#: (a narrow line between two pixels measures up to twice its width).
RATIO_WIDE = 2.0
#: A line within this fraction of the gap from the other group's mean is not told.
UNSURE = 0.3

Edge = tuple[tuple[int, int], tuple[int, int]]
_Pair = tuple[np.ndarray, np.ndarray]  # dark and light


@dataclass(frozen=True)
class Borders:
    """The lines told apart: ``thick`` and ``thin`` edges (pairs of neighbouring cells)."""

    thick: frozenset[Edge]
    thin: frozenset[Edge]
    clear: float = 1.0  # how clearly the lines split in two (0 to 1)

    def conflicts(self, regions: tuple[tuple[int, ...], ...]) -> list[Edge]:
        """The edges where ``regions`` disagree with the lines (one region across a thick one)."""
        wrong = []
        for edge in sorted(self.thick | self.thin):
            (r, c), (rr, cc) = edge
            same = regions[r][c] == regions[rr][cc]
            if same == (edge in self.thick):
                wrong.append(edge)
        return wrong

    def without(self, cells: set[tuple[int, int]]) -> Borders:
        """These lines but those beside any of ``cells`` (told neither thick nor thin)."""
        if not cells:
            return self
        return Borders(
            frozenset(e for e in self.thick if not cells.intersection(e)),
            frozenset(e for e in self.thin if not cells.intersection(e)),
            self.clear,
        )

    def shaded(self, regions: tuple[tuple[int, ...], ...]) -> bool:
        """Whether every inner line of some region of ``regions`` (two or more) is told thick.

        No board draws a region so: its lines are then lines of one grey,
        darker than some cells and lighter than others, whose ink is the
        cells' shade showing through (a board drawn with 1-pixel lines only).
        """
        inside: dict[int, list[bool]] = {}
        for edge in self.thick | self.thin:
            (r, c), (rr, cc) = edge
            if regions[r][c] == regions[rr][cc]:
                inside.setdefault(regions[r][c], []).append(edge in self.thick)
        return any(len(told) >= 2 and all(told) for told in inside.values())


@dataclass(frozen=True)
class Ink:
    """A picture's ink: how much darker and lighter than its surroundings each pixel is.

    ``dark`` and ``light`` (grey levels, :func:`~cpqueens.readers.lattice.inks`)
    of the picture whose grey levels are ``grey``.
    """

    dark: np.ndarray
    light: np.ndarray
    grey: np.ndarray

    def levels(self, rows: slice, cols: slice) -> tuple[np.ndarray, np.ndarray]:
        """The dark and light ink of a part, in grey levels."""
        return (
            self.dark[rows, cols].astype(np.float32),
            self.light[rows, cols].astype(np.float32),
        )

    def shares(self, rows: slice, cols: slice) -> tuple[np.ndarray, np.ndarray]:
        """The dark and light ink of a part, each as a share of the room it had (0 to 1).

        A line drawn at some opacity over a cell has that opacity as its
        share, whatever the cell's colour: black over a darker cell is as
        wide as over a lighter one, white over a dark cell likewise.
        """
        grey = self.grey[rows, cols].astype(np.float32)
        dark = self.dark[rows, cols].astype(np.float32)
        light = self.light[rows, cols].astype(np.float32)
        return (
            dark / np.maximum(grey + dark, 1.0),
            light / np.maximum(255.0 - grey + light, 1.0),
        )


def _across(strip: np.ndarray, levels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Along a line (the rows of ``strip``, its band across): the ink and the width at each.

    ``levels`` is the same ink in grey levels: a line fainter than
    ``FAINTEST`` of its room or ``FAINTEST_LEVELS`` grey levels has no width.
    """
    above = strip - strip.min(axis=1, keepdims=True)
    peaks = above.max(axis=1)
    sums = above.sum(axis=1)
    strong = (levels - levels.min(axis=1, keepdims=True)).max(axis=1) >= FAINTEST_LEVELS
    return sums, np.where((peaks >= FAINTEST) & strong, sums / np.maximum(peaks, 1e-6), 0.0)


def measure(ink: Ink, grid: Grid) -> tuple[dict[Edge, float], dict[Edge, float]]:
    """Each inner line's ink and width, the medians along its middle half.

    Of the dark ink or the light, whichever has more on the lines. Across
    each line the ink above the band's least is summed (the line's ink), and
    divided by its peak (its width: up to twice a narrow line's when the line
    falls between two pixels); a line fainter than ``FAINTEST`` has no width.
    """
    h, w = ink.grey.shape
    n, side = grid.n, grid.period
    band = max(2, round(BAND * side))
    top, bottom = max(round(grid.ys[0]), 0), min(round(grid.ys[-1]), h)
    left, right = max(round(grid.xs[0]), 0), min(round(grid.xs[-1]), w)
    lines: list[tuple[int, bool, _Pair, _Pair]] = []
    totals = np.zeros(2)
    for k in range(1, n):
        for vertical in (True, False):
            at = round((grid.xs if vertical else grid.ys)[k])
            near = slice(max(at - band, 0), at + band + 1)
            if vertical:  # the line at xs[k], along rows top .. bottom
                parts = ink.shares(slice(top, bottom), near)
                levels = ink.levels(slice(top, bottom), near)
            else:
                parts = ink.shares(near, slice(left, right))
                parts = (parts[0].T, parts[1].T)
                levels = ink.levels(near, slice(left, right))
                levels = (levels[0].T, levels[1].T)
            if parts[0].size == 0:
                continue
            totals += [float((p - p.min(axis=1, keepdims=True)).sum()) for p in parts]
            lines.append((k, vertical, parts, levels))
    chosen = int(np.argmax(totals))
    inks: dict[Edge, float] = {}
    widths: dict[Edge, float] = {}
    for k, vertical, parts, levels in lines:
        sums, wide = _across(parts[chosen], levels[chosen])
        start, marks = (top, grid.ys) if vertical else (left, grid.xs)
        for r in range(n):
            lo = max(round(marks[r] + side / 4) - start, 0)
            hi = min(round(marks[r + 1] - side / 4) - start, len(sums))
            if hi > lo:
                edge = ((r, k - 1), (r, k)) if vertical else ((k - 1, r), (k, r))
                inks[edge] = float(median(sums[lo:hi]))
                widths[edge] = float(median(wide[lo:hi]))
    return inks, widths


def _two_groups(found: dict[Edge, float], ratio: float) -> tuple[float, float, float] | None:
    """The thin and thick means of ``found`` split in two (Otsu), and how clearly: 0 to 1.

    The clearness is the share of the values' spread that lies between the
    two groups (1: each group all one value). None when the thick group is
    not ``ratio`` times the thin one.
    """
    values = np.sort(np.fromiter(found.values(), dtype=np.float64))
    m = len(values)
    if m < 2:
        return None
    ones, squares = np.cumsum(values), np.cumsum(values**2)
    low = np.arange(1, m)  # the first group's size at each split
    inside = (squares[:-1] - ones[:-1] ** 2 / low) + (
        (squares[-1] - squares[:-1]) - (ones[-1] - ones[:-1]) ** 2 / (m - low)
    )
    i = int(np.argmin(inside)) + 1
    thin_mean, thick_mean = float(values[:i].mean()), float(values[i:].mean())
    if thick_mean < ratio * max(thin_mean, 1e-6):
        return None
    total = float(squares[-1] - ones[-1] ** 2 / m)
    return thin_mean, thick_mean, 1.0 - float(inside[i - 1]) / max(total, 1e-12)


def tell(ink: Ink, grid: Grid) -> Borders:
    """The lines plainly thin and plainly thick, or none when they are not clearly two groups.

    The board's lines are of the ink (dark or light) with more of it on them
    (on the dark theme, light thin lines and dark borders: the borders), so
    that a bright gap between dark marks and lines is not taken for more
    line. Lines are told apart by their ink or by their width, whichever
    splits them more clearly (at least ``CLEAR``).
    """
    inks, wide = measure(ink, grid)
    if len(inks) < 4:
        return Borders(frozenset(), frozenset())
    splits = [
        (two, found)
        for found, ratio in ((inks, RATIO), (wide, RATIO_WIDE))
        if (two := _two_groups(found, ratio))
    ]
    splits = [(two, found) for two, found in splits if two[2] >= CLEAR]
    if not splits:
        return Borders(frozenset(), frozenset())
    (thin_mean, thick_mean, clear), found = max(splits, key=lambda s: s[0][2])
    gap = thick_mean - thin_mean
    thin = frozenset(e for e, v in found.items() if v <= thin_mean + UNSURE * gap)
    thick = frozenset(e for e, v in found.items() if v >= thick_mean - UNSURE * gap)
    return Borders(thick, thin, clear)
