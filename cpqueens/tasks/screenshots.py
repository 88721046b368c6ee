"""A puzzle from a screenshot, checked before anyone sees it: connected regions, one solution.

The reader (:mod:`cpqueens.readers.screenshot`) says every way the colours
read as n regions; here each is made a puzzle, for the star count given or
for every star count that fits the grid (1, 2, 3, ...), and kept only if its
regions are connected and it has exactly one solution. One such puzzle is
the answer, with its solution (so it is not solved again). None, or more
than one, is an :class:`~cpqueens.errors.ImageReadError` that says what was
seen: a misread is never answered. One clock bounds the whole reading.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cpqueens.clock import Deadline
from cpqueens.errors import ImageReadError
from cpqueens.readers import overlay
from cpqueens.readers.screenshot import Reading, name, read
from cpqueens.tasks import puzzles
from cpqueens.vocabulary.checks import check_time_limit

Cell = tuple[int, int]


@dataclass(frozen=True)
class Screenshot:
    """A puzzle read from a screenshot, and the reading (where each cell is in the picture).

    ``solutions`` holds the puzzle's one solution, found when the reading was
    checked; ``deadline`` is the clock the reading ran under (None: no limit).
    """

    puzzle: Any
    reading: Reading
    solutions: tuple[tuple[Cell, ...], ...] = ()
    deadline: Deadline | None = field(default=None, repr=False, compare=False)

    def overlay(self, queens: Iterable[Cell]) -> bytes:
        """The screenshot with a queen drawn on each of ``queens``, as PNG bytes."""
        return overlay.png(self.reading.image, [self.reading.box(r, c) for r, c in queens])

    def time_left(self) -> float | None:
        """The seconds left of the reading's time limit (None: no limit).

        Raises the limit's ``IncompleteSearchError`` if it has passed.
        """
        if self.deadline is None:
            return None
        self.deadline.check()
        return max(self.deadline.left(), 1e-3)


def _cell_names(cells: Iterable[Cell]) -> str:
    return ", ".join(name(cell) for cell in cells)


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


def check_stars(stars: object) -> int | None:
    """``stars`` if it is None or an int >= 1, else a TypeError or ValueError naming it."""
    if stars is None:
        return None
    if isinstance(stars, bool) or not isinstance(stars, int):
        raise TypeError(f"stars must be None or an int >= 1, got {stars!r}")
    if stars < 1:
        raise ValueError(f"stars must be None or an int >= 1, got {stars!r}")
    return stars


def _star_counts(n: int, stars: int | None, seen: str, reading: Reading) -> list[int]:
    """The star counts to try on an n x n grid: ``stars``, or every one that fits."""
    most = (n + 1) // 2  # k stars in a row with none touching need 2k - 1 cells
    if stars is None:
        return list(range(1, most + 1))
    if stars > most:
        raise ImageReadError(
            f"found {seen} but {stars} stars a row do not fit it "
            f"(they need {2 * stars - 1} cells a side, none touching)",
            reading,
        )
    return [stars]


def read_puzzle(
    cls: Any,
    source: Any,
    *,
    with_queens: bool = False,
    stars: int | None = None,
    time_limit: float | None = None,
) -> Screenshot:
    """The one puzzle ``source`` shows, as a ``cls`` (a Puzzle class), with its reading.

    ``with_queens`` makes the queens drawn on the board givens. ``stars``
    fixes the stars per row, column and region; None tries every count that
    fits the grid and keeps the one that gives exactly one solution. Raises
    ImageReadError (with ``reading``) when no reading is a puzzle with
    connected regions and exactly one solution, or more than one is; the
    ``time_limit`` (seconds) bounds the whole of it (an
    ``IncompleteSearchError`` when it passes first).
    """
    stars = check_stars(stars)
    seconds = check_time_limit(time_limit)
    deadline = None if seconds is None else Deadline(seconds)
    reading = read(source)
    if deadline is not None:
        deadline.check()
    n = reading.n
    seen = reading.seen()
    counts = _star_counts(n, stars, seen, reading)
    givens = reading.queens if with_queens else ()
    valid: list[tuple[Any, tuple[Cell, ...]]] = []
    reasons: list[str] = []
    for regions in reading.options:
        first = cls(n, regions, queens=givens)
        if not first.is_connected():
            reasons.append(_split_region(first))
            continue
        outcomes: list[tuple[int, str]] = []
        for k in counts:
            puzzle = cls(n, regions, stars=k, queens=givens)
            found = puzzles.solutions(puzzle, "auto", 2, deadline)
            if len(found) != 1:
                outcomes.append((k, _no_one(len(found), givens)))
            elif all(puzzle != other for other, _ in valid):
                valid.append((puzzle, found[0]))
        if len(outcomes) == len(counts):  # no star count gave one solution
            reasons.append(_by_count(outcomes) if stars is None else outcomes[0][1])
    if len(valid) == 1:
        puzzle, solution = valid[0]
        return Screenshot(puzzle, reading, (solution,), deadline)
    if len(valid) > 1:
        raise ImageReadError(_several(seen, [p for p, _ in valid]), reading)
    if len(reasons) == 1:
        if stars is None and not reasons[0].startswith("a region"):
            raise ImageReadError(
                f"found {seen} but no star count gives exactly one solution ({reasons[0]})",
                reading,
            )
        raise ImageReadError(f"found {seen} but the puzzle read has {reasons[0]}", reading)
    raise ImageReadError(
        f"found {seen} but none of its {len(reasons)} readings is a puzzle with connected "
        "regions and exactly one solution"
        + ("" if stars is not None else f" for {counts[0]} to {counts[-1]} stars a row"),
        reading,
    )


def _no_one(found: int, givens: tuple[Cell, ...]) -> str:
    """Why a puzzle is not the answer: no solution (with the queens drawn), or more than one."""
    if found == 0 and givens:
        return f"no solution with the queens drawn at {_cell_names(givens)}"
    return "no solution" if found == 0 else "more than one solution"


def _by_count(outcomes: list[tuple[int, str]]) -> str:
    """Each star count's outcome, runs of counts alike told once: "1 star: ...; 2-5 stars: ..."."""
    parts: list[tuple[int, int, str]] = []
    for k, words in outcomes:
        if parts and parts[-1][2] == words and parts[-1][1] == k - 1:
            parts[-1] = (parts[-1][0], k, words)
        else:
            parts.append((k, k, words))
    return "; ".join(
        f"{lo} star{'s' if hi > 1 else ''}: {words}" if lo == hi else f"{lo}-{hi} stars: {words}"
        for lo, hi, words in parts
    )


def _several(seen: str, puzzles: list[Any]) -> str:
    """The refusal of a picture that reads as several puzzles with one solution each."""
    counts = sorted({p.stars for p in puzzles})
    if len(counts) > 1:
        listed = " and ".join(str(k) for k in counts)
        return (
            f"found {seen} but it reads as a puzzle with exactly one solution for {listed} "
            "stars a row: not guessing (give the star count)"
        )
    return (
        f"found {seen} but its colours read as {len(puzzles)} different puzzles "
        "(a darker or lighter cell could belong to more than one region): not guessing"
    )
