"""Drawing region puzzles: the letter grid (coloured on a terminal) and SVG with region colours.

The text drawing is the puzzle's own text form (``RegionPuzzle.to_text``), so
what is printed reads back, queens included; ``colour=True`` adds ANSI
background colours per region, for a terminal only.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Protocol

from cpqueens.drawing.pictures import CROWN

Cell = tuple[int, int]


class RegionPuzzle(Protocol):
    """What a drawing reads of a region puzzle (``cpqueens.vocabulary.regions.RegionPuzzle``)."""

    @property
    def n(self) -> int:
        """The grid's size."""
        ...

    @property
    def regions(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's region number, row by row."""
        ...

    @property
    def stars(self) -> int:
        """The stars per row, column and region."""
        ...

    @property
    def queens(self) -> tuple[Cell, ...]:
        """The given queens."""
        ...

    @property
    def blocked(self) -> tuple[Cell, ...]:
        """The blocked cells."""
        ...

    @property
    def labels(self) -> str:
        """The symbol of each region."""
        ...

    def to_text(self, queens: Iterable[Cell] = ()) -> str:
        """The puzzle's letter grid, ``queens`` marked."""
        ...


#: Region fills: light, distinct hues in the spirit of the Queens game's palette.
FILLS = (
    "#bba3e2", "#ffc992", "#96beff", "#b3dfa0", "#dfdfdf", "#ff7b60", "#e6f388", "#b9b29e",
    "#dfa0bf", "#a3d2d8", "#62efea", "#ff93f3", "#8acc6d", "#729aec", "#c387e0", "#ffe04b",
)  # fmt: skip
#: 256-colour ANSI backgrounds matching FILLS roughly, for the terminal.
ANSI = (183, 222, 111, 151, 253, 209, 192, 144, 218, 152, 87, 213, 114, 69, 176, 221)
SQUARE = 45
BORDER = "#1a1a1a"


def fill(region: int) -> str:
    """The SVG fill of region number ``region`` (cycling through :data:`FILLS`)."""
    return FILLS[region % len(FILLS)]


def text(puzzle: RegionPuzzle, queens: Iterable[Cell] = (), colour: bool = False) -> str:
    r"""The letter grid with ``queens`` marked; ``colour=True`` paints each region's background.

    >>> from cpqueens.vocabulary.regions import RegionPuzzle
    >>> print(text(RegionPuzzle.parse("AB\nBB"), [(0, 0)]))
    A* B
    B  B
    """
    plain = puzzle.to_text(queens)
    if not colour:
        return plain
    lines = plain.splitlines()
    header = len(lines) - puzzle.n
    painted = lines[:header]
    marks = {cell: "*" for cell in (*puzzle.queens, *queens)}
    marks.update({cell: "#" for cell in puzzle.blocked if cell not in marks})
    for r, row in enumerate(puzzle.regions):
        cells = []
        for c, g in enumerate(row):
            mark = marks.get((r, c), " ")
            cells.append(
                f"\x1b[48;5;{ANSI[g % len(ANSI)]}m\x1b[38;5;16m {puzzle.labels[g]}{mark}\x1b[0m"
            )
        painted.append("".join(cells))
    return "\n".join(painted)


def svg(puzzle: RegionPuzzle, queens: Iterable[Cell] = (), size: int | None = None) -> str:
    r"""An SVG picture: each region filled in its own colour, thick borders between regions.

    Cells are ``<rect class="cell region-G">``, region borders ``<path
    class="border">``, blocked cells ``<path class="blocked">`` and queens
    (givens and ``queens``) ``<path class="queen">`` on top. ``size`` is the
    width in pixels (default 45 per cell, at most 450).

    >>> from cpqueens.vocabulary.regions import RegionPuzzle
    >>> svg(RegionPuzzle.parse("AB\nBB"), [(0, 0)]).count('class="queen"')
    1
    """
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        raise ValueError(f"size must be None or an int >= 1 (pixels), got {size!r}")
    n = puzzle.n
    side = n * SQUARE
    width = size if size is not None else min(side, 450)
    shown = sorted({*puzzle.queens, *queens})
    title = (
        f"{n}x{n} region puzzle, {puzzle.stars} per row, column and region, "
        f"{len(shown)} {'queen' if len(shown) == 1 else 'queens'}"
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 {side + 4} {side + 4}" '
        f'width="{width}" height="{width}">',
        f"<title>{html.escape(title)}</title>",
    ]
    for r, row in enumerate(puzzle.regions):
        for c, g in enumerate(row):
            parts.append(
                f'<rect class="cell region-{g}" x="{c * SQUARE}" y="{r * SQUARE}" '
                f'width="{SQUARE}" height="{SQUARE}" fill="{fill(g)}" stroke="#7f7f7f" '
                'stroke-width="0.5"/>'
            )
    edges = []
    for r in range(n):
        for c in range(n):
            g = puzzle.regions[r][c]
            if c + 1 < n and puzzle.regions[r][c + 1] != g:
                edges.append(f"M{(c + 1) * SQUARE} {r * SQUARE} v{SQUARE}")
            if r + 1 < n and puzzle.regions[r + 1][c] != g:
                edges.append(f"M{c * SQUARE} {(r + 1) * SQUARE} h{SQUARE}")
    if edges:
        parts.append(
            f'<path class="border" d="{" ".join(edges)}" stroke="{BORDER}" stroke-width="3" '
            'stroke-linecap="square" fill="none"/>'
        )
    parts.append(
        f'<rect class="frame" x="0" y="0" width="{side}" height="{side}" fill="none" '
        f'stroke="{BORDER}" stroke-width="4"/>'
    )
    for r, c in puzzle.blocked:
        x, y, far = c * SQUARE + 14, r * SQUARE + 14, SQUARE - 28
        parts.append(
            f'<path class="blocked" d="M{x} {y} l{far} {far} M{x + far} {y} l{-far} {far}" '
            'stroke="#3a3a3a" stroke-width="3" stroke-linecap="round"/>'
        )
    for r, c in shown:
        given = " given" if (r, c) in puzzle.queens else ""
        parts.append(
            f'<path class="queen{given}" d="{CROWN}" '
            f'transform="translate({c * SQUARE} {r * SQUARE})" '
            'fill="#1a1a1a" stroke="#ffffff" stroke-width="1" stroke-linejoin="round"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
