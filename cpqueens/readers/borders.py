"""The lines between cells, thin or thick: the game's own drawing of the regions.

The game draws a thin line between two cells of one region and a thick one
between regions. Each line's ink (the darkness the top-hat keeps, summed
across the line over a band a seventh of a cell wide, median along its middle
half) measures its width whatever the scale, the anti-aliasing or the JPEG
blur. When the widths fall in two clearly separate groups, every line that
is plainly thin or plainly thick is a fact a reading of the colours must
agree with; otherwise (a board drawn without thick borders, or too small to
tell) the lines say nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpqueens.readers.lattice import Grid

#: The half-width of the band across a line, as a fraction of a cell's side.
BAND = 0.07
#: Thick lines carry at least this many times the ink of thin ones, or the widths say nothing.
RATIO = 1.6
#: A line within this fraction of the gap from the other group's mean is not told.
UNSURE = 0.3

Edge = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class Borders:
    """The lines told apart: ``thick`` and ``thin`` edges (pairs of neighbouring cells)."""

    thick: frozenset[Edge]
    thin: frozenset[Edge]

    def conflicts(self, regions: tuple[tuple[int, ...], ...]) -> list[Edge]:
        """The edges where ``regions`` disagree with the lines (one region across a thick one)."""
        wrong = []
        for edge in sorted(self.thick | self.thin):
            (r, c), (rr, cc) = edge
            same = regions[r][c] == regions[rr][cc]
            if same == (edge in self.thick):
                wrong.append(edge)
        return wrong


def _edges(n: int) -> list[Edge]:
    across = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    down = [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    return across + down


def widths(darkness: np.ndarray, grid: Grid, grey: np.ndarray) -> dict[Edge, float]:
    """Each inner line's ink: darkness summed across it, the median along its middle half.

    A pixel's darkness counts as a share of its surroundings' brightness (the
    closing, ``grey + darkness``), so a black line is as wide beside a cell
    drawn darker as beside any other.
    """
    h, w = darkness.shape
    side = grid.period
    band = max(2, round(BAND * side))
    ink = darkness.astype(np.float32) / np.maximum(darkness + grey.astype(np.float32), 1.0)
    out: dict[Edge, float] = {}
    for edge in _edges(grid.n):
        (r, c), (rr, _) = edge
        if rr == r:  # a vertical line at xs[c + 1], along rows ys[r] .. ys[r + 1]
            at = round(grid.xs[c + 1])
            lo, hi = grid.ys[r] + side / 4, grid.ys[r + 1] - side / 4
            strip = ink[
                max(round(lo), 0) : min(round(hi), h), max(at - band, 0) : min(at + band + 1, w)
            ]
            sums = strip.sum(axis=1)
        else:  # a horizontal line at ys[r + 1]
            at = round(grid.ys[r + 1])
            lo, hi = grid.xs[c] + side / 4, grid.xs[c + 1] - side / 4
            strip = ink[
                max(at - band, 0) : min(at + band + 1, h), max(round(lo), 0) : min(round(hi), w)
            ]
            sums = strip.sum(axis=0)
        if sums.size:
            out[edge] = float(np.median(sums))
    return out


def tell(darkness: np.ndarray, grid: Grid, grey: np.ndarray) -> Borders:
    """The lines plainly thin and plainly thick, or none when the widths are not two groups."""
    found = widths(darkness, grid, grey)
    if len(found) < 4:
        return Borders(frozenset(), frozenset())
    values = np.array(sorted(found.values()))
    best, split = None, 0  # Otsu: the split of the sorted widths with the least spread inside
    for i in range(1, len(values)):
        low, high = values[:i], values[i:]
        spread = low.var() * len(low) + high.var() * len(high)
        if best is None or spread < best:
            best, split = spread, i
    thin_mean, thick_mean = values[:split].mean(), values[split:].mean()
    if thick_mean < RATIO * max(thin_mean, 1e-6):
        return Borders(frozenset(), frozenset())
    gap = thick_mean - thin_mean
    thin = frozenset(e for e, v in found.items() if v <= thin_mean + UNSURE * gap)
    thick = frozenset(e for e, v in found.items() if v >= thick_mean - UNSURE * gap)
    return Borders(thick, thin)
