"""Board: the size n and the cells where no queen may stand."""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeGuard

from cpqueens.drawing import pictures as drawing
from cpqueens.vocabulary.constraints import Cell
from cpqueens.vocabulary.limits import MAX_N, check_n

#: A queen drawn on a board: (row, col, colour), the form ``cpqueens.model``'s ``placed`` takes.
Queen = tuple[int, int, int]


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
    return check_n(size)


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


@dataclass(frozen=True)
class GridFormat:
    """One text form of a board: the characters of its free cells and of its blocked cells."""

    label: str  #: its name in error messages
    free: str  #: every character of a free cell
    blocked: str  #: the character of a blocked cell
    expected: str  #: what an error says a cell of this form must be
    queens: str = ""  #: the letter of each colour's queen (colour = index), drawn on a free cell


#: The grid formats ``Board.parse`` reads, by the name its ``format=`` takes.
GRID_FORMATS = {
    "01": GridFormat("0/1", "1", "0", "expected '1' or '0'"),
    "p1562": GridFormat("'*'/'.'", "*", ".", "expected '*' or '.'"),
    "drawing": GridFormat(
        "'.'/'#'",
        drawing.EMPTY + drawing.COLOUR_LETTERS,
        drawing.BLOCKED,
        "expected '.', '#' or a queen letter 'A'..'Z'",
        drawing.COLOUR_LETTERS,
    ),
}
#: A value of ``Board.parse``'s ``format=``: "auto" decides from the grid's characters.
Format = Literal["auto", "01", "p1562", "drawing"]
#: Every value of ``format=``, in the order of ``Format``.
FORMATS: tuple[Format, ...] = ("auto", "01", "p1562", "drawing")

#: Per character, the grid formats it belongs to ('.' belongs to two).
_OWNERS: dict[str, tuple[str, ...]] = {}
for _name, _form in GRID_FORMATS.items():
    for _char in _form.free + _form.blocked:
        _OWNERS[_char] = (*_OWNERS.get(_char, ()), _name)
del _name, _form, _char

#: What a board's text may be, for errors that cannot name one format.
ANY_GRID = (
    "0/1 (1 = a queen may stand), of '*' and '.' ('.' = blocked) or of '.' and '#' ('#' = blocked)"
)

#: A leading line that may give n: a decimal integer (ASCII digits only).
_SIZE_LINE = re.compile(r"[0-9]+")

#: A line of the text: its 1-based number and its characters.
Line = tuple[int, str]


#: A board's grid as read: its size, its blocked cells and its drawn queens (row, col, colour).
Grid = tuple[int, tuple[Cell, ...], tuple[Queen, ...]]


def parse_grid(text: str, format: Format = "auto") -> Grid:
    r"""Read a board's text; return its size, its blocked cells and its queens.

    ``Board.parse`` documents the formats and the rules; errors name the
    1-based line and column of the text. Queens come from the drawing's
    letters, as (row, col, colour).

    >>> parse_grid("1 0\n1 1\n")
    (2, ((0, 1),), ())
    >>> parse_grid("2\n.#\nW.")
    (2, ((0, 1),), ((1, 0, 1),))
    """
    if not isinstance(text, str):
        raise TypeError(f"board text must be a str, got {text!r} ({type(text).__name__})")
    if format not in FORMATS:
        choices = ", ".join(repr(name) for name in FORMATS)
        raise ValueError(f"unknown board format {format!r}: expected one of {choices}")
    lines = _trim(list(enumerate(text.removeprefix("\ufeff").splitlines(), start=1)))
    if not lines:
        raise ValueError(f"line 1, column 1: no grid: expected rows of {ANY_GRID}")
    if _SIZE_LINE.fullmatch(lines[0][1].strip()):
        sized = _read_sized(lines, format)
        if sized is not None:
            return sized
    return _read_grid(lines, format)


def _trim(lines: list[Line]) -> list[Line]:
    """``lines`` without the blank lines at either end."""
    start, end = 0, len(lines)
    while start < end and not lines[start][1].strip():
        start += 1
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    return lines[start:end]


def _read_sized(lines: list[Line], format: Format) -> Grid | None:
    """Read a leading size line and the grid below it; None if the first line is a grid row.

    The first line is a decimal integer k. It is the size line when the lines
    below it are a k x k grid, and it must be one when it has a digit other
    than 0 and 1 (no grid row has): then the grid's errors are raised, and k
    must be the grid's n.
    """
    number, line = lines[0]
    size = line.strip()
    must = not set(size) <= {"0", "1"}
    if len(size) > len(str(MAX_N)):  # no board this wide: a grid row, or a size refused
        if must:
            raise ValueError(
                f"line {number}, column 1: the size line has {len(size)} digits: "
                f"expected a board size of at most {MAX_N:,}"
            )
        return None
    k = int(size)
    rest = _trim(lines[1:])
    if not rest:
        if must:
            raise ValueError(
                f"line {number + 1}, column 1: no grid after the size line {size}: "
                f"expected {k} rows of {k} cells"
            )
        return None
    if not must and (len(rest) != k or sum(not c.isspace() for c in rest[0][1]) != k):
        return None  # not k rows of k cells: the first line is a grid row
    try:
        n, blocked, queens = _read_grid(rest, format)
    except ValueError:
        if must:
            raise
        return None
    if n != k:
        column = len(line) - len(line.lstrip()) + 1
        raise ValueError(
            f"line {number}, column {column}: the size line says {size} but the grid "
            f"below it is {n}x{n}: expected {n}"
        )
    return n, blocked, queens


