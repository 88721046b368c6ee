"""Reading the Queens game from a screenshot: the grid, each cell's colour, the regions.

:func:`read` opens the picture (:mod:`~cpqueens.readers.images`), shrinks a
large one to about two million pixels (box averaging keeps thin lines as
fainter lines), finds the lattice (:mod:`~cpqueens.readers.lattice`),
samples each cell's colour and what it holds
(:mod:`~cpqueens.readers.colours`), keeps the readings that agree with the
thin and thick lines the game draws within and between regions
(:mod:`~cpqueens.readers.borders`) and returns a :class:`Reading`: every
way the colours read as n regions, cheapest first, with the geometry in
the original picture's pixels (for drawing the answer over it). It raises
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
WORKING_PIXELS = 2_200_000


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


def _repaired(regions: Regions, lines: Any, colours: Any) -> list[Regions]:
    """``regions`` with cells moved across thin lines until they agree with the lines.

    A cell on a thin line to another region, whose colour is a darker or
    lighter copy of that region's (a highlighted cell whose tone happens to
    be a neighbour's colour), is moved there; every combination of such
    moves that leaves no disagreement is a reading.
    """
    from itertools import product

    import numpy as np

    from cpqueens.readers.colours import tone_cost

    n = len(regions)
    flat = np.asarray(colours).reshape(-1, 3)
    labels = np.array([g for row in regions for g in row])
    medians = {g: np.median(flat[labels == g], axis=0) for g in set(labels.tolist())}
    moves: dict[Cell, list[int]] = {}
    for (r, c), (rr, cc) in lines.conflicts(regions)[:8]:
        if ((r, c), (rr, cc)) not in lines.thin:
            continue
        for (a, b), (x, y) in (((r, c), (rr, cc)), ((rr, cc), (r, c))):
            target = regions[x][y]
            if np.isfinite(tone_cost(flat[a * n + b], medians[target])):
                moves.setdefault((a, b), [regions[a][b]]).append(target)
    out: list[Regions] = []
    cells = list(moves)
    for picks in product(*(moves[cell] for cell in cells)):
        grid = [list(row) for row in regions]
        for (a, b), g in zip(cells, picks, strict=True):
            grid[a][b] = g
        if len({g for row in grid for g in row}) != n:
            continue
        moved = tuple(tuple(row) for row in grid)
        if not lines.conflicts(moved) and moved not in out:
            out.append(moved)
    return out


def read(source: Any) -> Reading:
    """Read the board in ``source`` (a path, bytes, a binary file or a PIL image).

    Raises :class:`~cpqueens.errors.ImageReadError` (its ``reading`` the
    partial :class:`Reading`, or None before a grid is found) when no square
    grid is found or its colours do not read as n regions.
    """
    import numpy as np

    from cpqueens.readers import images, lattice

    image = images.load(source)
    width, height = image.size
    factor = 1
    while (width // factor) * (height // factor) > WORKING_PIXELS:
        factor += 1
    work = image.reduce(factor) if factor > 1 else image
    rgb = np.asarray(work, dtype=np.uint8)
    grey = np.asarray(work.convert("L"), dtype=np.uint8)
    darkness = lattice.ink(grey)
    first: ImageReadError | None = None
    for grid in lattice.find(darkness, grey):
        try:
            return _read_grid(grid, rgb, grey, darkness, factor, image)
        except ImageReadError as error:
            first = first or error
    assert first is not None
    raise first


def _read_grid(grid: Any, rgb: Any, grey: Any, darkness: Any, factor: int, image: Any) -> Reading:
    """The reading of the board at ``grid`` (working pixels; ``factor`` to the picture's)."""
    from cpqueens.readers import borders
    from cpqueens.readers import colours as colour_groups

    colours = colour_groups.sample(rgb, grid)
    held = colour_groups.marks(grey, grid, colours)
    found = colour_groups.readings(colours)
    lines = borders.tell(darkness, grid, grey)
    options = [regions for regions in found.options if not lines.conflicts(regions)]
    if not options and found.options:
        options = _repaired(found.options[0], lines, colours)
    n = grid.n
    reading = Reading(
        n=n,
        xs=tuple(x * factor for x in grid.xs),
        ys=tuple(y * factor for y in grid.ys),
        colours=tuple(tuple(tuple(round(v) for v in cell) for cell in row) for row in colours),
        groups=found.groups,
        options=tuple(options),
        queens=tuple((r, c) for r in range(n) for c in range(n) if held[r, c] == 2),
        crosses=tuple((r, c) for r in range(n) for c in range(n) if held[r, c] == 1),
        size=image.size,
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
    if not options:
        (r, c), (rr, cc) = lines.conflicts(found.options[0])[0]
        raise ImageReadError(
            f"found {reading.seen()} but its colours and its region borders disagree "
            f"(between r{r + 1}c{c + 1} and r{rr + 1}c{cc + 1})",
            reading,
        )
    return reading
