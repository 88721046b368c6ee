"""Board: the size n and the cells where no queen may stand."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeGuard

from cpqueens import drawing
from cpqueens.constraints import Cell

#: The seeds' two grid formats: name -> (the character of a free cell, of a blocked cell).
GRID_FORMATS = {"0/1": ("1", "0"), "'*'/'.'": ("*", ".")}


def _is_integer(value: object) -> TypeGuard[numbers.Integral]:
    """Whether ``value`` is any ``numbers.Integral`` (``numpy.int64`` too) but a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_size(n: object) -> int:
    """Return ``n`` as a plain int if it is a board size (an integer >= 1, not a bool), else raise.

    Any ``numbers.Integral`` is an integer (``numpy.int64`` too); bools and
    floats are refused.

    >>> check_size(8)
    8
    """
    if not _is_integer(n):
        raise TypeError(f"board size n must be an int >= 1, got {n!r} ({type(n).__name__})")
    size = int(n)
    if size < 1:
        raise ValueError(f"board size n must be an int >= 1, got {size}")
    return size


def check_cells(cells: Iterable[object], n: int, what: str) -> tuple[Cell, ...]:
    """Validate (row, col) pairs on an n x n board; return them sorted, without repeats.

    ``what`` names the cells in error messages ("blocked cell", "placed queen").
    Coordinates may be any ``numbers.Integral`` but bool; they come back as
    plain ints.

    >>> check_cells([(1, 2), (0, 3), (1, 2)], 4, "blocked cell")
    ((0, 3), (1, 2))
    """
    if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
        raise TypeError(f"{what}s must be an iterable of (row, col) pairs, got {cells!r}")
    checked = set()
    for cell in cells:
        if (
            not isinstance(cell, (tuple, list))
            or len(cell) != 2
            or not all(_is_integer(v) for v in cell)
        ):
            raise TypeError(f"{what} must be a (row, col) pair of ints, got {cell!r}")
        row, col = int(cell[0]), int(cell[1])
        if not (0 <= row < n and 0 <= col < n):
            raise ValueError(
                f"{what} {(row, col)!r} is off the {n}x{n} board: "
                f"row and column must be in 0..{n - 1}"
            )
        checked.add((row, col))
    return tuple(sorted(checked))


def parse_grid(text: str) -> tuple[int, tuple[Cell, ...]]:
    r"""Read a square grid of cells; return its size and its blocked cells.

    The grid is rows of 0/1 (1 = a queen may stand, 0 = blocked) or rows of
    '*' and '.' ('.' = blocked); the first cell decides which. Spaces between
    cells, blank lines around the grid and trailing spaces are ignored. Errors
    name the 1-based line and column of the text.

    >>> parse_grid("1 0\n1 1\n")
    (2, ((0, 1),))
    """
    if not isinstance(text, str):
        raise TypeError(f"board text must be a str, got {text!r} ({type(text).__name__})")
    lines = list(enumerate(text.splitlines(), start=1))
    while lines and not lines[-1][1].strip():
        lines.pop()
    while lines and not lines[0][1].strip():
        lines.pop(0)
    if not lines:
        raise ValueError(
            "line 1, column 1: no grid: expected rows of 0/1 (1 = a queen may stand) "
            "or of '*' and '.' ('.' = blocked)"
        )
    first_line = lines[0][0]
    grid_name = free = blocked_char = ""
    n = 0
    blocked: list[Cell] = []
    for row, (number, line) in enumerate(lines):
        cells = [(column, char) for column, char in enumerate(line, 1) if not char.isspace()]
        if not cells:
            raise ValueError(f"line {number}, column 1: blank line inside the grid")
        if row == 0:
            grid_name, (free, blocked_char) = _grid_format(number, *cells[0])
            n = len(cells)
        if row == n:
            raise ValueError(
                f"line {number}, column 1: one row too many: the grid has {n} cells "
                f"per row (line {first_line}), so expected {n} rows"
            )
        for column, char in cells:
            if char not in (free, blocked_char):
                raise ValueError(
                    f"line {number}, column {column}: unknown character {char!r} in a "
                    f"{grid_name} grid: expected {free!r} or {blocked_char!r}"
                )
        if len(cells) != n:
            column = cells[n][0] if len(cells) > n else len(line.rstrip()) + 1
            raise ValueError(
                f"line {number}, column {column}: row {row + 1} has {len(cells)} cells, "
                f"expected {n} like the first row (line {first_line})"
            )
        blocked.extend((row, col) for col, (_, char) in enumerate(cells) if char == blocked_char)
    if len(lines) < n:
        raise ValueError(
            f"line {lines[-1][0] + 1}, column 1: the grid ends after {len(lines)} rows, "
            f"expected {n} rows of {n} cells"
        )
    return n, tuple(blocked)


def _grid_format(number: int, column: int, char: str) -> tuple[str, tuple[str, str]]:
    """The name and (free, blocked) characters of the grid format whose first cell is ``char``."""
    for name, pair in GRID_FORMATS.items():
        if char in pair:
            return name, pair
    raise ValueError(
        f"line {number}, column {column}: unknown character {char!r}: expected a grid of "
        "0/1 (1 = a queen may stand) or of '*' and '.' ('.' = blocked)"
    )


@dataclass(frozen=True)
class Board:
    """An n x n board with some cells blocked (0-based (row, col)).

    >>> Board(4, ((0, 1),)).free_columns(0)
    (0, 2, 3)
    """

    n: int
    blocked: tuple[Cell, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", check_size(self.n))
        object.__setattr__(self, "blocked", check_cells(self.blocked, self.n, "blocked cell"))

    @classmethod
    def parse(cls, text: str) -> Board:
        r"""Read a board from the seeds' grids: rows of 0/1 (1 = free) or of * and . (. = blocked).

        Spaces between cells, blank lines around the grid and trailing spaces
        are fine; a ragged row, the wrong number of rows or an unknown
        character is a ValueError naming the line and column.

        >>> Board.parse("1011\n1111\n1111\n1111").blocked
        ((0, 1),)
        >>> Board.parse("**.*\n*.*.\n****\n****").blocked
        ((0, 2), (1, 1), (1, 3))
        """
        n, blocked = parse_grid(text)
        return cls(n, blocked)

    @property
    def blocked_masks(self) -> tuple[int, ...]:
        """Per row, a bitmask with bit c set where cell (row, c) is blocked."""
        masks = [0] * self.n
        for row, col in self.blocked:
            masks[row] |= 1 << col
        return tuple(masks)

    def is_free(self, row: int, col: int) -> bool:
        """Whether a queen may stand on (row, col)."""
        return (row, col) not in set(self.blocked)

    def free_columns(self, row: int) -> tuple[int, ...]:
        """The columns of ``row`` where a queen may stand, ascending."""
        mask = self.blocked_masks[row]
        return tuple(c for c in range(self.n) if not mask >> c & 1)

    def draw(self, style: Literal["board", "svg"] = "board", *, size: int | None = None) -> str:
        """The empty board as text ('board': '.' free, '#' blocked) or SVG ('svg').

        ``size`` is the SVG's width in pixels.

        >>> print(Board(3, ((0, 2),)).draw())
        ..#
        ...
        ...
        """
        if drawing.check_style(style, ("board", "svg")) == "svg":
            return drawing.svg(self, (), size)
        return drawing.grid(self)

    def _repr_svg_(self) -> str:
        """The SVG picture a notebook shows."""
        return self.draw("svg")

    def __str__(self) -> str:
        return self.draw("board")
