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

from cpqueens.errors import InvalidSolutionError
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
    families: list[list[int]] = []
    used: list[set[Cell]] = []
    for i, line in enumerate(lines):
        if len(line) < 2:
            continue
        for family, cells in zip(families, used, strict=True):
            if cells.isdisjoint(line):
                family.append(i)
                cells.update(line)
                break
        else:
            families.append([i])
            used.append(set(line))
    perms, swaps = [], []
    for name, swap in problem.symmetries[1:]:
        perm = tuple(
            index[tuple(sorted(board.transform(name, cell) for cell in line))] for line in lines
        )
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
    search runs on one core (``workers`` is accepted and unused). When a limit
    ends it, ``bound`` is the largest knapsack bound of the subtrees left
    open (or the root's, if smaller): a true upper bound. ``knapsack=False``
    cuts on the counts of possible cells only (for the benchmarks' ablation).
    """
    import numpy as np

    from cpqueens.kernels import peaceable as kernel

    if sense != "maximize" or not supports(problem):
        raise ValueError(
            "the line search maximises two peaceable armies without placed pieces, "
            f"got sense {sense!r} and {problem!r}"
        )
    start = time.perf_counter()
    s = structure(problem)
    ceiling = root_bound(s)
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

    label = np.full(nl, -1, dtype=np.int8)
    killw = np.zeros(len(s.cells), dtype=np.int32)
    killb = np.zeros(len(s.cells), dtype=np.int32)
    lengths = np.array([len(line) for line in s.lines], dtype=np.int32)
    pw = lengths.copy()
    pb = lengths.copy()
    counts = np.array([len(s.cells), len(s.cells)], dtype=np.int64)
    depth_line = np.zeros(nl + 1, dtype=np.int32)
    depth_phase = np.zeros(nl + 1, dtype=np.int8)
    best_label = np.zeros(nl, dtype=np.int8)
    state = np.array([0, 1, -1, 0, 0], dtype=np.int64)
    arrays = (
        state,
        label,
        killw,
        killb,
        pw,
        pb,
        counts,
        depth_line,
        depth_phase,
        best_label,
        line_start,
        line_cells,
        cell_lines,
        fam_start,
        fam_lines,
        single_start,
        single_cells,
        perms,
        swaps,
    )
    budget = 2000
    best = -1
    while not state[4]:
        before = time.perf_counter()
        kernel.search(*arrays, budget)
        spent = time.perf_counter() - before
        if spent < slice_seconds / 2:
            budget *= 2
        elif spent > slice_seconds * 2 and budget > 1000:
            budget //= 2
        if state[2] > best:
            best = int(state[2])
            if progress is not None:
                progress(best, ceiling, time.perf_counter() - start)
        if time_limit is not None and time.perf_counter() - start >= time_limit:
            break
    white, black = armies(s, best_label) if best >= 0 else ([], [])
    value = min(len(white), len(black))
    if value != max(best, 0):
        raise InvalidSolutionError(f"internal error: labels give {value}, the search said {best}")
    if why := problem.check(pieces := _pieces(white, black, value)):
        raise InvalidSolutionError(f"internal error: the line search returned {pieces}, but {why}")
    seconds = time.perf_counter() - start
    nodes = int(state[3])
    if state[4]:
        return Result("optimal", value, value, pieces, seconds, nodes)
    open_bound = kernel.open_bound(
        state, label, depth_line, depth_phase, lengths, line_start, line_cells, cell_lines,
        fam_start, fam_lines, single_start, single_cells,
    )  # fmt: skip
    return Result("feasible", value, min(ceiling, int(open_bound)), pieces, seconds, nodes)


def _pieces(white: list[Cell], black: list[Cell], value: int) -> tuple[Piece, ...]:
    """The first ``value`` cells of each army (fewer pieces keep the peace)."""
    return tuple((r, c, 0) for r, c in white[:value]) + tuple((r, c, 1) for r, c in black[:value])


def root_bound(s: Lines) -> int:
    """The largest m the root's knapsack bound allows: no equal armies exceed it."""
    best = len(s.cells) // 2
    for family in s.families:
        sizes = [len(s.lines[i]) for i in family]
        inside = sum(sizes)
        sizes += [1] * (len(s.cells) - inside)
        # the largest m with a split of the family into two parts of totals >= m each
        total = sum(sizes)
        reach = {0}
        for size in sizes:
            reach |= {r + size for r in reach}
        best = min(best, max(min(r, total - r) for r in reach))
    return best
