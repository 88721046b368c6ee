"""A player's deductions on a region puzzle: the rules behind ``explain``, ``hint`` and ``rate``.

The grid is two bitmasks over its n * n cells (bit ``r * n + c``): the
queens placed and the cells crossed out; every other cell is unknown. Rows,
columns and regions are masks too, so a rule is a few ``&``, ``|`` and
``bit_count()`` per unit: fast enough for the generator, which runs the rules
on thousands of candidate grids. Rules are tried easiest first, and each step
is recorded in words, cells written 0-based ``(row, col)``:

- level 1: a unit (row, column or region) with exactly as many
  unknown cells as queens it still needs fills them ("last cells");
- level 2: a unit confined to one unit of another kind claims it
  (the other cells there are crossed out: "confined");
- level 3: a region's shape (:mod:`cpqueens.tasks.rules`: the cells every
  free cell of a one-queen unit rules out), k units confined to k others
  ("confined pair", "confined group"), or a cell whose queen would leave
  some unit without room ("would empty");
- level 4: a lookahead of 1, then 2 rounds of the level 1-2 rules after a
  trial queen ("lookahead 1", "lookahead 2").

A puzzle's difficulty is not the deepest level but the techniques used and
how often (:mod:`cpqueens.tasks.levels`).

The rules are sound: a queen they place stands in every solution, a cell they
cross out in none; a unit left without room means no solution holds the
queens placed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from cpqueens.tasks import rules
from cpqueens.words import plural

if TYPE_CHECKING:
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.regions import Cell, RegionPuzzle

#: The level of a step that search takes, when the rules stop.
SEARCH = 5
#: The cells the trial rule tries per array operation (some 3 MB of arrays at 62 x 62).
CHUNK = 128
#: The three kinds of unit, in the order the rules look at them.
KINDS = ("row", "column", "region")
#: Which units confined to which the level 2-3 rule tries, in order.
PAIRS = (
    ("region", "row"),
    ("region", "column"),
    ("row", "region"),
    ("column", "region"),
    ("row", "column"),
    ("column", "row"),
)


def name(cell: Cell) -> str:
    """A cell as every output writes it: 0-based ``(row, col)``, row 0 at the top."""
    return f"({cell[0]}, {cell[1]})"


@dataclass(frozen=True)
class Step:
    """One deduction: the rule used, its level (1 .. 4 the rules, 5 search), words, and effects."""

    rule: str
    level: int
    text: str
    queens: tuple[Cell, ...] = ()
    crossed: tuple[Cell, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The step as a JSON-ready dict (cells as 0-based [row, col])."""
        return {
            "rule": self.rule,
            "level": self.level,
            "text": self.text,
            "queens": [list(cell) for cell in self.queens],
            "crossed": [list(cell) for cell in self.crossed],
        }


