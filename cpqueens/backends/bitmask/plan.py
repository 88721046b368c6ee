"""The bitmask engine's reading of a column form: per colour, each row's allowed columns.

:func:`compile_plan` translates the constraints once into row masks (blocked
cells, placed queens, one-row conditions), the lines each colour attacks
along, the variants (toroidal, knight), the conditions on two rows or more
(checked as soon as their last row's queen is placed) and the Queens game's
rules; the rest of the engine searches the plan. A kind the engine does not
state natively (:func:`states`) arrives as its decomposition.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cpqueens.backends.bitmask.dfs import FLAT_MIN_N, MAX_MASK_BITS
from cpqueens.backends.bitmask.kinds import states
from cpqueens.backends.translate import unsupported
from cpqueens.expressions import CondNode, evaluate, reads
from cpqueens.kernels import MAX_COLUMNS
from cpqueens.lowering.kinds import lower
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Disjoint,
    Forbidden,
    Invariant,
    KnightMoves,
    LexLeader,
    NoTouch,
    Placed,
    Regions,
    Toroidal,
    Where,
)

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem

NAME = "bitmask"


@dataclass(frozen=True)
class Plan:
    """A model read into bitmasks: per colour, the allowed columns of each row."""

    n: int
    allowed: tuple[tuple[int, ...], ...]  # allowed[colour][row]
    offsets: tuple[frozenset[int], ...]  # the AllDifferent offsets of each colour
    disjoint: frozenset[tuple[int, int]]  # colour pairs (a < b) that share no cell
    # LexLeader / Invariant: checked on each complete solution (the DFS enumerates then).
    symmetric: tuple[LexLeader | Invariant, ...] = ()
    toroidal: frozenset[int] = frozenset()  # colours whose diagonals wrap around (mod n)
    knight: frozenset[int] = frozenset()  # colours with no two queens a knight's move apart
    # Conditions reading two or more variables, by their last (colour, row): checked
    # as soon as that row's queen is placed. One-variable conditions are in ``allowed``.
    checks: tuple[tuple[tuple[int, int], CondNode], ...] = ()
    # Regions and NoTouch. A plan the compiled regions kernel answers (``regions_grid``)
    # holds them here alone; any other has them lowered into ``checks`` too (``lowered``),
    # so that every other path checks them as conditions.
    rules: tuple[Regions | NoTouch, ...] = ()
    # How many of ``checks`` are the user's conditions (the rest are the rules').
    user_checks: int = 0

    def row_checks(self, colour: int) -> dict[int, list[CondNode]]:
        """Colour ``colour``'s conditions by the row after whose placement they are checked."""
        found: dict[int, list[CondNode]] = {}
        for (last_colour, row), condition in self.checks:
            if last_colour == colour:
                found.setdefault(row, []).append(condition)
        return found

    def colour_masks(self, colour: int, earlier: Sequence[tuple[int, ...]]) -> list[int]:
        """Colour ``colour``'s allowed masks, less the cells of earlier colours it may not share."""
        masks = list(self.allowed[colour])
        for other, columns in enumerate(earlier):
            if (other, colour) in self.disjoint:
                for row, col in enumerate(columns):
                    masks[row] &= ~(1 << col)
        return masks

    @property
    def plain(self) -> bool:
        """Whether the plan is queens' lines and masks only (what the native kernels count)."""
        return not (self.symmetric or self.toroidal or self.knight or self.checks or self.rules)


def compile_plan(model: Problem) -> Plan:
    """Translate ``model.constraints`` into per-colour, per-row allowed-column masks.

    A row with a blocked cell or a placed queen gets its own n-bit mask per
    colour: a wide board with many such rows is refused (``ValueError``)
    before they are built, past ``MAX_MASK_BITS`` in all.
    """
    n, colours = model.n, model.colours
    if n > FLAT_MIN_N:
        rows = {row for row, _ in model.board.blocked} | {row for row, _ in model.placed}
        if len(rows) * colours * n > MAX_MASK_BITS:
            raise ValueError(
                f"the bitmask engine would hold {len(rows):,} rows of {n:,}-bit masks per colour "
                f"for this board ({len(rows) * colours * n // 8 // 2**20:,} MiB; at most "
                f"{MAX_MASK_BITS // 8 // 2**20} MiB): find() searches such a board without them"
            )
    reading = _Reading(n, colours)
    for constraint in lower(model.constraints, states, n, colours):
        read = next((_READERS[t] for t in type(constraint).__mro__ if t in _READERS), None)
        if read is None:
            raise unsupported(NAME, constraint)
        read(reading, constraint)
    reading.place_queens()
    plan = reading.plan()
    return lowered(plan) if plan.rules and regions_grid(plan) is None else plan


