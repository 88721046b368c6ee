"""Problem: the column form of a statement, ``q[colour][row]``, stated as constraints.

A statement with one piece per row and column (of each colour) lowers to a
``Problem`` (:mod:`cpqueens.lowering.columns`): the board, the colours, the
placed queens of colour 0 and further constraints, each a plain frozen
object. The engines translate its ``constraints``; the counting strategies
narrow it (more placed queens, symmetry-breaking rules) into subproblems.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from cpqueens.vocabulary.board import Board, check_cells
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Cell,
    Constraint,
    ConstraintKind,
    Disjoint,
    Forbidden,
    Placed,
)
from cpqueens.vocabulary.geometry import BOARD_SYMMETRIES, closure
from cpqueens.vocabulary.limits import check_queens
from cpqueens.words import plural

if TYPE_CHECKING:
    pass

P = TypeVar("P", bound="Problem")


@dataclass(frozen=True)
class Problem:
    """An N-Queens-family problem as plain data: ``colours`` non-attacking queen sets on ``board``.

    Each colour places one queen per row; no two queens of one colour attack
    each other; no cell holds two queens; ``placed`` are colour-0 queens that
    every solution contains. ``extra`` holds further constraints that narrow
    the same problem: the splitter's colour-1 queens, symmetry-breaking rules,
    regions. ``diagonals`` False leaves the long diagonals out: the queens
    attack along rows and columns only (rooks: one per row and column).
    """

    board: Board
    colours: int = 1
    placed: tuple[Cell, ...] = ()
    extra: tuple[Constraint, ...] = ()
    diagonals: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise TypeError(f"board must be a cpqueens.Board, got {self.board!r}")
        if isinstance(self.colours, bool) or not isinstance(self.colours, int):
            raise TypeError(f"colours must be an int >= 1, got {self.colours!r}")
        if self.colours < 1:
            raise ValueError(f"colours must be an int >= 1, got {self.colours}")
        placed = check_cells(self.placed, self.board.n, "placed queen")
        rows: dict[int, Cell] = {}
        for cell in placed:
            if cell[0] in rows:
                raise ValueError(
                    f"placed queens {rows[cell[0]]!r} and {cell!r} share row {cell[0]}: "
                    "expected at most one placed queen per row"
                )
            rows[cell[0]] = cell
        object.__setattr__(self, "placed", placed)
        object.__setattr__(self, "extra", tuple(self.extra))
        if not isinstance(self.diagonals, bool):
            raise TypeError(f"diagonals must be True or False, got {self.diagonals!r}")
        check_queens(self.n, self.colours)

    @property
    def n(self) -> int:
        """The board size."""
        return self.board.n

    @property
    def constraints(self) -> tuple[Constraint, ...]:
        """The whole problem as declarative constraint objects."""
        offsets = (0, 1, -1) if self.diagonals else (0,)
        result: list[Constraint] = [
            AllDifferent(colour, offset) for colour in range(self.colours) for offset in offsets
        ]
        if self.board.blocked:
            result.append(Forbidden(self.board.blocked))
        if self.placed:
            result.append(Placed(self.placed, colour=0))
        if self.colours > 1:
            result.append(Disjoint(tuple(range(self.colours))))
        return (*result, *self.extra)

    def with_placed(self: P, cells: Iterable[Cell]) -> P:
        """The same model with more colour-0 queens placed (of the same class)."""
        return replace(self, placed=self.placed + tuple(cells))

    def with_constraints(self: P, *constraints: Constraint) -> P:
        """The same model narrowed by more constraints (of the same class)."""
        return replace(self, extra=self.extra + constraints)

    def symmetries(self) -> tuple[str, ...]:
        """The board symmetries mapping the whole model onto itself.

        Each constraint names the symmetries that keep it (``kept_by``): blocked
        cells and each colour's placed queens must map onto themselves, a
        variant or a condition keeps the group its ``keeps`` generate (a
        condition: only the identity unless declared), symmetry breaking
        keeps the identity alone, as does a constraint that cannot say.

        >>> Problem(Board(6, ((0, 1), (1, 0)))).symmetries()
        ('identity', 'diagonal')
        """
        n = self.n
        kept = set(BOARD_SYMMETRIES)
        for constraint in self.constraints:
            if not isinstance(constraint, ConstraintKind):
                return ("identity",)
            kept &= set(closure(constraint.kept_by(n)))  # the group the names generate
        return tuple(name for name in BOARD_SYMMETRIES if name in kept)

    def __str__(self) -> str:
        head = (
            f"Model: {self.n}x{self.n} board, {plural(self.colours, 'colour')} of {self.n} queens"
        )
        if not self.diagonals:
            head += " (no diagonals: rows and columns attack)"
        return "\n".join([head, *(f"  {c}" for c in self.constraints)])


def flatten_conditions(conditions: Iterable[object]) -> list[object]:
    """Each argument of ``where``: a condition, or the conditions of an iterable."""
    from cpqueens.expressions import Condition, Expression

    return [
        item
        for argument in conditions
        for item in (
            argument
            if not isinstance(argument, (Condition, Expression, str, bytes))
            and isinstance(argument, Iterable)
            else (argument,)
        )
    ]
