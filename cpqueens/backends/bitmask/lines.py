"""Peaceable armies by line labels: the compiled search of :mod:`cpqueens.kernels.peaceable`.

Two armies where no piece attacks one of the other army, as large as can be
(``min(|W|, |B|)`` maximised, any attack relation given by lines, blocked
cells allowed, no placed pieces). Mutually maximal armies are decided by one
label per line ("white may use it" or "black may"): a cell is white iff every
line through it is white. This module builds the arrays (lines, the families
of pairwise disjoint lines for the bound, the symmetry group acting on the
lines) and runs the kernel in slices, so a time limit, progress reports and
Ctrl-C are honoured between slices. The answer is checked against the problem
before it is returned; "optimal" only when the search tree is exhausted.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cpqueens.backends.bitmask.anneal import Anneal
from cpqueens.errors import InvalidSolutionError
from cpqueens.vocabulary.bounds import disjoint_families, split_bound
from cpqueens.vocabulary.cells import Cell, CellProblem, Piece

#: (value, bound, seconds) of each better solution found.
Progress = Callable[[int, int, float], None]


def supports(problem: CellProblem) -> bool:
    """Two peaceable armies, nothing else asked: no placed pieces, no domination."""
    return (
        problem.armies == 2
        and problem.independent
        and not problem.dominating
        and not problem.placed
        and not problem.conditions
    )


@dataclass(frozen=True)
class Lines:
    """The line structure of a problem's free cells, as the kernel reads it."""

    cells: tuple[Cell, ...]
    lines: tuple[tuple[Cell, ...], ...]
    families: tuple[tuple[int, ...], ...]
    perms: tuple[tuple[int, ...], ...]
    swaps: tuple[bool, ...]


def _direction(line: tuple[Cell, ...]) -> tuple[int, int]:
    (r0, c0), (r1, c1) = line[0], line[1]
    return (r1 - r0, c1 - c0)


def structure(problem: CellProblem) -> Lines:
    """The free cells, their lines (in lex order), the disjoint families, the group on lines.

    The lines are the board's lines restricted to free cells, those of two or
    more cells kept, plus a line of its own for each free cell on none. Lex
    order: longest first, then by cells, so rows and columns come before the
    short diagonals. A family is a set of pairwise disjoint lines, filled
    greedily in that order.
    """
    board = problem.board
    free = set(board.free)
    found = {tuple(c for c in line if c in free) for line in board.lines}
    lines = [line for line in found if len(line) >= 2]
    covered = {cell for line in lines for cell in line}
    lines += [(cell,) for cell in board.free if cell not in covered]
    lines.sort(key=lambda line: (-len(line), _direction(line) if len(line) > 1 else (9, 9), line))
    index = {line: i for i, line in enumerate(lines)}
    families = disjoint_families(lines)
    perms, swaps = [], []
    for name, swap in problem.symmetries[1:]:
        image = board.images[name]
        perm = tuple(index[tuple(sorted(image[cell] for cell in line))] for line in lines)
        perms.append(perm)
        swaps.append(swap)
    return Lines(
        tuple(board.free),
        tuple(lines),
        tuple(tuple(f) for f in families),
        tuple(perms),
        tuple(swaps),
    )


def armies(structure: Lines, labels: Any) -> tuple[list[Cell], list[Cell]]:
    """The white and black cells of a full labelling (0 white, 1 black per line)."""
    through: dict[Cell, list[int]] = {cell: [] for cell in structure.cells}
    for i, line in enumerate(structure.lines):
        for cell in line:
            through[cell].append(i)
    white = [c for c in structure.cells if all(labels[i] == 0 for i in through[c])]
    black = [c for c in structure.cells if all(labels[i] == 1 for i in through[c])]
    return white, black


#: The most free cells for which a stopped search bounds its open subtrees: each one's
#: knapsacks are bisected over every size up to the bound, seconds on a 100 x 100 board.
OPEN_BOUND_CELLS = 1024


@dataclass(frozen=True)
class Result:
    """What the search proved: status, best value, a true upper bound, the pieces, nodes."""

    status: str
    value: int
    bound: int
    pieces: tuple[Piece, ...]
    seconds: float
    nodes: int


