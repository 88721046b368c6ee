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
one solution is for :mod:`cpqueens.tasks.screenshots`, which asks the engines.
numpy and Pillow are imported on the first picture read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from cpqueens.errors import ImageReadError

Cell = tuple[int, int]
Regions = tuple[tuple[int, ...], ...]

#: A lattice apart from the board read is a second board when this share of its cells is plain.
PLAIN_BOARD = 0.6
#: A picture larger than this many pixels is shrunk by a whole factor before it is read.
WORKING_PIXELS = 2_200_000
#: Where no board is found in a shrunk picture, it is read again less shrunk, up to this many
#: pixels (1-pixel lines a few grey levels faint, halved by the shrinking, are lost in it).
RETRY_PIXELS = 2 * WORKING_PIXELS
#: A cell darker than this (grey levels) shows no dark line beside it: the lines along it say
#: nothing of the regions (a near-black region on a dark page, its border black).
DIM_CELL = 40.0


@dataclass(frozen=True)
class Turn:
    """How a turned picture was turned back before it was read (pixels of the picture).

    The picture was turned ``angle`` degrees (anticlockwise as seen); turned
    back, its centre ``centre`` went to ``straight`` in the straightened copy.
    """

    angle: float
    straight: tuple[float, float]
    centre: tuple[float, float]

    def back(self, x: float, y: float) -> tuple[float, float]:
        """The point (x, y) of the straightened copy, in the picture as it was given."""
        import math

        a = math.radians(-self.angle)
        u, v = x - self.straight[0], y - self.straight[1]
        dx = math.cos(a) * u - math.sin(a) * v
        dy = math.sin(a) * u + math.cos(a) * v
        return self.centre[0] + dx, self.centre[1] + dy


