"""A board of cells and its attack relation: which cells attack which, as lines.

:class:`CellBoard` holds the rows and columns, the blocked cells (no piece may
stand there; they do not stop an attack and need not be covered, as in
Blocked n-Queens) and the attack relation: queen lines, rook lines (rows and
columns), bishop lines (diagonals) or king steps, optionally toroidal (lines
and steps wrap around the edges), with the knight's moves or the king's steps
(no touching) added. The relation is a tuple of *lines*: sets of cells that
pairwise attack each other (a row, a diagonal, a knight's pair); two cells
attack each other when they share a line.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from cpqueens.vocabulary.geometry import RECTANGLE_TRANSFORMS, SQUARE_ONLY
from cpqueens.words import plural

Cell = tuple[int, int]
Attack = Literal["queen", "rook", "king", "bishop"]
ATTACKS: tuple[Attack, ...] = ("queen", "rook", "king", "bishop")
KNIGHT_STEPS = ((1, 2), (2, 1), (1, -2), (2, -1))
KING_STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))

#: name -> the map of cell (r, c) on an m x n board (m rows, n columns): geometry's table.
TRANSFORMS = RECTANGLE_TRANSFORMS
#: The symmetries that map rows onto columns (and columns onto rows).
SWAP_LINES = SQUARE_ONLY
#: The most cells a cell model may have: every cell is a variable (two with two armies) and
#: the attack lines hold each cell four times; beyond, stating a model alone outgrows a time
#: limit and a gigabyte.
MAX_CELLS = 10_000


def is_int(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def shown(number: int) -> str:
    """``number`` with thousands separators, or its size in bits if it is huge."""
    return f"{number:,}" if number < 10**30 else f"a number of {number.bit_length()} bits"


def size_of(value: object, what: str) -> int:
    if not is_int(value):
        raise TypeError(f"{what} must be an int >= 1, got {value!r} ({type(value).__name__})")
    if int(value) < 1:  # type: ignore[call-overload]
        raise ValueError(f"{what} must be an int >= 1, got {value}")
    return int(value)  # type: ignore[call-overload]


def cells_of(cells: Iterable[object], rows: int, cols: int, what: str) -> tuple[Cell, ...]:
    """Validated (row, col) pairs on the board, sorted, without repeats."""
    if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
        raise TypeError(f"{what}s must be an iterable of (row, col) pairs, got {cells!r}")
    found = set()
    for cell in cells:
        if not isinstance(cell, (tuple, list)) or len(cell) != 2 or not all(map(is_int, cell)):
            raise TypeError(f"{what} must be a (row, col) pair of ints, got {cell!r}")
        row, col = int(cell[0]), int(cell[1])
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(
                f"{what} {(row, col)!r} is off the {rows}x{cols} board: "
                f"row must be in 0..{rows - 1} and column in 0..{cols - 1}"
            )
        found.add((row, col))
    return tuple(sorted(found))


@dataclass(frozen=True)
class CellBoard:
    """An m x n board: its blocked cells and which cells attack which.

    >>> len(CellBoard(8, 8).lines)  # 8 rows, 8 columns, 13 + 13 diagonals of 2 cells or more
    42
    >>> CellBoard(3, 3).attacks((0, 0), (1, 2))
    False
    >>> CellBoard(3, 3, knight=True).attacks((0, 0), (1, 2))
    True
    """

    rows: int
    cols: int
    blocked: tuple[Cell, ...] = ()
    attack: Attack = "queen"
    toroidal: bool = False
    knight: bool = False
    #: False: pieces on touching cells (the king's steps) attack each other too (``no_touch``).
    touch: bool = True

    def __post_init__(self) -> None:
        """Validate the fields and normalise the blocked cells."""
        rows, cols = size_of(self.rows, "rows"), size_of(self.cols, "columns")
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "blocked", cells_of(self.blocked, rows, cols, "blocked cell"))
        if self.attack not in ATTACKS:
            raise ValueError(f"attack must be one of {', '.join(ATTACKS)}, got {self.attack!r}")
        for name in ("toroidal", "knight", "touch"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be a bool, got {getattr(self, name)!r}")

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell, row by row."""
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    @cached_property
    def free(self) -> tuple[Cell, ...]:
        """The cells where a piece may stand, row by row."""
        blocked = set(self.blocked)
        return tuple(cell for cell in self.cells if cell not in blocked)

    @cached_property
    def lines(self) -> tuple[tuple[Cell, ...], ...]:
        """The attack relation as cliques: sorted tuples of >= 2 cells attacking each other."""
        m, n = self.rows, self.cols
        found: set[tuple[Cell, ...]] = set()

        def orbits(step: Cell) -> None:
            """The lines along ``step`` (wrapping if toroidal).

            Row by row, each line is first met at its start (its top, or its
            left end), so a walk from there along ``step`` covers all of it.
            """
            seen: set[Cell] = set()
            for start in self.cells:
                if start in seen:
                    continue
                line, (r, c) = [], start
                while (r, c) not in seen and 0 <= r < m and 0 <= c < n:
                    seen.add((r, c))
                    line.append((r, c))
                    r, c = r + step[0], c + step[1]
                    if self.toroidal:
                        r, c = r % m, c % n
                if len(line) >= 2:
                    found.add(tuple(sorted(line)))

        def pairs(steps: tuple[Cell, ...]) -> None:
            for r, c in self.cells:
                for dr, dc in steps:
                    for sr, sc in ((dr, dc), (-dr, -dc)):
                        a, b = r + sr, c + sc
                        if self.toroidal:
                            a, b = a % m, b % n
                        if 0 <= a < m and 0 <= b < n and (a, b) != (r, c):
                            found.add(tuple(sorted(((r, c), (a, b)))))

        if self.attack == "king" or not self.touch:
            pairs(KING_STEPS)
        if self.attack in ("queen", "rook"):
            orbits((0, 1))
            orbits((1, 0))
        if self.attack in ("queen", "bishop"):
            orbits((1, 1))
            orbits((1, -1))
        if self.knight:
            pairs(KNIGHT_STEPS)
        # drop a line that lies inside another (a knight's pair on a toroidal row, say): a
        # longer line holding it passes through its first cell
        lines = sorted(found, key=lambda line: (-len(line), line))
        kept: list[tuple[Cell, ...]] = []
        through: dict[Cell, list[frozenset[Cell]]] = {}
        for line in lines:
            cells = frozenset(line)
            if not any(cells <= other for other in through.get(line[0], ())):
                kept.append(line)
                for cell in line:
                    through.setdefault(cell, []).append(cells)
        return tuple(sorted(kept))

    @cached_property
    def neighbours(self) -> dict[Cell, frozenset[Cell]]:
        """Each cell's attacked cells (itself excluded)."""
        found: dict[Cell, set[Cell]] = {cell: set() for cell in self.cells}
        for line in self.lines:
            for cell in line:
                found[cell].update(line)
        return {cell: frozenset(others - {cell}) for cell, others in found.items()}

    def attacks(self, a: Cell, b: Cell) -> bool:
        """Whether a piece on ``a`` attacks cell ``b`` (a cell does not attack itself)."""
        return b in self.neighbours[a]

    def transform(self, name: str, cell: Cell) -> Cell:
        """Map ``cell`` by the board symmetry ``name``."""
        return TRANSFORMS[name](cell[0], cell[1], self.rows, self.cols)  # type: ignore[no-any-return]

    @cached_property
    def images(self) -> dict[str, dict[Cell, Cell]]:
        """Each board symmetry's map of every cell (the square-only ones on square boards)."""
        m, n = self.rows, self.cols
        return {
            name: {cell: move(cell[0], cell[1], m, n) for cell in self.cells}
            for name, move in TRANSFORMS.items()
            if m == n or name not in SQUARE_ONLY
        }

    @cached_property
    def symmetries(self) -> tuple[str, ...]:
        """The board symmetries that keep the blocked cells and the attack relation.

        Every symmetry of the board's shape keeps the attack relation (queen,
        rook and king lines, the knight's moves, wrapped or not), so those
        that keep the blocked cells are the answer, found without the lines.
        """
        blocked = set(self.blocked)
        m, n = self.rows, self.cols
        return tuple(
            name
            for name, move in TRANSFORMS.items()
            if (m == n or name not in SQUARE_ONLY)
            and {move(r, c, m, n) for r, c in blocked} == blocked
        )

    def check_size(self) -> None:
        """Refuse a board of more than ``MAX_CELLS`` cells for a statement stated on cells."""
        if self.rows * self.cols > MAX_CELLS:
            raise ValueError(
                f"a cell model takes at most {MAX_CELLS:,} cells (a 100 x 100 board): a time "
                f"limit cannot bound stating a larger one, got {shown(self.rows)} x "
                f"{shown(self.cols)}"
            )

    def describe(self) -> str:
        """One line naming the board and its attack relation."""
        moves = {
            "queen": "queen lines",
            "rook": "rows and columns",
            "king": "king steps",
            "bishop": "diagonals",
        }
        words = [f"{self.rows}x{self.cols} board", moves[self.attack]]
        if self.toroidal:
            words.append("wrapping around the edges")
        if self.knight:
            words.append("plus knight moves")
        if not self.touch and self.attack != "king":
            words.append("plus king steps (no two touching)")
        if self.blocked:
            words.append(plural(len(self.blocked), "blocked cell"))
        return ", ".join(words)
