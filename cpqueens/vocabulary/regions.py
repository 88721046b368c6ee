"""Region puzzles as plain frozen data: LinkedIn's Queens game and Star Battle.

A :class:`RegionPuzzle` is an n x n grid split into n regions. A solution puts
``stars`` queens (stars) in every row, every column and every region, no two
of them touching, not even diagonally (king adjacency). With
``diagonals=True`` the queens' long diagonals attack too: no two queens share
a diagonal. ``queens`` are the givens (cells that must hold a queen) and
``blocked`` the cells where none may stand.

Two readable forms, each read back exactly as written:

- **text**: one region letter or digit per cell, one row per line (the way
  puzzle sites write them; spaces between cells are fine). A cell may be
  followed by ``*`` (a given queen) or ``#`` (a blocked cell). Optional
  header lines before the grid: ``stars K`` and ``diagonals``.
- **JSON**: ``{"n": 8, "regions": [[0, 0, 1, ...], ...], "stars": 1,
  "givens": {"queens": [[r, c], ...], "blocked": [[r, c], ...]}}`` with
  ``stars``, ``givens`` and ``diagonals`` optional; other keys are ignored.

Nothing here solves: the searches are in ``cpqueens.kernels.regions`` and the
backends, the verbs in ``cpqueens.model.puzzle``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Self

from cpqueens.vocabulary.checks import check_regions
from cpqueens.vocabulary.region_text import (
    BLOCKED_MARK,
    MAX_N,
    QUEEN_MARK,
    SYMBOLS,
    blocks,
    grid_cells,
    header_and_grid,
    json_value,
    numbered,
)

#: A terminal colour code (``ESC [ ... m``), as the coloured drawing paints cells: read as nothing.
ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")

Cell = tuple[int, int]

#: A difficulty: the deepest rule a player needs, or "needs search" when rules do not finish.
Difficulty = Literal["easy", "medium", "hard", "needs search"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard", "needs search")


def cells_of(cells: Iterable[Any], n: int, what: str) -> tuple[Cell, ...]:
    """``cells`` as sorted, distinct (row, col) pairs on an n x n board, or a ValueError."""
    found = set()
    for item in cells:
        if (
            not isinstance(item, Sequence)
            or isinstance(item, str)
            or len(item) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise ValueError(f"{what}: {item!r} is not a cell: expected a [row, col] pair of ints")
        row, col = item
        if not (0 <= row < n and 0 <= col < n):
            raise ValueError(
                f"{what}: cell [{row}, {col}] is off the {n}x{n} grid: expected 0 <= row, col < {n}"
            )
        found.add((row, col))
    return tuple(sorted(found))


def _components(regions: tuple[tuple[int, ...], ...], region: int) -> list[set[Cell]]:
    """The orthogonally connected pieces of one region."""
    n = len(regions)
    left = {(r, c) for r in range(n) for c in range(n) if regions[r][c] == region}
    pieces = []
    while left:
        start = left.pop()
        piece, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if cell in left:
                    left.remove(cell)
                    piece.add(cell)
                    todo.append(cell)
        pieces.append(piece)
    return pieces


@dataclass(frozen=True)
class RegionPuzzle:
    """An n x n grid of n regions; ``stars`` queens per row, column and region, none touching.

    ``regions[r][c]`` is the region (0 .. n-1) of cell (r, c). ``labels``
    are the symbols the text form names the regions with (kept from the file
    it was read from; default ``A``, ``B``, ...). Two puzzles are equal (and
    hash alike) when they have the same partition, stars, givens and rules,
    whatever the numbers or labels of their regions: the letter grid and the
    JSON form of one puzzle compare equal. Construction validates everything
    and raises a ValueError or TypeError naming the bad value.

    >>> p = RegionPuzzle(4, ((0, 0, 1, 1), (0, 2, 2, 1), (3, 2, 2, 1), (3, 3, 3, 1)))
    >>> p.region_cells(2)
    ((1, 1), (1, 2), (2, 1), (2, 2))
    """

    n: int
    regions: tuple[tuple[int, ...], ...]
    stars: int = 1
    queens: tuple[Cell, ...] = ()
    blocked: tuple[Cell, ...] = ()
    diagonals: bool = False
    labels: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        """Validate and normalise the fields (cells sorted, regions as tuples)."""
        n = self.n
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"n must be an int, got {n!r}")
        if not 1 <= n <= MAX_N:
            raise ValueError(f"n must be between 1 and {MAX_N}, got {n}")
        stars = self.stars
        if isinstance(stars, bool) or not isinstance(stars, int):
            raise TypeError(f"stars must be an int, got {stars!r}")
        if stars < 1 or 2 * stars - 1 > n:
            raise ValueError(
                f"stars must be between 1 and {(n + 1) // 2} on a {n}x{n} grid (k stars in a row "
                f"with none touching need 2k - 1 cells), got {stars}"
            )
        if not isinstance(self.diagonals, bool):
            raise TypeError(f"diagonals must be a bool, got {self.diagonals!r}")
        grid = check_regions(self.regions, n, n, count=n)
        object.__setattr__(self, "regions", tuple(grid))
        object.__setattr__(self, "queens", cells_of(self.queens, n, "given queens"))
        object.__setattr__(self, "blocked", cells_of(self.blocked, n, "blocked cells"))
        labels = self.labels or SYMBOLS[:n]
        if not isinstance(labels, str) or len(labels) != n or len(set(labels)) != n:
            raise ValueError(f"labels must be {n} distinct symbols, got {labels!r}")
        bad = [s for s in labels if s not in SYMBOLS]
        if bad:
            raise ValueError(f"label {bad[0]!r} is not a letter or digit")
        object.__setattr__(self, "labels", labels)

    def canonical(self) -> tuple[Any, ...]:
        """What equality compares: the regions numbered by first appearance, row by row.

        >>> a = RegionPuzzle(2, ((1, 0), (0, 0)))
        >>> a.canonical()[1], a == RegionPuzzle(2, ((0, 1), (1, 1)))
        (((0, 1), (1, 1)), True)
        """
        order: dict[int, int] = {}
        for row in self.regions:
            for g in row:
                order.setdefault(g, len(order))
        regions = tuple(tuple(order[g] for g in row) for row in self.regions)
        return (self.n, regions, self.stars, self.queens, self.blocked, self.diagonals)

    def __eq__(self, other: object) -> bool:
        """Same partition, stars, givens and rules (region numbers and labels aside)."""
        if not isinstance(other, RegionPuzzle):
            return NotImplemented
        return self.canonical() == other.canonical()

    def __hash__(self) -> int:
        """The hash of :meth:`canonical`."""
        return hash(self.canonical())

    # -- reading ---------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, *, stars: int | None = None, connected: bool = False) -> Self:
        r"""Read a letter grid: a region symbol per cell, ``*`` after a given queen, ``#`` blocked.

        ``stars`` overrides a ``stars K`` header line (default 1);
        ``connected=True`` also refuses a region in two or more pieces.
        Errors name the line and column. Terminal colour codes are skipped,
        so a grid drawn in colour (``colour=True``) reads back too.

        >>> p = RegionPuzzle.parse("stars 1\nAAB*CC\nAABCC\nDDBBC\nDEEEC\nDDEEE")
        >>> p.n, p.queens, p.labels
        (5, ((0, 2),), 'ABCDE')
        """
        if not isinstance(text, str):
            raise TypeError(f"a puzzle grid must be a str, got {type(text).__name__}")
        lines = ANSI_COLOUR.sub("", text.removeprefix("\ufeff")).splitlines()
        header, grid_lines = header_and_grid(lines)
        cells, queens, blocked = grid_cells(grid_lines)
        n = len(cells[0])
        if len(cells) != n:
            number = grid_lines[-1][0]
            raise ValueError(
                f"line {number}, column 1: the grid has {len(cells)} rows of {n} cells: "
                f"expected {n} rows (a square grid)"
            )
        order: dict[str, int] = {}
        for row in cells:
            for symbol in row:
                order.setdefault(symbol, len(order))
        if len(order) != n:
            raise ValueError(
                f"the grid has {len(order)} regions ({''.join(order)}), expected {n}: "
                "a puzzle has as many regions as rows"
            )
        k = stars if stars is not None else header["stars"]
        k = 1 if k is None else k
        puzzle = cls(
            n,
            tuple(tuple(order[s] for s in row) for row in cells),
            stars=k,
            queens=queens,  # type: ignore[arg-type]  # validated and made a tuple there
            blocked=blocked,  # type: ignore[arg-type]
            diagonals=bool(header["diagonals"]),
            labels="".join(order),
        )
        if connected:
            puzzle.check_connected()
        return puzzle

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str, *, connected: bool = False) -> Self:
        """Read the JSON form (a dict, or its text): n, regions, optional stars, givens, diagonals.

        >>> RegionPuzzle.from_json({"n": 2, "regions": [[0, 1], [1, 1]]}).regions
        ((0, 1), (1, 1))
        """
        if isinstance(obj, str):
            obj = json_value(obj)
        if not isinstance(obj, Mapping):
            raise ValueError(f"a JSON puzzle must be an object, got {type(obj).__name__}")
        for key in ("n", "regions"):
            if key not in obj:
                raise ValueError(f"the JSON puzzle has no {key!r}: expected n and regions")
        givens = obj.get("givens") or {}
        if not isinstance(givens, Mapping):
            raise ValueError(f"givens must be an object with queens and blocked, got {givens!r}")
        unknown = set(givens) - {"queens", "blocked"}
        if unknown:
            raise ValueError(
                f"givens has unknown key(s) {sorted(unknown)}: expected queens, blocked"
            )
        for key in ("queens", "blocked"):
            if not isinstance(givens.get(key, []), list):
                raise ValueError(f"givens.{key} must be a list of [row, col], got {givens[key]!r}")
        puzzle = cls(
            obj["n"],
            obj["regions"],
            stars=obj.get("stars", 1),
            queens=givens.get("queens", ()),
            blocked=givens.get("blocked", ()),
            diagonals=obj.get("diagonals", False),
        )
        if connected:
            puzzle.check_connected()
        return puzzle

    @classmethod
    def loads(cls, text: str, *, connected: bool = False) -> Self:
        """Read either form: JSON when the text starts with ``{``, else the letter grid.

        A text of several puzzles (a JSON array, or grids separated by blank
        lines) is refused with a ValueError that names :meth:`loads_all`.
        """
        found = cls.loads_all(text, connected=connected)
        if len(found) != 1:
            raise ValueError(
                f"the text holds {len(found)} puzzles (a JSON array, or grids separated by "
                "blank lines), expected one: read several with loads_all"
            )
        return found[0]

    @classmethod
    def loads_all(cls, text: str, *, connected: bool = False) -> list[Self]:
        r"""Read one puzzle or several: a JSON object, a JSON array of them, or letter grids.

        Letter grids are separated by blank lines, each with its own header
        lines; when there are several, errors name the puzzle and the line
        within it (``puzzle 2: line 3, column 4: ...``).

        >>> tuple(p.n for p in RegionPuzzle.loads_all("AB\nBB\n\nstars 1\nA"))
        (2, 1)
        """
        if not isinstance(text, str):
            raise TypeError(f"a puzzle must be a str, got {type(text).__name__}")
        body = text.removeprefix("\ufeff")
        start = body.lstrip()[:1]
        if start == "{":
            return [cls.from_json(body, connected=connected)]
        if start == "[":
            items = json_value(body)
            if not isinstance(items, list) or not items:
                raise ValueError("a JSON array of puzzles must hold at least one puzzle object")
            return [
                numbered(i, len(items), cls.from_json, item, connected=connected)
                for i, item in enumerate(items, start=1)
            ]
        grids = blocks(body)
        return [
            numbered(i, len(grids), cls.parse, block, connected=connected)
            for i, block in enumerate(grids, start=1)
        ]

    # -- writing ---------------------------------------------------------------

    def to_text(self, queens: Iterable[Cell] = ()) -> str:
        r"""The letter grid, header lines included; ``queens`` (and the givens) marked ``*``.

        >>> print(RegionPuzzle.parse("AB\nBB").to_text([(0, 0), (1, 1)]))
        A* B
        B  B*
        """
        marks = {cell: BLOCKED_MARK for cell in self.blocked}
        for cell in (*self.queens, *queens):
            marks[cell] = QUEEN_MARK
        spaced = bool(marks)
        lines = []
        if self.stars != 1:
            lines.append(f"stars {self.stars}")
        if self.diagonals:
            lines.append("diagonals")
        for r, row in enumerate(self.regions):
            cells = [self.labels[g] + marks.get((r, c), "") for c, g in enumerate(row)]
            lines.append(
                " ".join(f"{cell:<2}" for cell in cells).rstrip() if spaced else "".join(cells)
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The JSON form as a dict, ready for ``json.dumps`` (:meth:`dumps` is that text)."""
        obj: dict[str, Any] = {"n": self.n, "regions": [list(row) for row in self.regions]}
        if self.stars != 1:
            obj["stars"] = self.stars
        if self.diagonals:
            obj["diagonals"] = True
        if self.queens or self.blocked:
            obj["givens"] = {
                "queens": [list(cell) for cell in self.queens],
                "blocked": [list(cell) for cell in self.blocked],
            }
        return obj

    def dumps(self) -> str:
        """The JSON form as text, one line: ``json.dumps(self.to_json())``; ``loads`` reads it."""
        return json.dumps(self.to_json())

    # -- questions -------------------------------------------------------------

    def crowded(self) -> bool:
        """Whether two neighbouring rows cannot hold their stars, none touching: no solution.

        Two neighbouring rows split into ceil(n/2) blocks of 2x2 cells (2x1 at
        the end of an odd row); stars that do not touch leave one at most in
        each, so two rows hold at most ceil(n/2) stars and need 2k.

        >>> RegionPuzzle(6, tuple((r,) * 6 for r in range(6)), stars=2).crowded()
        True
        >>> RegionPuzzle(8, tuple((r,) * 8 for r in range(8)), stars=2).crowded()
        False
        """
        return self.n >= 2 and 2 * self.stars > (self.n + 1) // 2

    def row_placements(self) -> int:
        """How many ways rows can hold their stars, summed over the rows (regions aside).

        A row's ways are its subsets of ``stars`` free columns, none adjacent,
        every given queen of the row in: what an engine that lists each row's
        choices (the compiled search, python-constraint) would list. Counted,
        not listed, so it answers at once for any size (C(62, 31)-sized rows
        included).
        """
        total = 0
        for row in range(self.n):
            blocked = {c for r, c in self.blocked if r == row}
            given = {c for r, c in self.queens if r == row}
            total += subsets_apart(self.n, self.stars, blocked, given)
        return total

    def region_cells(self, region: int) -> tuple[Cell, ...]:
        """The cells of one region, row by row."""
        return tuple(
            (r, c) for r in range(self.n) for c in range(self.n) if self.regions[r][c] == region
        )

    def check_connected(self) -> None:
        """Raise a ValueError naming the first region that is in two or more pieces."""
        for region in range(self.n):
            pieces = sorted(_components(self.regions, region), key=min)
            if len(pieces) > 1:
                first, second = min(pieces[0]), min(pieces[1])
                raise ValueError(
                    f"line {second[0] + 1}, column {second[1] + 1}: region "
                    f"{self.labels[region]!r} is in {len(pieces)} pieces (this cell is not "
                    f"connected to its cell at line {first[0] + 1}, column {first[1] + 1}): "
                    "expected connected regions"
                )

    def is_connected(self) -> bool:
        """Whether every region is one orthogonally connected piece."""
        return all(len(_components(self.regions, g)) == 1 for g in range(self.n))

    def violations(self, queens: Iterable[Cell]) -> list[str]:
        """Every rule a placement breaks, in words (an empty list: a solution).

        >>> p = RegionPuzzle(1, ((0,),))
        >>> p.violations([(0, 0)]), p.violations([])
        ([], ['row 0 has 0 queens, expected 1', ...])
        """
        n, k = self.n, self.stars
        placed = sorted(set(queens))
        found = []
        for row in range(n):
            got = sum(1 for r, _ in placed if r == row)
            if got != k:
                found.append(f"row {row} has {got} queens, expected {k}")
        for col in range(n):
            got = sum(1 for _, c in placed if c == col)
            if got != k:
                found.append(f"column {col} has {got} queens, expected {k}")
        for region in range(n):
            got = sum(1 for r, c in placed if self.regions[r][c] == region)
            if got != k:
                found.append(f"region {self.labels[region]} has {got} queens, expected {k}")
        cells = set(placed)
        for r, c in placed:
            if not (0 <= r < n and 0 <= c < n):
                found.append(f"({r}, {c}) is off the grid")
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
                if (r + dr, c + dc) in cells:
                    found.append(f"queens at ({r}, {c}) and ({r + dr}, {c + dc}) touch")
        if self.diagonals:
            for i, (r, c) in enumerate(placed):
                for r2, c2 in placed[i + 1 :]:
                    if abs(r - r2) == abs(c - c2):
                        found.append(f"queens at ({r}, {c}) and ({r2}, {c2}) share a diagonal")
        found.extend(f"({r}, {c}) is blocked" for r, c in self.blocked if (r, c) in cells)
        found.extend(
            f"given queen ({r}, {c}) is missing" for r, c in self.queens if (r, c) not in cells
        )
        return found


def subsets_apart(n: int, k: int, blocked: set[int], given: set[int]) -> int:
    """How many k-subsets of columns 0..n-1 have no two adjacent, miss ``blocked``, hold ``given``.

    >>> subsets_apart(5, 2, set(), set())  # 02 03 04 13 14 24
    6
    """
    # ways[j][t]: j columns taken so far, t = whether the last column was taken
    ways = [[0, 0] for _ in range(k + 1)]
    ways[0][0] = 1
    for c in range(n):
        nxt = [[0, 0] for _ in range(k + 1)]
        for j in range(k + 1):
            for taken in (0, 1):
                w = ways[j][taken]
                if not w:
                    continue
                if c not in given:  # leave column c empty
                    nxt[j][0] += w
                if c not in blocked and not taken and j < k:  # a star in column c
                    nxt[j + 1][1] += w
        ways = nxt
    return ways[k][0] + ways[k][1]
