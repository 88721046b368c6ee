"""The solution classes by size of the free board (or one whose holes all 8 symmetries keep).

:mod:`cpqueens.kernels.classes` holds the numba kernels and says what a piece
counts; this module lists the pieces, shares them among worker processes and
puts their counts together. It loads the kernels only to count in its own
process (their object file, without numba, where it can: ``kernels.class_entries``):
with workers, the pool's processes start while nothing heavy is loaded here.
"""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Iterable, Sequence
from math import factorial
from typing import Any, NamedTuple

from cpqueens.backends import capabilities
from cpqueens.kernels import MAX_CLASS_N
from cpqueens.strategies.base import SUBPROBLEMS_PER_WORKER
from cpqueens.strategies.work import long_from, weighted_nodes
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.problem import Problem

#: The largest board the 64-bit kernels can hold.
MAX_N = MAX_CLASS_N
#: Below this size the edge analysis does not apply (a 4 x 4 board has no middle).
MIN_N = 5
#: Below this size pure Python has counted the board before numba has loaded (the choice
#: never depends on what is loaded, so a count's split is reproducible).
WORTH_N = 12
#: Up to this size the search for turn-fixed solutions runs in plain Python (a search of half
#: the rows: 2-30 ms for n = 13..15, under the 20-odd ms of loading its cached kernel, let alone
#: compiling it; n = 16 takes 0.25 s).
TURN_PYTHON_MAX_N = 15
#: Seconds of plain-Python turn searches after which this process loads the kernel instead:
#: about what loading it costs (tens of ms), so a process counting many boards is not slowed.
TURN_RENT_SECONDS = 0.05
#: The seconds this process has spent in plain-Python turn searches (one counter, in a list).
_TURN_SPENT = [0.0]


class Piece(NamedTuple):
    """A piece of the kernels' search: see :func:`pieces`.

    Kinds: "top" (the representatives, counted in twelfths), "fixed180" and
    "fixed90" (solutions a turn fixes), and ``hole_sums``' "less-holes" (a
    "top" piece less its leaves' queens on the holes). A piece carries what a
    checkpoint records of it: its label and the counts it can have.
    """

    kind: str
    distance: int
    row1: int
    row2: int

    def label(self) -> str:
        """The exact text that identifies the piece within its split."""
        return f"piece {tuple(self)!r}"

    def admits(self, value: int, n: int) -> bool:
        """Whether ``value`` can be the piece's count on an n x n board.

        A kernel piece's is 0..12 n! (leaves in twelfths), a less-holes piece's
        at most 1536 n! either way (leaves weighed 12 / k times 2 (8 - up to 8 * 8 holes)).
        """
        if self.kind == "less-holes":
            return abs(value) <= 2 * 12 * 64 * factorial(n)
        return 0 <= value <= 12 * factorial(n)

    def expects(self, n: int) -> str:
        """What :meth:`admits` expects of the piece's count, for an error message."""
        if self.kind == "less-holes":
            return f"a less-holes piece of the symmetry kernels counts -1536 * {n}! to 1536 * {n}!"
        return f"a piece of the symmetry kernels counts 0 to 12 * {n}!"


#: The deepest split: row 0's queen is pinned already, rows 1 and 2 may be fixed.
MAX_DEPTH = 2

#: Each row's allowed columns (bit c: column c) of a board whose holes all 8 symmetries keep.
Rows = tuple[int, ...]


