"""The reference backend: the seeds' row / ld / rd bitmask DFS on Python integers.

Bit c of a row mask stands for column c, so taking the lowest set bit first
(``p = pos & -pos``) visits columns in ascending order and the solutions come
out in lexicographic order. Python integers have no width limit: any n works.

``count`` hands big searches on boards of at most 64 columns to the numba
kernels in :mod:`cpqueens.native` (imported only then, so small boards never
pay for loading numba); two colours that share no cell are counted as pairs of
one-colour placements instead of one search of the second colour per
placement of the first.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cpqueens.backends._translate import unsupported
from cpqueens.constraints import AllDifferent, Disjoint, Forbidden, Invariant, LexLeader, Placed

#: The constraint classes this backend translates.
SUPPORTS = (AllDifferent, Forbidden, Placed, Disjoint, LexLeader, Invariant)

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


def compile_plan(model) -> Plan:
    """Translate ``model.constraints`` into per-colour, per-row allowed-column masks."""
    n, colours = model.n, model.colours
    full = (1 << n) - 1
    allowed = [[full] * n for _ in range(colours)]
    offsets: list[set[int]] = [set() for _ in range(colours)]
    placed: list[tuple[int, int, int]] = []
    disjoint: set[tuple[int, int]] = set()
    symmetric: list[LexLeader | Invariant] = []
    for constraint in model.constraints:
        if isinstance(constraint, AllDifferent):
            offsets[constraint.colour].add(constraint.offset)
        elif isinstance(constraint, Forbidden):
            for row, col in constraint.cells:
                for masks in allowed:
                    masks[row] &= ~(1 << col)
        elif isinstance(constraint, Placed):
            placed.extend((constraint.colour, row, col) for row, col in constraint.cells)
        elif isinstance(constraint, Disjoint):
            group = sorted(constraint.colours)
            disjoint.update((a, b) for i, a in enumerate(group) for b in group[i + 1 :])
        elif isinstance(constraint, (LexLeader, Invariant)):
            symmetric.append(constraint)
        else:
            raise unsupported(NAME, constraint)
    for colour, row, col in placed:
        masks = allowed[colour]
        masks[row] &= 1 << col
        if n > NATIVE_MAX_N:
            continue  # the DFS rejects the attacks anyway; n masks of n bits each would not fit
        # The placed queen takes its column and diagonals from every other row:
        # offset 0 keeps col, -1 keeps col - row, +1 keeps col + row.
        for other in range(n):
            if other != row:
                distance = other - row
                lines = {0: col, -1: col + distance, 1: col - distance}
                for offset, target in lines.items():
                    if offset in offsets[colour] and 0 <= target < n:
                        masks[other] &= ~(1 << target)
    return Plan(
        n,
        tuple(tuple(masks) for masks in allowed),
        tuple(frozenset(o) for o in offsets),
        frozenset(disjoint),
        tuple(symmetric),
    )


def placements(
    n: int, allowed: Sequence[int], offsets: frozenset[int]
) -> Iterator[tuple[int, ...]]:
    """Yield every one-colour placement (a column per row) in lexicographic order."""
    full = (1 << n) - 1
    use_cols, use_diag, use_anti = 0 in offsets, -1 in offsets, 1 in offsets
    cols, diag, anti = [0] * n, [0] * n, [0] * n
    avail = [0] * n
    columns = [0] * n
    avail[0] = allowed[0]
    row = 0
    while row >= 0:
        free = avail[row]
        if not free:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        columns[row] = bit.bit_length() - 1
        if row == n - 1:
            yield tuple(columns)
            continue
        cols[row + 1] = cols[row] | bit if use_cols else 0
        diag[row + 1] = ((diag[row] | bit) << 1) & full if use_diag else 0
        anti[row + 1] = (anti[row] | bit) >> 1 if use_anti else 0
        row += 1
        avail[row] = allowed[row] & ~(cols[row] | diag[row] | anti[row])


def count_placements(n: int, allowed: Sequence[int], offsets: frozenset[int]) -> int:
    """The number of one-colour placements, by the recursive bitmask DFS."""
    if n + 50 > sys.getrecursionlimit():
        return sum(1 for _ in placements(n, allowed, offsets))
    full = (1 << n) - 1
    use_cols, use_diag, use_anti = 0 in offsets, -1 in offsets, 1 in offsets
    last = n - 1

    def search(row: int, cols: int, diag: int, anti: int) -> int:
        free = allowed[row] & ~(cols | diag | anti)
        if row == last:
            return free.bit_count()
        total = 0
        while free:
            bit = free & -free
            free ^= bit
            total += search(
                row + 1,
                cols | bit if use_cols else 0,
                ((diag | bit) << 1) & full if use_diag else 0,
                (anti | bit) >> 1 if use_anti else 0,
            )
        return total

    return search(0, 0, 0, 0)


def _colour_masks(plan: Plan, colour: int, earlier: Sequence[tuple[int, ...]]) -> list[int]:
    """Colour ``colour``'s allowed masks, less the cells of earlier colours it must not share."""
    masks = list(plan.allowed[colour])
    for other, columns in enumerate(earlier):
        if (other, colour) in plan.disjoint:
            for row, col in enumerate(columns):
                masks[row] &= ~(1 << col)
    return masks


