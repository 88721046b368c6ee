"""Generating region puzzles: a random solution, regions grown around it, steered by deduction.

Every puzzle starts from a random solution (``stars`` queens per row and
column, none touching) and n connected regions grown at random around it,
each holding ``stars`` of its queens. Then cells move between neighbouring
regions (never a queen's cell, every region kept connected), and the
player's rules (:mod:`cpqueens.tasks.deduce`) steer the moves:

1. a move is kept when the rules up to the target level (groups of at most
   :data:`GROUP` units in the level 3 rule) decide at least as
   many cells as before (ties broken by how close the rows, columns and
   regions are to their last cells), until those rules solve the grid, which
   proves it has one solution and no other;
2. for "medium" and "hard", moves that keep the grid solved at the target
   level then wear down the level below (fewer cells decided), until it no
   longer solves the grid: the puzzle needs exactly the target level.

"needs search" is one level further (:func:`_beyond_rules`): the grid is
steered until the rules solve it, then moves that keep it unique (the
compiled search finds one solution and no other) wear the rules down until
they no longer solve it.

An attempt that stops improving for :data:`PATIENCE` moves starts afresh
from a new solution. Without a difficulty the target is "hard" (any puzzle
deduction alone solves). The rules run compiled (:mod:`cpqueens.kernels.deduce`:
the same steps as the :class:`~cpqueens.tasks.deduce.Deducer`, some hundred
times faster), on thousands of grids per puzzle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from cpqueens.backends import get
from cpqueens.backends.base import Engine
from cpqueens.errors import NotSupportedError
from cpqueens.strategies.planner import region_engine
from cpqueens.tasks.deduce import compiled
from cpqueens.vocabulary.regions import Cell, RegionPuzzle
from cpqueens.words import plural

if TYPE_CHECKING:
    from cpqueens.clock import Deadline

#: Moves without progress before an attempt starts afresh.
PATIENCE = 200
#: The largest groups of the level 3 rule while steering (fewer rules, same soundness:
#: a grid they solve, every rule solves; the rating afterwards uses them all).
GROUP = 3
LEVELS = {"easy": 1, "medium": 2, "hard": 3}
LEVEL_NAMES = {1: "easy", 2: "medium", 3: "hard"}


def generate(
    cls: Any,
    size: int,
    stars: int,
    difficulty: str | None,
    seed: int | None,
    attempts: int,
    deadline: Deadline | None,
) -> tuple[Any, tuple[Cell, ...]]:
    """A puzzle of type ``cls`` with one solution (rated ``difficulty``), and the solution.

    The options are checked by the caller (``Puzzle.generate``). A grid too
    small to hold the stars, or too large for the compiled search the
    generator runs, is refused at once with a ValueError.
    """
    _check_room(size, stars)
    if difficulty == "easy" and stars > 1:
        raise ValueError(
            f"no puzzle with {stars} stars (and no given queens) is easy: the last-cells rule "
            f"needs a unit of exactly {stars} cells, and {stars} connected cells touch; "
            "expected difficulty 'medium' or 'hard'"
        )
    free = cls(size, tuple((r,) * size for r in range(size)), stars=stars)
    try:
        engine = get(region_engine(free))  # the planner's region search, fastest first
    except NotSupportedError as refusal:
        reason = str(refusal).split(", and ")[-1]
        raise ValueError(f"cannot generate this puzzle: {reason}") from None
    if engine.region_count(free, 1, deadline) == 0:
        raise ValueError(
            f"no {size}x{size} grid holds {plural(stars, 'star')} in every row and column with "
            "none touching: expected a larger size"
        )
    rng = random.Random(seed)
    for _ in range(attempts):
        if deadline is not None:
            deadline.check()
        solution = _random_solution(engine, size, stars, rng, deadline)
        if solution is None:
            continue
        regions = _grow_regions(size, stars, solution, rng)
        if regions is None:
            continue
        if difficulty == "needs search":
            puzzle = _beyond_rules(engine, cls, size, stars, regions, solution, rng, deadline)
            if puzzle is None or _rating(puzzle, deadline) != "needs search":
                continue
        else:
            target = LEVELS[difficulty] if difficulty is not None else 3
            puzzle = _steered(
                cls, size, stars, regions, solution, target, rng, deadline, difficulty is not None
            )
            if puzzle is None:
                continue
            rating = _rating(puzzle, deadline)
            if difficulty is not None and rating != difficulty:
                continue
            # Solved by sound rules means one solution; the search confirms it.
            assert engine.region_count(puzzle, 2, deadline) == 1
        return puzzle, tuple(sorted(solution))
    raise ValueError(
        f"no {size}x{size} puzzle with {plural(stars, 'star')}"
        + (f" rated {difficulty!r}" if difficulty else "")
        + f" in {attempts} attempt{'s' if attempts > 1 else ''}; try another seed or more attempts"
    )


def _check_room(n: int, k: int) -> None:
    """Refuse at once a grid where k stars per row cannot stand, none touching.

    Two neighbouring rows hold 2k stars, and no two may share or neighbour a
    column: so 2k <= ceil(n / 2), n >= 4k - 1 (n >= 4k when n is even).
    """
    if n == 1:
        return
    least = 4 * k - 1  # odd: every even size from 4k holds too
    if n < least:
        raise ValueError(
            f"no {n}x{n} grid holds {plural(k, 'star')} in every row and column with none touching "
            f"(two neighbouring rows hold at most {(n + 1) // 2} stars, {2 * k} needed): "
            f"expected a size of at least {least}"
        )


def _rating(puzzle: RegionPuzzle, deadline: Deadline | None) -> str:
    """The difficulty of a puzzle with one solution: the deepest rule, or "needs search".

    The rules run compiled, as ``rate()`` runs them (every group size).
    """
    if deadline is not None:
        deadline.check()
    deepest, state, _ = compiled(puzzle.n, puzzle.stars, puzzle.regions, puzzle.diagonals)
    return LEVEL_NAMES[deepest] if state == 1 else "needs search"


def _score(
    cls: Any, n: int, k: int, regions: list[list[int]], level: int, deadline: Deadline | None
) -> tuple[float, bool]:
    """How far the rules up to ``level`` get on ``regions``, and whether they solve it.

    The cells decided, plus for each unit still short of queens
    1 / (1 + its unknown cells - the queens it needs): a unit one cell from
    its last cells scores more than a wide one. The rules run compiled
    (:func:`cpqueens.tasks.deduce.compiled`, the same steps as the
    :class:`Deducer`), the deadline looked at before each grid.
    """
    if deadline is not None:
        deadline.check()
    _, state, score = compiled(n, k, regions, max_level=level, max_group=GROUP)
    return score, state == 1


def _moves(
    n: int, regions: list[list[int]], queens: set[Cell], rng: random.Random
) -> Iterator[tuple[Cell, int]]:
    """Random moves, each made on ``regions``: (the cell moved, the region it left)."""
    while True:
        cell = (rng.randrange(n), rng.randrange(n))
        if cell in queens:
            continue
        g = regions[cell[0]][cell[1]]
        into = [regions[r][c] for r, c in _neighbours(n, cell) if regions[r][c] != g]
        if not into:
            continue
        regions[cell[0]][cell[1]] = rng.choice(into)
        if not _connected(regions, g):
            regions[cell[0]][cell[1]] = g
            continue
        yield cell, g


def _steered(
    cls: Any,
    n: int,
    k: int,
    regions: list[list[int]],
    solution: list[Cell],
    level: int,
    rng: random.Random,
    deadline: Deadline | None,
    exact: bool = True,
) -> Any | None:
    """Move cells until the rules up to ``level`` solve the grid; None if the moves stall.

    ``exact``: then go on until the rules below ``level`` no longer solve it.
    """
    moves = _moves(n, regions, set(solution), rng)
    if not _climb(cls, n, k, regions, level, moves, deadline):
        return None
    if exact and level > 1:

        def lower() -> tuple[float, bool]:
            return _score(cls, n, k, regions, level - 1, deadline)

        def kept() -> bool:
            return _score(cls, n, k, regions, level, deadline)[1]

        if not _wear(regions, moves, lower, kept):
            return None
    return _renumbered(cls(n, regions, stars=k))


def _climb(
    cls: Any,
    n: int,
    k: int,
    regions: list[list[int]],
    level: int,
    moves: Iterator[tuple[Cell, int]],
    deadline: Deadline | None,
) -> bool:
    """Keep the moves that let the rules up to ``level`` decide no less, until they solve it.

    False if :data:`PATIENCE` moves in a row decide no more.
    """
    best, solved = _score(cls, n, k, regions, level, deadline)
    stale = 0
    while not solved:
        if stale >= PATIENCE:
            return False
        cell, left = next(moves)
        score, solves = _score(cls, n, k, regions, level, deadline)
        stale = 0 if score > best else stale + 1
        if score >= best:
            best, solved = score, solves
        else:
            regions[cell[0]][cell[1]] = left
    return True


def _wear(
    regions: list[list[int]],
    moves: Iterator[tuple[Cell, int]],
    lower: Callable[[], tuple[float, bool]],
    kept: Callable[[], bool],
) -> bool:
    """Keep the moves that ``kept()`` allows and let ``lower()`` decide no more, until it fails.

    ``lower()``: the score and verdict of the rules just below the target,
    looked at first (they run faster, and most moves fail them); ``kept()``:
    whether the grid is still solved at the target (by its rules, or by a
    search that finds one solution). False if :data:`PATIENCE` moves in a row
    decide no less.
    """
    score, easier = lower()
    stale = 0
    while easier:
        if stale >= PATIENCE:
            return False
        cell, left = next(moves)
        now, solves = lower()
        if now > score or not kept():
            regions[cell[0]][cell[1]] = left
            stale += 1
            continue
        stale = 0 if now < score else stale + 1
        score, easier = now, solves
    return True


def _beyond_rules(
    engine: Engine,
    cls: Any,
    n: int,
    k: int,
    regions: list[list[int]],
    solution: list[Cell],
    rng: random.Random,
    deadline: Deadline | None,
) -> Any | None:
    """A puzzle with one solution that the rules cannot finish ("needs search"), or None.

    The rules (groups of at most :data:`GROUP`) are steered to solve the grid
    first, which makes it unique; then the moves that keep it unique (the
    compiled search finds one solution and no other) and let every rule,
    groups of any size, decide no more wear it down until they no longer
    solve it.
    """
    moves = _moves(n, regions, set(solution), rng)
    if not _climb(cls, n, k, regions, 3, moves, deadline):
        return None

    def lower() -> tuple[float, bool]:
        if deadline is not None:
            deadline.check()
        _, state, score = compiled(n, k, regions)  # every rule, groups of every size
        return score, state == 1

    def kept() -> bool:
        return engine.region_count(cls(n, regions, stars=k), 2, deadline) == 1

    if not _wear(regions, moves, lower, kept):
        return None
    return _renumbered(cls(n, regions, stars=k))


def _random_solution(
    engine: Engine, n: int, k: int, rng: random.Random, deadline: Deadline | None = None
) -> list[Cell] | None:
    """Place k queens per row and column, none touching, at random; None if there is no way."""
    free = RegionPuzzle(n, tuple((r,) * n for r in range(n)), stars=k)  # rows as regions
    found = engine.region_sample(free, rng, deadline)
    return None if found is None else list(found)


def _neighbours(n: int, cell: Cell) -> Iterator[Cell]:
    r, c = cell
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < n and 0 <= cc < n:
            yield rr, cc


def _grow_regions(
    n: int, k: int, solution: list[Cell], rng: random.Random
) -> list[list[int]] | None:
    """Grow n connected regions holding k of the queens each, at random; None if stuck.

    Each region starts at one queen and, while it holds fewer than k, claims
    the shortest path to the nearest unclaimed queen; then every region grows
    in turn into the free cells next to it (even sizes).
    """
    queens = set(solution)
    grid = [[-1] * n for _ in range(n)]
    seeds = rng.sample(solution, n) if k > 1 else list(solution)
    held = [1] * n
    for g, (r, c) in enumerate(seeds):
        grid[r][c] = g
    hungry = [g for g in range(n) if held[g] < k]
    while hungry:
        g = rng.choice(hungry)
        path = _path_to_a_queen(n, grid, g, queens, rng)
        if path is None:
            return None
        for r, c in path:
            grid[r][c] = g
        held[g] += 1
        hungry = [g for g in range(n) if held[g] < k]
    return grid if _fill(n, grid, rng) else None


def _path_to_a_queen(
    n: int, grid: list[list[int]], g: int, queens: set[Cell], rng: random.Random
) -> list[Cell] | None:
    """The free cells from region ``g`` to the nearest unclaimed queen, breadth first; or None."""
    start = [(r, c) for r in range(n) for c in range(n) if grid[r][c] == g]
    came: dict[Cell, Cell | None] = {cell: None for cell in start}
    todo = list(start)
    rng.shuffle(todo)
    target = None
    while todo and target is None:
        step = []
        for cell in todo:
            for x in _neighbours(n, cell):
                if x in came or grid[x[0]][x[1]] != -1:
                    continue
                came[x] = cell
                if x in queens:
                    target = x
                    break
                step.append(x)
            if target is not None:
                break
        rng.shuffle(step)
        todo = step
    if target is None:
        return None
    path = []
    here: Cell | None = target
    while here is not None and grid[here[0]][here[1]] == -1:
        path.append(here)
        here = came[here]
    return path


def _fill(n: int, grid: list[list[int]], rng: random.Random) -> bool:
    """Grow every region in turn into the free cells next to it; False if one is stuck."""
    frontier = [[(r, c) for r in range(n) for c in range(n) if grid[r][c] == g] for g in range(n)]
    left = sum(row.count(-1) for row in grid)
    while left:
        growing = [g for g in range(n) if frontier[g]]
        if not growing:
            return False
        g = rng.choice(growing)  # each region grows as often as any other: even sizes
        cell = rng.choice(frontier[g])
        options = [x for x in _neighbours(n, cell) if grid[x[0]][x[1]] == -1]
        if not options:
            frontier[g].remove(cell)
            continue
        r, c = rng.choice(options)
        grid[r][c] = g
        frontier[g].append((r, c))
        left -= 1
    return True


def _renumbered(puzzle: Any) -> Any:
    """The same puzzle with its regions numbered in order of first appearance, row by row."""
    order: dict[int, int] = {}
    for row in puzzle.regions:
        for g in row:
            order.setdefault(g, len(order))
    regions = tuple(tuple(order[g] for g in row) for row in puzzle.regions)
    return type(puzzle)(puzzle.n, regions, stars=puzzle.stars)


def _connected(regions: list[list[int]], g: int) -> bool:
    """Whether region ``g`` is one orthogonally connected piece (a flood fill on bitmasks)."""
    n = len(regions)
    cells = 0
    for r, row in enumerate(regions):
        for c, value in enumerate(row):
            if value == g:
                cells |= 1 << (r * n + c)
    if not cells:
        return False
    not_first = sum(((1 << n) - 2) << (r * n) for r in range(n))  # cells with a left neighbour
    not_last = not_first >> 1  # cells with a right neighbour
    seen = cells & -cells
    while True:
        grown = seen | (seen << n) | (seen >> n) | ((seen & not_last) << 1)
        grown = (grown | ((seen & not_first) >> 1)) & cells
        if grown == seen:
            return seen == cells
        seen = grown
