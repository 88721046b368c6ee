"""A puzzle from a screenshot, checked before anyone sees it: connected regions, one solution.

The reader (:mod:`cpqueens.readers.screenshot`) says every way the colours
read as n regions; here each is made a puzzle and kept only if its regions
are connected and it has exactly one solution. One such puzzle is the answer.
None, or more than one, is an :class:`~cpqueens.errors.ImageReadError` that
says what was seen: a misread is never answered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cpqueens.errors import ImageReadError
from cpqueens.readers import overlay
from cpqueens.readers.screenshot import Reading, read

Cell = tuple[int, int]


@dataclass(frozen=True)
class Screenshot:
    """A puzzle read from a screenshot, and the reading (where each cell is in the picture)."""

    puzzle: Any
    reading: Reading

    def overlay(self, queens: Iterable[Cell]) -> bytes:
        """The screenshot with a queen drawn on each of ``queens``, as PNG bytes."""
        return overlay.png(self.reading.image, [self.reading.box(r, c) for r, c in queens])


def _cell_names(cells: Iterable[Cell]) -> str:
    return ", ".join(f"r{r + 1}c{c + 1}" for r, c in cells)


def _split_region(puzzle: Any) -> str:
    """The first region of ``puzzle`` in two or more pieces, in words."""
    for g in range(puzzle.n):
        left = set(puzzle.region_cells(g))
        start = min(left)
        todo, seen = [start], {start}
        while todo:
            r, c = todo.pop()
            for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if cell in left and cell not in seen:
                    seen.add(cell)
                    todo.append(cell)
        if seen != left:
            apart = min(left - seen)
            return (
                f"a region in pieces (the colour of {_cell_names([start])} "
                f"again at {_cell_names([apart])}, not connected)"
            )
    return "a region in pieces"


def read_puzzle(
    cls: Any, source: Any, *, with_queens: bool = False, time_limit: float | None = None
) -> Screenshot:
    """The one puzzle ``source`` shows, as a ``cls`` (a Puzzle class), with its reading.

    ``with_queens`` makes the queens drawn on the board givens. Raises
    ImageReadError (with ``reading``) when no reading is a puzzle with
    connected regions and exactly one solution, or more than one is.
    """
    reading = read(source)
    n = reading.n
    givens = reading.queens if with_queens else ()
    valid = []
    reasons = []
    for regions in reading.options:
        puzzle = cls(n, regions, queens=givens)
        if not puzzle.is_connected():
            reasons.append(_split_region(puzzle))
            continue
        found = puzzle.count(limit=2, time_limit=time_limit)
        if found == 1:
            if puzzle not in valid:
                valid.append(puzzle)
        elif found == 0 and givens:
            reasons.append(f"no solution with the queens drawn at {_cell_names(givens)}")
        else:
            reasons.append("no solution" if found == 0 else "more than one solution")
    seen = reading.seen()
    if len(valid) == 1:
        return Screenshot(valid[0], reading)
    if len(valid) > 1:
        raise ImageReadError(
            f"found {seen} but its colours read as {len(valid)} different puzzles "
            "(a darker or lighter cell could belong to more than one region): not guessing",
            reading,
        )
    if len(reasons) == 1:
        raise ImageReadError(f"found {seen} but the puzzle read has {reasons[0]}", reading)
    raise ImageReadError(
        f"found {seen} but none of its {len(reasons)} readings is a puzzle with connected "
        "regions and exactly one solution",
        reading,
    )