def _nested(
    plan: Plan, earlier: tuple[tuple[int, ...], ...]
) -> Iterator[tuple[tuple[int, ...], ...]]:
    colour = len(earlier)
    masks = _colour_masks(plan, colour, earlier)
    for columns in placements(plan.n, masks, plan.offsets[colour]):
        found = (*earlier, columns)
        if len(found) == len(plan.allowed):
            yield found
        else:
            yield from _nested(plan, found)


def solutions(model) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Lazily yield every solution, one column tuple per colour, in lexicographic order."""
    plan = compile_plan(model)
    if not plan.symmetric:
        yield from _nested(plan, ())
        return
    from cpqueens.symmetry import satisfies

    for found in _nested(plan, ()):
        if all(satisfies(found, constraint, plan.n) for constraint in plan.symmetric):
            yield found


#: Below this many rows to search (two colours: this many less 3), pure Python is
#: over before numba has loaded, unless it is loaded already.
NATIVE_MIN_ROWS = 11
#: The native kernels hold a row in a uint64.
NATIVE_MAX_N = 64
#: The native engine counts n=15 in about half a second, less than starting
#: worker processes (each loads numba) costs; from n=16 on a pool pays.
PARALLEL_MIN_FREE_ROWS = 16
#: The most placements of one colour listed in memory (8 bytes each) for pair counting.
PAIR_LIST_LIMIT = 1 << 22

_QUEEN_LINES = frozenset({0, 1, -1})


def _wants_native(plan: Plan) -> bool:
    """Whether the native kernels can count ``plan`` and it is big enough to pay for them."""
    if plan.n > NATIVE_MAX_N or any(offsets != _QUEEN_LINES for offsets in plan.offsets):
        return False
    if "cpqueens.native" in sys.modules:
        return True
    rows = sum(1 for mask in plan.allowed[0] if mask & (mask - 1))  # rows with a choice
    return rows >= NATIVE_MIN_ROWS - (3 if len(plan.allowed) > 1 else 0)


def _native_count(plan: Plan, earlier: tuple[tuple[int, ...], ...] = ()) -> int:
    """Count ``plan`` with the numba kernels; colours before the last two are enumerated."""
    import numpy as np

    from cpqueens import native

    colours = len(plan.allowed)
    colour = len(earlier)
    if colours - colour > 2:
        return sum(
            _native_count(plan, (*earlier, columns))
            for columns in placements(
                plan.n, _colour_masks(plan, colour, earlier), plan.offsets[colour]
            )
        )
    first = np.array(_colour_masks(plan, colour, earlier), dtype=np.uint64)
    if colour == colours - 1:
        return int(native.count_placements(first))
    second = np.array(_colour_masks(plan, colour + 1, earlier), dtype=np.uint64)
    if (colour, colour + 1) not in plan.disjoint:
        return int(native.count_placements(first)) * int(native.count_placements(second))
    sizes = int(native.count_placements(first)), int(native.count_placements(second))
    if not all(sizes):
        return 0
    if plan.n > native.MAX_PACKED_N or max(sizes) > PAIR_LIST_LIMIT:
        return int(native.count_nested_pairs(first, second))
    return int(
        native.count_disjoint_pairs(
            native.list_placements(first, sizes[0]),
            native.list_placements(second, sizes[1]),
            plan.n,
        )
    )


def count(model) -> int:
    """The exact number of solutions."""
    plan = compile_plan(model)
    if plan.symmetric:
        return sum(1 for _ in solutions(model))
    if _wants_native(plan):
        return _native_count(plan)
    return _python_count(plan)


def _python_count(plan: Plan) -> int:
    """Count ``plan`` in pure Python: every placement of each colour but the last, nested."""
    last = len(plan.allowed) - 1

    def nested_count(earlier: tuple[tuple[int, ...], ...]) -> int:
        colour = len(earlier)
        masks = _colour_masks(plan, colour, earlier)
        if colour == last:
            return count_placements(plan.n, masks, plan.offsets[colour])
        return sum(
            nested_count((*earlier, columns))
            for columns in placements(plan.n, masks, plan.offsets[colour])
        )

    return nested_count(())
