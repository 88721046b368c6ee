"""The reference backend: the seeds' row / ld / rd bitmask DFS on Python integers.

Bit c of a row mask stands for column c, so taking the lowest set bit first
(``p = pos & -pos``) visits columns in ascending order and the solutions come
out in lexicographic order. Python integers have no width limit: any n works.

``count`` hands big searches on boards of at most 64 columns to the numba
kernels in :mod:`cpqueens.kernels.placements` (imported only then, so small boards never
pay for loading numba); two colours that share no cell are counted as pairs of
one-colour placements instead of one search of the second colour per
placement of the first.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cpqueens.backends import Capabilities
from cpqueens.backends.bitmask import search as bitmask_search
from cpqueens.backends.translate import tight_regions, unsupported
from cpqueens.clock import Deadline
from cpqueens.expressions import CondNode, evaluate, reads
from cpqueens.kernels import MAX_COLUMNS
from cpqueens.vocabulary.constraints import (
    BUILT_IN_KINDS,
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
    lower,
)

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem

#: The constraint classes this backend translates.
SUPPORTS = BUILT_IN_KINDS

NAME = "bitmask"

#: Counts in the compiled kernels (n = 15 in about half a second, less than starting
#: worker processes that each load numba: from 16 free rows on a pool pays); decides
#: plain models with compiled searches; a search returns to Python between chunks.
CAPABILITIES = Capabilities(
    kernels=True,
    short_below_free_rows=16,
    decides=True,
    stops="chunks",
    regions="cpqueens.backends.bitmask.regions",
    cells="cpqueens.backends.bitmask.cells",
    whole=True,
)


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
    full = (1 << n) - 1
    allowed = [[full] * n for _ in range(colours)]
    offsets: list[set[int]] = [set() for _ in range(colours)]
    placed: list[tuple[int, int, int]] = []
    disjoint: set[tuple[int, int]] = set()
    symmetric: list[LexLeader | Invariant] = []
    toroidal: set[int] = set()
    knight: set[int] = set()
    checks: list[tuple[tuple[int, int], CondNode]] = []
    rules: list[Regions | NoTouch] = []
    for constraint in lower(model.constraints, SUPPORTS, n, colours):
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
        elif isinstance(constraint, Toroidal):
            toroidal.add(constraint.colour)
        elif isinstance(constraint, KnightMoves):
            knight.add(constraint.colour)
        elif isinstance(constraint, (Regions, NoTouch)):
            rules.append(constraint)
        elif isinstance(constraint, Where):
            variables = constraint.reads
            if len(variables) >= 2:
                checks.append((variables[-1], constraint.condition))
            elif variables:  # one variable: a mask of the columns that meet the condition
                colour, row = variables[0]
                values = [[0] * n for _ in range(colours)]
                mask = 0
                for col in range(n):
                    values[colour][row] = col
                    if evaluate(constraint.condition, values):
                        mask |= 1 << col
                allowed[colour][row] &= mask
            elif not evaluate(constraint.condition, ()):
                allowed[0] = [0] * n  # a condition on no variable that is false: no solution
        else:
            raise unsupported(NAME, constraint)
    for colour, row, col in placed:
        masks = allowed[colour]
        masks[row] &= 1 << col
        if n > MAX_COLUMNS:
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
    plan = Plan(
        n,
        tuple(tuple(masks) for masks in allowed),
        tuple(frozenset(o) for o in offsets),
        frozenset(disjoint),
        tuple(symmetric),
        frozenset(toroidal),
        frozenset(knight),
        tuple(checks),
        tuple(rules),
        len(checks),
    )
    return lowered(plan) if rules and regions_grid(plan) is None else plan


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


def _near(n: int, col: int, distance: int) -> int:
    """The mask of the columns ``distance`` left and right of ``col`` on the board."""
    mask = 0
    if col - distance >= 0:
        mask |= 1 << (col - distance)
    if col + distance < n:
        mask |= 1 << (col + distance)
    return mask


def placements(
    n: int,
    allowed: Sequence[int],
    offsets: frozenset[int],
    *,
    toroidal: bool = False,
    knight: bool = False,
    checks: dict[int, list[CondNode]] | None = None,
    earlier: tuple[tuple[int, ...], ...] = (),
    deadline: Deadline | None = None,
) -> Iterator[tuple[int, ...]]:
    """Yield every one-colour placement (a column per row) in lexicographic order.

    ``toroidal`` rotates the diagonal masks (diagonals mod n) instead of
    shifting them; ``knight`` keeps the columns c±2 of the row above and c±1
    of the row two above free of queens; ``checks`` maps a row to the
    conditions checked once its queen is placed, reading the ``earlier``
    colours' columns and this colour's rows so far; a ``deadline`` that passes
    raises its ``IncompleteSearchError``.
    """
    if n >= FLAT_MIN_N:
        yield from _flat_placements(
            n,
            allowed,
            offsets,
            toroidal=toroidal,
            knight=knight,
            checks=checks,
            earlier=earlier,
            deadline=deadline,
        )
        return
    full = (1 << n) - 1
    top = n - 1
    use_cols, use_diag, use_anti = 0 in offsets, -1 in offsets, 1 in offsets
    cols, diag, anti = [0] * n, [0] * n, [0] * n
    avail = [0] * n
    columns = [0] * n
    values = (*earlier, columns)
    avail[0] = allowed[0]
    row = 0
    steps = 0
    while row >= 0:
        steps += 1
        if deadline is not None and not steps & DEADLINE_STEPS:
            deadline.check()
        free = avail[row]
        if not free:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        columns[row] = bit.bit_length() - 1
        if checks and row in checks:
            if not all(evaluate(condition, values) for condition in checks[row]):
                continue
        if row == n - 1:
            yield tuple(columns)
            continue
        cols[row + 1] = cols[row] | bit if use_cols else 0
        if toroidal:
            d, a = diag[row] | bit, anti[row] | bit
            diag[row + 1] = ((d << 1) | (d >> top)) & full if use_diag else 0
            anti[row + 1] = ((a >> 1) | ((a & 1) << top)) if use_anti else 0
        else:
            diag[row + 1] = ((diag[row] | bit) << 1) & full if use_diag else 0
            anti[row + 1] = (anti[row] | bit) >> 1 if use_anti else 0
        row += 1
        avail[row] = allowed[row] & ~(cols[row] | diag[row] | anti[row])
        if knight:
            near = _near(n, columns[row - 1], 2)
            if row >= 2:
                near |= _near(n, columns[row - 2], 1)
            avail[row] &= ~near


#: The Python DFS looks at its deadline every this many (plus one) steps.
DEADLINE_STEPS = (1 << 12) - 1


#: The most bits of per-row masks a plan of a wide board may hold (128 MiB): a row with a
#: blocked cell holds n bits per colour, so 10**4 such rows of a 10**6 board took 1.4 GB.
MAX_MASK_BITS = 2**30
#: From this many columns on, the DFS keeps one flag per line instead of n-bit
#: masks per row: a row's masks cost n/8 bytes each, so a deep search on a huge
#: board would hold gigabytes (n = 10**6: 500 KB per row), the flags n bytes.
FLAT_MIN_N = 1024


def _row_filters(
    n: int, allowed: Sequence[int], deadline: Deadline | None = None
) -> list[frozenset[int] | bytearray | None]:
    """Per row: None if every column is allowed, else its blocked columns or allowed flags."""
    full = (1 << n) - 1
    filters: list[frozenset[int] | bytearray | None] = []
    for row, mask in enumerate(allowed):
        if deadline is not None and not row & 1023:
            deadline.check()  # n rows of n bits each: seconds on the widest boards
        if mask is full or mask == full:  # rows share one full mask: compared once
            full = mask
            filters.append(None)
            continue
        blocked = full & ~mask
        if blocked.bit_count() <= 64:
            cols = []
            while blocked:
                bit = blocked & -blocked
                cols.append(bit.bit_length() - 1)
                blocked ^= bit
            filters.append(frozenset(cols))
        else:
            filters.append(bytearray((mask >> col) & 1 for col in range(n)))
    return filters


def _flat_placements(
    n: int,
    allowed: Sequence[int],
    offsets: frozenset[int],
    *,
    toroidal: bool = False,
    knight: bool = False,
    checks: dict[int, list[CondNode]] | None = None,
    earlier: tuple[tuple[int, ...], ...] = (),
    deadline: Deadline | None = None,
) -> Iterator[tuple[int, ...]]:
    """:func:`placements` in O(n) memory: one used-flag per column and diagonal.

    Same order, same arguments; meant for boards too wide for per-row masks.
    """
    use_cols, use_diag, use_anti = 0 in offsets, -1 in offsets, 1 in offsets
    lines = n if toroidal else 2 * n - 1
    col_used, diag_used, anti_used = bytearray(n), bytearray(lines), bytearray(lines)
    filters = _row_filters(n, allowed, deadline)
    columns = [0] * n
    values = (*earlier, columns)

    def diag_of(row: int, col: int) -> int:
        return (col - row) % n if toroidal else col - row + n - 1

    def anti_of(row: int, col: int) -> int:
        return (col + row) % n if toroidal else col + row

    def mark(row: int, col: int, flag: int) -> None:
        if use_cols:
            col_used[col] = flag
        if use_diag:
            diag_used[diag_of(row, col)] = flag
        if use_anti:
            anti_used[anti_of(row, col)] = flag

    def fits(row: int, col: int) -> bool:
        if use_cols and col_used[col]:
            return False
        if use_diag and diag_used[diag_of(row, col)]:
            return False
        if use_anti and anti_used[anti_of(row, col)]:
            return False
        allowed_here = filters[row]
        if allowed_here is not None:
            if isinstance(allowed_here, frozenset):
                if col in allowed_here:
                    return False
            elif not allowed_here[col]:
                return False
        if knight:
            if row >= 1 and abs(columns[row - 1] - col) == 2:
                return False
            if row >= 2 and abs(columns[row - 2] - col) == 1:
                return False
        return True

    row, start = 0, 0
    steps = 0
    while row >= 0:
        steps += 1
        if deadline is not None and not steps & DEADLINE_STEPS:
            deadline.check()
        col = start
        while col < n and not fits(row, col):
            col += 1
            steps += 1  # a row of a wide board can take a million looks: each one counts
            if deadline is not None and not steps & DEADLINE_STEPS:
                deadline.check()
        if col == n:  # this row is exhausted: back to the row above, past its queen
            row -= 1
            if row >= 0:
                mark(row, columns[row], 0)
                start = columns[row] + 1
            continue
        columns[row] = col
        start = col + 1
        if checks and row in checks:
            if not all(evaluate(condition, values) for condition in checks[row]):
                continue
        if row == n - 1:
            yield tuple(columns)
            continue
        mark(row, col, 1)
        row, start = row + 1, 0


def count_placements(
    n: int,
    allowed: Sequence[int],
    offsets: frozenset[int],
    *,
    toroidal: bool = False,
    knight: bool = False,
) -> int:
    """The number of one-colour placements, by the recursive bitmask DFS."""
    if n + 50 > sys.getrecursionlimit():
        return sum(1 for _ in placements(n, allowed, offsets, toroidal=toroidal, knight=knight))
    full = (1 << n) - 1
    top = n - 1
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

    def wrapped(row: int, cols: int, diag: int, anti: int, near1: int, near2: int) -> int:
        # near1: the knight's columns from the row above, near2: from two rows above.
        free = allowed[row] & ~(cols | diag | anti | near1)
        if row == last:
            return free.bit_count()
        total = 0
        while free:
            bit = free & -free
            free ^= bit
            if toroidal:
                d, a = diag | bit, anti | bit
                next_diag = ((d << 1) | (d >> top)) & full if use_diag else 0
                next_anti = ((a >> 1) | ((a & 1) << top)) if use_anti else 0
            else:
                next_diag = ((diag | bit) << 1) & full if use_diag else 0
                next_anti = (anti | bit) >> 1 if use_anti else 0
            if knight:
                next_near1 = (((bit << 2) | (bit >> 2)) & full) | near2
                next_near2 = ((bit << 1) | (bit >> 1)) & full
            else:
                next_near1 = next_near2 = 0
            total += wrapped(
                row + 1, cols | bit if use_cols else 0, next_diag, next_anti, next_near1, next_near2
            )
        return total

    if toroidal or knight:
        return wrapped(0, 0, 0, 0, 0, 0)
    return search(0, 0, 0, 0)


def _placements(
    plan: Plan,
    colour: int,
    masks: Sequence[int],
    earlier: tuple[tuple[int, ...], ...],
    deadline: Deadline | None = None,
) -> Iterator[tuple[int, ...]]:
    """Colour ``colour``'s placements under ``masks``, with its variants and conditions."""
    return placements(
        plan.n,
        masks,
        plan.offsets[colour],
        toroidal=colour in plan.toroidal,
        knight=colour in plan.knight,
        checks=plan.row_checks(colour),
        earlier=earlier,
        deadline=deadline,
    )


