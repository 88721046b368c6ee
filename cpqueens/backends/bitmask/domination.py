"""Queens dominating a free n x n board, independent or not: proved by lines, counted in parts.

The fewest queens that cover a free n x n board (OEIS A075458) and the
number of such sets (A002564), on boards up to :data:`MOST` = 32:

- **found**: :func:`find` looks for k covering queens on lattices (one queen
  in each of k chosen rows and k chosen columns, :mod:`cpqueens.kernels.domination_lattice`:
  every other row and column, with the edges, or central bands), then by
  local search (:mod:`cpqueens.kernels.domination_local`). A set of
  ``bounds.lower`` queens is optimal at once (Finozhenok and Weakley 2007:
  ``ceil(n/2)`` except at n = 3 and 11).
- **proved**: that no k queens cover the board, by the exhaustive search of
  :mod:`cpqueens.kernels.domination`, split by the board's 8 symmetries into
  parts (:func:`plan`): a part is a queen ``q0`` (one cell per orbit, the
  cells of earlier orbits forbidden) and a path below it. The parts run
  wherever the caller's ``run`` puts them (this process, the local pool, a
  Dask cluster, with a checkpoint: :mod:`cpqueens.tasks.parts`); without one,
  here, in order.
- **counted**: every set of k covering queens, each class once with its size.

Every set is checked against the board in plain Python (:func:`dominates`,
and :func:`apart` for independent queens) before anyone sees it. Covering
sets are found fast by :mod:`cpqueens.backends.bitmask.covering`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from cpqueens.backends.base import PartsRunner
from cpqueens.backends.bitmask import independent as independent_by_lines
from cpqueens.backends.bitmask.covering import apart, dominates, find, greedy
from cpqueens.backends.outcome import Outcome
from cpqueens.clock import Deadline
from cpqueens.errors import CountInterrupted, IncompleteSearchError, InvalidSolutionError
from cpqueens.vocabulary import bounds
from cpqueens.vocabulary.cells import CellProblem

if TYPE_CHECKING:
    import numpy as np

#: The largest board: a diagonal's index (c - r + n - 1) must fit in a 64-bit mask.
MOST = 32
#: Nodes per kernel call by cut level (0..4): some 0.1 s each, so a time limit and Ctrl-C hold
#: within that (a deeper cut spends more on a node: 1 << 17 took 3.4 s at level 4, n = 15).
CHUNK_BY_LEVEL = (1 << 17, 1 << 17, 1 << 17, 1 << 14, 1 << 10)
#: Seconds the lattices may take for one size, on the way to an upper bound.
LOCAL_SECONDS = 2.0
#: Seconds of lattices and local search for a size below the upper bound, where a proof
#: would take hours.
FIND_SECONDS = 10.0
#: The largest board whose exhaustive search is quick enough to settle a size without
#: looking harder for a set first (one core: n = 15, 40 s; n = 16, 20 s; n = 20, hours).
QUICK_PROOF = 16
#: The smallest board whose exhaustive search is worth a local pool (n = 14: 2 s on one core).
POOL_FROM = 15
#: Whether the split cuts nodes by the frame of the empty rows and columns
#: (:func:`cpqueens.kernels.domination._framed_out`): the parts are planned with it.
FRAME = True
#: The cuts the parts search with: 4 (``kernels.domination.CENTRES``), level 3's and the
#: look-ahead's children with 2 to 4 queens left cut by the union bound of two centres
#: (paired parts: 0.70-0.77x the CPU of level 3 at n = 19, 0.88-0.91x at n = 17); 3, besides the
#: look-ahead, the branching cell chosen by
#: the cells that can still be in a covering set and the look-ahead's children cut by their
#: own frame (``kernels.domination.TARGET``); 2, the frame and a look-ahead that drops the
#: children their own cover bound would cut (``kernels.domination.AHEAD``); 1, the frame
#: alone, as the split plans the parts (:data:`FRAME`); 0, neither. The same sets at every
#: level.
CUT = 4

#: (value, bound, seconds) of each better solution found.
Progress = Callable[[int, int, float], None]


def runs_parts(problem: CellProblem, sense: str) -> bool:
    """Whether the optimisation of ``problem`` runs in parts (it takes ``run=``: a runner)."""
    return sense == "minimize" and applies(problem)


def applies(problem: CellProblem) -> bool:
    """Whether ``problem`` is queen domination of a free n x n board, n <= ``MOST``.

    Independent domination (no queen attacks another) too.
    """
    board = problem.board
    return (
        problem.dominating
        and problem.armies == 1
        and not problem.placed
        and not problem.quotas
        and not problem.conditions
        and board.attack == "queen"
        and not (board.blocked or board.toroidal or board.knight)
        and board.rows == board.cols <= MOST
    )


# --- the board's symmetries, and the parts of an exhaustive search ----------------------------


@cache
def symmetry(n: int) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """The 8 symmetries as cell maps, each cell's orbit rank, and one cell per orbit by rank.

    Orbits are ranked from the centre out (the ring from the edge, deepest
    first), so the first parts place a central queen with most cells allowed
    and the last ones forbid the centre: those end at once.
    """
    import numpy as np

    images = np.empty((8, n * n), dtype=np.int64)
    for g in range(8):
        for r in range(n):
            for c in range(n):
                a, b = (c, r) if g & 4 else (r, c)
                a = n - 1 - a if g & 1 else a
                b = n - 1 - b if g & 2 else b
                images[g, r * n + c] = a * n + b
    firsts = sorted(
        {int(images[:, cell].min()) for cell in range(n * n)},
        key=lambda cell: (-_ring(n, cell), _centre(n, cell), cell),
    )
    orbit = np.empty(n * n, dtype=np.int64)
    for rank, first in enumerate(firsts):
        orbit[images[:, first]] = rank
    return images, orbit, tuple(firsts)


def _ring(n: int, cell: int) -> int:
    r, c = divmod(cell, n)
    return min(r, n - 1 - r, c, n - 1 - c)


def _centre(n: int, cell: int) -> int:
    r, c = divmod(cell, n)
    return min(abs(2 * r - n + 1), abs(2 * c - n + 1))


@dataclass(frozen=True)
class Part:
    """A part of the exhaustive search for k covering queens: queen ``q0`` and a path below it.

    ``first``: the part stops at a covering set and its value encodes it
    (:func:`encode`), else it counts the sets (each class once, weighted).
    ``independent``: only sets of which no queen attacks another; ``unique``:
    a count of classes.
    """

    n: int
    k: int
    q0: int
    path: tuple[int, ...] = ()
    first: bool = True
    independent: bool = False
    #: A count's part counts the classes of sets, not the sets.
    unique: bool = False

    def label(self) -> str:
        """The exact text that identifies the part within its split."""
        r, c = divmod(self.q0, self.n)
        way = "first" if self.first else "classes" if self.unique else "count"
        kind = " independent" if self.independent else ""
        return f"{way} {self.k}{kind} queens, ({r}, {c}), path {list(self.path)}"

    def admits(self, value: int, n: int) -> bool:
        """Whether ``value`` can be this part's result: a count, or 0 or a covering set."""
        if value < 0:
            return False
        if not self.first or value == 0:
            return True
        cells = decode(value, self.n, self.k)
        ordered = len(cells) == self.k and list(cells) == sorted(set(cells))
        free = not self.independent or apart(self.n, cells)
        return ordered and free and self.q0 in cells and dominates(self.n, cells)

    def expects(self, n: int) -> str:
        """What :meth:`admits` expects, for an error message."""
        if self.first:
            kind = " independent" if self.independent else ""
            return f"0 or a set of {self.k}{kind} queens covering the board, holding cell {self.q0}"
        return "a count >= 0"


