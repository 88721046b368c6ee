"""The declarative vocabulary: plain, frozen constraint objects.

A model is nothing but a tuple of these; every backend translates them.
Variables are ``q[colour][row]``, the column of that colour's queen in that row.

Every constraint kind carries its own behaviour (the :class:`ConstraintKind`
protocol): ``violation(by_colour, n)`` checks a complete solution and names
what it breaks, and ``kept_by(n)`` lists the board symmetries that map the
constraint onto itself, from which a model's symmetry group is the common
part. A new kind is one class with these two methods; each engine says which
kinds it translates.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from operator import add
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from cpqueens.vocabulary.checks import check_regions
from cpqueens.vocabulary.geometry import (
    BOARD_SYMMETRIES,
    check_symmetry,
    closure,
    image,
    is_leader,
    maps_onto_itself,
    transform,
)

if TYPE_CHECKING:
    from cpqueens.expressions import CondNode

__all__ = [
    "BOARD_SYMMETRIES",
    "AllDifferent",
    "Cell",
    "Constraint",
    "ConstraintKind",
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
]

Cell = tuple[int, int]
#: A complete solution: one column per row, per colour.
Columns = Sequence[Sequence[int]]


@runtime_checkable
class ConstraintKind(Protocol):
    """What every constraint kind offers besides its data: a check and its symmetries."""

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """What a complete solution breaks, as a sentence; None if it meets the constraint."""
        ...

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The board symmetries mapping the constraint onto itself (an n x n board)."""
        ...


class Decomposes(Protocol):
    """A kind that lowers itself: ``decompose`` states it in kinds the engines know.

    CPMpy's ``GlobalConstraint.decompose()``: an engine that does not know
    the kind states its decomposition instead (``lower``), usually
    ``Where`` conditions over ``q`` (linear sums, tables, comparisons), which
    CP-SAT, python-constraint and the bitmask search all state. A kind from
    outside the package then counts on every engine with no edit to any.
    """

    def decompose(self, n: int, colours: int) -> tuple[object, ...]:
        """The same constraint as kinds the engines know, on an n x n board."""
        ...


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

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """A sentence if a complete solution breaks the constraint; None if it holds."""
        return None if self.holds(by_colour, n) else f"{self} fails"

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The group generated by the symmetries the constraint keeps."""
        return closure(self.keeps)

    def decompose(self, n: int, colours: int) -> tuple[Where, ...]:
        """The same rule as conditions: ``(q[r] + r + n) % n`` and ``(q[r] - r + n) % n`` differ."""
        from cpqueens.expressions import Distinct, Operator, Var

        def wrapped(row: int, sign: int) -> Operator:
            shifted = Operator("+", (Var(self.colour, row), sign * row + n))
            return Operator("%", (shifted, n))

        return tuple(
            Where(Distinct(tuple(wrapped(r, sign) for r in range(n))), BOARD_SYMMETRIES)
            for sign in (1, -1)
        )

    def __str__(self) -> str:
        c = self.colour
        return f"Toroidal(q{c}[r] + r and q{c}[r] - r differ mod n across rows r)"


@functools.cache
def knight_differences(n: int, wraps: bool) -> dict[tuple[int, int], tuple[int, ...]]:
    """For rows a < b of an n x n board, the column differences ``q[b] - q[a]`` a knight makes.

    ``wraps``: on a torus, rows and columns wrap around (row n-1 neighbours row 0).

    >>> knight_differences(4, False)[(0, 2)], knight_differences(4, True)[(0, 1)]
    ((-1, 1), (-2, 2))
    """
    found: dict[tuple[int, int], set[int]] = {}
    for dr, dc in ((1, 2), (1, -2), (2, 1), (2, -1), (-1, 2), (-1, -2), (-2, 1), (-2, -1)):
        for a in range(n):
            b = (a + dr) % n if wraps else a + dr
            if not 0 <= b < n or b == a:
                continue
            low, high = min(a, b), max(a, b)
            step = dc if b == high else -dc
            steps = (step - n, step, step + n) if wraps else (step,)
            values = found.setdefault((low, high), set())
            values.update(value for value in steps if -n < value < n)
    return {pair: tuple(sorted(values)) for pair, values in sorted(found.items()) if values}


@dataclass(frozen=True)
class KnightMoves:
    """No two queens of ``colour`` stand a knight's move apart (superqueens).

    ``|q[r] - q[r+1]| != 2`` and ``|q[r] - q[r+2]| != 1`` for every row r.
    With ``wraps`` the board is a torus: the moves wrap around its edges,
    rows and columns alike (row n-1 neighbours row 0). Every board symmetry
    keeps it.

    >>> KnightMoves(0).holds(((1, 3, 0, 2),), 4)
    False
    >>> KnightMoves(0, wraps=True).holds(((0, 2, 4, 1, 3),), 5)
    False
    """

    colour: int = 0
    wraps: bool = False

    #: The board symmetries that map the constraint onto itself.
    keeps = BOARD_SYMMETRIES

    def differences(self, n: int) -> dict[tuple[int, int], tuple[int, ...]]:
        """For rows a < b, the values of ``q[b] - q[a]`` that put the two queens a knight apart."""
        return knight_differences(n, self.wraps)

    def holds(self, by_colour: Sequence[Sequence[int]], n: int) -> bool:
        """Whether a complete solution meets the constraint."""
        columns = by_colour[self.colour]
        return all(
            columns[b] - columns[a] not in values
            for (a, b), values in self.differences(len(columns)).items()
        )

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """A sentence if a complete solution breaks the constraint; None if it holds."""
        return None if self.holds(by_colour, n) else f"{self} fails"

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The group generated by the symmetries the constraint keeps."""
        return closure(self.keeps)

    def decompose(self, n: int, colours: int) -> tuple[Where, ...]:
        """The same rule as conditions: ``q[b] - q[a] != d`` for each knight's difference d."""
        from cpqueens.expressions import Comparison, Operator, Var

        c = self.colour
        return tuple(
            Where(Comparison("!=", Operator("-", (Var(c, b), Var(c, a))), value), BOARD_SYMMETRIES)
            for (a, b), values in self.differences(n).items()
            for value in values
        )

    def __str__(self) -> str:
        around = ", wrapping around the edges" if self.wraps else ""
        return f"KnightMoves(no two q{self.colour} queens a knight's move apart{around})"