def _read_grid(lines: list[Line], format: Format) -> Grid:
    """Read a square grid from ``lines`` (no blank line at either end) in ``format``."""
    form = GRID_FORMATS[_decide(lines) if format == "auto" else format]
    first_line = lines[0][0]
    n = 0
    blocked: list[Cell] = []
    queens: list[Queen] = []
    for row, (number, line) in enumerate(lines):
        cells = [(column, char) for column, char in enumerate(line, 1) if not char.isspace()]
        if not cells:
            raise ValueError(f"line {number}, column 1: blank line inside the grid")
        if row == 0:
            n = len(cells)
        if row == n:
            raise ValueError(
                f"line {number}, column 1: one row too many: the grid has {n} cells "
                f"per row (line {first_line}), so expected {n} rows"
            )
        for column, char in cells:
            if char != form.blocked and char not in form.free:
                raise ValueError(
                    f"line {number}, column {column}: unknown character {char!r} in a "
                    f"{form.label} grid: {form.expected}"
                )
        if len(cells) != n:
            column = cells[n][0] if len(cells) > n else len(line.rstrip()) + 1
            raise ValueError(
                f"line {number}, column {column}: row {row + 1} has {len(cells)} cells, "
                f"expected {n} like the first row (line {first_line})"
            )
        blocked.extend((row, col) for col, (_, char) in enumerate(cells) if char == form.blocked)
        if form.queens:
            queens.extend(
                (row, col, form.queens.index(char))
                for col, (_, char) in enumerate(cells)
                if char in form.queens
            )
    if len(lines) < n:
        raise ValueError(
            f"line {lines[-1][0] + 1}, column 1: the grid ends after {len(lines)} rows, "
            f"expected {n} rows of {n} cells"
        )
    return n, tuple(blocked), tuple(queens)


def _decide(lines: list[Line]) -> str:
    """The format of a grid: that of its first character in one format only, else 'drawing'.

    Reading row by row, '.' (free in the drawing, blocked in P1562) decides
    nothing; a grid of '.' alone is the drawing of a free board. A character of
    no format met before the deciding one is an error.
    """
    for number, line in lines:
        for column, char in enumerate(line, 1):
            if char.isspace():
                continue
            owners = _OWNERS.get(char, ())
            if len(owners) == 1:
                return owners[0]
            if not owners:
                raise ValueError(
                    f"line {number}, column {column}: unknown character {char!r}: "
                    f"expected a grid of {ANY_GRID}"
                )
    return "drawing"


def check_queens(queens: Iterable[object], n: int, blocked: Iterable[Cell]) -> tuple[Queen, ...]:
    """Validate a board's drawn queens: (row, col, colour) triples, one per cell, none blocked.

    A colour is an int from 0 to 25: each has its drawing letter
    (``drawing.COLOUR_LETTERS``). The queens come back sorted.

    >>> check_queens([(2, 0, 1), (0, 1, 0)], 3, ())
    ((0, 1, 0), (2, 0, 1))
    """
    if isinstance(queens, (str, bytes)) or not isinstance(queens, Iterable):
        raise TypeError(f"queens must be an iterable of (row, col, colour) triples, got {queens!r}")
    letters = len(drawing.COLOUR_LETTERS)
    cells: dict[Cell, Queen] = {}
    for queen in queens:
        if (
            not isinstance(queen, (tuple, list))
            or len(queen) != 3
            or not all(_is_integer(v) for v in queen)
        ):
            raise TypeError(f"a board's queen must be a (row, col, colour) triple, got {queen!r}")
        (cell,) = check_cells([queen[:2]], n, "queen")
        colour = int(queen[2])
        if not 0 <= colour < letters:
            raise ValueError(
                f"queen {(*cell, colour)!r}: colour {colour} has no drawing letter: "
                f"expected a colour from 0 to {letters - 1}"
            )
        if cell in cells:
            raise ValueError(
                f"queens {cells[cell]!r} and {(*cell, colour)!r} share a cell: "
                "expected at most one queen per cell"
            )
        cells[cell] = (*cell, colour)
    on_blocked = sorted(set(cells) & set(blocked))
    if on_blocked:
        raise ValueError(
            f"queen {cells[on_blocked[0]]!r} stands on a blocked cell: "
            "expected queens on free cells"
        )
    return tuple(sorted(cells.values()))


