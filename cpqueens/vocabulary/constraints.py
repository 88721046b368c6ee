"""The column form's kinds: plain, frozen constraint objects over ``q[colour][row]``.

A column form is a tuple of these; every engine translates them (or their
decompositions). This module holds the core (the lines a colour attacks
along, blocked cells, placed queens, colours sharing no cell, symmetry
breaking) and gathers every kind: the protocol and users' conditions from
:mod:`~cpqueens.vocabulary.kinds`, the board's rules from
:mod:`~cpqueens.vocabulary.rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import add

from cpqueens.vocabulary.geometry import (
    BOARD_SYMMETRIES,
    check_symmetry,
    image,
    is_leader,
    maps_onto_itself,
)
from cpqueens.vocabulary.kinds import Cell, Columns, ConstraintKind, Decomposes, Where
from cpqueens.vocabulary.rules import (
    KnightMoves,
    NoTouch,
    Regions,
    Toroidal,
    check_region_grid,
    knight_differences,
)

__all__ = [
    "BOARD_SYMMETRIES",
    "AllDifferent",
    "Cell",
    "Columns",
    "Constraint",
    "ConstraintKind",
    "Decomposes",
    "Disjoint",
    "Forbidden",
    "Invariant",
    "KnightMoves",
    "LexLeader",
    "NoTouch",
    "Placed",
    "Regions",
    "Toroidal",
    "Where",
    "check_region_grid",
    "knight_differences",
]


_OFFSET_TERMS = {0: "q{c}[r]", 1: "q{c}[r] + r", -1: "q{c}[r] - r"}


def _distinct(columns: Sequence[int], step: int) -> bool:
    """Whether ``columns[r] + step * r`` differ for every row r, at C speed (no numpy here)."""
    n = len(columns)
    if not step:
        return len(set(columns)) == n
    return len(set(map(add, columns, range(0, step * n, step)))) == n


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

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """The first two rows sharing a value, as a sentence; None if none do."""
        if _distinct(by_colour[self.colour], self.offset):
            return None  # every value distinct, seen at C speed; else find the pair below
        seen: dict[int, int] = {}
        for row, col in enumerate(by_colour[self.colour]):
            value = col + self.offset * row
            if value in seen:
                return f"{self} fails: rows {seen[value]} and {row} share {value}"
            seen[value] = row
        return None

    def kept_by(self, n: int) -> tuple[str, ...]:
        """Every board symmetry keeps the queens' lines (with the other offsets)."""
        return BOARD_SYMMETRIES

    def __str__(self) -> str:
        term = _OFFSET_TERMS[self.offset].format(c=self.colour)
        return f"AllDifferent({term} for every row r)"


@dataclass(frozen=True)
class Forbidden:
    """No queen of any colour stands on these (row, col) cells."""

    cells: tuple[Cell, ...]

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """The first queen on a forbidden cell, as a sentence; None if there is none."""
        for row, col in self.cells:
            for colour, columns in enumerate(by_colour):
                if columns[row] == col:
                    return f"colour {colour}'s queen stands on blocked cell {(row, col)}"
        return None

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The symmetries mapping the cells onto themselves."""
        return _cells_kept_by(self.cells, n)

    def __str__(self) -> str:
        return f"Forbidden({_cells_text(self.cells)})"


@dataclass(frozen=True)
class Placed:
    """A queen of ``colour`` stands on each of these (row, col) cells."""

    cells: tuple[Cell, ...]
    colour: int = 0

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """The first row whose queen is not on its placed cell, as a sentence; None if none."""
        for row, col in self.cells:
            if by_colour[self.colour][row] != col:
                return f"{self} fails at row {row}"
        return None

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The symmetries mapping the cells onto themselves (colours are never permuted)."""
        return _cells_kept_by(self.cells, n)

    def __str__(self) -> str:
        return f"Placed(colour {self.colour}: {_cells_text(self.cells)})"


@dataclass(frozen=True)
class Disjoint:
    """No cell holds queens of two of these colours: ``q[a][r] != q[b][r]``."""

    colours: tuple[int, ...]

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """The first row where two of the colours share a cell, as a sentence; None if none."""
        for row in range(n):
            cells = [by_colour[colour][row] for colour in self.colours]
            if len(set(cells)) != len(cells):
                return f"{self} fails: two colours share a cell in row {row}"
        return None

    def kept_by(self, n: int) -> tuple[str, ...]:
        """Every board symmetry maps shared cells to shared cells."""
        return BOARD_SYMMETRIES

    def decompose(self, n: int, colours: int) -> tuple[Where, ...]:
        """The same rule as conditions: ``q[a][r] != q[b][r]`` for every row and two colours."""
        from cpqueens.expressions import Comparison, Var

        group = sorted(self.colours)
        return tuple(
            Where(Comparison("!=", Var(a, r), Var(b, r)), BOARD_SYMMETRIES)
            for i, a in enumerate(group)
            for b in group[i + 1 :]
            for r in range(n)
        )

    def __str__(self) -> str:
        return f"Disjoint(colours {', '.join(map(str, self.colours))}: no shared cell)"


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
            check_symmetry(name)

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """A sentence if an image is smaller than the solution; None if none is."""
        solution = tuple(tuple(columns) for columns in by_colour)
        return None if is_leader(solution, self.symmetries, n) else f"{self} fails"

    def kept_by(self, n: int) -> tuple[str, ...]:
        """Symmetry breaking keeps nothing but the identity."""
        return ("identity",)

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
        check_symmetry(self.symmetry)

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """A sentence if the solution's image differs from it; None if they are equal."""
        solution = tuple(tuple(columns) for columns in by_colour)
        return None if image(self.symmetry, solution, n) == solution else f"{self} fails"

    def kept_by(self, n: int) -> tuple[str, ...]:
        """Symmetry breaking keeps nothing but the identity."""
        return ("identity",)

    def __str__(self) -> str:
        return f"Invariant(q = image of q under {self.symmetry})"


Constraint = (
    AllDifferent
    | Forbidden
    | Placed
    | Disjoint
    | LexLeader
    | Invariant
    | Toroidal
    | KnightMoves
    | Regions
    | NoTouch
    | Where
)


def _cells_kept_by(cells: tuple[Cell, ...], n: int) -> tuple[str, ...]:
    """The board symmetries mapping ``cells`` onto themselves."""
    return tuple(name for name in BOARD_SYMMETRIES if maps_onto_itself(name, cells, n))


def _cells_text(cells: tuple[Cell, ...]) -> str:
    return " ".join(f"({r},{c})" for r, c in cells) or "none"


#: The kinds cpqueens defines, which each of its three engines states natively (its
#: ``SUPPORTS``); a kind from elsewhere reaches them through its ``decompose``.
BUILT_IN_KINDS: tuple[type, ...] = (
    AllDifferent,
    Forbidden,
    Placed,
    Disjoint,
    LexLeader,
    Invariant,
    Toroidal,
    KnightMoves,
    Regions,
    NoTouch,
    Where,
)