@dataclass(frozen=True)
class Reading:
    """What was read from a screenshot.

    ``n`` cells a side; ``xs`` and ``ys`` the cell boundaries in the
    picture's pixels; ``colours`` each cell's sampled RGB; ``groups`` the
    colour groups found before darker or lighter copies were merged;
    ``options`` the region grids the colours read as (n regions each,
    cheapest first; empty if none); ``queens`` and ``crosses`` the cells
    holding a drawn queen or X; ``size`` the picture's (width, height);
    ``turn`` how the picture was turned back first (None: it was read as it
    is), ``xs`` and ``ys`` then being in the straightened copy.
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
    turn: Turn | None = None

    def box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """Cell (row, col) as (left, top, right, bottom) in the picture's pixels.

        In a turned picture, the square of the cell's side around its centre.
        """
        left, top, right, bottom = self.xs[col], self.ys[row], self.xs[col + 1], self.ys[row + 1]
        if self.turn is None:
            return left, top, right, bottom
        x, y = self.turn.back((left + right) / 2, (top + bottom) / 2)
        half_w, half_h = (right - left) / 2, (bottom - top) / 2
        return x - half_w, y - half_h, x + half_w, y + half_h

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
    grid is found, its colours do not read as n regions, the grid does not
    account for the whole board, or the picture holds more than one board.
    """
    from cpqueens.readers import images

    image = images.load(source)
    width, height = image.size
    factor = 1
    while (width // factor) * (height // factor) > WORKING_PIXELS:
        factor += 1
    try:
        return _read_at(image, factor)
    except ImageReadError as error:
        finer = factor - 1
        if (
            error.reading is not None
            or not finer
            or (width // finer) * (height // finer) > RETRY_PIXELS
        ):
            raise
        try:  # no board found shrunk: its faintest lines may show less shrunk
            return _read_at(image, finer)
        except ImageReadError:
            raise error from None


def _read_at(image: Any, factor: int) -> Reading:
    """The reading of ``image`` shrunk by ``factor`` (see :func:`read`)."""
    import numpy as np
    from PIL import Image

    from cpqueens.readers import lattice, outline, skew

    work = image.reduce(factor) if factor > 1 else image
    view = _View.of(work)
    turn: Turn | None = None
    angle = skew.angle(view.darkness, lattice.LINE_CONTRAST)
    if angle:  # turned back, so that the board's lines run straight along rows and columns
        page = tuple(int(v) for v in np.median(_frame(view.rgb), axis=0))
        straight = work.rotate(
            -angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=page
        )
        turn = Turn(
            angle,
            (straight.width * factor / 2, straight.height * factor / 2),
            (work.width * factor / 2, work.height * factor / 2),
        )
        view = _View.of(straight)
    first: ImageReadError | None = None
    for level in outline.levels(view.darkness, view.rgb):
        for grid in level[: lattice.MAX_GRIDS]:
            try:
                reading = _read_grid(grid, view, factor, image, turn)
            except ImageReadError as error:
                first = first or error
                if isinstance(error, NotWholeBoardError):  # is what goes on a second board?
                    _one_board(view, grid, level, factor, error.reading)
                continue
            grown = _grown(grid, view)
            if grown is not None:  # a row and a column of cells taken for frame: read them
                try:
                    reading = _read_grid(grown, view, factor, image, turn)
                except ImageReadError as error:
                    sides = " and ".join(_strips(view, grid))
                    raise NotWholeBoardError(
                        f"found a {grid.n}x{grid.n} grid but past its {sides} edges lie strips "
                        "of one colour a cell deep, as an edge row and column would (an edge "
                        "region coloured like the frame or the page?), and read with them as a "
                        f"{grown.n}x{grown.n} grid, {error.args[0].split(' but ', 1)[-1]}",
                        reading,
                    ) from None
                grid = grown
            _one_board(view, grid, level, factor, reading)
            return reading
    assert first is not None
    raise first


def _strips(view: _View, grid: Any) -> list[str]:
    """The sides of ``grid`` past which a strip of cells lies (:mod:`~cpqueens.readers.edges`)."""
    from cpqueens.readers import edges

    return edges.strips_of_cells(view.darkness, view.rgb, grid)


def _grown(grid: Any, view: _View) -> Any:
    """``grid`` grown by a row and a column where strips of cells lie past two sides that meet.

    An edge region along two sides, coloured close to the frame or the page,
    its thin lines too faint to see, leaves the lattice one row and one column
    short; the border past it, a cell further out, tells it. None otherwise.
    """
    from cpqueens.readers import lattice

    found = set(_strips(view, grid))
    across = [side for side in ("left", "right") if side in found]
    down = [side for side in ("top", "bottom") if side in found]
    if len(across) != 1 or len(down) != 1:
        return None
    p = grid.period
    xs = (grid.xs[0] - p, *grid.xs) if across == ["left"] else (*grid.xs, grid.xs[-1] + p)
    ys = (grid.ys[0] - p, *grid.ys) if down == ["top"] else (*grid.ys, grid.ys[-1] + p)
    return lattice.Grid(grid.n + 1, xs, ys)


class NotWholeBoardError(ImageReadError):
    """The grid found is not the whole board: its lines or its cells go on past an edge."""


def _one_board(view: _View, grid: Any, level: list[Any], factor: int, reading: Any) -> None:
    """Raise ImageReadError naming the boards if the picture holds another apart from ``grid``.

    Another is a lattice of the same level, or one found with this board
    blanked out, that lies apart from it and whose cells are mostly plain.
    """
    from cpqueens.readers import colours, lattice

    others = [
        other
        for other in [*level, *lattice.elsewhere(view.darkness, grid)]
        if _apart(grid, other) and colours.plain(view.rgb, other) >= PLAIN_BOARD
    ]
    if others:
        h, w = view.grey.shape
        raise ImageReadError(_boards([grid, *others], factor, (w * factor, h * factor)), reading)


@dataclass(frozen=True)
class _View:
    """A picture as the reader looks at it: colours, grey levels and its ink.

    ``dark`` and ``light``: how much darker and lighter than its surroundings
    each pixel is (:func:`~cpqueens.readers.lattice.inks`); ``darkness`` the
    larger of the two, where the lines are whatever their colour.
    """

    rgb: Any
    grey: Any
    darkness: Any
    dark: Any = None
    light: Any = None

    @classmethod
    def of(cls, picture: Any) -> _View:
        """The view of an RGB PIL image."""
        import numpy as np

        from cpqueens.readers import lattice

        grey = np.asarray(picture.convert("L"), dtype=np.uint8)
        dark, light = lattice.inks(grey)
        return cls(np.asarray(picture, dtype=np.uint8), grey, np.maximum(dark, light), dark, light)

    def ink(self) -> Any:
        """The dark and light ink with the grey levels, as the lines are measured from them."""
        from cpqueens.readers.borders import Ink

        return Ink(self.dark, self.light, self.grey)


def _frame(rgb: Any) -> Any:
    """The pixels of a picture's outermost rows and columns, as an (m, 3) array."""
    import numpy as np

    return np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]]).reshape(-1, 3)


def _apart(grid: Any, other: Any) -> bool:
    """Whether two lattices lie apart (less than a tenth of the smaller one's area shared)."""
    left = max(grid.xs[0], other.xs[0])
    right = min(grid.xs[-1], other.xs[-1])
    top = max(grid.ys[0], other.ys[0])
    bottom = min(grid.ys[-1], other.ys[-1])
    shared = max(0.0, right - left) * max(0.0, bottom - top)
    areas = [(g.xs[-1] - g.xs[0]) * (g.ys[-1] - g.ys[0]) for g in (grid, other)]
    return shared < 0.1 * min(areas)