def pieces(n: int, depth: int = 0) -> list[Piece]:
    """The independent pieces of the search on an n x n board, largest first (roughly).

    Each is (kind, distance, row-1 columns, row-2 columns): the
    representatives with row 0's queen at column ``distance`` (see
    ``kernels.edges.masks``), and two pieces counting the solutions fixed by
    the half and by the quarter turn. ``depth`` 1 cuts the representatives further
    by row 1's queen (the columns row 0's queen leaves it), 2 by row 2's too,
    so that many workers share the work evenly.

    >>> len(pieces(8)), len(pieces(8, 1)), len(pieces(8, 2))
    (5, 17, 51)
    """
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be 0, 1 or 2, got {depth!r}")
    full = (1 << n) - 1
    found: list[Piece] = []
    for distance in range((n - 1) // 2, 0, -1):
        if depth == 0:
            found.append(Piece("top", distance, full, full))
            continue
        middle = 2 * distance == n - 1  # row 1 then keeps to the left half
        for col in range(distance if middle else n):
            if abs(col - distance) <= 1:
                continue
            if depth == 1:
                found.append(Piece("top", distance, 1 << col, full))
                continue
            for below in range(n):
                if below not in (distance, col) and abs(below - distance) != 2:
                    if abs(below - col) > 1:
                        found.append(Piece("top", distance, 1 << col, 1 << below))
    return [*found, Piece("fixed180", 0, 0, 0), Piece("fixed90", 0, 0, 0)]


def depth_for(n: int, workers: int, per_worker: int) -> int:
    """The shallowest split (at least 1) giving each of ``workers`` ``per_worker`` pieces."""
    depth = 1
    while depth < MAX_DEPTH and len(pieces(n, depth)) < per_worker * workers:
        depth += 1
    return depth


def count_piece(n: int, piece: Piece, rows: Rows | None = None) -> int:
    """One piece's count, by the kernels (imported here, in whichever process counts).

    ``rows``: the allowed columns of each row of a board with holes that all 8
    symmetries keep (see :func:`symmetric_rows`); None for the free board.
    """
    if piece[0] in ("fixed180", "fixed90") and _turn_in_python(n):
        full = (1 << n) - 1
        fixed180, fixed90 = turn_fixed(n, rows if rows is not None else [full] * n)
        return fixed180 if piece[0] == "fixed180" else fixed90
    native = _native()
    if native is not None:
        return native.count_piece(n, piece, rows)
    from cpqueens.kernels.classes import count_piece as count

    return count(n, piece, rows)


def _native() -> Any:
    """The searches loaded without numba (``kernels.class_entries.get``), or None."""
    from cpqueens.kernels import class_entries  # ctypes and llvmlite: only to count

    return class_entries.get()


def turn_fixed(n: int, rows: Sequence[int]) -> tuple[int, int]:
    """The placements on per-row ``rows`` equal to their half turn, and to their quarter turn.

    ``rows`` are the allowed columns of each row of a board the half turn keeps
    (for the quarter turn's count to mean anything, the quarter turn keeps it too).

    >>> turn_fixed(8, [255] * 8)
    (4, 0)
    """
    if _turn_in_python(n):
        start = time.perf_counter()
        try:
            return _turn_fixed(n, tuple(rows))
        finally:
            _TURN_SPENT[0] += time.perf_counter() - start
    native = _native()
    if native is not None:
        return native.turn_fixed(n, rows)
    from cpqueens.kernels.classes import turn_fixed as search

    return search(n, tuple(rows))


def _turn_in_python(n: int) -> bool:
    """Whether the turn search of an n x n board runs in plain Python here (the answer is the same).

    Up to ``TURN_PYTHON_MAX_N``, until this process has spent ``TURN_RENT_SECONDS`` in such
    searches (then the kernel's load has paid for itself).
    """
    return n <= TURN_PYTHON_MAX_N and _TURN_SPENT[0] < TURN_RENT_SECONDS


def _turn_fixed(n: int, rows: tuple[int, ...]) -> tuple[int, int]:
    """:func:`turn_fixed` in plain Python: the kernel's search (``kernels.classes._turn_fixed``).

    The pairs of rows r and n - 1 - r are placed from the outside in, a top
    queen (r, p) with its partner (n - 1 - r, n - 1 - p): the top queens'
    diagonals move down, the bottom ones' (``up``, ``down``) move up to meet
    them; on odd boards the middle queen sits in the centre.
    """
    half = n // 2
    if n % 2 and not (rows[half] >> half) & 1:
        return 0, 0  # the centre is a hole: no solution is its own half turn
    full = (1 << n) - 1
    quarter = n % 4 in (0, 1)
    columns = [0] * n
    if n % 2:
        columns[half] = half
    found = [0, 0]

    def place(row: int, free: int, cols: int, diag: int, anti: int, up: int, down: int) -> None:
        while free:
            bit = free & -free
            free ^= bit
            col = bit.bit_length() - 1
            columns[row] = col
            if row + 1 == half:
                found[0] += 1
                if quarter:
                    for r in range(half):
                        columns[n - 1 - r] = n - 1 - columns[r]
                    found[1] += all(columns[columns[r]] == n - 1 - r for r in range(n))
                continue
            mirror = n - 1 - col
            span = n - 2 - 2 * row  # from the new bottom queen to the next top row
            below = row + 1
            next_cols = cols | bit | (1 << mirror)
            next_diag = ((diag | bit) << 1) & full
            next_anti = (anti | bit) >> 1
            next_up = (up >> 1) | (1 << (mirror + span))
            next_down = ((down << 1) | (1 << (mirror - span + n))) & ((1 << (2 * n)) - 1)
            own = (1 << below) | (1 << (n - 1 - below))
            blocked = next_cols | next_diag | next_anti | next_up | (next_down >> n) | own
            free_below = rows[below] & full & ~blocked
            place(below, free_below, next_cols, next_diag, next_anti, next_up, next_down)

    start = 1 << half if n % 2 else 0
    if half:  # as the kernel: n = 1 has no pair of rows and counts none
        place(0, rows[0] & full & ~start & ~(1 | (1 << (n - 1))), start, 0, 0, 0, 0)
    return found[0], found[1]


def count_less_holes(n: int, piece: Piece, holes: tuple[tuple[int, int], ...]) -> int:
    """A "top" piece of the free board less its solutions' queens on ``holes``, in 24ths.

    Summed over a split's "top" pieces and divided by 24: the free board's count
    less, for each hole, the solutions with a queen on it
    (``kernels.classes.count_less_holes``).
    """
    from cpqueens.kernels.classes import count_less_holes as count

    return count(n, ("top", *piece[1:]), holes)


def warm_classes() -> None:
    """Load the symmetry kernels' searches in this process: their object file, or numba's cache.

    The object file (``kernels.class_entries``) holds both searches and loads
    without numba; where it cannot be had, a small count loads the kernels
    from numba's cache (the machine code is the same for every board size, so
    an 8-board loads it) and the turn search is left to its first piece: up to
    ``TURN_PYTHON_MAX_N`` it runs in plain Python.
    """
    if _native() is not None:
        return
    from cpqueens.kernels import classes as kernels

    full = (1 << 8) - 1
    kernels.count_piece(8, ("top", 1, full, full))


def warm_less_holes() -> None:
    """Load the hole sums' kernel (the free board less the holes) in this process: a small count."""
    from cpqueens.kernels import classes as kernels

    full = (1 << 8) - 1
    kernels.count_less_holes(8, ("top", 1, full, full), ((0, 1),))


def symmetric_rows(n: int, blocked: Iterable[tuple[int, int]]) -> Rows | None:
    """Each row's allowed columns if all 8 board symmetries keep the holes ``blocked``, else None.

    The kernels' reduction holds on such a board: every symmetry maps its
    solutions onto its solutions (the free board has no holes: all rows full).

    >>> symmetric_rows(5, [(0, 0), (0, 4), (4, 0), (4, 4)])
    (14, 31, 31, 31, 14)
    >>> symmetric_rows(5, [(0, 1)]) is None
    True
    """
    holes = set(blocked)
    images = (
        lambda r, c: (c, n - 1 - r),  # the quarter turn
        lambda r, c: (r, n - 1 - c),  # the mirror: with the turn, they make all 8
    )
    if any({image(r, c) for r, c in holes} != holes for image in images):
        return None
    rows = [(1 << n) - 1] * n
    for r, c in holes:
        rows[r] &= ~(1 << c)
    return tuple(rows)


def check_size(n: int) -> None:
    """Raise ValueError unless the kernels handle an n x n board."""
    if not MIN_N <= n <= MAX_N:
        raise ValueError(f"the symmetry kernels need {MIN_N} <= n <= {MAX_N}, got n={n}")


def classes(n: int, workers: int | None = 1, rows: Rows | None = None) -> tuple[int, int, int]:
    """The solution classes of the n x n board by size: (of 2, of 4, of 8).

    The unique count is their sum; the total is ``2 * two + 4 * four + 8 * eight``.
    ``workers`` processes share the pieces; None means every core when the
    kernels' search is long on the bitmask engine (its estimated work:
    n >= 17), else one. ``rows``: a board with holes all 8 symmetries keep
    (:func:`symmetric_rows`); None, the free board.

    >>> classes(8)
    (0, 1, 11)
    >>> classes(8, rows=symmetric_rows(8, [(0, 0), (0, 7), (7, 0), (7, 7)]))
    (0, 1, 9)
    """
    check_size(n)
    if workers is None:
        long = weighted_nodes(Problem(Board(n)), kernels=True) >= long_from(
            capabilities("bitmask").short_below_free_rows
        )
        workers = (os.cpu_count() or 1) if long else 1
    todo = pieces(n, 1 if workers > 1 else 0)
    if workers == 1:
        results = [count_piece(n, piece, rows) for piece in todo]
    else:
        from cpqueens.execution.pool import local_pool  # workers that leave no orphan behind

        with local_pool(workers) as pool:
            results = list(pool.map(count_piece, [n] * len(todo), todo, [rows] * len(todo)))
    return combine(n, todo, results)


def combine(n: int, parts: Sequence[Piece], counts: Sequence[int]) -> tuple[int, int, int]:
    """The classes by size (of 2, of 4, of 8) from the count of every piece of a split.

    Raises ArithmeticError if they do not fit together (a piece missing or counted twice).
    """
    if len(parts) != len(counts):
        raise ArithmeticError(f"{len(counts)} counts for {len(parts)} pieces of n={n}")
    sums = {"top": 0, "fixed180": 0, "fixed90": 0}
    for piece, value in zip(parts, counts, strict=True):
        sums[piece[0]] += value
    twelfths, fixed180, fixed90 = sums["top"], sums["fixed180"], sums["fixed90"]
    results = (twelfths, fixed180, fixed90)
    # twelfths sums 12 / k over the leaves, the total 4 / k (kernels.classes' docstring)
    if twelfths % 3 or (twelfths // 3 - fixed180) % 8 or (fixed180 - fixed90) % 4 or fixed90 % 2:
        raise ArithmeticError(f"inconsistent class counts for n={n}: {results}")
    total = twelfths // 3
    return fixed90 // 2, (fixed180 - fixed90) // 4, (total - fixed180) // 8


def kernels_fit(model: Problem, engine: str) -> bool:
    """Whether the kernels may count ``model`` for ``engine``: one colour, nothing but holes.

    A one-colour board on an engine that counts in the kernels, no placed
    queen and no other constraint, of a size the kernels hold and pay for
    (numba installed).
    """
    return (
        capabilities(engine).kernels
        and model.colours == 1
        and model.diagonals
        and not model.placed
        and not model.extra
        and MIN_N <= model.n <= MAX_N
        and model.n >= WORTH_N
        and importlib.util.find_spec("numba") is not None
    )


class ClassKernels:
    """The symmetry kernels' pieces: a one-colour board, free or with holes all 8 symmetries keep.

    Counts the classes by size, so the total and ``unique`` come from the same pieces.
    """

    name = "classes"
    kernels = True
    threads = True
    counts_classes = True
    loads: tuple[str, ...] = ("classes",)
    count_part = staticmethod(count_piece)

    def fits(self, model: Problem, engine: str) -> bool:
        """A board the kernels hold whose holes (if any) all 8 symmetries keep."""
        return kernels_fit(model, engine) and (
            symmetric_rows(model.n, model.board.blocked) is not None
        )

    def plan(self, model: Problem, engine: str, workers: int) -> tuple[int, list[Piece]]:
        """The shallowest depth giving each worker its share of pieces, and its pieces."""
        depth = depth_for(model.n, workers, SUBPROBLEMS_PER_WORKER)
        return depth, pieces(model.n, depth)

    def parts(self, model: Problem, engine: str, depth: int) -> list[Piece]:
        """The pieces at ``depth``."""
        return pieces(model.n, depth)

    def arguments(self, model: Problem, engine: str, part: Piece) -> tuple[Any, ...]:
        """The arguments of :func:`count_piece` for the part."""
        n, blocked = model.n, model.board.blocked
        rows = symmetric_rows(n, blocked) if blocked else None
        return (n, part) if rows is None else (n, part, rows)

    def total(self, model: Problem, parts: Sequence[Piece], counts: Sequence[int]) -> int:
        """Every solution: each class times its size."""
        two, four, eight = combine(model.n, parts, counts)
        return 2 * two + 4 * four + 8 * eight

    def classes(self, model: Problem, parts: Sequence[Piece], counts: Sequence[int]) -> int:
        """The classes under the 8 symmetries."""
        return sum(combine(model.n, parts, counts))