def encode(cells: Sequence[int], n: int) -> int:
    """A set of cells as one int > 0: 1 + its sorted cells as digits in base n * n.

    >>> encode([5, 15], 4), decode(encode([5, 15], 4), 4, 2)
    (246, (5, 15))
    """
    value = 0
    for cell in sorted(cells, reverse=True):
        value = value * n * n + cell
    return 1 + value


def decode(value: int, n: int, k: int) -> tuple[int, ...]:
    """The k cells that :func:`encode` wrote as ``value`` (> 0), in order.

    A value with more digits than k keeps them all, so that a check of the set sees them.
    """
    value -= 1
    cells: list[int] = []
    while value or len(cells) < k:
        value, cell = divmod(value, n * n)
        cells.append(cell)
    return tuple(cells)


def plan(
    n: int,
    k: int,
    depth: int = 1,
    first: bool = True,
    independent: bool = False,
    unique: bool = False,
) -> list[Part]:
    """The parts of the search for k covering queens, split at ``depth`` levels (>= 1).

    Depth 1: one part per orbit (its first cell as ``q0``); each further level
    splits every part by the children of its last node. A node without
    children stays a part (it ends at once).
    """
    firsts = symmetry(n)[2]
    parts = [Part(n, k, q0, (), first, independent, unique) for q0 in firsts]
    for _ in range(depth - 1):
        parts = [deeper for part in parts for deeper in _children(part)]
    return parts


