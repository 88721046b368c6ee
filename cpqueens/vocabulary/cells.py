"""Pieces on cells: boards where any number of queens stand, as plain frozen data.

The one-queen-per-row models of :mod:`cpqueens.model` cannot say "as many
queens as fit" or "the fewest queens that cover the board". Here a solution is
a set of occupied cells of an m x n board (one set per army), and the problem
is stated over 0/1 cell variables:

- :class:`CellBoard`: the rows and columns, the blocked cells (no piece may
  stand there; they do not stop an attack and need not be covered, as in
  Blocked n-Queens) and the attack relation: queen lines, rook lines (rows
  and columns only) or king adjacency, optionally toroidal (lines wrap around
  the edges) and with the knight's moves added. The relation is a tuple of
  *lines*: sets of cells that pairwise attack each other (a row, a diagonal, a
  knight's pair); two cells attack each other when they share a line.
- :class:`CellProblem`: the board, one army or two (peaceable armies of equal
  size), placed pieces, and which conditions hold: ``independent`` (no piece
  attacks one of another army; with one army, no two pieces attack each
  other) and ``dominating`` (every free cell holds a piece or is attacked by
  one).
- quotas (:class:`Quota`): exactly k pieces in every row (``per_row``),
  every column (``per_column``) or every region of a grid (``regions`` with
  ``per_region``): Star Battle is king steps with k per row, column and
  region; the n-queens problem is queen lines with one per row.
- ``CellProblem.symmetries``: the board symmetries (and, for two armies, the
  colour swap) that map the problem onto itself (its regions onto regions,
  its quotas onto quotas); solvers break them with lex-leader constraints
  and count classes under them.

Nothing here imports a solver.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from cpqueens.vocabulary.cellboard import (
    ATTACKS,
    KING_STEPS,
    KNIGHT_STEPS,
    MAX_CELLS,
    SWAP_LINES,
    TRANSFORMS,
    Attack,
    Cell,
    CellBoard,
    cells_of,
    is_int,
)
from cpqueens.vocabulary.checks import check_regions

if TYPE_CHECKING:
    from cpqueens.expressions import CondNode

__all__ = [
    "ATTACKS",
    "KING_STEPS",
    "KNIGHT_STEPS",
    "MAX_CELLS",
    "QUOTAS",
    "SWAP_LINES",
    "TRANSFORMS",
    "Attack",
    "Cell",
    "CellBoard",
    "CellProblem",
    "Piece",
    "Placement",
    "Quota",
    "check_quotas",
]

#: A piece: (row, col, army); army 0 when there is one army.
Piece = tuple[int, int, int]
#: The quota options of :class:`CellProblem`, in the order they are stated.
QUOTAS = ("per_row", "per_column", "per_region")


@dataclass(frozen=True)
class Quota:
    """Exactly ``k`` pieces (of the one army) on the free cells of ``cells``.

    ``what`` names the group: "row 3", "column 0", "region 2".
    """

    what: str
    cells: tuple[Cell, ...]
    k: int


def _quota(value: object, name: str) -> int | None:
    """A quota: None, or an int >= 0 (a TypeError or ValueError naming it otherwise)."""
    if value is None:
        return None
    if not is_int(value):
        raise TypeError(
            f"{name} must be an int >= 0 or None, got {value!r} ({type(value).__name__})"
        )
    if int(value) < 0:  # type: ignore[call-overload]
        raise ValueError(f"{name} must be an int >= 0 or None, got {value}")
    return int(value)  # type: ignore[call-overload]


def check_quotas(
    board: CellBoard,
    armies: int,
    per_row: object,
    per_column: object,
    regions: object,
    per_region: object,
) -> tuple[int | None, int | None, tuple[tuple[int, ...], ...] | None, int | None]:
    """The quotas checked and normalised: (per_row, per_column, regions, per_region).

    Each is None or an int >= 0 (regions a grid of ``board``'s shape); quotas
    need one army and may not contradict each other (each fixes the size).
    """
    quotas: dict[str, int | None] = {
        "per_row": _quota(per_row, "per_row"),
        "per_column": _quota(per_column, "per_column"),
        "per_region": _quota(per_region, "per_region"),
    }
    grid = None if regions is None else check_regions(regions, board.rows, board.cols)
    if grid is not None and quotas["per_region"] is None:
        raise ValueError("regions need per_region: the number of pieces in every region")
    if quotas["per_region"] is not None and grid is None:
        raise ValueError("per_region needs regions: a grid of region numbers")
    stated = [name for name in QUOTAS if quotas[name] is not None]
    if stated and armies != 1:
        raise ValueError(f"quotas ({', '.join(stated)}) need one army, got armies={armies}")
    region_count = 0 if grid is None else 1 + max(max(row) for row in grid)
    groups = {
        "per_row": (board.rows, "rows", board.cols, "row"),
        "per_column": (board.cols, "columns", board.rows, "column"),
        "per_region": (region_count, "regions", 0, "region"),
    }
    totals: list[tuple[str, int]] = []  # (the quota in words, the size it fixes)
    for name in stated:
        k = quotas[name]
        assert k is not None
        number, plural, length, single = groups[name]
        if name != "per_region" and k > length:
            raise ValueError(
                f"{name}={k} is more than the {length} cells of a {single} "
                f"on the {board.rows}x{board.cols} board"
            )
        totals.append((f"{name}={k} puts {k * number} pieces on the {number} {plural}", k * number))
    for words, total in totals[1:]:
        if total != totals[0][1]:
            raise ValueError(f"{totals[0][0]}, but {words}: no solution meets both")
    return quotas["per_row"], quotas["per_column"], grid, quotas["per_region"]


@dataclass(frozen=True)
class CellProblem:
    """Pieces on the cells of a board: the conditions every solution meets.

    ``armies`` is 1 or 2 (two armies have the same number of pieces, and no
    cell holds two pieces). ``independent``: no piece attacks a piece of
    another army (one army: no two pieces attack each other). ``dominating``:
    every free cell holds a piece or is attacked by one. ``placed`` pieces are
    (row, col) pairs of army 0 or (row, col, army) triples. The size of a
    solution is the number of pieces of one army.

    Quotas (one army only): ``per_row`` pieces on every row, ``per_column``
    on every column, ``per_region`` on every region of ``regions`` (a grid of
    rows x cols region numbers 0..R-1, every one used); None states none.
    Blocked cells count for nothing. Quotas fix the size of every solution
    (``size``), so two that give different sizes are refused.

    >>> star = CellProblem(CellBoard(4, 4, attack="king"), per_row=1, per_column=1)
    >>> star.size, len(star.quotas), star.symmetries[-1]
    (4, 8, ('antidiagonal', False))
    """

    board: CellBoard
    armies: int = 1
    independent: bool = True
    dominating: bool = False
    placed: tuple[Piece, ...] = field(default=())
    per_row: int | None = None
    per_column: int | None = None
    regions: tuple[tuple[int, ...], ...] | None = None
    per_region: int | None = None
    #: Users' conditions over the cells (``Model.where`` with ``x[r, c]``): expression nodes.
    conditions: tuple[CondNode, ...] = ()
    #: The symmetry group of the statement this form was lowered from (None: the form's own).
    kept: tuple[tuple[str, bool], ...] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        """Validate the fields and normalise the placed pieces."""
        if not isinstance(self.board, CellBoard):
            raise TypeError(f"board must be a CellBoard, got {self.board!r}")
        self.board.check_size()
        if not is_int(self.armies) or self.armies not in (1, 2):
            raise ValueError(f"armies must be 1 or 2, got {self.armies!r}")
        for name in ("independent", "dominating"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be a bool, got {getattr(self, name)!r}")
        pieces: set[Piece] = set()
        if isinstance(self.placed, (str, bytes)) or not isinstance(self.placed, Iterable):
            raise TypeError(
                f"placed must be an iterable of (row, col[, army]), got {self.placed!r}"
            )
        for piece in self.placed:
            if not isinstance(piece, (tuple, list)) or len(piece) not in (2, 3):
                raise TypeError(
                    f"placed piece must be (row, col) or (row, col, army), got {piece!r}"
                )
            army = piece[2] if len(piece) == 3 else 0
            if not is_int(army) or not 0 <= army < self.armies:
                raise ValueError(
                    f"placed piece {tuple(piece)!r} has army {army!r}; "
                    f"armies are 0..{int(self.armies) - 1}"
                )
            (cell,) = cells_of([tuple(piece[:2])], self.board.rows, self.board.cols, "placed piece")
            pieces.add((*cell, int(army)))
        object.__setattr__(self, "armies", int(self.armies))
        object.__setattr__(self, "placed", tuple(sorted(pieces)))
        self._check_quotas()

    def _check_quotas(self) -> None:
        """Validate and normalise the quotas and the regions; refuse contradicting ones."""
        checked = check_quotas(
            self.board, self.armies, self.per_row, self.per_column, self.regions, self.per_region
        )
        for name, value in zip(
            ("per_row", "per_column", "regions", "per_region"), checked, strict=True
        ):
            object.__setattr__(self, name, value)

    @property
    def region_count(self) -> int:
        """The number of regions (0 without a grid)."""
        return 0 if self.regions is None else 1 + max(max(row) for row in self.regions)

    @property
    def size(self) -> int | None:
        """The number of pieces every solution has, as the quotas fix it (None without quotas)."""
        if self.per_row is not None:
            return self.per_row * self.board.rows
        if self.per_column is not None:
            return self.per_column * self.board.cols
        if self.per_region is not None:
            return self.per_region * self.region_count
        return None

    @cached_property
    def quotas(self) -> tuple[Quota, ...]:
        """Every quota: rows, then columns, then regions (each over all its cells)."""
        board, found = self.board, []
        if self.per_row is not None:
            for r in range(board.rows):
                cells = tuple((r, c) for c in range(board.cols))
                found.append(Quota(f"row {r}", cells, self.per_row))
        if self.per_column is not None:
            for c in range(board.cols):
                cells = tuple((r, c) for r in range(board.rows))
                found.append(Quota(f"column {c}", cells, self.per_column))
        if self.regions is not None and self.per_region is not None:
            for g in range(self.region_count):
                cells = tuple(cell for cell in board.cells if self.regions[cell[0]][cell[1]] == g)
                found.append(Quota(f"region {g}", cells, self.per_region))
        return tuple(found)

    def check_size(self, queens: int | None) -> None:
        """Raise a ValueError if ``queens`` pieces contradict the quotas' size."""
        if queens is None or self.size is None or queens == self.size:
            return
        stated = ", ".join(
            f"{name}={getattr(self, name)}" for name in QUOTAS if getattr(self, name) is not None
        )
        raise ValueError(
            f"queens={queens} contradicts the quotas: {stated} on this board "
            f"means {self.size} pieces in every solution"
        )

    def keeps(self, name: str) -> bool:
        """Whether the board symmetry ``name`` maps the regions onto regions and keeps the quotas.

        Rows and columns trade places under the quarter turns and the diagonal
        reflections: those keep the quotas only when ``per_row == per_column``.
        """
        if name in SWAP_LINES and self.per_row != self.per_column:
            return False
        if self.conditions and name != "identity":
            return False  # a condition keeps no symmetry it was not shown to keep
        if self.regions is None:
            return True
        image: dict[int, int] = {}
        for cell in self.board.cells:
            r, c = self.board.transform(name, cell)
            here, there = self.regions[cell[0]][cell[1]], self.regions[r][c]
            if image.setdefault(here, there) != there:
                return False
        return len(set(image.values())) == len(image)

    @cached_property
    def symmetries(self) -> tuple[tuple[str, bool], ...]:
        """The group that maps solutions onto solutions: (board symmetry, swap the armies).

        A board symmetry of the board that maps each army's placed pieces onto
        themselves, the regions onto regions and the quotas onto quotas; with
        two armies, also each of those followed by the colour swap if it maps
        the placed pieces of army 0 onto those of army 1 and back.
        The identity ("identity", False) comes first. A form lowered from a
        statement has the statement's group (``kept``).
        """
        if self.kept is not None:
            return self.kept
        board = self.board
        found = []
        for swap in (False, True) if self.armies == 2 else (False,):
            for name in board.symmetries:
                if not self.keeps(name):
                    continue
                image = {
                    (*board.transform(name, (r, c)), (1 - a) if swap else a)
                    for r, c, a in self.placed
                }
                if image == set(self.placed):
                    found.append((name, swap))
        return tuple(found)

    def check(self, pieces: Iterable[Piece]) -> str | None:
        """Why ``pieces`` is not a solution of any size, or None if it is one."""
        board, pieces = self.board, set(pieces)
        cells = [(r, c) for r, c, _ in pieces]
        if len(set(cells)) != len(cells):
            return "two pieces share a cell"
        if blocked := set(cells) & set(board.blocked):
            return f"a piece stands on blocked cell {min(blocked)}"
        if missing := set(self.placed) - pieces:
            return f"placed piece {min(missing)} is missing"
        sizes = [sum(1 for *_, a in pieces if a == army) for army in range(self.armies)]
        if len(set(sizes)) > 1:
            return f"the armies differ in size: {sizes}"
        # Line by line (a board's neighbour sets grow as n^3): two pieces attack each other
        # when they share a line.
        army = {(r, c): a for r, c, a in pieces}
        covered = set(cells)
        for line in board.lines:
            here = sorted(cell for cell in line if cell in army)
            if not here:
                continue
            covered.update(line)
            if self.independent:
                for first in here:
                    for other in here:
                        if other != first and (self.armies == 1 or army[first] != army[other]):
                            return f"the piece on {first} attacks the piece on {other}"
        if self.dominating and (uncovered := set(board.free) - covered):
            return f"cell {min(uncovered)} is neither occupied nor attacked"
        occupied = set(cells)
        for quota in self.quotas:
            got = len(occupied.intersection(quota.cells))
            if got != quota.k:
                return f"{quota.what} holds {got} pieces, expected {quota.k}"
        if self.conditions:
            from cpqueens.expressions import evaluate

            grid = [[0] * board.cols for _ in range(board.rows)]
            for r, c, army in pieces:  # type: ignore[assignment]  # an int here, not the dict
                grid[r][c] = int(army == 0)
            for condition in self.conditions:
                if not evaluate(condition, grid):
                    return f"the condition {condition} does not hold"
        return None

    def describe(self, sense: str | None = None, size: int | None = None) -> str:
        """The problem as mathematics: variables, constraints, objective, one per line."""
        board = self.board
        army = "w[r,c], b[r,c]" if self.armies == 2 else "x[r,c]"
        out = [f"{board.describe()}; 0/1 variables {army} for each free cell"]
        count = "sum w" if self.armies == 2 else "sum x"
        if sense is not None:
            out.insert(0, f"{sense} {count}")
        lines = len(board.lines)
        if self.armies == 2:
            out.append("w[r,c] + b[r,c] <= 1 for each cell; sum w = sum b")
            if self.independent:
                out.append(f"no line of the {lines} holds both a w and a b piece")
        elif self.independent:
            out.append(f"sum x <= 1 over each of the {lines} lines")
        if self.dominating:
            pieces = "w + b" if self.armies == 2 else "x"
            out.append(f"{pieces} >= 1 over each free cell and the cells attacking it")
        groups = (
            ("per_row", "row r", f"r < {board.rows}", "c"),
            ("per_column", "column c", f"c < {board.cols}", "r"),
            ("per_region", "region g", f"g < {self.region_count}", "(r,c) in region g"),
        )
        for name, group, bound, over in groups:
            k = getattr(self, name)
            if k is not None:
                out.append(f"sum x[r,c] over {over} = {k} for each {group}, 0 <= {bound}")
        if self.placed:
            out.append(f"placed: {list(self.placed)}")
        out.extend(str(condition) for condition in self.conditions)
        if size is not None:
            out.append(f"{count} = {size}")
        return "\n  ".join(out)


class Placement(tuple[Piece, ...]):
    """One solution of a cell statement: its (row, col, army) pieces, a tuple that draws itself.

    It equals the plain tuple of its pieces; ``shape`` is the board's (rows,
    columns) and ``blocked`` its blocked cells, for the picture.

    >>> p = Placement(((0, 1, 0),), (2, 2))
    >>> p == ((0, 1, 0),), p.shape
    (True, (2, 2))
    """

    shape: tuple[int, int]
    blocked: tuple[Cell, ...]

    def __new__(
        cls, pieces: Iterable[Piece], shape: tuple[int, int], blocked: Iterable[Cell] = ()
    ) -> Placement:
        """The pieces of a solution on a board of ``shape`` with ``blocked`` cells."""
        placement = super().__new__(cls, pieces)
        placement.shape = shape
        placement.blocked = tuple(blocked)
        return placement

    def __reduce__(
        self,
    ) -> tuple[type[Placement], tuple[tuple[Piece, ...], tuple[int, int], tuple[Cell, ...]]]:
        """Pickle the pieces with the board's shape (a worker process may send it)."""
        return (Placement, (tuple(self), self.shape, self.blocked))

    def _repr_svg_(self) -> str:
        """The board a notebook shows, the pieces of each army in its colour."""
        from cpqueens.drawing.pictures import rectangle_svg

        rows, cols = self.shape
        return rectangle_svg(rows, cols, self.blocked, [(a, r, c) for r, c, a in self])
