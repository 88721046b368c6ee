"""The bitmask engine's Python DFS: the seeds' row / ld / rd search on Python integers.

Bit c of a row mask stands for column c, so taking the lowest set bit first
(``p = pos & -pos``) visits columns in ascending order and the solutions come
out in lexicographic order. Python integers have no width limit: any n works;
from ``FLAT_MIN_N`` columns on, one flag per line replaces the row masks.
Small searches run here, before numba would have loaded.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from cpqueens.expressions import CondNode, evaluate

if TYPE_CHECKING:
    from cpqueens.clock import Deadline


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
