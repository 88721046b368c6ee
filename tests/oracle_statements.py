"""A brute-force oracle for every statement of the family: no code shared with cpqueens.

A statement is a plain dict (``Spec``); a solution is a frozenset of
(row, col, group) pieces, where the group is the piece's colour (several sets
of one piece per row and column) or its army (two peaceable armies). The
oracle lists every solution by trying every placement: permutations for the
sets of one piece per row and column, every subset (or every two-army
colouring) of the free cells otherwise. Small boards only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations, permutations, product

Cell = tuple[int, int]
Piece = tuple[int, int, int]
Solution = frozenset

#: The board symmetries by the names cpqueens gives them (rows grow downwards).
MAPS: dict[str, Callable[[int, int, int, int], Cell]] = {
    "identity": lambda r, c, m, n: (r, c),
    "rot90": lambda r, c, m, n: (c, m - 1 - r),
    "rot180": lambda r, c, m, n: (m - 1 - r, n - 1 - c),
    "rot270": lambda r, c, m, n: (n - 1 - c, r),
    "mirror": lambda r, c, m, n: (r, n - 1 - c),
    "flip": lambda r, c, m, n: (m - 1 - r, c),
    "diagonal": lambda r, c, m, n: (c, r),
    "antidiagonal": lambda r, c, m, n: (n - 1 - c, m - 1 - r),
}
KNIGHT = [(a, b) for a, b in product((-2, -1, 1, 2), repeat=2) if abs(a) != abs(b)]
KING = [(a, b) for a, b in product((-1, 0, 1), repeat=2) if (a, b) != (0, 0)]


@dataclass
class Spec:
    """A statement as plain data (the oracle's own reading of ``cpqueens.model``'s keywords)."""

    rows: int
    cols: int
    blocked: frozenset = frozenset()
    attack: str = "queen"  # queen, rook or king
    toroidal: bool = False
    knight: bool = False
    touch: bool = True  # False: no two pieces of one group touch (no_touch)
    colours: int = 1
    armies: int = 1
    independent: bool = True
    dominating: bool = False
    per_row: int | None = 1
    per_column: int | None = 1
    regions: tuple | None = None
    per_region: int | None = None
    placed: frozenset = frozenset()  # (row, col, group)
    #: Conditions on a solution: predicates over a ``View``.
    conditions: list = field(default_factory=list)

    @property
    def free(self) -> list[Cell]:
        return [
            (r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.blocked
        ]

    def attacks(self, a: Cell, b: Cell) -> bool:
        """Whether a piece on ``a`` attacks cell ``b`` (a cell does not attack itself)."""
        if a == b:
            return False
        m, n = self.rows, self.cols
        (r1, c1), (r2, c2) = a, b

        def reach(dr: int, dc: int) -> bool:
            if self.toroidal:
                return ((r1 + dr) % m, (c1 + dc) % n) == (r2, c2)
            return (r1 + dr, c1 + dc) == (r2, c2)

        if self.knight and any(reach(dr, dc) for dr, dc in KNIGHT):
            return True
        if (self.attack == "king" or not self.touch) and any(reach(dr, dc) for dr, dc in KING):
            return True
        if self.attack == "king":
            return False
        if r1 == r2 or c1 == c2:
            return True
        if self.attack == "rook":
            return False
        steps = range(1, max(m, n) * max(m, n) + 1) if self.toroidal else range(1, max(m, n))
        return any(reach(s * k, t * k) for k in steps for s in (1, -1) for t in (1, -1))


class View:
    """A solution as the conditions read it: ``q(group, row)`` and ``x(row, col)``."""

    def __init__(self, pieces: frozenset, rows: int) -> None:
        self.pieces = pieces
        self.rows = rows

    def q(self, group: int, row: int) -> int | None:
        """The column of the one piece of ``group`` in ``row``; None if the row has not one."""
        found = [c for r, c, g in self.pieces if r == row and g == group]
        return found[0] if len(found) == 1 else None

    def x(self, row: int, col: int) -> int:
        """1 if a piece of group 0 stands on the cell, else 0."""
        return int((row, col, 0) in self.pieces)


def _one_per_row(spec: Spec) -> bool:
    return spec.colours > 1 or (spec.armies == 1 and spec.per_row == 1)


def _distinct_columns(spec: Spec) -> bool:
    """Whether no two pieces of a group share a column: a quota of one, or columns attack."""
    columns_attack = spec.attack in ("queen", "rook") and spec.independent
    return spec.colours > 1 or spec.per_column == 1 or columns_attack


def _candidates(spec: Spec) -> Iterator[frozenset]:
    """Every placement worth checking: fast enough for boards of about 16 cells."""
    free = spec.free
    if _one_per_row(spec) and spec.rows == spec.cols:
        n = spec.rows
        rows = permutations(range(n)) if _distinct_columns(spec) else product(range(n), repeat=n)
        one = [cols for cols in rows if all((r, c) in set(free) for r, c in enumerate(cols))]
        for combo in product(one, repeat=spec.colours):
            yield frozenset((r, c, g) for g, cols in enumerate(combo) for r, c in enumerate(cols))
        return
    if spec.armies == 1:
        for size in range(len(free) + 1):
            for cells in combinations(free, size):
                yield frozenset((r, c, 0) for r, c in cells)
        return
    for owners in product((None, 0, 1), repeat=len(free)):
        yield frozenset((r, c, g) for (r, c), g in zip(free, owners, strict=True) if g is not None)


def holds(spec: Spec, pieces: frozenset) -> bool:
    """Whether ``pieces`` is a solution of ``spec`` (of any size)."""
    cells = [(r, c) for r, c, _ in pieces]
    if len(set(cells)) != len(cells) or set(cells) & spec.blocked:
        return False
    if not spec.placed <= pieces:
        return False
    groups = max(spec.colours, spec.armies)
    sizes = [sum(1 for *_, g in pieces if g == group) for group in range(groups)]
    if spec.armies == 2 and sizes[0] != sizes[1]:
        return False
    listed = sorted(pieces)
    for i, (r1, c1, g1) in enumerate(listed):
        for r2, c2, g2 in listed[i + 1 :]:
            if not spec.attacks((r1, c1), (r2, c2)):
                continue
            if spec.armies == 2 and spec.independent and g1 != g2:
                return False
            if spec.armies == 1 and spec.independent and g1 == g2:
                return False
    if spec.dominating:
        covered = set(cells) | {b for a in cells for b in spec.free if spec.attacks(a, b)}
        if not set(spec.free) <= covered:
            return False
    quota_groups = range(spec.colours) if spec.armies == 1 else ()
    for group in quota_groups:
        mine = [(r, c) for r, c, g in pieces if g == group]
        if spec.per_row is not None and any(
            sum(1 for r, _ in mine if r == row) != spec.per_row for row in range(spec.rows)
        ):
            return False
        if spec.per_column is not None and any(
            sum(1 for _, c in mine if c == col) != spec.per_column for col in range(spec.cols)
        ):
            return False
        if spec.regions is not None:
            labels = {label for row in spec.regions for label in row}
            for label in labels:
                if sum(1 for r, c in mine if spec.regions[r][c] == label) != spec.per_region:
                    return False
    view = View(pieces, spec.rows)
    return all(condition(view) for condition in spec.conditions)


def solutions(spec: Spec) -> set[frozenset]:
    """Every solution of ``spec``, of every size."""
    return {pieces for pieces in _candidates(spec) if holds(spec, pieces)}


def size(pieces: frozenset) -> int:
    """The number of pieces of group 0 (the size a verb's ``queens`` and an optimum count)."""
    return sum(1 for *_, g in pieces if g == 0)


def image(spec: Spec, name: str, pieces: frozenset) -> frozenset:
    """``pieces`` under a symmetry: a board map, with ``+swap`` the two armies exchanged."""
    board, _, swap = name.partition("+")
    if board == "swap":
        board, swap = "identity", "swap"
    move = MAPS[board]
    return frozenset(
        (*move(r, c, spec.rows, spec.cols), (1 - g) if swap else g) for r, c, g in pieces
    )


def classes(spec: Spec, found: set[frozenset], group: tuple[str, ...]) -> int:
    """The number of classes of ``found`` under the symmetries named in ``group``."""
    seen: set[frozenset] = set()
    total = 0
    for pieces in found:
        if pieces in seen:
            continue
        total += 1
        seen.update(image(spec, name, pieces) for name in group)
    return total