def optimise(
    problem: CellProblem,
    sense: str = "maximize",
    *,
    time_limit: float | None = None,
    workers: int = 1,
    symmetry: bool = True,
    progress: Progress | None = None,
    slice_seconds: float = 0.2,
    knapsack: bool = True,
) -> Result:
    """The largest peaceable armies, proved optimal unless ``time_limit`` ends the search.

    The signature of :func:`cpqueens.backends.cpsat.cells.optimise`; the
    search runs on one core (``workers`` is accepted and unused). Under a time
    limit a second search shares the core, slice for slice, to prove the
    bound: it asks for armies of ``bound`` (from the root's knapsack bound
    down), and each time its tree is exhausted with none found, ``bound``
    drops by one. When the limit ends both, ``bound`` is the least of those
    proofs and of the knapsack bounds of the subtrees left open: a true upper
    bound. ``knapsack=False`` cuts on the counts of possible cells only (for
    the benchmarks' ablation).
    """
    if sense != "maximize" or not supports(problem):
        raise ValueError(
            "the line search maximises two peaceable armies without placed pieces, "
            f"got sense {sense!r} and {problem!r}"
        )
    start = time.perf_counter()
    s = structure(problem)
    turn = slice_seconds if time_limit is None else min(slice_seconds, time_limit / 10)
    race = _Race(s, _shared(s, symmetry, knapsack), turn, progress, start)
    while not race.over:
        race.primal_turn()  # the search's turn, the annealing's, the proofs' as long
        race.anneal_turn()
        if time_limit is None:
            continue
        race.dual_turn()
        # past the limit, once the search has had half of it (at most 0.5 s) since the
        # compiled kernels were loaded: a first call that loads them (a second or two on a
        # busy machine) still leaves the answer some search and some proofs
        now = time.perf_counter()
        if now - start >= time_limit and now - race.primal.loaded >= min(time_limit, 1.0) / 2:
            break
    return race.result(problem)


class _Race:
    """The searches that share one core turn by turn, the best armies found and the bound.

    The exact search (``primal``), the annealing (until it retires) and,
    under a time limit, the proofs of the bound (``dual``: armies of
    ``bound`` or more, from the root's knapsack bound down; each exhausted
    tree with none found lowers ``bound``, by leaps that double while the
    proofs are quick).
    """

    def __init__(
        self,
        s: Lines,
        shared: dict[str, Any],
        turn: float,
        progress: Progress | None,
        start: float,
    ) -> None:
        """The searches from the root, begun at ``start``; ``bound`` the root's knapsack bound."""
        self.start = start
        self.s, self.shared, self.turn, self.progress = s, shared, turn, progress
        self.primal = _Search(s, shared, floor=-1, seconds=turn)
        self.anneal = Anneal(shared, seconds=turn)  # large armies fast, from the second turn on
        self.dual: _Search | None = None
        self.best, self.labels, self.leap = -1, self.primal.best_label, 1
        self.bound = root_bound(s)

    @property
    def over(self) -> bool:
        """Whether the best armies are proved optimal (the search exhausted or the bound met)."""
        return self.primal.done or self.best >= self.bound

    def _better(self, value: int, labels: Any) -> None:
        """Keep armies of ``value`` (labels copied), and report them."""
        self.best, self.labels = value, labels.copy()
        if self.progress is not None:
            self.progress(value, self.bound, time.perf_counter() - self.start)

    def _step(self, search: _Search) -> None:
        """One slice of ``search``, sharing the incumbent; a finished search bounds the rest."""
        search.raise_floor(self.best)
        if search.run() and search.value > self.best:
            self._better(search.value, search.best_label)
        if search.done:  # no labelling is worth more than its incumbent
            self.bound = min(self.bound, search.value)

    def primal_turn(self) -> None:
        """The exact search for one turn."""
        began = time.perf_counter()
        while not self.over and time.perf_counter() - began < self.turn:
            self._step(self.primal)

    def anneal_turn(self) -> None:
        """The annealing for one turn, unless it retired."""
        began = time.perf_counter()
        while not (self.over or self.anneal.retired) and time.perf_counter() - began < self.turn:
            if self.anneal.run(self.best):
                self._better(self.anneal.value, self.anneal.best_label)

    def dual_turn(self) -> None:
        """The proofs of the bound for one turn."""
        began = time.perf_counter()
        while self.best < self.bound and time.perf_counter() - began < self.turn:
            dual = self.dual
            if dual is None or dual.done or dual.found:
                # a quick proof: the next leaps twice as far; a slow one, or armies found
                # (it leapt too far): one size at a time again
                if dual is not None:
                    quick = dual.done and not dual.found and dual.spent < self.turn / 4
                    self.leap = self.leap * 2 if quick else 1
                budget = 1 if dual is None else dual.budget
                target = max(self.best + 1, self.bound - self.leap + 1)  # prove: none of target
                dual = self.dual = _Search(self.s, self.shared, floor=target - 1, seconds=self.turn)
                dual.budget = budget
            self._step(dual)

    def result(self, problem: CellProblem) -> Result:
        """The best armies, checked against ``problem``, with their status and a true bound."""
        s, best, bound, primal, dual = self.s, self.best, self.bound, self.primal, self.dual
        white, black = armies(s, self.labels) if best >= 0 else ([], [])
        value = min(len(white), len(black))
        if value != max(best, 0):
            raise InvalidSolutionError(
                f"internal error: labels give {value}, the search said {best}"
            )
        if why := problem.check(pieces := _pieces(white, black, value)):
            raise InvalidSolutionError(
                f"internal error: the line search returned {pieces}, but {why}"
            )
        seconds = time.perf_counter() - self.start
        nodes = primal.nodes + (dual.nodes if dual is not None else 0)
        if self.over:
            return Result("optimal", value, value, pieces, seconds, nodes)
        for search in (primal, dual):
            if search is not None and len(s.cells) <= OPEN_BOUND_CELLS:
                bound = min(bound, search.open_bound(bound))
        return Result("feasible", value, max(bound, value), pieces, seconds, nodes)


