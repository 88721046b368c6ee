"""Solution: the column of every queen, per colour, and its drawings."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from cpqueens.drawing import pictures as drawing
from cpqueens.drawing.pictures import BLOCKED, COLOUR_LETTERS, EMPTY, Style
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.geometry import canonical, cells_group, orbit

__all__ = ["BLOCKED", "COLOUR_LETTERS", "EMPTY", "MAX_DRAWN_N", "SHOWN_N", "Solution"]

#: ``print(solution)`` draws boards of up to this many rows, and summarises larger ones.
SHOWN_N = 100
#: ``draw("board")`` and ``draw("svg")`` draw at most this many rows (a million cells).
MAX_DRAWN_N = 1000


@dataclass(frozen=True)
class Solution:
    """One solution: ``by_colour[k][r]`` is the column of colour k's queen in row r.

    >>> s = Solution(((1, 3, 0, 2),), Board(4))
    >>> s.columns
    (1, 3, 0, 2)
    >>> print(s)
    .Q..
    ...Q
    Q...
    ..Q.
    """

    by_colour: tuple[tuple[int, ...], ...]
    board: Board
    #: The symmetries ``canonical`` and ``orbit`` use: the model's group when a
    #: model made the solution, else (None) those of the board's blocked cells.
    symmetries: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    def _group(self) -> tuple[str, ...]:
        if self.symmetries is not None:
            return self.symmetries
        return cells_group(self.board.n, self.board.blocked)

    def canonical(self) -> Solution:
        """The smallest image of this solution under its symmetries: its class's representative.

        Images compare as ``by_colour`` tuples (colour 0's columns row by row,
        then colour 1's, ...); every colour is mapped at once, never permuted.

        >>> Solution(((2, 0, 3, 1),), Board(4)).canonical().columns
        (1, 3, 0, 2)
        """
        found = canonical(self.by_colour, self._group(), self.board.n)
        return Solution(found, self.board, self.symmetries)

    def orbit(self) -> tuple[Solution, ...]:
        """Every distinct image of this solution under its symmetries, smallest first."""
        return tuple(
            Solution(found, self.board, self.symmetries)
            for found in orbit(self.by_colour, self._group(), self.board.n)
        )

    @property
    def columns(self) -> tuple[int, ...]:
        """The column of colour 0's queen in each row."""
        return self.by_colour[0]

    @property
    def cells(self) -> tuple[tuple[int, int, int], ...]:
        """Every queen as (colour, row, col)."""
        return drawing.queens_of(self.by_colour)

    @property
    def pieces(self) -> tuple[tuple[int, int, int], ...]:
        """Every queen as (row, col, colour), sorted: the solution as a ``Placement`` reads.

        >>> Solution(((1, 3, 0, 2),), Board(4)).pieces[:2]
        ((0, 1, 0), (1, 3, 0))
        """
        return tuple(sorted((row, col, colour) for colour, row, col in self.cells))

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        """The pieces (:attr:`pieces`): any solution iterates as (row, col, group) triples."""
        return iter(self.pieces)

    def __len__(self) -> int:
        """The number of queens, every colour's."""
        return sum(len(columns) for columns in self.by_colour)

    def draw(
        self, style: Style = "board", *, size: int | None = None, coordinates: bool = False
    ) -> str:
        """The solution as text ('board'), 1-based columns ('columns'), SVG ('svg') or JSON.

        ``size`` is the SVG's width in pixels; ``coordinates`` numbers its rows
        and columns (0-based) along the edges. 'json' is one list of 0-based
        columns per colour.

        >>> Solution(((1, 3, 5, 0, 2, 4),), Board(6)).draw("columns")
        '2 4 6 1 3 5'
        >>> Solution(((1, 3, 0, 2),), Board(4)).draw("json")
        '[[1, 3, 0, 2]]'
        """
        style = drawing.check_style(style)  # type: ignore[assignment]  # one of the styles
        n = self.board.n
        if style in ("board", "svg") and n > MAX_DRAWN_N:
            raise ValueError(
                f"a {n:,} x {n:,} board is too large to draw as {style!r} (at most "
                f"{MAX_DRAWN_N:,} rows): draw('columns') or draw('json') lists the columns"
            )
        if style == "columns":
            return drawing.column_lists(self.by_colour)
        if style == "json":
            return drawing.json_lists(self.by_colour)
        if style == "svg":
            return drawing.svg(self.board, self.cells, size, coordinates)
        return drawing.grid(self.board, self.cells)

    def _repr_svg_(self) -> str | None:
        """The SVG picture a notebook shows (None past :data:`SHOWN_N` rows: the text instead)."""
        return self.draw("svg") if self.board.n <= SHOWN_N else None

    def __str__(self) -> str:
        """The board drawn (``draw()``), or a summary of a board over :data:`SHOWN_N` rows.

        >>> from cpqueens import model
        >>> print(model(1000).find())
        a solution of 1,000 queens on a 1,000 x 1,000 board, too large to draw
        columns (0-based), row by row: 1 3 5 7 9 ... 992 994 996 998
        draw('columns') or draw('json') lists them all
        """
        n = self.board.n
        if n <= SHOWN_N:
            return self.draw("board")
        queens = sum(map(len, self.by_colour))
        lists = []
        for columns in self.by_colour:
            head = " ".join(map(str, columns[:5]))
            tail = " ".join(map(str, columns[-4:]))
            lists.append(f"{head} ... {tail}")
        return (
            f"a solution of {queens:,} queens on a {n:,} x {n:,} board, too large to draw\n"
            f"columns (0-based), row by row: {' | '.join(lists)}\n"
            "draw('columns') or draw('json') lists them all"
        )