def _children(part: Part) -> list[Part]:
    """The parts one level below ``part``: one per child of its last node (itself if none)."""
    import numpy as np

    from cpqueens.kernels import domination as kernel

    _, orbit, _ = symmetry(part.n)
    state = kernel.start(part.n, part.k, part.q0, orbit, part.independent)
    path = np.array(part.path, dtype=np.int64)
    count = kernel.children(part.n, part.k, part.independent, int(FRAME), path, *state)
    if count < 0:
        raise ValueError(f"the part {part.label()!r} names no node of the search")
    return [replace(part, path=(*part.path, i)) for i in range(count)] or [part]


def search_part(
    n: int,
    k: int,
    q0: int,
    path: tuple[int, ...],
    first: bool,
    stop_at: float | None = None,
    independent: bool = False,
    unique: bool = False,
    frame: int = CUT,
) -> int:
    """Search one part to its end (a worker's task): a covering set found (encoded), or the count.

    ``first``: 0 if no k queens below the part cover the board, else the
    first set found (:func:`encode`); otherwise the number of covering sets
    (each class counted once, with its size; ``unique``: the classes).
    ``independent``: sets of which no queen attacks another; ``frame``: the
    frame cut's level (:data:`CUT`; 0 off: the same result). ``stop_at`` (a ``time.time()``
    instant: it means the same on every machine of a cluster, to their
    clocks' agreement) ends the part with ``IncompleteSearchError``.
    """
    clock = None
    if stop_at is not None:
        clock = Deadline(max(stop_at - time.time(), 1e-9))
    sets, classes, found = _search(n, k, q0, path, first, clock, independent, frame)
    if first:
        return 0 if found is None else encode(found, n)
    return classes if unique else sets


def _search(
    n: int,
    k: int,
    q0: int,
    path: Sequence[int],
    first: bool,
    clock: Deadline | None,
    independent: bool = False,
    frame: int = CUT,
) -> tuple[int, int, tuple[int, ...] | None]:
    """Run one part in chunks: (sets, classes, the first set found or None).

    The clock is checked between chunks (``IncompleteSearchError``), and so
    is Ctrl-C (``KeyboardInterrupt``). ``q0`` < 0: the whole search, no
    symmetry used (each set is met once, and is its own class). ``frame``:
    the kernel's frame cut's level (:data:`CUT`; the nodes of the part's
    path at most :data:`FRAME`, as every split plans them), or 0, off (the
    same sets: a check).
    """
    import numpy as np

    from cpqueens.kernels import domination as kernel

    images, orbit, _ = symmetry(n)
    if q0 < 0:
        images = images[:1]
    state = kernel.start(n, k, q0, orbit, independent)
    steps = np.array(path, dtype=np.int64)
    level, budget = int(frame), CHUNK_BY_LEVEL[int(frame)]
    if clock is not None:  # before the part too: with the look-ahead most end within a chunk
        clock.check()
    while True:
        status = kernel.search(n, k, independent, level, q0, images, steps, *state, first, budget)
        if status != kernel.PAUSED:
            break
        if clock is not None:
            clock.check()
    if status == kernel.NO_PATH:
        raise ValueError(f"the part {list(path)} of {k} queens on {n} x {n} names no node")
    counters = state[-1]
    found = None
    if status == kernel.FOUND:
        found = tuple(sorted(int(cell) for cell in state[5][:k]))
        if not dominates(n, found):
            raise InvalidSolutionError(f"the search's set {found} leaves a cell uncovered")
        if independent and not apart(n, found):
            raise InvalidSolutionError(f"the search's set {found} has queens that attack")
    return int(counters[kernel.SETS]), int(counters[kernel.CLASSES]), found


def _here(clock: Deadline | None) -> PartsRunner:
    """A runner that searches the parts in this process, in order, checking ``clock``."""

    def run(
        what: str,
        plan: Callable[[int], Sequence[Part]],
        fn: Callable[..., int],
        arguments: Callable[[Part], tuple[Any, ...]],
        stop: Callable[[int], bool],
        pays: bool = True,
    ) -> tuple[Sequence[Part], dict[int, int]]:
        parts = plan(1)
        done: dict[int, int] = {}
        for i, part in enumerate(parts):
            try:
                if not isinstance(part, Part):  # another module's part (independent queens)
                    done[i] = fn(*arguments(part))
                    if stop(done[i]):
                        break
                    continue
                sets, classes, found = _search(
                    part.n, part.k, part.q0, part.path, part.first, clock, part.independent
                )
            except KeyboardInterrupt as stop_here:
                if isinstance(stop_here, CountInterrupted):
                    raise
                raise CountInterrupted(i, len(parts), None) from stop_here
            if part.first:
                done[i] = 0 if found is None else encode(found, part.n)
            else:
                done[i] = classes if part.unique else sets
            if stop(done[i]):
                break
        return parts, done

    return run