def _groups(
    units: list[int], touch: dict[int, int], size: int
) -> Iterator[tuple[tuple[int, ...], int]]:
    """The ``size``-unit groups of ``units`` that meet at most ``size`` others, with those met.

    In the order of ``itertools.combinations``; a branch that already meets
    more than ``size`` others is cut (adding units only meets more).
    """
    chosen: list[int] = []

    def extend(start: int, met: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if len(chosen) == size:
            yield tuple(chosen), met
            return
        for position in range(start, len(units) - (size - len(chosen)) + 1):
            unit = units[position]
            more = met | touch[unit]
            if more.bit_count() > size:
                continue
            chosen.append(unit)
            yield from extend(position + 1, more)
            chosen.pop()

    yield from extend(0, 0)


def _bits(mask: int, size: int) -> Any:
    """The bits 0..size-1 of ``mask`` as a numpy bool array."""
    import numpy as np

    raw = np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(bool)


@lru_cache(maxsize=64)
def _board_arrays(n: int, diagonals: bool) -> tuple[Any, Any]:
    """:func:`_board` as numpy bools: rows and columns (line, cell), each cell's rule-outs."""
    import numpy as np

    lines, attacks = _board(n, diagonals)
    size = n * n
    return (
        np.array([_bits(line, size) for line in lines]),
        np.array([_bits(attacks[i] | 1 << i, size) for i in range(size)]),
    )


@lru_cache(maxsize=64)
def _board(n: int, diagonals: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row and column masks of an n x n grid, and what a queen on each cell rules out.

    A queen rules out the cells touching it, and with ``diagonals`` its long diagonals.
    """
    lines = [((1 << n) - 1) << (r * n) for r in range(n)]
    column = sum(1 << (r * n) for r in range(n))
    lines += [column << c for c in range(n)]
    attacks = []
    for r in range(n):
        for c in range(n):
            out = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n:
                        out |= 1 << ((r + dr) * n + c + dc)
            if diagonals:
                for d in range(2, n):
                    for dr, dc in ((d, d), (d, -d), (-d, d), (-d, -d)):
                        if 0 <= r + dr < n and 0 <= c + dc < n:
                            out |= 1 << ((r + dr) * n + c + dc)
            attacks.append(out)
    return tuple(lines), tuple(attacks)


class Deducer:
    """A player's grid: cells unknown, queen or crossed out; rules applied lowest level first.

    ``player`` are queens a player has placed (after the givens), ``crossed``
    the cells a player has crossed out;
    ``max_level`` the deepest rule tried (1 .. 4; the compiled rules stop at 3); ``record=False``
    keeps no words (the generator's fast path); ``max_group`` caps the
    groups of the level 3 rule (default n // 2: every size that can claim
    others). ``run()`` applies the rules.
    """

    def __init__(
        self,
        puzzle: RegionPuzzle,
        deadline: Deadline | None = None,
        player: tuple[Cell, ...] = (),
        max_level: int = 4,
        record: bool = True,
        max_group: int | None = None,
        crossed: tuple[Cell, ...] = (),
    ) -> None:
        """Set up the units and the empty grid."""
        self.p = puzzle
        self.deadline = deadline
        self.player = player
        self.player_crossed = crossed
        self.max_level = max_level
        self.recording = record
        self.max_group = max(1, puzzle.n // 2) if max_group is None else max_group
        n = self.n = puzzle.n
        self.k = puzzle.stars
        self.all = (1 << (n * n)) - 1
        self.queens = 0  # the cells holding a queen
        self.crossed = 0  # the cells crossed out
        lines, self.attacks = _board(n, puzzle.diagonals)
        masks = list(lines)
        kinds = [("row", r) for r in range(n)] + [("column", c) for c in range(n)]
        region = [0] * n
        for r, row in enumerate(puzzle.regions):
            for c, g in enumerate(row):
                region[g] |= 1 << (r * n + c)
        for g in range(n):
            masks.append(region[g])
            kinds.append(("region", g))
        self.units = masks
        self.kinds = kinds
        self.of = [
            (r, n + c, 2 * n + puzzle.regions[r][c]) for r in range(n) for c in range(n)
        ]  # the three units of each cell
        self.steps: list[Step] = []
        self.contradiction = False
        self._numpy: tuple[Any, Any] | None = None  # the trial rule's arrays, made once

    # -- the grid --------------------------------------------------------------

    def cells(self, mask: int) -> list[Cell]:
        """The cells of ``mask``, row by row."""
        out = []
        n = self.n
        while mask:
            low = mask & -mask
            out.append(divmod(low.bit_length() - 1, n))
            mask ^= low
        return out

    def placed(self) -> tuple[Cell, ...]:
        """The queens placed so far, sorted."""
        return tuple(self.cells(self.queens))

    def decided(self) -> int:
        """How many cells hold a queen or are crossed out."""
        return (self.queens | self.crossed).bit_count()

    def label(self, i: int) -> str:
        """Unit ``i`` in words: ``row 0``, ``column 4``, ``region E``."""
        kind, index = self.kinds[i]
        return f"region {self.p.labels[index]}" if kind == "region" else f"{kind} {index}"

    def need(self, i: int, queens: int | None = None) -> int:
        """The queens unit ``i`` still needs."""
        return self.k - (self.units[i] & (self.queens if queens is None else queens)).bit_count()

    def place(self, i: int, queens: int, crossed: int) -> tuple[int, int, int]:
        """A queen on cell ``i``: the new (queens, crossed) and the cells this crosses out."""
        queens |= 1 << i
        newly = self.attacks[i] & ~queens & ~crossed
        crossed |= newly
        for u in self.of[i]:
            unit = self.units[u]
            if (unit & queens).bit_count() == self.k:
                free = unit & ~queens & ~crossed
                newly |= free
                crossed |= free
        return queens, crossed, newly

    def broken(self, queens: int, crossed: int) -> int | None:
        """A unit that can no longer get its queens, or None."""
        unknown = self.all & ~queens & ~crossed
        k = self.k
        for i, unit in enumerate(self.units):
            need = k - (unit & queens).bit_count()
            if need < 0 or (unit & unknown).bit_count() < need:
                return i
        return None

    def record(self, rule: str, level: int, text: str, queens: int = 0, crossed: int = 0) -> None:
        """Keep one step (unless recording is off)."""
        if self.recording:
            self.steps.append(Step(rule, level, text, tuple(self.cells(queens)),
                                   tuple(self.cells(crossed))))  # fmt: skip
        else:
            self.steps.append(Step(rule, level, ""))

    def tick(self) -> None:
        """Raise ``IncompleteSearchError`` if the time limit has passed."""
        if self.deadline is not None:
            self.deadline.check()

    # -- the rules, lowest level first ------------------------------------------

    def givens(self) -> None:
        """Blocked cells crossed out, then the given queens and the player's placed."""
        n = self.n
        for r, c in self.p.blocked:
            self.crossed |= 1 << (r * n + c)
        if self.p.blocked:
            self.record(
                "blocked", 1, f"{plural(len(self.p.blocked), 'blocked cell')} crossed out",
                crossed=self.crossed,
            )  # fmt: skip
        yours = 0
        for r, c in self.player_crossed:
            yours |= 1 << (r * n + c)
        if yours & ~self.crossed:
            self.record(
                "your crosses", 1, f"{(yours & ~self.crossed).bit_count()} cell(s) you crossed out",
                crossed=yours & ~self.crossed,
            )  # fmt: skip
            self.crossed |= yours
        placing = [(cell, "given", "the given queen") for cell in self.p.queens]
        placing += [(cell, "yours", "your queen") for cell in self.player]
        for (r, c), rule, whose in placing:
            bit = 1 << (r * n + c)
            if self.queens & bit:
                continue
            if self.crossed & bit:
                self.contradiction = True
                self.record(rule, 1, f"{whose} at {name((r, c))} stands on a cell ruled out", bit)
                return
            self.queens, self.crossed, newly = self.place(r * n + c, self.queens, self.crossed)
            self.record(rule, 1, f"{whose} at {name((r, c))}", bit, newly)

    def singles(self) -> bool:
        """Level 1: a unit with exactly as many free cells as queens it needs fills them."""
        unknown = self.all & ~self.queens & ~self.crossed
        for i, unit in enumerate(self.units):
            free = unit & unknown
            need = self.need(i)
            if need > 0 and free.bit_count() == need:
                placed = 0
                newly = 0
                for cell in self.cells(free):
                    index = cell[0] * self.n + cell[1]
                    if (self.queens | self.crossed) >> index & 1:
                        continue
                    placed |= 1 << index
                    self.queens, self.crossed, more = self.place(index, self.queens, self.crossed)
                    newly |= more
                if self.recording:
                    where = " and ".join(name(cell) for cell in self.cells(placed))
                    if placed.bit_count() == 1:
                        text = f"{where} is the last cell left in {self.label(i)}: a queen there"
                    else:
                        text = f"{where} are the last cells left in {self.label(i)}: queens there"
                else:
                    text = ""
                self.record("last cells", 1, text, placed, newly)
                return True
        return False

    def confined(self, size: int) -> bool:
        """Levels 2-3: ``size`` units of one kind inside as many of another claim those."""
        unknown = self.all & ~self.queens & ~self.crossed
        need = [self.need(i) for i in range(len(self.units))]
        free = [unit & unknown for unit in self.units]
        open_units = {kind: [] for kind in KINDS}  # type: dict[str, list[int]]
        for i, (kind, _) in enumerate(self.kinds):
            if need[i] > 0:
                open_units[kind].append(i)
        for inner_kind, outer_kind in PAIRS:
            inner_units = open_units[inner_kind]
            if len(inner_units) <= size:
                continue
            outers = open_units[outer_kind]
            touch = self._touches(inner_units, outers, outer_kind, need, free)
            usable = [i for i in inner_units if 0 <= touch[i] and touch[i].bit_count() <= size]
            for group, met in _groups(usable, touch, size):
                self.tick()
                if met.bit_count() == size and self._claim(group, met, outers, need, free, size):
                    return True
        return False

    def _touches(
        self,
        inner_units: list[int],
        outers: list[int],
        outer_kind: str,
        need: list[int],
        free: list[int],
    ) -> dict[int, int]:
        """Inner unit -> the outer units its free cells meet (a bit per outer; -1: a closed one)."""
        closed = 0  # free cells in a unit of the outer kind that needs nothing
        for j, (kind, _) in enumerate(self.kinds):
            if kind == outer_kind and need[j] <= 0:
                closed |= free[j]
        touch = {}
        for i in inner_units:
            if free[i] & closed:
                touch[i] = -1
                continue
            bits = 0
            for position, j in enumerate(outers):
                if free[i] & free[j]:
                    bits |= 1 << position
            touch[i] = bits
        return touch

    def _claim(
        self,
        group: tuple[int, ...],
        met: int,
        outers: list[int],
        need: list[int],
        free: list[int],
        size: int,
    ) -> bool:
        """Cross out the outer units' cells the group does not use, if they need the same."""
        outer = [outers[p] for p in range(len(outers)) if met >> p & 1]
        if sum(need[i] for i in group) != sum(need[j] for j in outer):
            return False
        mine = 0
        for i in group:
            mine |= free[i]
        there = 0
        for j in outer:
            there |= free[j]
        crossed = there & ~mine
        if not crossed:
            return False
        self.crossed |= crossed
        text = ""
        if self.recording:
            inner_names = " and ".join(self.label(i) for i in group)
            outer_names = " and ".join(self.label(j) for j in outer)
            verb = "lies" if size == 1 else "lie"
            many = crossed.bit_count()
            text = (
                f"{inner_names} {verb} within {outer_names}: cross out the other "
                f"{many} cell{'s' if many > 1 else ''} there"
            )
        rule = "confined" if size == 1 else "confined pair" if size == 2 else "confined group"
        self.record(rule, 2 if size == 1 else 3, text, crossed=crossed)
        return True

    def trial(self) -> bool:
        """Level 3: a cell whose queen would leave some unit without room is crossed out.

        Every unknown cell is tried at once, as arrays: the cells a queen there
        rules out (touching cells, and the rest of a unit it fills), then each
        unit's cells left against the queens it still needs. Recording, the
        first such cell in row order and every other that would leave the
        same unit without room are crossed out (one step, as a player sees
        it: what would empty that unit); not recording (the generator),
        every such cell: the rules are sound, so what they reach in the end
        does not depend on the order.
        """
        import numpy as np

        self.tick()
        n2 = self.n * self.n
        units, removes = self._arrays()
        unknown = _bits(self.all & ~self.queens & ~self.crossed, n2)
        cells = np.flatnonzero(unknown)
        if len(cells) == 0:
            return False
        need = np.array([self.need(i) for i in range(len(self.units))], dtype=np.int64)
        filling = need == 1  # units a queen fills: their other cells are ruled out too
        fills = units[filling].astype(np.float32)
        counts = units.T.astype(np.float32)  # float32 products (BLAS), exact below 2**24
        bad_rows = []
        for first in range(0, len(cells), CHUNK):  # in chunks: bounded memory, the clock seen
            self.tick()
            chunk = cells[first : first + CHUNK]
            ruled_out = removes[chunk]  # the cell itself and the cells it touches
            if len(fills):
                ruled_out = ruled_out | ((fills[:, chunk].T @ fills) > 0)
            left = (unknown[None, :] & ~ruled_out).astype(np.float32) @ counts
            still = need[None, :] - units[:, chunk].T.astype(np.int64)
            bad_rows.append(left < still)  # (cell, unit): the unit has too few cells left
        bad = np.concatenate(bad_rows)
        hit = np.flatnonzero(bad.any(axis=1))
        if len(hit) == 0:
            return False
        if not self.recording:
            for position in hit:
                self.crossed |= 1 << int(cells[position])
            self.record("would empty", 3, "", crossed=0)
            return True
        broken = int(np.flatnonzero(bad[hit[0]])[0])
        out = 0
        for position in np.flatnonzero(bad[:, broken]):
            out |= 1 << int(cells[position])
        self.crossed |= out
        where = [name(cell) for cell in self.cells(out)]
        if len(where) == 1:
            text = (
                f"a queen at {where[0]} would leave {self.label(broken)} without room: cross it out"
            )
        else:
            text = (
                f"a queen at any of {', '.join(where[:-1])} and {where[-1]} would leave "
                f"{self.label(broken)} without room: cross them out"
            )
        self.record("would empty", 3, text, crossed=out)
        return True

    def _arrays(self) -> tuple[Any, Any]:
        """The units as (unit, cell) bools, and what a queen on each cell rules out (cell, cell)."""
        import numpy as np

        if self._numpy is None:
            n = self.n
            lines, removes = _board_arrays(n, self.p.diagonals)
            region = np.array(self.p.regions, dtype=np.int64).reshape(-1)
            regions = np.arange(n)[:, None] == region[None, :]
            self._numpy = (np.concatenate([lines, regions]), removes)
        return self._numpy

    def _ladder(self) -> list[tuple[int, Callable[[], bool]]]:
        """The rules past the last cells, easiest first, each with its level.

        A unit confined to one other (2); a shape, 2 units confined to 2
        others, a cell whose queen would leave a unit without room, k >= 3
        units confined to k others (3); the lookahead of 1, then 2 rounds (4).
        """
        ladder: list[tuple[int, Callable[[], bool]]] = [
            (2, lambda: self.confined(1)),
            (3, lambda: rules.shape(self)),
        ]
        if self.max_group >= 2:
            ladder.append((3, partial(self.confined, 2)))
        ladder.append((3, self.trial))  # before the larger groups: one array sweep, not C(n, k)
        ladder += [(3, partial(self.confined, size)) for size in range(3, self.max_group + 1)]
        ladder += [
            (4, partial(rules.lookahead, self, depth)) for depth in range(1, rules.DEPTH + 1)
        ]
        return ladder

    def run(self, steps: int | None = None) -> tuple[int, bool]:
        """Apply the rules until solved or stuck: (the deepest level used, whether solved).

        ``steps``: stop after that many deductions past the givens (a hint is
        one). A contradiction (a unit left without room) sets
        ``contradiction``: no solution holds the queens placed.
        """
        self.givens()
        first = len(self.steps)
        deepest = 1
        n = self.n
        if self.p.crowded():
            self.steps.append(
                Step(
                    "rows",
                    1,
                    f"two neighbouring rows hold at most {(n + 1) // 2} stars, none touching "
                    f"(one in each 2x2 block), but need {2 * self.k}",
                )
            )
            self.contradiction = True
            return deepest, False
        while not self.contradiction and self.broken(self.queens, self.crossed) is None:
            self.tick()
            if self.queens.bit_count() == n * self.k:
                return deepest, True
            if steps is not None and len(self.steps) - first >= steps:
                return deepest, False
            if self.singles():
                continue
            moved = False
            for level, rule in self._ladder():
                if level > self.max_level:
                    break
                if rule():
                    moved = True
                    deepest = max(deepest, level)
                    break
            if not moved:
                return deepest, False
        self.contradiction = True
        return deepest, False


@lru_cache(maxsize=64)
def _attack_rows(n: int, diagonals: bool) -> Any:
    """:func:`_board`'s rule-outs as row masks: (cell, row) uint64, bit c for column c."""
    import numpy as np

    _, attacks = _board(n, diagonals)
    full = (1 << n) - 1
    rows = [[(attack >> (r * n)) & full for r in range(n)] for attack in attacks]
    return np.array(rows, dtype=np.uint64).reshape(n * n, n)


def compiled(
    n: int,
    k: int,
    regions: Any,
    diagonals: bool = False,
    max_level: int = 3,
    max_group: int | None = None,
) -> tuple[int, int, float]:
    """The rules on an empty grid of ``regions`` (no givens), compiled: as ``Deducer.run`` ends.

    Returns (the deepest level used, 1 solved / 0 stuck / -1 a unit left
    without room, the cells decided plus for each unit still short of queens
    1 / (1 + its unknown cells - the queens it needs)). The same as a
    :class:`Deducer` with ``record=False`` (the same rules, in the same
    order), at some hundred times its speed: for the generator, which runs
    the rules on thousands of grids.
    """
    import numpy as np

    from cpqueens.kernels.deduce import deduce

    region = np.asarray(regions, dtype=np.int64).reshape(-1)
    group = max(1, n // 2) if max_group is None else max_group
    queens = np.zeros(n, dtype=np.uint64)
    crossed = np.zeros(n, dtype=np.uint64)
    deepest, state, score = deduce(
        n, k, region, _attack_rows(n, diagonals), max_level, group, queens, crossed
    )
    return int(deepest), int(state), float(score)
