"""The bitmask engine's compiled decision searches: the first solution, any solution, in chunks.

A plain model's plan (queens' lines, blocked cells, placed queens, colours:
no variants, conditions or symmetry rules) on at most 64 columns is searched
by the resumable kernels of :mod:`cpqueens.kernels.resumable`, in chunks, so
that Ctrl-C and the time limit are seen between chunks:

- lexicographic: every colour but the last enumerated in lexicographic order,
  each by the compiled plain DFS, the last one searched by it too: the same
  solution the enumeration yields first;
- any: the same, but the last colour searched fewest-free-cells row first
  with look-ahead, which visits far fewer nodes on hard boards.

:class:`LineSearch` is the second one for one colour, a chunk per step: a
member of ``find()``'s portfolio.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from cpqueens.clock import Deadline

if TYPE_CHECKING:
    import numpy as np


class Plan(Protocol):
    """What the searches read of the bitmask engine's plan of a model."""

    @property
    def n(self) -> int:
        """The board's size."""
        ...

    @property
    def allowed(self) -> tuple[tuple[int, ...], ...]:
        """The allowed columns' mask of each colour's rows."""
        ...

    @property
    def disjoint(self) -> frozenset[tuple[int, int]]:
        """The colour pairs that share no cell."""
        ...

    def colour_masks(self, colour: int, earlier: Sequence[tuple[int, ...]]) -> list[int]:
        """Colour ``colour``'s allowed masks, less the cells of earlier colours."""
        ...


#: Nodes a kernel visits between two looks at the clock and at Ctrl-C (about a millisecond).
CHUNK = 1 << 16

Columns = tuple[tuple[int, ...], ...]


def search(plan: Plan, clock: Deadline | None, lexicographic: bool) -> Columns | None:
    """The first solution of ``plan`` in lexicographic order, or any, searched by the kernels.

    Every colour but the last is enumerated (in lexicographic order, or in the
    fewest-free-row search's order), the last one searched under the cells
    the earlier colours leave.
    """
    colours = len(plan.allowed)
    enumerate_ = placements if lexicographic else any_placements

    def nested(earlier: Columns) -> Columns | None:
        masks = _array(plan.colour_masks(len(earlier), earlier))
        if len(earlier) == colours - 1:
            columns = next(enumerate_(masks, clock), None)
            return None if columns is None else (*earlier, columns)
        for columns in enumerate_(masks, clock):
            found = nested((*earlier, columns))
            if found is not None:
                return found
        return None

    return nested(())


def _array(masks: list[int]) -> np.ndarray:
    import numpy as np

    return np.array(masks, dtype=np.uint64)


def placements(allowed: np.ndarray, clock: Deadline | None = None) -> Iterator[tuple[int, ...]]:
    """Every one-colour placement under ``allowed`` masks, in lexicographic order, compiled."""
    from cpqueens.kernels import resumable as ns

    state = ns.first_state(allowed)
    while True:
        status = ns.next_placement(allowed, *state, CHUNK)
        if status == ns.FOUND:
            yield tuple(int(col) for col in state[1])
        elif status == ns.EXHAUSTED:
            return
        elif clock is not None:
            clock.check()


def any_placements(allowed: np.ndarray, clock: Deadline | None = None) -> Iterator[tuple[int, ...]]:
    """Every one-colour placement under ``allowed`` masks, most constrained row first, compiled.

    The first comes fast on hard boards; the order is the search's, not lexicographic.
    """
    from cpqueens.kernels import resumable as ns

    state = ns.any_state(allowed)
    while True:
        status = ns.search_any(*state, CHUNK)
        if status == ns.FOUND:
            yield tuple(int(col) for col in state[4])
        elif status == ns.EXHAUSTED:
            return
        elif clock is not None:
            clock.check()


def checked(plan: Plan, found: Columns | None) -> Columns | None:
    """``found`` after checking it against ``plan`` (a kernel's bug never leaves)."""
    if found is None:
        return None
    n = plan.n
    for colour, columns in enumerate(found):
        lines = (
            set(columns),
            {c - r for r, c in enumerate(columns)},
            {c + r for r, c in enumerate(columns)},
        )
        allowed = plan.allowed[colour]
        if len(columns) != n or any(len(line) != n for line in lines):
            raise AssertionError(f"internal error: two queens of {found} attack each other")
        if any(not allowed[row] >> col & 1 for row, col in enumerate(columns)):
            raise AssertionError(f"internal error: {found} has a queen on a cell it may not use")
    for a, b in plan.disjoint:
        if any(x == y for x, y in zip(found[a], found[b], strict=True)):
            raise AssertionError(f"internal error: {found} puts two queens on one cell")
    return found


class LineSearch:
    """The fewest-free-row search of ``exists()`` for one colour, a chunk per ``step()``.

    A member of ``find()``'s portfolio: complete, so its ``EXHAUSTED`` proves
    that the model has no solution. Only for one-colour plain models on at
    most ``MAX_COLUMNS`` columns (see :func:`line_search`).
    """

    def __init__(self, allowed: Sequence[int]) -> None:
        """Start the search under ``allowed`` per-row masks (bit c: column c)."""
        from cpqueens.kernels import resumable as native_search

        self._kernels = native_search
        self._state = native_search.any_state(_array(list(allowed)))

    def step(self) -> bool | None:
        """Search one chunk: True if a placement was found, False if none is left, else None."""
        status = self._kernels.search_any(*self._state, CHUNK)
        if status == self._kernels.FOUND:
            return True
        return False if status == self._kernels.EXHAUSTED else None

    def columns(self) -> tuple[int, ...]:
        """The placement the last ``FOUND`` step reached."""
        return tuple(int(col) for col in self._state[4])