def _kind(independent: bool) -> str:
    return "independent queens" if independent else "queens"


def _section(run: PartsRunner, tag: str) -> PartsRunner:
    """The runner of another search of the same call: its checkpoint in a file of its own."""
    section = getattr(run, "section", None)
    return run if section is None else section(tag)  # type: ignore[no-any-return]


#: From this board on, a proof split for the local pool (depth 1) splits one level finer:
#: gamma(Q20)'s proof has 55 parts at depth 1 (1,853 CPU-s in all, the first ones minutes
#: each: a stop lost minutes of work), and 1,392 at depth 2 (some 1.3 CPU-s each). Below it
#: a proof takes a minute at most (gamma(Q16): 41 s on two cores).
FINE_FROM = 20


def proof_plan(n: int, k: int, depth: int, independent: bool = False) -> list[Part]:
    """The parts of the proof that no k queens cover n x n, split at the runner's ``depth``.

    At least depth 2 from ``FINE_FROM`` on. A checkpoint records the runner's
    depth, so it resumes the same split.
    """
    fine = max(depth, 2) if n >= FINE_FROM else depth
    return plan(n, k, fine, independent=independent)


def decide(
    n: int,
    k: int,
    run: PartsRunner,
    clock: Deadline | None = None,
    independent: bool = False,
) -> tuple[int, ...] | None:
    """A set of k queens that cover the board, or None when the exhaustive search proves none do.

    ``independent``: a set of which no queen attacks another, or the proof that there is none
    (searched by its empty rows and columns where they are many:
    :mod:`cpqueens.backends.bitmask.independent`).
    """
    if independent and n - k >= independent_by_lines.EMPTY_FROM:
        return independent_by_lines.decide(n, k, run, clock)
    stop_at = None if clock is None else time.time() + clock.left()

    def arguments(part: Part) -> tuple[Any, ...]:
        return (part.n, part.k, part.q0, part.path, True, stop_at, part.independent)

    what = f"bitmask: {k} {_kind(independent)} dominating the board, searched by lines"
    parts, values = run(
        what,
        lambda depth: proof_plan(n, k, depth, independent),
        search_part,
        arguments,
        lambda value: value > 0,
        n >= POOL_FROM,
    )
    found = [value for value in values.values() if value > 0]
    if found:
        return decode(found[0], n, k)
    if len(values) != len(parts):  # pragma: no cover - a runner's bug, not a proof
        raise IncompleteSearchError(f"{len(parts) - len(values)} parts were not searched")
    return None


# --- the verbs: the optimum, and the count of the optimal sets --------------------------------


def optimise(
    problem: CellProblem,
    sense: str = "minimize",
    *,
    deadline: Deadline | None = None,
    workers: int = 1,
    symmetry: bool = True,
    progress: Progress | None = None,
    run: PartsRunner | None = None,
) -> Outcome:
    """The fewest queens that cover the board, proved optimal unless the deadline ends it.

    An upper bound first: the fewest queens the lattices place within
    ``LOCAL_SECONDS``, from the bound known before search up. On a board
    whose proofs take hours (above ``QUICK_PROOF``), the sizes below it get
    ``FIND_SECONDS`` of lattices and local search each. Then each size left
    below the best is settled by the exhaustive search (:func:`decide`),
    through ``run`` (the task's runner: local pool, executor, checkpoint) or
    here in order. A limit that ends it gives the best set found, "feasible",
    with the size being proved as its bound. ``workers`` and ``symmetry`` are
    the runner's and the split's business: accepted, unused here.

    Independent domination (no queen attacks another) starts from a maximal
    independent set (:func:`greedy`: it covers the board), and each size
    from the bound up is settled by the exhaustive search of independent
    sets: the first that has one is the optimum. The first size searched
    keeps its parts in the runner's checkpoint, each later one in a file of
    its own beside it (``d.json``: ``d.8.json``).
    """
    if sense != "minimize" or not applies(problem):
        raise ValueError(
            "the domination search minimises queens covering a free square board, "
            f"got sense {sense!r} and {problem!r}"
        )
    start = time.perf_counter()
    clock = deadline
    n = problem.board.rows
    low = bounds.lower(problem)
    independent = problem.independent
    if independent:
        cells = greedy(n)
        best = len(cells)
    else:
        best, cells = _upper(n, low, clock)

    def report() -> None:
        if progress is not None:
            progress(best, low, time.perf_counter() - start)

    report()
    try:
        while best > low and n > QUICK_PROOF and not independent:
            found = find(n, best - 1, clock, seconds=FIND_SECONDS)
            if found is None:
                break
            best, cells = best - 1, found
            report()
    except IncompleteSearchError:
        return _outcome("feasible", best, low, cells, n, start)
    runner = run or _here(clock)
    for k in range(low, best):
        try:
            step = runner if k == low else _section(runner, str(k))
            found = decide(n, k, step, clock, independent)
        except IncompleteSearchError:
            return _outcome("feasible", best, k, cells, n, start)
        if found is not None:
            return _outcome("optimal", k, k, found, n, start)
    return _outcome("optimal", best, best, cells, n, start)