@dataclass(frozen=True)
class Where:
    """A user-stated condition (``Model.where``): a node tree of ``vocabulary.expressions``.

    ``keeps`` names the board symmetries the condition is declared to keep
    (besides the identity); a model's symmetry group is cut down to them.

    >>> from cpqueens.expressions import Comparison, Var
    >>> str(Where(Comparison("<", Var(0, 0), Var(0, 7))))
    'q0[0] < q0[7]'
    """

    condition: CondNode
    keeps: tuple[str, ...] = ("identity",)

    def __post_init__(self) -> None:
        keeps = tuple(dict.fromkeys(("identity", *self.keeps)))
        for name in keeps:
            check_symmetry(name)
        object.__setattr__(self, "keeps", keeps)

    @property
    def reads(self) -> tuple[tuple[int, int], ...]:
        """The (colour, row) variables the condition reads, sorted."""
        from cpqueens.expressions import reads  # loaded with the condition itself

        return reads(self.condition)

    def holds(self, by_colour: Sequence[Sequence[int]], n: int) -> bool:
        """Whether a complete solution meets the condition."""
        from cpqueens.expressions import evaluate

        return bool(evaluate(self.condition, by_colour))

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """A sentence if a complete solution breaks the constraint; None if it holds."""
        return None if self.holds(by_colour, n) else f"{self} fails"

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The group generated by the symmetries the constraint keeps."""
        return closure(self.keeps)

    def __str__(self) -> str:
        text = str(self.condition)
        if len(self.keeps) > 1:
            text += f"  (kept by {', '.join(self.keeps[1:])})"
        return text


#: The symbols ``Regions`` prints its grid with (region 0 is ``A``).
_REGION_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"


def check_region_grid(grid: object, n: int | None = None) -> tuple[tuple[int, ...], ...]:
    """``grid`` as a tuple of n rows of n region numbers 0..n-1, every one used; else an error.

    ``n`` is the board size the grid must have (None: its own number of rows).

    >>> check_region_grid([[0, 1], [1, 1]])
    ((0, 1), (1, 1))
    """
    size = n
    if size is None:
        size = len(grid) if isinstance(grid, Sequence) and not isinstance(grid, str) else 0
    return check_regions(grid, size, size, count=size)


@dataclass(frozen=True)
class Regions:
    """One queen of ``colour`` in each region: ``grid[r][c]`` is cell (r, c)'s region, 0..n-1.

    An n x n board split into n regions (the Queens game's colours): with one
    queen per row there are n queens, so "at most one per region" is exactly
    one. The symmetries that keep it map the grid onto itself up to a
    relabelling of the regions.

    >>> Regions(((0, 0), (1, 1))).violation(((0, 1),), 2) is None
    True
    >>> print(Regions(((0, 1), (0, 1))))
    Regions(one q0 queen per region: AB/AB)
    """

    grid: tuple[tuple[int, ...], ...]
    colour: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "grid", check_region_grid(self.grid))
        if isinstance(self.colour, bool) or not isinstance(self.colour, int) or self.colour < 0:
            raise ValueError(f"Regions colour must be an int >= 0, got {self.colour!r}")

    def region(self, row: int, col: int) -> int:
        """The region of cell (row, col)."""
        return self.grid[row][col]

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """The first two rows whose queens share a region, as a sentence; None if none do."""
        seen: dict[int, int] = {}
        for row, col in enumerate(by_colour[self.colour]):
            region = self.grid[row][col]
            if region in seen:
                return (
                    f"{self} fails: the queens of rows {seen[region]} and {row} "
                    f"share region {region}"
                )
            seen[region] = row
        return None

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The symmetries mapping the grid onto itself, the regions relabelled."""
        if len(self.grid) != n:
            return ("identity",)
        return tuple(name for name in BOARD_SYMMETRIES if self._keeps(name, n))

    def _keeps(self, name: str, n: int) -> bool:
        """Whether ``name`` maps every region onto a region (a bijection of the labels)."""
        forward: dict[int, int] = {}
        for r in range(n):
            for c in range(n):
                tr, tc = transform(name, (r, c), n)
                if forward.setdefault(self.grid[r][c], self.grid[tr][tc]) != self.grid[tr][tc]:
                    return False
        return len(set(forward.values())) == len(forward)

    def conditions(self) -> tuple[CondNode, ...]:
        """The same rule as conditions: ``region(q[a]) != region(q[b])`` for rows a < b."""
        from cpqueens.expressions import Comparison, Element, Var

        rows = [Element(row, Var(self.colour, r)) for r, row in enumerate(self.grid)]
        return tuple(Comparison("!=", a, b) for i, a in enumerate(rows) for b in rows[i + 1 :])

    def decompose(self, n: int, colours: int) -> tuple[Where, ...]:
        """The same rule as one condition: the rows' regions ``grid[r][q[r]]`` all differ."""
        from cpqueens.expressions import Distinct, Element, Var

        regions = tuple(Element(row, Var(self.colour, r)) for r, row in enumerate(self.grid))
        return (Where(Distinct(regions), self.kept_by(n)),)

    def __str__(self) -> str:
        text = "/".join("".join(_REGION_SYMBOLS[g] for g in row) for row in self.grid)
        return f"Regions(one q{self.colour} queen per region: {text})"


@dataclass(frozen=True)
class NoTouch:
    """No two queens of ``colour`` touch, not even diagonally (king adjacency).

    With one queen per row, only queens in adjacent rows can touch:
    ``|q[r] - q[r+1]| != 1`` for every row r. With ``wraps`` the board is a
    torus: row n-1 touches row 0 and column n-1 column 0. Every board
    symmetry keeps it.

    >>> NoTouch(0).violation(((0, 2, 1),), 3)
    'NoTouch(no two q0 queens touch) fails: the queens of rows 1 and 2 touch'
    """

    colour: int = 0
    wraps: bool = False

    def pairs(self, n: int) -> tuple[tuple[int, int], ...]:
        """The pairs of rows (a, b), a < b, whose queens can touch."""
        found = {(r, r + 1) for r in range(n - 1)}
        if self.wraps and n > 2:
            found.add((0, n - 1))
        return tuple(sorted(found))

    def touch(self, a: int, b: int, n: int) -> bool:
        """Whether queens in columns ``a`` and ``b`` of touching rows touch."""
        gap = abs(a - b)
        return gap == 1 or (self.wraps and n > 2 and gap == n - 1)

    def violation(self, by_colour: Columns, n: int) -> str | None:
        """The first two touching queens, as a sentence; None if none touch."""
        columns = by_colour[self.colour]
        for a, b in self.pairs(len(columns)):
            if self.touch(columns[a], columns[b], len(columns)):
                return f"{self} fails: the queens of rows {a} and {b} touch"
        return None

    def kept_by(self, n: int) -> tuple[str, ...]:
        """Every board symmetry maps touching queens to touching queens."""
        return BOARD_SYMMETRIES

    def conditions(self, n: int) -> tuple[CondNode, ...]:
        """The same rule as conditions: ``q[b] - q[a]`` is none of the touching differences."""
        from cpqueens.expressions import Comparison, Operator, Var

        c = self.colour
        gaps = (-1, 1) if not (self.wraps and n > 2) else tuple(sorted({-1, 1, n - 1, 1 - n}))
        return tuple(
            Comparison("!=", Operator("-", (Var(c, b), Var(c, a))), gap)
            for a, b in self.pairs(n)
            for gap in gaps
        )

    def decompose(self, n: int, colours: int) -> tuple[Where, ...]:
        """The same rule as conditions (:meth:`conditions`), kept by every board symmetry."""
        return tuple(Where(node, BOARD_SYMMETRIES) for node in self.conditions(n))

    def __str__(self) -> str:
        around = ", wrapping around the edges" if self.wraps else ""
        return f"NoTouch(no two q{self.colour} queens touch{around})"


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
