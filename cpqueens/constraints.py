"""The declarative vocabulary: plain, frozen constraint objects.

A model is nothing but a tuple of these; every backend translates them.
Variables are ``q[colour][row]``, the column of that colour's queen in that row.
"""

from __future__ import annotations

from dataclasses import dataclass

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


Constraint = AllDifferent | Forbidden | Placed | Disjoint


def _cells_text(cells: tuple[Cell, ...]) -> str:
    return " ".join(f"({r},{c})" for r, c in cells) or "none"