class _Reading:
    """A plan being read from constraints, one kind at a time (each ``read_*`` method)."""

    def __init__(self, n: int, colours: int) -> None:
        self.n, self.colours = n, colours
        full = (1 << n) - 1
        self.allowed = [[full] * n for _ in range(colours)]
        self.offsets: list[set[int]] = [set() for _ in range(colours)]
        self.placed: list[tuple[int, int, int]] = []
        self.disjoint: set[tuple[int, int]] = set()
        self.symmetric: list[LexLeader | Invariant] = []
        self.toroidal: set[int] = set()
        self.knight: set[int] = set()
        self.checks: list[tuple[tuple[int, int], CondNode]] = []
        self.rules: list[Regions | NoTouch] = []

    def read_all_different(self, constraint: AllDifferent) -> None:
        self.offsets[constraint.colour].add(constraint.offset)

    def read_forbidden(self, constraint: Forbidden) -> None:
        for row, col in constraint.cells:
            for masks in self.allowed:
                masks[row] &= ~(1 << col)

    def read_placed(self, constraint: Placed) -> None:
        self.placed.extend((constraint.colour, row, col) for row, col in constraint.cells)

    def read_disjoint(self, constraint: Disjoint) -> None:
        group = sorted(constraint.colours)
        self.disjoint.update((a, b) for i, a in enumerate(group) for b in group[i + 1 :])

    def read_symmetric(self, constraint: LexLeader | Invariant) -> None:
        self.symmetric.append(constraint)

    def read_toroidal(self, constraint: Toroidal) -> None:
        self.toroidal.add(constraint.colour)

    def read_knight(self, constraint: KnightMoves) -> None:
        self.knight.add(constraint.colour)

    def read_rule(self, constraint: Regions | NoTouch) -> None:
        self.rules.append(constraint)

    def read_where(self, constraint: Where) -> None:
        """Two rows or more: checked at the last; one row: a mask of its columns; none: a truth."""
        n, variables = self.n, constraint.reads
        if len(variables) >= 2:
            self.checks.append((variables[-1], constraint.condition))
        elif variables:  # one variable: a mask of the columns that meet the condition
            colour, row = variables[0]
            values = [[0] * n for _ in range(self.colours)]
            mask = 0
            for col in range(n):
                values[colour][row] = col
                if evaluate(constraint.condition, values):
                    mask |= 1 << col
            self.allowed[colour][row] &= mask
        elif not evaluate(constraint.condition, ()):
            self.allowed[0] = [0] * n  # a condition on no variable that is false: no solution

    def place_queens(self) -> None:
        """Each placed queen fixes its row and takes its column and diagonals from the others."""
        n = self.n
        for colour, row, col in self.placed:
            masks = self.allowed[colour]
            masks[row] &= 1 << col
            if n > MAX_COLUMNS:
                continue  # the DFS rejects the attacks anyway; n masks of n bits would not fit
            # offset 0 keeps col, -1 keeps col - row, +1 keeps col + row.
            for other in range(n):
                if other != row:
                    distance = other - row
                    lines = {0: col, -1: col + distance, 1: col - distance}
                    for offset, target in lines.items():
                        if offset in self.offsets[colour] and 0 <= target < n:
                            masks[other] &= ~(1 << target)

    def plan(self) -> Plan:
        """The plan read."""
        return Plan(
            self.n,
            tuple(tuple(masks) for masks in self.allowed),
            tuple(frozenset(o) for o in self.offsets),
            frozenset(self.disjoint),
            tuple(self.symmetric),
            frozenset(self.toroidal),
            frozenset(self.knight),
            tuple(self.checks),
            tuple(self.rules),
            len(self.checks),
        )


#: The reading of each kind the engine states natively.
_READERS: dict[type, Callable[[_Reading, Any], None]] = {
    AllDifferent: _Reading.read_all_different,
    Forbidden: _Reading.read_forbidden,
    Placed: _Reading.read_placed,
    Disjoint: _Reading.read_disjoint,
    LexLeader: _Reading.read_symmetric,
    Invariant: _Reading.read_symmetric,
    Toroidal: _Reading.read_toroidal,
    KnightMoves: _Reading.read_knight,
    Regions: _Reading.read_rule,
    NoTouch: _Reading.read_rule,
    Where: _Reading.read_where,
}