def _nested(
    plan: Plan, earlier: tuple[tuple[int, ...], ...], deadline: Deadline | None = None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    colour = len(earlier)
    masks = plan.colour_masks(colour, earlier)
    for columns in _placements(plan, colour, masks, earlier, deadline):
        found = (*earlier, columns)
        if len(found) == len(plan.allowed):
            yield found
        else:
            yield from _nested(plan, found, deadline)


def solutions(
    model: Problem, time_limit: float | None = None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Lazily yield every solution, one column tuple per colour, in lexicographic order.

    ``time_limit`` (seconds) ends a longer search with ``IncompleteSearchError``.
    """
    plan = compile_plan(model)
    deadline = None if time_limit is None else Deadline(time_limit)
    grid = regions_grid(plan)
    if grid is not None:
        found_all = _regions_solutions(plan, grid, deadline)
    elif compiled_conditions(plan):
        from cpqueens.backends.bitmask import conditions

        found_all = ((columns,) for columns in conditions.solutions(plan, deadline))
    else:
        found_all = _nested(plan, (), deadline)
    if not plan.symmetric:
        yield from found_all
        return

    for found in found_all:
        if all(constraint.violation(found, plan.n) is None for constraint in plan.symmetric):
            yield found


#: Below this many rows to search (two colours: this many less 3), pure Python is
#: over before numba has loaded, unless it is loaded already.
NATIVE_MIN_ROWS = 11
#: The most placements of one colour listed in memory (8 bytes each) for pair counting.
PAIR_LIST_LIMIT = 1 << 22

_QUEEN_LINES = frozenset({0, 1, -1})


def wants_native(plan: Plan) -> bool:
    """Whether the native kernels can count ``plan`` and it is big enough to pay for them."""
    if plan.n > MAX_COLUMNS or any(offsets != _QUEEN_LINES for offsets in plan.offsets):
        return False
    if plan.symmetric or plan.checks:
        return False  # symmetry-breaking and conditions: the Python DFS checks them
    if "cpqueens.kernels.bits" in sys.modules:  # numba and the kernels are loaded already
        return True
    rows = sum(1 for mask in plan.allowed[0] if mask & (mask - 1))  # rows with a choice
    return rows >= NATIVE_MIN_ROWS - (3 if len(plan.allowed) > 1 else 0)


def describe(model: Problem) -> str:
    """What counts ``model`` on this engine: which kernel, or the Python DFS and why."""
    from cpqueens.backends.bitmask.conditions import fits

    plan = compile_plan(model)
    if regions_grid(plan) is not None:
        if plan.symmetric:
            return "the compiled regions kernel (each solution checked against its images)"
        return "the compiled regions kernel"
    if plan.checks:
        if compiled_conditions(plan):
            return "the compiled conditions kernel"
        if fits(plan):
            return "the Python DFS (a small board: over before numba loads)"
        return (
            "the Python DFS (conditions on two rows or more of a model the compiled "
            "conditions kernel does not take: several colours, no diagonals, a variant or "
            "over 64 columns)"
        )
    if plan.symmetric:
        return "the Python DFS (each solution checked against its images)"
    if wants_native(plan):
        return "the native kernels" if plan.plain else "the variant kernel"
    return "the Python DFS (a small board: over before numba loads)"


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


def _native_count(plan: Plan, earlier: tuple[tuple[int, ...], ...] = ()) -> int:
    """Count ``plan`` with the numba kernels; colours before the last two are enumerated."""
    import numpy as np

    from cpqueens.kernels import placements as native

    colours = len(plan.allowed)
    colour = len(earlier)
    if not plan.plain:  # toroidal or superqueens: each colour but the last enumerated
        return _native_variant_count(plan, earlier)
    if colours - colour > 2:
        return sum(
            _native_count(plan, (*earlier, columns))
            for columns in placements(
                plan.n, plan.colour_masks(colour, earlier), plan.offsets[colour]
            )
        )
    first = np.array(plan.colour_masks(colour, earlier), dtype=np.uint64)
    if colour == colours - 1:
        return int(native.count_placements(first))
    second = np.array(plan.colour_masks(colour + 1, earlier), dtype=np.uint64)
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


def _native_variant_count(plan: Plan, earlier: tuple[tuple[int, ...], ...]) -> int:
    """Count a plan with toroidal or knight colours: the last colour natively, the rest listed."""
    import numpy as np

    from cpqueens.kernels.variants import count_variant

    colour = len(earlier)
    masks = plan.colour_masks(colour, earlier)
    if colour < len(plan.allowed) - 1:
        return sum(
            _native_variant_count(plan, (*earlier, columns))
            for columns in _placements(plan, colour, masks, earlier)
        )
    array = np.array(masks, dtype=np.uint64)
    return int(count_variant(array, colour in plan.toroidal, colour in plan.knight))


def count(model: Problem) -> int:
    """The exact number of solutions."""
    plan = compile_plan(model)
    if plan.symmetric:
        return sum(1 for _ in solutions(model))
    grid = regions_grid(plan)
    if grid is not None:
        return _regions_search(plan, grid, None, 0)[0]
    if compiled_conditions(plan):
        from cpqueens.backends.bitmask import conditions

        return conditions.count(plan)
    if wants_native(plan):
        return _native_count(plan)
    return _python_count(plan)


def _python_count(plan: Plan) -> int:
    """Count ``plan`` in pure Python: every placement of each colour but the last, nested."""
    last = len(plan.allowed) - 1

    def nested_count(earlier: tuple[tuple[int, ...], ...]) -> int:
        colour = len(earlier)
        masks = plan.colour_masks(colour, earlier)
        if colour == last and not plan.row_checks(colour):
            return count_placements(
                plan.n,
                masks,
                plan.offsets[colour],
                toroidal=colour in plan.toroidal,
                knight=colour in plan.knight,
            )
        if colour == last:
            return sum(1 for _ in _placements(plan, colour, masks, earlier))
        return sum(
            nested_count((*earlier, columns))
            for columns in _placements(plan, colour, masks, earlier)
        )

    return nested_count(())


def native_plan(model: Problem) -> Plan | None:
    """The model's plan if the compiled decision searches hold it and it pays, else None."""
    plan = compile_plan(model)
    return plan if plan.plain and wants_native(plan) else None


def _regions_plan(model: Problem) -> tuple[Plan, tuple[tuple[int, ...], ...]] | None:
    """The plan and region grid of a model the regions kernel decides (no symmetry rule)."""
    plan = compile_plan(model)
    grid = regions_grid(plan)
    return None if grid is None or plan.symmetric else (plan, grid)


def decides(model: Problem) -> bool:
    """Whether the compiled searches decide ``model`` (``first``): a plain or a regions model."""
    return native_plan(model) is not None or _regions_plan(model) is not None


def first(
    model: Problem, clock: Deadline | None, lexicographic: bool
) -> tuple[tuple[int, ...], ...] | None:
    """The first solution (lexicographic, or any) of a model :func:`decides` holds; None if none.

    Raises ValueError for a model the compiled searches do not hold.
    """
    regions = _regions_plan(model)
    if regions is not None:  # the first solution in lexicographic order either way
        found = _regions_search(*regions, 1, 1, clock)[1]
        return (found[0],) if found else None
    plan = native_plan(model)
    if plan is None:
        raise ValueError(f"the compiled searches do not decide {model}")
    return bitmask_search.checked(plan, bitmask_search.search(plan, clock, lexicographic))


def line_search(model: Problem) -> bitmask_search.LineSearch | None:
    """The fewest-free-row search of a one-colour plain model the kernels hold, else None."""
    if model.colours != 1 or model.n > MAX_COLUMNS:
        return None
    plan = compile_plan(model)
    if not plan.plain or plan.offsets[0] != _QUEEN_LINES:
        return None
    return bitmask_search.LineSearch(list(plan.allowed[0]))  # one colour: no other's cells


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
    if plan.toroidal or plan.knight or plan.offsets[0] not in (_QUEEN_LINES, frozenset({0})):
        return None
    grids = [rule.grid for rule in plan.rules if isinstance(rule, Regions)]
    touching = plan.offsets[0] == _QUEEN_LINES or any(
        isinstance(rule, NoTouch) for rule in plan.rules
    )
    if len(grids) != 1 or not touching or len(grids[0]) != plan.n:
        return None
    return grids[0]


def _regions_search(
    plan: Plan,
    grid: tuple[tuple[int, ...], ...],
    limit: int | None,
    keep: int,
    deadline: Deadline | None = None,
) -> tuple[int, list[tuple[int, ...]]]:
    """The regions kernel on ``plan``'s masks: the count (to ``limit``) and ``keep`` solutions."""
    from cpqueens.backends.bitmask.regions import search_masks

    diagonals = plan.offsets[0] == _QUEEN_LINES
    return search_masks(grid, list(plan.allowed[0]), diagonals, limit, keep, deadline)


#: The most solutions the regions kernel lists in one call for ``solutions``; beyond, the
#: Python DFS enumerates them lazily.
REGIONS_LIST_LIMIT = 1 << 18


def _regions_solutions(
    plan: Plan, grid: tuple[tuple[int, ...], ...], deadline: Deadline | None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every solution by the regions kernel, or lazily by the Python DFS when there are many."""
    total = _regions_search(plan, grid, REGIONS_LIST_LIMIT + 1, 0, deadline)[0]
    if total > REGIONS_LIST_LIMIT:
        yield from _nested(lowered(plan), (), deadline)
        return
    for columns in _regions_search(plan, grid, total, total, deadline)[1]:
        yield (columns,)


def counts_whole(model: Problem) -> bool:
    """Whether one search counts ``model`` best: a Queens-game model (``tight_regions``).

    One colour of them on at most 62 columns is the compiled regions kernel's;
    any other (conditions, colours) is checked in one DFS, as short.
    """
    return tight_regions(model)
