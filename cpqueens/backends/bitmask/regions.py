"""The bitmask engine for region puzzles: arrays for ``cpqueens.kernels.regions.search``.

Each row's candidates are its subsets of ``stars`` allowed columns with no two
adjacent (every given queen of the row included), listed in lexicographic
order; a puzzle whose rows have more than :data:`MAX_CANDIDATES` of them in
all (a 30 x 30 six-star grid has 5,313,000) is refused at once
(:func:`refuses`), so that ``auto`` takes CP-SAT, which lists nothing.
The compiled kernel does the rest, in slices of
:data:`BUDGET` candidates: between them Python sees Ctrl-C (a
``KeyboardInterrupt``) and the time limit (``deadline``).

The kernel fills rows top to bottom, and how long it searches depends on the
board's orientation far more than on anything else (a 14 x 14 three-star
puzzle: 10-100 times between rows top-down and columns left to right). A
search that is not over after its first :data:`FIRST_SLICE` candidates
therefore compares the four orientations that fill rows or columns from
either end (:data:`ORIENTATIONS`): it counts each one's placements of the
first :data:`PROBE_ROWS` rows that pass every check, stopping a count at the
smallest so far, and searches the orientation with the fewest, mapping its
solutions back. A turned search that cannot vouch for the lexicographic
order of the solutions asked for (more solutions than it kept) gives way to
the unturned one, which goes on from where its first slice stopped.

A small search never waits for the kernel: :func:`search` and
:func:`search_masks` first ask :mod:`cpqueens.backends.bitmask.propagate`
(plain Python, a budget of nodes), unless the kernel is loaded already or
this process has spent as long in Python searches as loading it takes.
numpy and the kernel are imported only when the kernel searches.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from cpqueens.backends.bitmask import propagate
from cpqueens.errors import NotSupportedError
from cpqueens.words import plural

if TYPE_CHECKING:
    import numpy as np

    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.regions import Cell, RegionPuzzle

NAME = "bitmask"
#: The most row candidates (over all rows) the engine lists: some 0.2 s and 40 MB at most.
MAX_CANDIDATES = 1 << 19
#: The candidates one kernel call tries before it hands control back (some 10-50 ms).
BUDGET = 1 << 20
#: The candidates a search tries in its own orientation before it compares the others.
FIRST_SLICE = 1 << 18
#: The rows whose partial placements the comparison of orientations counts.
PROBE_ROWS = 5
#: The board's maps (each its own inverse) that fill rows or columns from either end.
ORIENTATIONS: tuple[Callable[[int, int, int], tuple[int, int]], ...] = (
    lambda r, c, n: (r, c),  # rows, top to bottom
    lambda r, c, n: (c, r),  # columns, left to right
    lambda r, c, n: (n - 1 - r, c),  # rows, bottom to top
    lambda r, c, n: (n - 1 - c, n - 1 - r),  # columns, right to left
)


def refuses(puzzle: RegionPuzzle) -> str | None:
    """Why the engine will not search ``puzzle`` (too many row candidates to list), or None."""
    total = puzzle.row_placements()
    if total <= MAX_CANDIDATES:
        return None
    return (
        f"the bitmask engine lists every row's star placements, and this {puzzle.n}x{puzzle.n} "
        f"puzzle with {plural(puzzle.stars, 'star')} has {total:,} of them, more than its "
        f"{MAX_CANDIDATES:,}: expected backend 'cpsat' (or 'auto')"
    )


def row_candidates(puzzle: RegionPuzzle, row: int) -> list[tuple[int, ...]]:
    """Row ``row``'s allowed column subsets: k columns, none adjacent, none blocked, givens in.

    In lexicographic order, each built column by column (nothing is listed
    that is then thrown away).
    """
    n, k = puzzle.n, puzzle.stars
    blocked = {c for r, c in puzzle.blocked if r == row}
    given = sorted(c for r, c in puzzle.queens if r == row)
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def extend(first: int, g: int) -> None:
        # ``first``: the lowest column still allowed; ``g``: the next given not yet taken.
        left = k - len(chosen)
        if left == 0:
            if g == len(given):
                found.append(tuple(chosen))
            return
        last = n - 2 * left + 1  # room for the other left - 1 columns, one apart
        if g < len(given):
            last = min(last, given[g])  # no column past a given that is not taken
        for c in range(first, last + 1):
            if c in blocked:
                continue
            chosen.append(c)
            extend(c + 2, g + 1 if g < len(given) and given[g] == c else g)
            chosen.pop()

    extend(0, 0)
    return found


@cache
def _compiled():  # type: ignore[no-untyped-def]
    from cpqueens.kernels import regions

    return regions


def arrays(puzzle: RegionPuzzle, rng: random.Random | None = None) -> tuple[np.ndarray, ...]:
    """The kernel's inputs: region grid, candidate masks, columns, skips, row starts, region cells.

    ``rng`` shuffles each row's candidates, so the first solution found is a random one.
    Without it, the candidates depend on the size, the stars and the givens
    only, not on the regions: they are computed once for all the puzzles that
    share those (the generator tries thousands of region grids), and the
    arrays are shared, read by the kernel, never written.
    """
    import numpy as np

    n = puzzle.n
    region = np.array([g for row in puzzle.regions for g in row], dtype=np.int64)
    if rng is None:
        masks, columns, skip, start = _candidates(n, puzzle.stars, puzzle.blocked, puzzle.queens)
    else:
        masks, columns, skip, start = _candidate_arrays(puzzle, rng)
    cells = np.zeros(n * n, dtype=np.int64)
    blocked = set(puzzle.blocked)
    for row, groups in enumerate(puzzle.regions):
        for c, g in enumerate(groups):
            if (row, c) not in blocked:
                cells[row * n + g] |= 1 << c
    return region, masks, columns, skip, start, cells


@lru_cache(maxsize=32)
def _candidates(
    n: int, k: int, blocked: tuple[Cell, ...], queens: tuple[Cell, ...]
) -> tuple[np.ndarray, ...]:
    """The candidate arrays of every puzzle of this size, stars and givens (regions aside)."""
    from cpqueens.vocabulary.regions import RegionPuzzle

    rows = RegionPuzzle(n, tuple((r,) * n for r in range(n)), k, queens, blocked)
    return _candidate_arrays(rows, None)


def _candidate_arrays(puzzle: RegionPuzzle, rng: random.Random | None) -> tuple[np.ndarray, ...]:
    """Each row's candidates (shuffled with ``rng``) as masks, their columns, skips, row starts.

    Rows with the same blocked cells and givens (most rows: none) share one listing.
    """
    import numpy as np

    k = puzzle.stars
    listed: dict[tuple[frozenset[int], frozenset[int]], np.ndarray] = {}
    blocks: list[np.ndarray] = []
    start = [0]
    for row in range(puzzle.n):
        key = (
            frozenset(c for r, c in puzzle.blocked if r == row),
            frozenset(c for r, c in puzzle.queens if r == row),
        )
        if key not in listed:
            found = row_candidates(puzzle, row)
            listed[key] = np.array(found, dtype=np.int64).reshape(len(found), k)
        combos = listed[key]
        if rng is not None:
            combos = combos[rng.sample(range(len(combos)), len(combos))]
        blocks.append(combos)
        start.append(start[-1] + len(combos))
    grid = np.concatenate(blocks) if blocks else np.zeros((0, k), dtype=np.int64)
    masks = np.left_shift(np.int64(1), grid).sum(axis=1, dtype=np.int64)
    return (
        masks,
        grid.reshape(-1),
        skips(grid.reshape(-1), start, k)
        if rng is None
        else np.arange(1, len(masks) + 1, dtype=np.int64).repeat(k),  # no order: no jumps
        np.array(start, dtype=np.int64),
    )


def skips(columns: list[int] | np.ndarray, start: list[int], k: int) -> np.ndarray:
    """Per candidate i and j < k: the next candidate of its row whose first j + 1 columns differ.

    Each row's candidates (``k`` columns each, listed in ``columns``) must be
    in lexicographic order: then every candidate between i and that one
    holds i's j-th column too, and the kernel jumps there when that column
    is barred. Worked out with numpy, a running minimum from the end.
    """
    import numpy as np

    total = len(start) and start[-1]
    skip = np.zeros((total, k), dtype=np.int64)
    if total == 0:
        return skip.reshape(-1)
    grid = np.asarray(columns, dtype=np.int64).reshape(total, k)
    last = np.zeros(total, dtype=bool)  # the last candidate of its row
    ends = np.array(start[1:], dtype=np.int64)
    ends = ends[ends > 0]
    last[ends - 1] = True
    end_of = np.repeat(np.array(start[1:], dtype=np.int64), np.diff(start))
    differs = np.zeros(total, dtype=bool)  # candidate i + 1 differs from i in columns 0..j
    for j in range(k):
        differs[:-1] |= grid[1:, j] != grid[:-1, j]
        after = np.where(last, end_of, np.where(differs, np.arange(1, total + 1), total + 1))
        skip[:, j] = np.minimum.accumulate(after[::-1])[::-1]
    return skip.reshape(-1)


def search(
    puzzle: RegionPuzzle,
    limit: int | None = None,
    keep: int = 2,
    rng: random.Random | None = None,
    deadline: Deadline | None = None,
) -> tuple[int, list[tuple[Cell, ...]]]:
    """The number of solutions (stopping at ``limit``, None: all) and the first ``keep`` of them.

    Solutions come in lexicographic order of their rows' columns (in a random
    order of each row's candidates with ``rng``), each as sorted (row, col)
    cells. A ``deadline`` that passes first raises ``IncompleteSearchError``
    naming the limit and the solutions found by then. Without ``rng``, a
    search that outlasts :data:`FIRST_SLICE` candidates goes on in the best
    of the :data:`ORIENTATIONS` (see the module's notes). A small search
    without ``rng`` is over in plain Python first (:func:`small_first`).
    """
    n = puzzle.n
    keep = max(keep, 0)
    reason = refuses(puzzle)
    if reason is not None:
        raise NotSupportedError(reason)
    if rng is None and small_first():
        found: Any = propagate.search(  # the answer, or None; then the kernel's solutions
            n,
            puzzle.stars,
            puzzle.regions,
            _free(n, puzzle.blocked),
            puzzle.queens,
            puzzle.diagonals,
            limit,
            keep,
            deadline,
        )
        if found is not None:
            return found
    import numpy as np

    args = _arguments(puzzle, limit, rng)
    if args is None:
        return 0, []
    out = np.zeros((keep, n), dtype=np.int64)
    kernel = _compiled()
    state, counters = kernel.first_state(n, args[7])
    paused = kernel.search(*args, out, state, counters, FIRST_SLICE) == kernel.PAUSED
    if paused and rng is None and n > PROBE_ROWS + 1:
        turn = _best_orientation(puzzle, deadline, int(counters[1]))
        if turn > 0:
            turned = _arguments(_turn(puzzle, turn), limit, None)
            turned_out = np.zeros((keep, n), dtype=np.int64)
            total = 0 if turned is None else _run(turned, turned_out, deadline)
            # Every solution in hand (or none wanted): sorted, they are the first ones.
            if keep == 0 or (total <= keep and (not limit or total < limit)):
                move = ORIENTATIONS[turn]
                found = sorted(
                    tuple(sorted(move(r, c, n) for r, c in cells))
                    for cells in _cells(turned_out, total, n)
                )
                return total, found
    if paused:
        _resume(args, out, deadline, state, counters)
    total = int(counters[1])
    return total, _cells(out, total, n)


def small_first() -> bool:
    """Whether a search tries plain Python first: the kernel is not loaded, and not yet worth it.

    Plain Python stops being tried once this process has spent
    ``propagate.RENT`` nodes there: about the time loading the kernel
    takes, after which the kernel pays for itself.
    """
    return "cpqueens.kernels.regions" not in sys.modules and propagate.spent() < propagate.RENT


def _free(n: int, blocked: tuple[Cell, ...]) -> int:
    """The cells of an n x n grid less ``blocked``, a bit per cell (bit ``r * n + c``)."""
    free = (1 << (n * n)) - 1
    for r, c in blocked:
        free &= ~(1 << (r * n + c))
    return free


def _arguments(
    puzzle: RegionPuzzle, limit: int | None, rng: random.Random | None, last: int | None = None
) -> tuple | None:
    """The kernel's arguments before ``out`` (None: no candidate anywhere, so no solution)."""
    region, masks, columns, skip, start, cells = arrays(puzzle, rng)
    if len(masks) == 0:
        return None
    n = puzzle.n
    return (
        n,
        puzzle.stars,
        puzzle.diagonals,
        region,
        masks,
        columns,
        skip,
        start,
        cells,
        limit or 0,
        n - 1 if last is None else last,
    )


def _cells(out: np.ndarray, total: int, n: int) -> list[tuple[Cell, ...]]:
    """The solutions kept in ``out`` (row masks) as sorted (row, col) cells."""
    return [
        tuple((row, c) for row in range(n) for c in range(n) if (int(out[i, row]) >> c) & 1)
        for i in range(min(total, len(out)))
    ]


def _turn(puzzle: RegionPuzzle, turn: int) -> RegionPuzzle:
    """The puzzle seen through ``ORIENTATIONS[turn]``: regions, givens and holes moved."""
    from cpqueens.vocabulary.regions import RegionPuzzle

    n, move = puzzle.n, ORIENTATIONS[turn]
    grid = [[0] * n for _ in range(n)]
    for r, row in enumerate(puzzle.regions):
        for c, g in enumerate(row):
            r2, c2 = move(r, c, n)
            grid[r2][c2] = g
    return RegionPuzzle(
        n,
        tuple(map(tuple, grid)),
        puzzle.stars,
        tuple(move(r, c, n) for r, c in puzzle.queens),
        tuple(move(r, c, n) for r, c in puzzle.blocked),
        puzzle.diagonals,
    )


def _best_orientation(puzzle: RegionPuzzle, deadline: Deadline | None, found: int = 0) -> int:
    """The orientation with the fewest partial placements of the first :data:`PROBE_ROWS` rows.

    A ``deadline`` that passes meanwhile names ``found``, the solutions seen before.
    """
    import numpy as np

    best, fewest = 0, 0
    for turn in range(len(ORIENTATIONS)):
        # Each count stops at the fewest so far: a tie keeps the earlier orientation.
        turned = puzzle if turn == 0 else _turn(puzzle, turn)
        args = _arguments(turned, fewest, None, PROBE_ROWS - 1)
        if args is None:
            return turn  # no candidate at all: no solution
        placements = _run(args, np.zeros((0, puzzle.n), dtype=np.int64), deadline, found)
        if turn == 0 and placements == 0:
            return 0  # no placement passes: the search here is over at once
        if turn == 0 or placements < fewest:
            best, fewest = turn, placements
    return best


def _run(args: tuple, out: np.ndarray, deadline: Deadline | None, found: int | None = None) -> int:
    """Run the kernel on ``args`` in slices of :data:`BUDGET` candidates; the solutions' count.

    A ``deadline`` that passes first names ``found`` solutions (None: the ones counted here).
    """
    state, counters = _compiled().first_state(args[0], args[7])
    _resume(args, out, deadline, state, counters, found)
    return int(counters[1])


def _resume(
    args: tuple,
    out: np.ndarray,
    deadline: Deadline | None,
    state: np.ndarray,
    counters: np.ndarray,
    found: int | None = None,
) -> None:
    """Go on with the search held in ``state`` and ``counters`` until it is done."""
    kernel = _compiled()
    while kernel.search(*args, out, state, counters, BUDGET) == kernel.PAUSED:
        if deadline is not None and deadline.left() == 0:
            raise partial(deadline, int(counters[1]) if found is None else found)


def search_masks(
    grid: tuple[tuple[int, ...], ...],
    allowed: list[int],
    diagonals: bool,
    limit: int | None = None,
    keep: int = 0,
    deadline: Deadline | None = None,
) -> tuple[int, list[tuple[int, ...]]]:
    """One queen per row, column and region of ``grid``, none touching, on per-row masks.

    The kernel's input for a model (``cpqueens.backends.bitmask``): row r may
    hold its queen on the columns of ``allowed[r]`` (bit c: column c, the
    blocked cells and placed queens already applied); ``diagonals`` lets the
    long diagonals attack too. Returns the number of solutions (stopping at
    ``limit``, None: all) and the first ``keep`` of them as column tuples, in
    lexicographic order. A ``deadline`` that passes first raises
    ``IncompleteSearchError``. A small search is over in plain Python first.
    """
    n = len(grid)
    if small_first():
        free = sum(mask << (row * n) for row, mask in enumerate(allowed))
        found: Any = propagate.search(n, 1, grid, free, (), diagonals, limit, keep, deadline)
        if found is not None:
            total, solutions = found
            return total, [tuple(c for _, c in queens) for queens in solutions]
    import numpy as np

    region = np.array([g for row in grid for g in row], dtype=np.int64)
    masks: list[int] = []
    start = [0]
    cells = np.zeros(n * n, dtype=np.int64)
    for row in range(n):
        for c in range(n):
            if (allowed[row] >> c) & 1:
                masks.append(1 << c)
                cells[row * n + grid[row][c]] |= 1 << c
        start.append(len(masks))
    if any(start[row] == start[row + 1] for row in range(n)):
        return 0, []  # a row with no free cell
    columns = np.array([mask.bit_length() - 1 for mask in masks], dtype=np.int64)
    out = np.zeros((max(keep, 0), n), dtype=np.int64)
    args = (
        n,
        1,
        diagonals,
        region,
        np.array(masks, dtype=np.int64),
        columns,
        np.arange(1, len(masks) + 1, dtype=np.int64),  # one column each: the next candidate
        np.array(start, dtype=np.int64),
        cells,
        limit or 0,
        n - 1,
    )
    total = _run(args, out, deadline)
    found = [
        tuple(int(out[i, row]).bit_length() - 1 for row in range(n))
        for i in range(min(total, len(out)))
    ]
    return total, found


def partial(deadline: Deadline, found: int) -> Exception:
    """The deadline's error, with the number of solutions found before it."""
    error = deadline.error()
    return type(error)(f"{error}; {plural(found, 'solution')} found by then")


def count(puzzle: RegionPuzzle, limit: int | None = None, deadline: Deadline | None = None) -> int:
    """The number of solutions, stopping at ``limit`` (None: every one)."""
    return search(puzzle, limit, keep=0, deadline=deadline)[0]


def solutions(
    puzzle: RegionPuzzle, limit: int | None = None, deadline: Deadline | None = None
) -> list[tuple[Cell, ...]]:
    """The solutions (the first ``limit`` of them), each as sorted (row, col) cells."""
    if limit is None:
        total = count(puzzle, deadline=deadline)
        return search(puzzle, total, keep=total, deadline=deadline)[1]
    return search(puzzle, limit, keep=limit, deadline=deadline)[1]