def lowered(plan: Plan) -> Plan:
    """``plan`` with its ``Regions`` and ``NoTouch`` rules among the checks, as conditions.

    Each rule becomes conditions on two rows (``Regions.conditions``,
    ``NoTouch.conditions``), checked once the later row's queen is placed.
    """
    if len(plan.checks) > plan.user_checks or not plan.rules:
        return plan  # lowered already, or nothing to lower
    checks = list(plan.checks)
    for rule in plan.rules:
        found = rule.conditions() if isinstance(rule, Regions) else rule.conditions(plan.n)
        checks.extend((reads(condition)[-1], condition) for condition in found)
    return replace(plan, checks=tuple(checks))


#: Below this many rows to search (two colours: this many less 3), pure Python is
#: over before numba has loaded, unless it is loaded already.
NATIVE_MIN_ROWS = 11
#: The most placements of one colour listed in memory (8 bytes each) for pair counting.
PAIR_LIST_LIMIT = 1 << 22

QUEEN_LINES = frozenset({0, 1, -1})


def wants_native(plan: Plan) -> bool:
    """Whether the native kernels can count ``plan`` and it is big enough to pay for them."""
    if plan.n > MAX_COLUMNS or any(offsets != QUEEN_LINES for offsets in plan.offsets):
        return False
    if plan.symmetric or plan.checks:
        return False  # symmetry-breaking and conditions: the Python DFS checks them
    if "cpqueens.kernels.bits" in sys.modules:  # numba and the kernels are loaded already
        return True
    rows = sum(1 for mask in plan.allowed[0] if mask & (mask - 1))  # rows with a choice
    return rows >= NATIVE_MIN_ROWS - (3 if len(plan.allowed) > 1 else 0)


def compiled_conditions(plan: Plan) -> bool:
    """Whether ``plan``'s conditions run in the compiled DFS (``cpqueens.kernels.conditions``).

    One colour on at most 64 columns with conditions on two rows or more, big
    enough to pay for loading numba (or numba's kernel is loaded already).
    """
    from cpqueens.backends.bitmask.conditions import fits

    if not plan.checks or not fits(plan):
        return False
    if "cpqueens.kernels.conditions" in sys.modules:
        return True
    return sum(1 for mask in plan.allowed[0] if mask & (mask - 1)) >= NATIVE_MIN_ROWS


def native_plan(model: Problem) -> Plan | None:
    """The model's plan if the compiled decision searches hold it and it pays, else None."""
    plan = compile_plan(model)
    return plan if plan.plain and wants_native(plan) else None


def regions_plan(model: Problem) -> tuple[Plan, tuple[tuple[int, ...], ...]] | None:
    """The plan and region grid of a model the regions kernel decides (no symmetry rule)."""
    plan = compile_plan(model)
    grid = regions_grid(plan)
    return None if grid is None or plan.symmetric else (plan, grid)


#: The region kernel's widest board (a row is one int64 mask, shifted left once).
REGIONS_MAX_N = 62


def regions_grid(plan: Plan) -> tuple[tuple[int, ...], ...] | None:
    """The region grid if the compiled regions kernel answers ``plan``, else None.

    One colour of queens or rooks (lines: columns, with or without both
    diagonals) with one ``Regions`` rule, no touching (a ``NoTouch`` rule, or
    the diagonals, which forbid it anyway), no user condition and no
    variant, on at most 62 columns. Symmetry-breaking rules are checked on
    each solution it lists (:func:`solutions`).
    """
    if len(plan.allowed) != 1 or plan.n > REGIONS_MAX_N or plan.user_checks:
        return None
    if plan.toroidal or plan.knight or plan.offsets[0] not in (QUEEN_LINES, frozenset({0})):
        return None
    grids = [rule.grid for rule in plan.rules if isinstance(rule, Regions)]
    touching = plan.offsets[0] == QUEEN_LINES or any(
        isinstance(rule, NoTouch) for rule in plan.rules
    )
    if len(grids) != 1 or not touching or len(grids[0]) != plan.n:
        return None
    return grids[0]