def _boards(grids: list[Any], factor: int, size: tuple[int, int]) -> str:
    """The refusal of a picture holding several boards, each named by its size and place."""
    chosen: list[Any] = []
    for grid in grids:  # one lattice per board: the likeliest
        if all(_apart(grid, other) for other in chosen):
            chosen.append(grid)
    chosen.sort(key=lambda g: (g.ys[0], g.xs[0]))
    placed = (
        "side by side"
        if all(abs(a.ys[0] - b.ys[0]) < a.period * a.n / 2 for a, b in pairwise(chosen))
        else "one above the other"
        if all(abs(a.xs[0] - b.xs[0]) < a.period * a.n / 2 for a, b in pairwise(chosen))
        else "apart"
    )
    if placed == "side by side":
        chosen.sort(key=lambda g: g.xs[0])

    def at(v: float, most: int) -> int:
        return min(max(round(v * factor), 0), most)

    names = [
        f"a {g.n}x{g.n} grid at x {at(g.xs[0], size[0])}-{at(g.xs[-1], size[0])}, "
        f"y {at(g.ys[0], size[1])}-{at(g.ys[-1], size[1])}"
        for g in chosen
    ]
    words = {2: "two", 3: "three"}.get(len(chosen), str(len(chosen)))
    return (
        f"the picture holds {words} boards {placed} ({'; '.join(names)}): "
        "crop it to the one to read"
    )


def _read_grid(grid: Any, view: _View, factor: int, image: Any, turn: Turn | None) -> Reading:
    """The reading of the board at ``grid`` (working pixels; ``factor`` to the picture's)."""
    from cpqueens.readers import borders, edges
    from cpqueens.readers import colours as colour_groups

    colours = colour_groups.sample(view.rgb, grid)
    held = colour_groups.marks(view.grey, grid, colours)
    found = colour_groups.readings(colours)
    lines = borders.tell(view.ink(), grid)
    if found.options and (
        lines.shaded(found.options[0])  # not borders: the cells' shades through one grey
        or (lines.clear < borders.SURE and lines.conflicts(found.options[0]))
    ):  # the colours alone decide
        lines = borders.Borders(frozenset(), frozenset())
    lines = lines.without(_dim(colours))
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
        turn=turn,
    )
    beyond = edges.runs_on(view.darkness, view.rgb, grid, colours)
    if beyond is not None:
        whole = ": the grid is not the whole board" if " run on " in beyond else ""
        raise NotWholeBoardError(f"found a {n}x{n} grid but {beyond}{whole}", reading)
    if not found.options:
        raise ImageReadError(
            f"found a {n}x{n} grid but {_groups_wrong(found.groups, n, lines)}", reading
        )
    if not options:
        (r, c), (rr, cc) = lines.conflicts(found.options[0])[0]
        same = found.options[0][r][c] == found.options[0][rr][cc]
        line = "a thick" if same else "a thin"
        colour = "one colour" if same else "two colours"
        raise ImageReadError(
            f"found {reading.seen()} but its colours and its lines disagree: {line} line "
            f"between {name((r, c))} and {name((rr, cc))}, whose cells are {colour}",
            reading,
        )
    return reading


def _dim(colours: Any) -> set[Cell]:
    """The cells darker than ``DIM_CELL``: no dark line shows beside them."""
    from cpqueens.readers.colours import LUMA

    greys = colours @ LUMA
    n = len(colours)
    return {(r, c) for r in range(n) for c in range(n) if greys[r, c] < DIM_CELL}


def _groups_wrong(groups: int, n: int, lines: Any) -> str:
    """Why ``groups`` colour groups do not read as the ``n`` regions of an n x n grid."""
    if groups == 1:
        if lines.thick:
            return (
                "its cells are all one colour: the regions are drawn by their borders only, "
                "and only coloured regions are read"
            )
        return (
            "its cells are all one colour and no line is thicker than another: "
            "nothing marks the regions (coloured cells or thick borders between regions)"
        )
    if groups < n:
        return f"{groups} colour groups (colours too close to separate, or a grid misread)"
    return (
        f"{groups} colour groups (more colours than regions, and no darker or lighter "
        "copies to merge)"
    )


def name(cell: Cell) -> str:
    """A cell as every message writes it: 0-based ``(row, col)``, row 0 at the top."""
    return f"({cell[0]}, {cell[1]})"
