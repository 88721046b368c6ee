"""The declarative vocabulary: plain, frozen constraint objects.

A model is nothing but a tuple of these; every backend translates them.
Variables are ``q[colour][row]``, the column of that colour's queen in that row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cpqueens.vocabulary.expressions import CondNode, evaluate, reads

Cell = tuple[int, int]

_OFFSET_TERMS = {0: "q{c}[r]", 1: "q{c}[r] + r", -1: "q{c}[r] - r"}


@dataclass(frozen=True)
class AllDifferent:
    """``q[colour][r] + offset * r`` differs across all rows r.

    ``offset`` 0 is the columns, +1 the anti-diagonals (constant row + col),
    -1 the diagonals (constant col - row).

    >>> str(AllDifferent(colour=0, offset=1))
    'AllDifferent(q0[r] + r for every row r)'
    """

    colour: int
    offset: int

    def __post_init__(self) -> None:
        if self.offset not in _OFFSET_TERMS:
            raise ValueError(f"AllDifferent offset must be 0, 1 or -1, got {self.offset!r}")

    def __str__(self) -> str:
        term = _OFFSET_TERMS[self.offset].format(c=self.colour)
        return f"AllDifferent({term} for every row r)"


@dataclass(frozen=True)
class Forbidden:
    """No queen of any colour stands on these (row, col) cells."""

    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        return f"Forbidden({_cells_text(self.cells)})"


@dataclass(frozen=True)
class Placed:
    """A queen of ``colour`` stands on each of these (row, col) cells."""

    cells: tuple[Cell, ...]
    colour: int = 0

    def __str__(self) -> str:
        return f"Placed(colour {self.colour}: {_cells_text(self.cells)})"


@dataclass(frozen=True)
class Disjoint:
    """No cell holds queens of two of these colours: ``q[a][r] != q[b][r]``."""

    colours: tuple[int, ...]

    def __str__(self) -> str:
        return f"Disjoint(colours {', '.join(map(str, self.colours))}: no shared cell)"


#: The 8 symmetries of the square board, by name; ``strategies.symmetry`` maps cells by them.
#: Rows grow downwards: "rot90" turns the board a quarter clockwise, "mirror"
#: swaps left and right, "flip" top and bottom, "diagonal" transposes.
BOARD_SYMMETRIES = (
    "identity",
    "rot90",
    "rot180",
    "rot270",
    "mirror",
    "flip",
    "diagonal",
    "antidiagonal",
)


def _check_symmetry(name: object) -> None:
    if name not in BOARD_SYMMETRIES:
        choices = ", ".join(repr(s) for s in BOARD_SYMMETRIES)
        raise ValueError(f"unknown board symmetry {name!r}: expected one of {choices}")


@dataclass(frozen=True)
class LexLeader:
    """Symmetry breaking: the solution is no greater than its image under each of ``symmetries``.

    Solutions compare as tuples of column tuples, colour 0 first (the order in
    which they are enumerated); an image maps every colour's queens at once.
    With every symmetry of the model listed, exactly one solution of each
    class is kept: its canonical representative.

    >>> str(LexLeader(("rot90", "mirror")))
    'LexLeader(q <= image of q under rot90, mirror)'
    """

    symmetries: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "symmetries", tuple(self.symmetries))
        for name in self.symmetries:
            _check_symmetry(name)

    def __str__(self) -> str:
        return f"LexLeader(q <= image of q under {', '.join(self.symmetries) or 'nothing'})"


@dataclass(frozen=True)
class Invariant:
    """The solution maps onto itself under the board symmetry ``symmetry``.

    >>> str(Invariant("rot180"))
    'Invariant(q = image of q under rot180)'
    """

    symmetry: str

    def __post_init__(self) -> None:
        _check_symmetry(self.symmetry)

    def __str__(self) -> str:
        return f"Invariant(q = image of q under {self.symmetry})"


@dataclass(frozen=True)
class Toroidal:
    """The diagonals of ``colour``'s queens wrap around the board's edges (toroidal queens).

    ``(q[r] + r) mod n`` and ``(q[r] - r) mod n`` differ across all rows r; with
    the columns, no two queens attack each other on the torus. Every board
    symmetry keeps it.

    >>> Toroidal(0).holds(((0, 2, 4, 1, 3),), 5), Toroidal(0).holds(((1, 3, 0, 2),), 4)
    (True, False)
    """

    colour: int = 0

    #: The board symmetries that map the constraint onto itself.
    keeps = BOARD_SYMMETRIES

    def holds(self, by_colour: Sequence[Sequence[int]], n: int) -> bool:
        """Whether a complete solution meets the constraint."""
        columns = by_colour[self.colour]
        return all(
            len({(c + sign * r) % n for r, c in enumerate(columns)}) == n for sign in (1, -1)
        )

    def __str__(self) -> str:
        c = self.colour
        return f"Toroidal(q{c}[r] + r and q{c}[r] - r differ mod n across rows r)"


@dataclass(frozen=True)
class KnightMoves:
    """No two queens of ``colour`` stand a knight's move apart (superqueens).

    ``|q[r] - q[r+1]| != 2`` and ``|q[r] - q[r+2]| != 1`` for every row r.
    Every board symmetry keeps it.

    >>> KnightMoves(0).holds(((1, 3, 0, 2),), 4)
    False
    """

    colour: int = 0

    #: The board symmetries that map the constraint onto itself.
    keeps = BOARD_SYMMETRIES

    def holds(self, by_colour: Sequence[Sequence[int]], n: int) -> bool:
        """Whether a complete solution meets the constraint."""
        columns = by_colour[self.colour]
        return all(
            abs(columns[r] - columns[r + gap]) != 3 - gap
            for gap in (1, 2)
            for r in range(len(columns) - gap)
        )

    def __str__(self) -> str:
        return f"KnightMoves(no two q{self.colour} queens a knight's move apart)"


@dataclass(frozen=True)
class Where:
    """A user-stated condition (``Model.where``): a node tree of ``vocabulary.expressions``.

    ``keeps`` names the board symmetries the condition is declared to keep
    (besides the identity); a model's symmetry group is cut down to them.

    >>> from cpqueens.vocabulary.expressions import Comparison, Var
    >>> str(Where(Comparison("<", Var(0, 0), Var(0, 7))))
    'q0[0] < q0[7]'
    """

    condition: CondNode
    keeps: tuple[str, ...] = ("identity",)

    def __post_init__(self) -> None:
        keeps = tuple(dict.fromkeys(("identity", *self.keeps)))
        for name in keeps:
            _check_symmetry(name)
        object.__setattr__(self, "keeps", keeps)

    @property
    def reads(self) -> tuple[tuple[int, int], ...]:
        """The (colour, row) variables the condition reads, sorted."""
        return reads(self.condition)

    def holds(self, by_colour: Sequence[Sequence[int]], n: int) -> bool:
        """Whether a complete solution meets the condition."""
        return bool(evaluate(self.condition, by_colour))

    def __str__(self) -> str:
        text = str(self.condition)
        if len(self.keeps) > 1:
            text += f"  (kept by {', '.join(self.keeps[1:])})"
        return text


Constraint = (
    AllDifferent
    | Forbidden
    | Placed
    | Disjoint
    | LexLeader
    | Invariant
    | Toroidal
    | KnightMoves
    | Where
)


def _cells_text(cells: tuple[Cell, ...]) -> str:
    return " ".join(f"({r},{c})" for r, c in cells) or "none"
