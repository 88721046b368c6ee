"""Drawing boards and solutions: the seeds' text grid, the judges' column lists, and SVG."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, Protocol

#: The letter drawn for each colour's queens; colour 0 is the seeds' 'Q'.
COLOUR_LETTERS = "QWXYZABCDEFGHIJKLMNOPRSTUV"
EMPTY = "."
BLOCKED = "#"

#: A drawing style: text grid, 1-based column lists, SVG picture, JSON column lists.
Style = Literal["board", "columns", "svg", "json"]
#: Every drawing style, in the order of ``Style``.
STYLES: tuple[Style, ...] = ("board", "columns", "svg", "json")


class Board(Protocol):
    """What a drawing reads of a board: its size and its blocked cells."""

    @property
    def n(self) -> int:
        """The board size."""
        ...

    @property
    def blocked(self) -> tuple[tuple[int, int], ...]:
        """The blocked cells as (row, col)."""
        ...


#: One queen as (colour, row, col).
Queen = tuple[int, int, int]

SQUARE = 45  # the side of one square in SVG user units
MARGIN = 28  # the strip for the coordinates along the top and left edges
LIGHT, DARK, BLOCKED_FILL, CROSS = "#f0d9b5", "#b58863", "#8f8f8f", "#5a1a1a"
#: The fill of each colour's queens: colour 0 black, colour 1 white, then others.
QUEEN_FILLS = ("#1a1a1a", "#ffffff", "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e")
#: A crown in one 45 x 45 square: five spikes over a band.
CROWN = "M9 33 L6.5 14 L15 25 L18 9 L22.5 24 L27 9 L30 25 L38.5 14 L36 33 Z M9 35.5 H36 V39 H9 Z"


def queens_of(by_colour: Sequence[Sequence[int]]) -> tuple[Queen, ...]:
    """Every queen as (colour, row, col), from one column tuple per colour.

    >>> queens_of(((1, 3, 0, 2),))[:2]
    ((0, 0, 1), (0, 1, 3))
    """
    return tuple(
        (colour, row, col)
        for colour, columns in enumerate(by_colour)
        for row, col in enumerate(columns)
    )


def grid(board: Board, queens: Iterable[Queen] = ()) -> str:
    """The seeds' text drawing: a letter per colour's queen, '#' blocked, '.' empty.

    >>> from cpqueens.vocabulary.board import Board
    >>> print(grid(Board(3, ((1, 1),)), [(0, 0, 2)]))
    ..Q
    .#.
    ...
    """
    n = board.n
    rows = [[EMPTY] * n for _ in range(n)]
    for row, col in board.blocked:
        rows[row][col] = BLOCKED
    for colour, row, col in queens:
        rows[row][col] = COLOUR_LETTERS[colour % len(COLOUR_LETTERS)]
    return "\n".join("".join(line) for line in rows)


def column_lists(by_colour: Sequence[Sequence[int]]) -> str:
    """The judges' (P1219) form: 1-based columns row by row, one list per colour, ' | ' between.

    >>> column_lists(((1, 3, 5, 0, 2, 4),))
    '2 4 6 1 3 5'
    >>> column_lists(((1, 3, 0, 2), (2, 0, 3, 1)))
    '2 4 1 3 | 3 1 4 2'
    """
    return " | ".join(" ".join(str(col + 1) for col in columns) for columns in by_colour)


def json_lists(by_colour: Sequence[Sequence[int]]) -> str:
    """A solution as JSON: one list of 0-based columns (row by row) per colour.

    >>> json_lists(((1, 3, 0, 2),))
    '[[1, 3, 0, 2]]'
    """
    import json  # here: importing the vocabulary never pays for it

    return json.dumps([list(columns) for columns in by_colour])


def svg(
    board: Board, queens: Iterable[Queen] = (), size: int | None = None, coordinates: bool = False
) -> str:
    """An SVG chessboard: n*n squares, a cross on each blocked one, a crown per queen.

    Squares are ``<rect class="square ...">``, blocked marks ``<path
    class="blocked">``, queens ``<path class="queen colour-K">``. ``size`` is
    the width in pixels (default: 45 per square, at most 400). ``coordinates``
    writes the 0-based column numbers above the board and the row numbers to
    its left (``<text class="coordinate">``), as cells are given to the API.

    >>> from cpqueens.vocabulary.board import Board
    >>> svg(Board(2)).count('class="square')
    4
    """
    return rectangle_svg(board.n, board.n, board.blocked, queens, size, coordinates)


def rectangle_svg(
    rows: int,
    cols: int,
    blocked: Iterable[tuple[int, int]] = (),
    queens: Iterable[Queen] = (),
    size: int | None = None,
    coordinates: bool = False,
) -> str:
    """An SVG board of ``rows`` x ``cols`` squares (``svg`` for any shape), with its pieces.

    >>> rectangle_svg(2, 3).count('class="square')
    6
    """
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        raise ValueError(f"size must be None or an int >= 1 (pixels), got {size!r}")
    wide, high = cols * SQUARE, rows * SQUARE
    margin = MARGIN if coordinates else 0
    width = size if size is not None else min(wide + margin, 400)
    height = round(width * (high + margin) / (wide + margin))
    queens = tuple(queens)
    blocked = set(blocked)
    shape = f"{rows}x{cols}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{-margin} {-margin} {wide + margin} {high + margin}" '
        f'width="{width}" height="{height}">',
        f"<title>{shape} board, {len(blocked)} blocked {'cell' if len(blocked) == 1 else 'cells'}, "
        f"{len(queens)} {'queen' if len(queens) == 1 else 'queens'}</title>",
    ]
    for row in range(rows):
        for col in range(cols):
            shade = "light" if (row + col) % 2 == 0 else "dark"
            fill = BLOCKED_FILL if (row, col) in blocked else (LIGHT if shade == "light" else DARK)
            parts.append(
                f'<rect class="square {shade}" x="{col * SQUARE}" y="{row * SQUARE}" '
                f'width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>'
            )
    for row, col in sorted(blocked):
        x, y, far = col * SQUARE + 10, row * SQUARE + 10, SQUARE - 20
        parts.append(
            f'<path class="blocked" d="M{x} {y} l{far} {far} M{x + far} {y} l{-far} {far}" '
            f'stroke="{CROSS}" stroke-width="4" stroke-linecap="round"/>'
        )
    for colour, row, col in queens:
        fill = QUEEN_FILLS[colour % len(QUEEN_FILLS)]
        parts.append(
            f'<path class="queen colour-{colour}" d="{CROWN}" '
            f'transform="translate({col * SQUARE} {row * SQUARE})" fill="{fill}" '
            'stroke="#000000" stroke-width="1.5" stroke-linejoin="round"/>'
        )
    if coordinates:
        parts.extend(_coordinates(rows, cols))
    parts.append("</svg>")
    return "\n".join(parts)


def _coordinates(rows: int, cols: int) -> list[str]:
    """The 0-based column numbers above a drawn board and the row numbers to its left."""
    style = 'font-family="sans-serif" font-size="16" fill="#333333" text-anchor="middle"'
    middle = SQUARE // 2
    columns = [
        f'<text class="coordinate column" x="{k * SQUARE + middle}" y="{-MARGIN // 3}" '
        f"{style}>{k}</text>"
        for k in range(cols)
    ]
    numbers = [
        f'<text class="coordinate row" x="{-MARGIN // 2}" y="{k * SQUARE + middle + 6}" '
        f"{style}>{k}</text>"
        for k in range(rows)
    ]
    return columns + numbers


def check_style(style: object, choices: Sequence[str] = STYLES) -> str:
    """Return ``style`` if it is one of ``choices``, else raise a ValueError listing them."""
    if style not in choices:
        expected = ", ".join(repr(s) for s in choices)
        raise ValueError(f"unknown drawing style {style!r}: expected one of {expected}")
    return str(style)