@dataclass(frozen=True)
class Board:
    """An n x n board with some cells blocked (0-based (row, col)) and any queens drawn on it.

    ``queens`` are (row, col, colour) triples: the queens a drawing of the
    board shows, which ``cpqueens.model(board)`` places.

    >>> Board(4, ((0, 1),)).free_columns(0)
    (0, 2, 3)
    >>> print(Board(3, ((0, 2),), queens=((1, 0, 0), (2, 2, 1))))
    ..#
    Q..
    ..W
    """

    n: int
    blocked: tuple[Cell, ...] = ()
    queens: tuple[Queen, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", check_size(self.n))
        object.__setattr__(self, "blocked", check_cells(self.blocked, self.n, "blocked cell"))
        if self.queens != ():
            object.__setattr__(self, "queens", check_queens(self.queens, self.n, self.blocked))

    @classmethod
    def parse(cls, text: str, *, format: Format = "auto") -> Board:
        r"""Read a board from text: the judges' grids or what cpqueens prints.

        Three grid formats, one character per cell:

        - ``"01"``: rows of 0/1, 1 = a queen may stand, 0 = blocked (seed 001);
        - ``"p1562"``: rows of '*' and '.', '*' = free, '.' = blocked (Luogu P1562);
        - ``"drawing"``: what ``str(board)`` and ``str(solution)`` print: '.' =
          free, '#' = blocked, a letter (A-Z, ``drawing.COLOUR_LETTERS``) = a
          queen of that letter's colour ('Q' colour 0, 'W' colour 1, 'X' 2,
          ...), which comes back in ``queens``: a drawn solution reads back
          with its queens, and ``cpqueens.model`` places them.

        ``format="auto"`` (the default) decides from the characters of the
        whole grid, not its first cell: reading row by row, the first
        character that belongs to one format only decides ('1'/'0' -> "01",
        '*' -> "p1562", '#' or a letter -> "drawing"); '.' belongs to both
        "p1562" and "drawing" and decides nothing, so a grid of '.' alone is
        the drawing of a free board (force ``format="p1562"`` to read it as
        all blocked). Any character outside the decided format, such as a '*'
        after a '1', is an error naming its line and column: formats never mix.
        ``Board.parse(str(board)) == board`` for every board, queens included.

        A leading line that is a decimal integer k is a judge file's size line
        when the lines below it are a k x k grid. A leading line with a digit
        other than 0 and 1 is always a size line: the grid below it must be
        k x k (else a ValueError naming the size line's line and both sizes).
        Otherwise a line of 0/1 digits is the grid's first row: "11\n11" is a
        2x2 grid and a single line "1" or "0" a 1x1 grid, while "1\n0" is
        n = 1 and a blocked cell. No grid is misread this way: the rows of a
        square grid after its first never make a square grid themselves.

        A UTF-8 byte order mark at the start, spaces between cells, blank
        lines around the grid, trailing spaces and CRLF line ends are fine; a
        ragged row, the wrong number of rows or an unknown character is a
        ValueError naming the line and column; an unknown ``format`` is a
        ValueError listing the choices.

        >>> Board.parse("1011\n1111\n1111\n1111").blocked
        ((0, 1),)
        >>> Board.parse("4\n**.*\n*.*.\n****\n****").blocked
        ((0, 2), (1, 1), (1, 3))
        >>> Board.parse("..#\n...\n.Q.") == Board(3, ((0, 2),), queens=((2, 1, 0),))
        True
        >>> Board.parse("..\n..", format="p1562").blocked
        ((0, 0), (0, 1), (1, 0), (1, 1))
        """
        n, blocked, queens = parse_grid(text, format)
        return cls(n, blocked, queens)

    def without_queens(self) -> Board:
        """The same board with no queens drawn on it (its size and blocked cells)."""
        return Board(self.n, self.blocked) if self.queens else self

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

    def draw(
        self,
        style: Literal["board", "svg"] = "board",
        *,
        size: int | None = None,
        coordinates: bool = False,
    ) -> str:
        """The board as text ('board': '.' free, '#' blocked, queens by letter) or SVG ('svg').

        ``size`` is the SVG's width in pixels; ``coordinates`` numbers its rows
        and columns (0-based) along the edges.

        >>> print(Board(3, ((0, 2),)).draw())
        ..#
        ...
        ...
        """
        queens = [(colour, row, col) for row, col, colour in self.queens]
        if drawing.check_style(style, ("board", "svg")) == "svg":
            return drawing.svg(self, queens, size, coordinates)
        return drawing.grid(self, queens)

    def _repr_svg_(self) -> str:
        """The SVG picture a notebook shows."""
        return self.draw("svg")

    def __str__(self) -> str:
        return self.draw("board")