def _shared(s: Lines, symmetry: bool, knapsack: bool) -> dict[str, Any]:
    """The kernel's read-only arrays: lines, cells, families, the symmetry group."""
    import numpy as np

    cells = {cell: i for i, cell in enumerate(s.cells)}
    nl = len(s.lines)
    through: list[list[int]] = [[] for _ in s.cells]
    for i, line in enumerate(s.lines):
        for cell in line:
            through[cells[cell]].append(i)
    width = max((len(t) for t in through), default=1)
    cell_lines = np.full((len(s.cells), width), -1, dtype=np.int32)
    for c, t in enumerate(through):
        cell_lines[c, : len(t)] = t
    line_start = np.zeros(nl + 1, dtype=np.int64)
    line_start[1:] = np.cumsum([len(line) for line in s.lines])
    line_cells = np.array([cells[c] for line in s.lines for c in line], dtype=np.int32)
    families = s.families if knapsack else ()
    fam_start = np.zeros(len(families) + 1, dtype=np.int64)
    fam_start[1:] = np.cumsum([len(f) for f in families])
    fam_lines = np.array([i for f in families for i in f], dtype=np.int32)
    singles = []
    for f in families:
        inside = {cell for i in f for cell in s.lines[i]}
        singles.append([cells[c] for c in s.cells if c not in inside])
    single_start = np.zeros(len(singles) + 1, dtype=np.int64)
    single_start[1:] = np.cumsum([len(x) for x in singles])
    single_cells = np.array([c for x in singles for c in x], dtype=np.int32)
    if symmetry and s.perms:
        perms = np.array(s.perms, dtype=np.int32)
        swaps = np.array(s.swaps, dtype=np.bool_)
    else:
        perms = np.zeros((0, nl), dtype=np.int32)
        swaps = np.zeros(0, dtype=np.bool_)
    return {
        "lengths": np.array([len(line) for line in s.lines], dtype=np.int32),
        "line_start": line_start,
        "line_cells": line_cells,
        "cell_lines": cell_lines,
        "fam_start": fam_start,
        "fam_lines": fam_lines,
        "single_start": single_start,
        "single_cells": single_cells,
        "perms": perms,
        "swaps": swaps,
    }