def _upper(n: int, low: int, clock: Deadline | None) -> tuple[int, tuple[int, ...]]:
    """The fewest queens that the lattices place quickly, from ``low`` up, and where.

    A set of one queen more first (for the board sizes here, at once), then
    one of ``low``. Each size gets ``LOCAL_SECONDS``, or a quarter of the
    time left if that is less: the clock never ends this phase without a
    set (n queens in a column always cover the board), so that a limit has
    a set to report.
    """

    def quick(k: int) -> tuple[int, ...] | None:
        seconds = LOCAL_SECONDS if clock is None else min(LOCAL_SECONDS, clock.left() / 4)
        return find(n, k, None, seconds=seconds, local=False)

    best = None
    for k in range(low + 1, n + 1):
        found = quick(k)
        if found is not None:
            best = k, found
            break
    found = quick(low)
    if found is not None or best is None:  # None: low >= n, a column of queens
        return low, found or tuple(r * n for r in range(n))
    return best


def _outcome(
    status: str, value: int, bound: int, cells: Sequence[int], n: int, start: float
) -> Outcome:
    """The engine's answer: the status, value and bound, the queens as (row, col, 0)."""
    pieces = tuple((cell // n, cell % n, 0) for cell in sorted(cells))
    return Outcome(status, value, bound, pieces, time.perf_counter() - start)  # type: ignore[arg-type]


def count(
    problem: CellProblem,
    size: int,
    *,
    unique: bool = False,
    deadline: Deadline | None = None,
    run: PartsRunner | None = None,
) -> int:
    """The number of sets of ``size`` queens that cover the board (with ``unique``, their classes).

    Independent queens if the problem says so. The count runs in small parts
    (:func:`tally`) through ``run`` (the task's runner: pool, executor,
    checkpoint), or here in order; the deadline's end raises ``IncompleteSearchError``.
    """
    if not applies(problem):
        raise ValueError(f"the domination count takes a free square queen board, got {problem!r}")
    runner = run or _here(deadline)
    return tally(problem.board.rows, size, runner, unique, problem.independent, deadline)


#: Levels of the split of a count below the runner's: a part per child of the first queen.
COUNT_DEPTH = 1
#: The smallest board whose count is worth a local pool (n = 13: seconds on one core).
COUNT_POOL_FROM = 13


def tally(
    n: int,
    k: int,
    run: PartsRunner,
    unique: bool = False,
    independent: bool = False,
    clock: Deadline | None = None,
) -> int:
    """The number of sets of k covering queens (or their classes), counted in parts by ``run``.

    The parts are the proof's split one level deeper (:data:`COUNT_DEPTH`):
    each a fraction of a second to seconds of search, so that a checkpoint
    loses little when the count is stopped and a pool keeps every worker busy. Independent
    queens leaving many rows empty are counted by their empty rows and columns
    (:mod:`cpqueens.backends.bitmask.independent`).
    """
    if independent and n - k >= independent_by_lines.EMPTY_FROM:
        return independent_by_lines.tally(n, k, run, unique, clock)
    stop_at = None if clock is None else time.time() + clock.left()

    def arguments(part: Part) -> tuple[Any, ...]:
        return (part.n, part.k, part.q0, part.path, False, stop_at, part.independent, part.unique)

    way = "classes" if unique else "sets"
    what = f"bitmask: the {way} of {k} {_kind(independent)} dominating the board, counted"
    parts, values = run(
        what,
        lambda depth: plan(n, k, depth + COUNT_DEPTH, False, independent, unique),
        search_part,
        arguments,
        lambda value: False,
        n >= COUNT_POOL_FROM,
    )
    if len(values) != len(parts):  # pragma: no cover - a runner's bug, not a count
        raise IncompleteSearchError(f"{len(parts) - len(values)} parts were not counted")
    return sum(values.values())
