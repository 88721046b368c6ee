"""Independent dominating queens by their empty rows and columns: proved and counted in parts.

k independent queens leave n - k rows and n - k columns empty, whose
crossings only diagonals can cover (:mod:`cpqueens.kernels.independent_lattice`).
The search runs over the sets of empty rows, one per pair {ER, ER reversed};
a part takes every ``parts``-th of them (strided, so that the parts cost
alike), the parts run wherever the caller's ``run`` puts them (this process,
the local pool, a Dask cluster, with a checkpoint: :mod:`cpqueens.tasks.parts`).
:mod:`cpqueens.backends.bitmask.domination` hands its independent searches
here: :func:`decide` (a set of k, or the proof that there is none) and
:func:`tally` (the sets of k, each class once with its orbit's size).

Every set found is checked against the board in plain Python before anyone sees it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from cpqueens.backends.base import PartsRunner
from cpqueens.backends.bitmask.covering import apart, dominates
from cpqueens.clock import Deadline
from cpqueens.errors import IncompleteSearchError, InvalidSolutionError

#: Parts of a split at depth 1 (at most: one per set of empty rows); each level deeper, 4x.
PARTS = 96
#: The fewest empty rows (n - k) from which the domination search hands independent queens
#: here: with fewer, the cell search of :mod:`cpqueens.kernels.domination` is the quicker (one
#: core, in-process, proof of k - 1, first set and count of k: n = 14, k = 8: 9.0 CPU-s here,
#: 7.0 there; n = 15, k = 9: 128 against 95; n = 16, k = 9: 37 against 75; n = 17, k = 9: 11
#: against 90).
EMPTY_FROM = 7
#: The smallest board whose search is worth a local pool.
POOL_FROM = 13


@cache
def _empty_rows(n: int, k: int) -> tuple[int, ...]:
    from cpqueens.kernels.independent_lattice import empty_row_masks

    return tuple(empty_row_masks(n, k))


@dataclass(frozen=True)
class Part:
    """Every ``parts``-th set of empty rows from the ``index``-th: a part of the search for k."""

    n: int
    k: int
    index: int
    parts: int
    first: bool = True
    #: A count's part counts the classes of sets, not the sets.
    unique: bool = False

    def label(self) -> str:
        """The exact text that identifies the part within its split."""
        way = "first" if self.first else "classes" if self.unique else "count"
        return f"{way} {self.k} independent queens, empty rows {self.index} of {self.parts}"

    def admits(self, value: int, n: int) -> bool:
        """Whether ``value`` can be this part's result: a count, or 0 or a covering set."""
        if value < 0:
            return False
        if not self.first or value == 0:
            return True
        cells = cells_of(value)
        inside = value < 1 << self.n * self.n
        return inside and len(cells) == self.k and apart(self.n, cells) and dominates(self.n, cells)

    def expects(self, n: int) -> str:
        """What :meth:`admits` expects, for an error message."""
        if self.first:
            return f"0 or a set of {self.k} independent queens covering the board"
        return "a count >= 0"


def cells_of(value: int) -> tuple[int, ...]:
    """The cells of a set that a part returned as ``value``: the mask of its cells.

    >>> cells_of(sum(1 << cell for cell in (3, 17)))
    (3, 17)
    """
    return tuple(cell for cell in range(value.bit_length()) if value >> cell & 1)


def plan(n: int, k: int, depth: int = 1, first: bool = True, unique: bool = False) -> list[Part]:
    """The parts of the search for k independent covering queens (``PARTS * 4**(depth-1)``)."""
    total = max(1, min(len(_empty_rows(n, k)), PARTS * 4 ** (depth - 1)))
    return [Part(n, k, i, total, first, unique) for i in range(total)]


def search_part(
    n: int,
    k: int,
    index: int,
    parts: int,
    first: bool,
    stop_at: float | None = None,
    unique: bool = False,
) -> int:
    """Search one part to its end (a worker's task): a covering set found (encoded), or the count.

    ``first``: 0 if no k independent queens of the part cover the board,
    else the first set found (the mask of its cells); otherwise the number
    of covering sets (``unique``: of classes). ``stop_at`` (a ``time.time()``
    instant) ends the part with ``IncompleteSearchError``; Ctrl-C is seen
    between two sets of empty rows.
    """
    import numpy as np

    from cpqueens.kernels import independent_lattice as kernel

    clock = None if stop_at is None else Deadline(max(stop_at - time.time(), 1e-9))
    counters = np.zeros(kernel.COUNTERS, dtype=np.int64)
    found = np.zeros(k + 1, dtype=np.int64)
    for mask in _empty_rows(n, k)[index::parts]:
        if kernel.search(n, k, np.uint64(mask), first, found, counters):
            rows = [r for r in range(n) if not mask >> r & 1]
            cells = tuple(sorted(r * n + int(c) for r, c in zip(rows, found[:k], strict=True)))
            if not dominates(n, cells):
                raise InvalidSolutionError(f"the search's set {cells} leaves a cell uncovered")
            if not apart(n, cells):
                raise InvalidSolutionError(f"the search's set {cells} has queens that attack")
            return sum(1 << cell for cell in cells)
        if clock is not None:
            clock.check()
    if first:
        return 0
    return int(counters[kernel.CLASSES if unique else kernel.SETS])


def decide(
    n: int, k: int, run: PartsRunner, clock: Deadline | None = None
) -> tuple[int, ...] | None:
    """A set of k independent queens that cover the board, or None when the search proves none."""
    stop_at = None if clock is None else time.time() + clock.left()

    def arguments(part: Part) -> tuple[Any, ...]:
        return (part.n, part.k, part.index, part.parts, True, stop_at)

    what = f"bitmask: {k} independent queens dominating the board, by empty rows and columns"
    parts, values = run(
        what,
        lambda depth: plan(n, k, depth),
        search_part,
        arguments,
        lambda value: value > 0,
        n >= POOL_FROM,
    )
    found = [value for value in values.values() if value > 0]
    if found:
        return cells_of(found[0])
    if len(values) != len(parts):  # pragma: no cover - a runner's bug, not a proof
        raise IncompleteSearchError(f"{len(parts) - len(values)} parts were not searched")
    return None


def tally(
    n: int,
    k: int,
    run: PartsRunner,
    unique: bool = False,
    clock: Deadline | None = None,
) -> int:
    """The number of sets of k independent covering queens (or their classes), counted in parts."""
    stop_at = None if clock is None else time.time() + clock.left()

    def arguments(part: Part) -> tuple[Any, ...]:
        return (part.n, part.k, part.index, part.parts, False, stop_at, part.unique)

    way = "classes" if unique else "sets"
    what = (
        f"bitmask: the {way} of {k} independent queens dominating the board, "
        "counted by empty rows and columns"
    )
    parts, values = run(
        what,
        lambda depth: plan(n, k, depth, False, unique),
        search_part,
        arguments,
        lambda value: False,
        n >= POOL_FROM,
    )
    if len(values) != len(parts):  # pragma: no cover - a runner's bug, not a count
        raise IncompleteSearchError(f"{len(parts) - len(values)} parts were not counted")
    return sum(values.values())