class _Search:
    """One resumable branch-and-bound: its labels, counts and stack, run slice by slice.

    ``floor`` is the incumbent it starts with: it looks for armies of
    ``floor + 1`` or more, and when its tree is exhausted none larger than
    its incumbent exist. ``value`` is its incumbent, a real one once
    :meth:`run` has found a leaf.
    """

    def __init__(self, s: Lines, shared: dict[str, Any], floor: int, seconds: float) -> None:
        """Fresh arrays for a search from the root with incumbent ``floor``."""
        import numpy as np

        nl, cells = len(s.lines), len(s.cells)
        self.shared = shared
        self.seconds = seconds
        self.found = False  # whether a leaf beat the incumbent
        self.spent = 0.0  # seconds in the kernel
        self.loaded = 0.0  # when the first call returned (the kernels loaded)
        self.state = np.array([0, 1, floor, 0, 0], dtype=np.int64)
        self.label = np.full(nl, -1, dtype=np.int8)
        self.killw = np.zeros(cells, dtype=np.int32)
        self.killb = np.zeros(cells, dtype=np.int32)
        self.pw = shared["lengths"].copy()
        self.pb = shared["lengths"].copy()
        self.counts = np.array([cells, cells], dtype=np.int64)
        self.depth_line = np.zeros(nl + 1, dtype=np.int32)
        self.depth_phase = np.zeros(nl + 1, dtype=np.int8)
        self.best_label = np.zeros(nl, dtype=np.int8)
        self.budget = 1

    @property
    def done(self) -> bool:
        """Whether the tree is exhausted."""
        return bool(self.state[4])

    @property
    def value(self) -> int:
        """The incumbent: the best leaf found, or the floor it was raised to."""
        return int(self.state[2])

    @property
    def nodes(self) -> int:
        """The nodes visited so far."""
        return int(self.state[3])

    def raise_floor(self, best: int) -> None:
        """Take ``best`` (found elsewhere) as the incumbent: only larger armies are looked for.

        A node's bound costs about its target times the lines (the knapsack), so a
        floor raised from elsewhere (the annealing's armies) can make each node far
        dearer than the slice's budget was measured on: it is measured again from
        one node (it doubles while slices are short).
        """
        if best > self.state[2]:
            self.state[2] = best
            self.budget = 1

    def run(self) -> bool:
        """One slice of about ``seconds``; True if it found a leaf better than its incumbent."""
        from cpqueens.kernels import peaceable as kernel

        if self.done:
            return False
        before, clock = self.value, time.perf_counter()
        a = self.shared
        kernel.search(
            self.state, self.label, self.killw, self.killb, self.pw, self.pb, self.counts,
            self.depth_line, self.depth_phase, self.best_label, a["line_start"], a["line_cells"],
            a["cell_lines"], a["fam_start"], a["fam_lines"], a["single_start"],
            a["single_cells"], a["perms"], a["swaps"], self.budget,
        )  # fmt: skip
        spent = time.perf_counter() - clock
        self.spent += spent
        if spent > self.seconds:  # nodes cost more here: fewer next time
            self.budget = max(1, int(self.budget * self.seconds / spent))
        elif spent < self.seconds / 2 and not self.done:  # the budget ran out early: more
            self.budget *= 2
        self.found = self.found or self.value > before
        if not self.loaded:  # the first call loads the compiled kernels
            self.loaded = time.perf_counter()
        return self.value > before

    def open_bound(self, cap: int) -> int:
        """A true bound on every labelling this search has not ruled out (at most ``cap``)."""
        from cpqueens.kernels import peaceable as kernel

        a = self.shared
        return int(
            kernel.open_bound(
                self.state, self.label, self.depth_line, self.depth_phase, a["lengths"],
                a["line_start"], a["line_cells"], a["cell_lines"], a["fam_start"],
                a["fam_lines"], a["single_start"], a["single_cells"], cap,
            )
        )  # fmt: skip


def _pieces(white: list[Cell], black: list[Cell], value: int) -> tuple[Piece, ...]:
    """The first ``value`` cells of each army (fewer pieces keep the peace)."""
    return tuple((r, c, 0) for r, c in white[:value]) + tuple((r, c, 1) for r, c in black[:value])


def root_bound(s: Lines) -> int:
    """The largest m the root's knapsack bound allows: no equal armies exceed it."""
    best = len(s.cells) // 2
    for family in s.families:
        sizes = [len(s.lines[i]) for i in family]
        best = min(best, split_bound(sizes + [1] * (len(s.cells) - sum(sizes))))
    return best
