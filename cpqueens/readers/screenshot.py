"""Reading the Queens game from a screenshot: the grid, each cell's colour, the regions.

:func:`read` opens the picture (:mod:`~cpqueens.readers.images`), shrinks a
large one to about a million pixels (box averaging keeps thin lines as
fainter lines), finds the lattice (:mod:`~cpqueens.readers.lattice`),
samples each cell's colour and what it holds (:mod:`~cpqueens.readers.colours`)
and returns a :class:`Reading`: every way the colours read as n regions,
cheapest first, with the geometry in the original picture's pixels (for
drawing the answer over it). It raises
:class:`~cpqueens.errors.ImageReadError` with the partial reading when it
cannot be sure, and never checks a puzzle: that it has connected regions and
one solution is for :mod:`cpqueens.tasks.puzzles`, which has the engines.
numpy and Pillow are imported on the first picture read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cpqueens.errors import ImageReadError

Cell = tuple[int, int]
Regions = tuple[tuple[int, ...], ...]

#: A picture larger than this many pixels is shrunk by a whole factor before it is read.
WORKING_PIXELS = 1_300_000


@dataclass(frozen=True)
class Reading:
    """What was read from a screenshot.

    ``n`` cells a side; ``xs`` and ``ys`` the cell boundaries in the
    picture's pixels; ``colours`` each cell's sampled RGB; ``groups`` the
    colour groups found before darker or lighter copies were merged;
    ``options`` the region grids the colours read as (n regions each,
    cheapest first; empty if none); ``queens`` and ``crosses`` the cells
    holding a drawn queen or X; ``size`` the picture's (width, height).
    """

    n: int
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    colours: tuple[tuple[tuple[int, int, int], ...], ...]
    groups: int
    options: tuple[Regions, ...]
    queens: tuple[Cell, ...] = ()
    crosses: tuple[Cell, ...] = ()
    size: tuple[int, int] = (0, 0)
    image: Any = field(default=None, repr=False, compare=False)

    def box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """Cell (row, col) as (left, top, right, bottom) in the picture's pixels."""
        return self.xs[col], self.ys[row], self.xs[col + 1], self.ys[row + 1]

    def seen(self) -> str:
        """What was read, in words: "a 9x9 grid with 8 colour groups"."""
        return f"a {self.n}x{self.n} grid with {self.groups} colour groups"


def read(source: Any) -> Reading:
    """Read the board in ``source`` (a path, bytes, a binary file or a PIL image).

    Raises :class:`~cpqueens.errors.ImageReadError` (its ``reading`` the
    partial :class:`Reading`, or None before a grid is found) when no square
    grid is found or its colours do not read as n regions.
    """
    import numpy as np

    from cpqueens.readers import colours as colour_groups
    from cpqueens.readers import images, lattice

    image = images.load(source)
    width, height = image.size
    factor = 1
    while (width // factor) * (height // factor) > WORKING_PIXELS:
        factor += 1
    work = image.reduce(factor) if factor > 1 else image
    rgb = np.asarray(work, dtype=np.uint8)
    weights = np.array([77, 150, 29], dtype=np.uint16)
    grey = ((rgb.astype(np.uint16) * weights).sum(axis=2, dtype=np.uint32) >> 8).astype(np.uint8)
    grid = lattice.find(grey)
    colours = colour_groups.sample(rgb, grid)
    held = colour_groups.marks(grey, grid, colours)
    found = colour_groups.readings(colours)
    n = grid.n
    reading = Reading(
        n=n,
        xs=tuple(x * factor for x in grid.xs),
        ys=tuple(y * factor for y in grid.ys),
        colours=tuple(tuple(tuple(round(v) for v in cell) for cell in row) for row in colours),
        groups=found.groups,
        options=found.options,
        queens=tuple((r, c) for r in range(n) for c in range(n) if held[r, c] == 2),
        crosses=tuple((r, c) for r in range(n) for c in range(n) if held[r, c] == 1),
        size=(width, height),
        image=image,
    )
    if not found.options:
        if found.groups < n:
            why = "colours too close to separate, or a grid misread"
        else:
            why = "more colours than regions, and no darker or lighter copies to merge"
        raise ImageReadError(
            f"found a {n}x{n} grid but {found.groups} colour groups ({why})", reading
        )
    return reading
