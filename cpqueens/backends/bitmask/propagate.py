"""Small region puzzles in plain Python: propagation and a short search, no kernel to load.

A daily Queens puzzle is solved and proved unique in a few dozen nodes of a
player's search, a millisecond or two, while loading the compiled kernel
takes a second. :func:`search` tries that first, within a budget of nodes;
a puzzle that needs more gives up (None) and the caller searches it with the
kernel instead, so the answer never depends on which of the two found it.

The board is one Python int, a bit per cell (bit ``r * n + c``): the cells
where a queen may still stand. Each unit (a row, a column, a region) needs
``k`` queens; placing a queen takes away its eight neighbours (and, when the
long diagonals attack, its two diagonals) and, once a unit has its ``k``
queens, the unit's other cells. A unit with fewer cells left than the queens
it needs fails; one with exactly as many gets them all. Then the search
branches on the first cell of the unit with the least room to spare:
a queen there, or none. Every solution is listed (up to ``most``) and sorted,
so the first ones are the lexicographic first ones the kernel would give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpqueens.words import plural

if TYPE_CHECKING:
    from cpqueens.clock import Deadline

#: The search nodes a puzzle may take here before the compiled kernel takes over: a node
#: is some 5-10 us, so a search given up costs a tenth of loading the kernel at most
#: (benchmarks/RESULTS-cold-start.md: daily puzzles take 10-1,000 nodes).
NODES = 10_000
#: The most solutions listed here; a puzzle with more is the kernel's.
MOST = 1000
#: The nodes this process may spend here in all before every search goes to the kernel:
#: about what loading the kernel costs (a second). Then it has paid for itself.
RENT = 200_000
#: The deadline is looked at every this many nodes (plus one).
DEADLINE_NODES = 63
#: The nodes this process has searched here so far (one counter, in a list to be updated).
_SPENT = [0]

Cells = tuple[tuple[int, int], ...]


def spent() -> int:
    """The nodes this process has searched here so far."""
    return _SPENT[0]


def search(
    n: int,
    k: int,
    regions: tuple[tuple[int, ...], ...],
    free: int,
    queens: Cells = (),
    diagonals: bool = False,
    limit: int | None = None,
    keep: int = 0,
    deadline: Deadline | None = None,
    nodes: int | None = None,
) -> tuple[int, list[Cells]] | None:
    """The kernel's answer, or None if the search needs more than ``nodes`` nodes here.

    ``k`` queens in every row, column and region of ``regions``, none
    touching, on the cells of ``free`` (bit ``r * n + c``), with the given
    ``queens``. Returns the number of solutions (stopping at ``limit``, None:
    all) and the first ``keep`` in lexicographic order, each as sorted
    (row, col) cells. A ``deadline`` that passes first raises its
    ``IncompleteSearchError``, naming the solutions found by then.
    """
    nodes = NODES if nodes is None else nodes  # read now: tests and benchmarks set NODES
    units = _units(n, regions)
    kill = _kill(n, diagonals)
    member = [[u for u, unit in enumerate(units) if unit >> i & 1] for i in range(n * n)]
    need = [k] * len(units)
    board, given = free, 0
    for r, c in queens:  # the givens first: each must still be free when its turn comes
        after = _place(r * n + c, board, need, units, kill, member)
        if after is None:
            return 0, []
        board, given = after, given | 1 << (r * n + c)
    found: list[int] = []
    enough = None if keep else limit  # listing the first ones needs every solution
    stack = [(board, need, given)]
    tried = 0
    while stack:
        board, need, placed = stack.pop()
        tried += 1
        _SPENT[0] += 1
        if tried > nodes:
            return None
        if deadline is not None and not tried & DEADLINE_NODES and deadline.left() == 0:
            error = deadline.error()
            raise type(error)(f"{error}; {plural(len(found), 'solution')} found by then")
        settled = _settle(board, need, units, kill, member)
        if settled is None:
            continue
        board, need, placed_now = settled
        placed |= placed_now
        unit = _tightest(board, need, units)
        if unit is None:  # every unit has its queens
            found.append(placed)
            if enough is not None and len(found) >= enough:
                break
            if len(found) > MOST:
                return None
            continue
        cell = (board & units[unit] & -(board & units[unit])).bit_length() - 1
        without = board & ~(1 << cell)
        stack.append((without, need, placed))  # searched second: the queen first
        with_queen = list(need)
        after = _place(cell, board, with_queen, units, kill, member)
        if after is not None:
            stack.append((after, with_queen, placed | 1 << cell))
    solutions = sorted(_cells(queens_mask, n) for queens_mask in found)
    total = len(solutions) if limit is None else min(len(solutions), limit)
    return total, solutions[: min(keep, total)]


def _units(n: int, regions: tuple[tuple[int, ...], ...]) -> list[int]:
    """The cells of each row, each column and each region, as masks."""
    rows = [((1 << n) - 1) << (r * n) for r in range(n)]
    cols = [sum(1 << (r * n + c) for r in range(n)) for c in range(n)]
    areas = [0] * n
    for r, row in enumerate(regions):
        for c, g in enumerate(row):
            areas[g] |= 1 << (r * n + c)
    return rows + cols + areas


def _kill(n: int, diagonals: bool) -> list[int]:
    """Per cell, the cells a queen there takes away: its neighbours (and diagonals), itself."""
    found = []
    for r in range(n):
        for c in range(n):
            mask = 0
            for r2 in range(n):
                for c2 in range(n):
                    near = abs(r2 - r) <= 1 and abs(c2 - c) <= 1
                    if near or (diagonals and abs(r2 - r) == abs(c2 - c)):
                        mask |= 1 << (r2 * n + c2)
            found.append(mask)
    return found


def _place(
    cell: int,
    board: int,
    need: list[int],
    units: list[int],
    kill: list[int],
    member: list[list[int]],
) -> int | None:
    """The board after a queen on ``cell`` (``need`` updated in place); None if it is not free."""
    if not board >> cell & 1:
        return None
    board &= ~kill[cell]
    for u in member[cell]:
        need[u] -= 1
        if need[u] == 0:
            board &= ~units[u]
    return board


def _settle(
    board: int, need: list[int], units: list[int], kill: list[int], member: list[list[int]]
) -> tuple[int, list[int], int] | None:
    """Place every forced queen (a unit with just as many cells as it needs); None: a dead end.

    Returns the board, the queens each unit still needs (``need`` itself is
    never changed: another node shares it) and the queens placed.
    """
    placed = 0
    copied = False
    changed = True
    while changed:
        changed = False
        for u, unit in enumerate(units):
            wanted = need[u]
            if not wanted:
                continue
            room = board & unit
            size = room.bit_count()
            if size < wanted:
                return None
            if size == wanted:
                if not copied:
                    need, copied = list(need), True
                while room:
                    low = room & -room
                    room ^= low
                    after = _place(low.bit_length() - 1, board, need, units, kill, member)
                    if after is None:
                        return None
                    board = after
                    placed |= low
                changed = True
    return board, need, placed


def _tightest(board: int, need: list[int], units: list[int]) -> int | None:
    """The unit that still needs queens with the fewest cells to spare; None if none needs any."""
    best, spare = None, 0
    for u, unit in enumerate(units):
        if need[u]:
            left = (board & unit).bit_count() - need[u]
            if best is None or left < spare:
                best, spare = u, left
    return best


def _cells(queens: int, n: int) -> Cells:
    """The cells of a mask, sorted (row, col)."""
    found = []
    while queens:
        low = queens & -queens
        queens ^= low
        found.append(divmod(low.bit_length() - 1, n))
    return tuple(found)
