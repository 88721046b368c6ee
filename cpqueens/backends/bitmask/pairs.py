"""Peaceable queens on a free n x n board (OEIS A250000): proved in parts, resumable, bounded.

Two armies of queens, as large as can be, no queen attacking one of the other
army, on a free square board. The search is :mod:`cpqueens.kernels.peaceable_pairs`:
the rows and columns are labelled first (a pair of sets, one per orbit of the
16 symmetries), the sum diagonals by a depth-first search, the difference
diagonals by an exact knapsack. A *part* is every row set ``reps[index::of]``
with every column set: the parts are independent, so they run wherever the
caller's ``run`` puts them (this process, the local pool, a Dask cluster,
with a checkpoint: :mod:`cpqueens.tasks.parts`), each in slices between which
the clock and Ctrl-C are seen.

:func:`optimise`:

1. the incumbent: simulated annealing on the line labels until it retires
   (:mod:`cpqueens.backends.bitmask.anneal`; its restarts are seeded, so the
   incumbent is the same on every run and a checkpoint written for it
   resumes), on boards of ``ANNEAL_FROM`` or more;
2. under a time limit, a ladder of proofs: "no armies of B", B from a true
   bound (:func:`cpqueens.vocabulary.bounds.upper`) down, one below it first,
   then leaps that double while the steps refute, at most to halfway between
   the best found and the bound (:func:`rung`); each is an exhaustive search
   in parts that stops at the first armies of B it meets; each finished one
   lowers the bound to B - 1, so a run the limit ends reports the least B
   refuted, less one;
3. the proof: every part searched for armies larger than the incumbent. A
   part's value is 0 (none) or the best armies of the part, encoded
   (:func:`encode`): the optimum is the largest, proved.

Every pair of armies is rebuilt from its labels and checked in plain Python
(:func:`armies`, :func:`peaceable`) before anyone sees it, and a checkpoint's
claimed armies are checked the same way when it is read.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from cpqueens.backends.outcome import Outcome
from cpqueens.clock import Deadline
from cpqueens.errors import IncompleteSearchError, InvalidSolutionError
from cpqueens.vocabulary import bounds
from cpqueens.vocabulary.cells import Cell, CellProblem, Piece

if TYPE_CHECKING:
    import numpy as np

    from cpqueens.backends.base import PartsRunner

#: The largest board: the search walks every pair of row and column sets (2^(2n) / 16).
MOST = 18
#: The smallest board whose incumbent comes from the annealing (below: from the search).
ANNEAL_FROM = 12
#: The smallest board whose proof is worth a local pool (n = 13: some 4 s on one core), and
#: whose steps of the ladder are (n = 15: 1-30 s each; below, the pool's start costs more).
POOL_FROM = 13
LADDER_POOL_FROM = 15
#: Parts per split depth (at most one per row set): depth 1 for the local pool, 2 for a
#: cluster; four times as many for each n above ``PARTS_UP_TO`` (each n costs some 5 times
#: the last): n = 16 takes some 250 CPU seconds, 1 s a part.
PARTS = {1: 256, 2: 1024}
PARTS_UP_TO = 16
#: Nodes per kernel call: some 0.05-0.2 s, so a time limit and Ctrl-C hold within that.
CHUNK = 1 << 18
#: The annealing's share of a time limit, at most; it stops sooner, after ``ANNEAL_STALE``
#: restarts in a row that found nothing better (Ainley's armies for n = 14..20 come from
#: the first three restarts).
ANNEAL_SHARE = 0.25
ANNEAL_STALE = 3

#: (value, bound, seconds) of each better pair of armies found.
Progress = Callable[[int, int, float], None]


def applies(problem: CellProblem) -> bool:
    """Whether ``problem`` is two peaceable armies of queens on a free n x n board, n <= MOST."""
    board = problem.board
    return (
        problem.armies == 2
        and problem.independent
        and not problem.dominating
        and not problem.placed
        and not problem.quotas
        and not problem.conditions
        and board.attack == "queen"
        and not (board.blocked or board.toroidal or board.knight)
        and 1 <= board.rows == board.cols <= MOST
    )


def runs_parts(problem: CellProblem, sense: str) -> bool:
    """Whether the optimisation of ``problem`` runs in parts (it takes ``run=``: a runner)."""
    return sense == "maximize" and applies(problem)


# --- plain Python: the armies of a labelling, and their check ---------------------------------


def peaceable(n: int, white: Sequence[Cell], black: Sequence[Cell]) -> bool:
    """Whether the armies stand on distinct cells of the n x n board and no white attacks a black.

    Plain Python, sharing nothing with the kernels: the check of every answer.

    >>> peaceable(3, [(0, 0)], [(1, 2), (2, 1)]), peaceable(3, [(0, 0)], [(2, 2)])
    (True, False)
    """
    cells = [*white, *black]
    if len(set(cells)) != len(cells) or not all(0 <= r < n and 0 <= c < n for r, c in cells):
        return False
    return not any(
        a == r or b == c or a + b == r + c or a - b == r - c for a, b in white for r, c in black
    )


def armies(n: int, rows: int, cols: int, sums: int) -> tuple[list[Cell], list[Cell]]:
    """The best armies once the rows, columns and sum diagonals are labelled (bit set: white).

    A cell may be white when its row, column and sum diagonal are white (black
    likewise); each difference diagonal then goes whole to one army, chosen by
    an exact knapsack (the largest ``min(white, black)``).

    >>> armies(3, 0b001, 0b001, 0b00001)
    ([(0, 0)], [(1, 2), (2, 1)])
    """
    on: dict[int, tuple[list[Cell], list[Cell]]] = {q: ([], []) for q in range(2 * n - 1)}
    for r in range(n):
        for c in range(n):
            colour = [rows >> r & 1, cols >> c & 1, sums >> (r + c) & 1]
            if colour == [1, 1, 1]:
                on[r - c + n - 1][0].append((r, c))
            elif colour == [0, 0, 0]:
                on[r - c + n - 1][1].append((r, c))
    # best[white] = (the most black, the diagonals given to white), over the diagonals so far
    best: dict[int, tuple[int, frozenset[int]]] = {0: (0, frozenset())}
    for q, (white, black) in on.items():
        step: dict[int, tuple[int, frozenset[int]]] = {}
        for w, (b, chosen) in best.items():
            for key, value in ((w, (b + len(black), chosen)), (w + len(white), (b, chosen | {q}))):
                if key not in step or value[0] > step[key][0]:
                    step[key] = value
        best = step
    w = max(best, key=lambda w: (min(w, best[w][0]), w))
    chosen = best[w][1]
    white = sorted(cell for q in chosen for cell in on[q][0])
    black = sorted(cell for q in on if q not in chosen for cell in on[q][1])
    return white, black


def encode(value: int, rows: int, cols: int, sums: int, n: int) -> int:
    """Armies of ``value`` as one int > 0: the value, then the row, column and sum-diagonal labels.

    >>> decode(encode(4, 5, 6, 7, 5), 5)
    (4, 5, 6, 7)
    """
    return 1 + value + (n * n + 1) * (rows + (cols << n) + (sums << 2 * n))


def decode(code: int, n: int) -> tuple[int, int, int, int]:
    """(value, rows, columns, sums) of an :func:`encode`d code (> 0)."""
    labels, value = divmod(code - 1, n * n + 1)
    full = (1 << n) - 1
    return value, labels & full, labels >> n & full, labels >> 2 * n


def witness(code: int, n: int) -> tuple[int, list[Cell], list[Cell]]:
    """The value and the armies an encoded code claims, checked: ``InvalidSolutionError`` if not."""
    value, rows, cols, sums = decode(code, n)
    white, black = armies(n, rows, cols, sums)
    if min(len(white), len(black)) != value or not peaceable(n, white, black):
        raise InvalidSolutionError(
            f"the labels rows {rows:#b}, columns {cols:#b}, sums {sums:#b} on {n} x {n} do not "
            f"give peaceable armies of {value}"
        )
    return value, white, black


# --- the parts of the search ------------------------------------------------------------------


@cache
def tables(n: int, symmetry: bool = True) -> tuple[np.ndarray, ...]:
    """(row sets searched, bit reversals of n bits, column sets by size, where each size starts).

    The row sets: one per orbit of reversal and colour swap (``symmetry``), else all.
    """
    import numpy as np

    from cpqueens.kernels import peaceable_pairs as kernel

    rev = kernel.reversals(n)
    masks, start = kernel.column_sets(n)
    full = (1 << n) - 1
    if not symmetry:
        return np.arange(1 << n, dtype=np.int64), rev, masks, start
    reps = [s for s in range(1 << n) if s == min(s, rev[s], full ^ s, rev[full ^ s])]
    return np.array(reps, dtype=np.int64), rev, masks, start


@dataclass(frozen=True)
class Part:
    """The row sets ``reps[index::of]`` with every column set: armies larger than ``floor``."""

    n: int
    floor: int
    index: int
    of: int
    symmetry: bool = True

    def label(self) -> str:
        """The exact text that identifies the part within its split."""
        pairs = "pairs by orbit" if self.symmetry else "every pair"
        return f"armies above {self.floor}, row sets {self.index} mod {self.of}, {pairs}"

    def admits(self, value: int, n: int) -> bool:
        """Whether ``value`` can be this part's: 0, or checked armies above the floor, its rows."""
        if value == 0:
            return True
        if value < 0:
            return False
        try:
            found, *_ = witness(value, self.n)
        except InvalidSolutionError:
            return False
        rows = decode(value, self.n)[1]
        mine = tables(self.n, self.symmetry)[0][self.index :: self.of]
        return found > self.floor and rows in set(mine.tolist())

    def expects(self, n: int) -> str:
        """What :meth:`admits` expects, for an error message."""
        return f"0 or peaceable armies larger than {self.floor}, from the part's row sets"


def plan(n: int, floor: int, depth: int = 1, symmetry: bool = True) -> list[Part]:
    """The parts of the search for armies larger than ``floor`` (see ``PARTS``)."""
    wanted = PARTS.get(depth, PARTS[max(PARTS)]) * 4 ** max(0, n - PARTS_UP_TO)
    of = min(len(tables(n, symmetry)[0]), wanted)
    return [Part(n, floor, index, of, symmetry) for index in range(of)]


def search_part(
    n: int, floor: int, index: int, of: int, symmetry: bool, stop_at: float | None = None
) -> int:
    """Search one part to its end (a worker's task): 0, or its best armies above ``floor``, encoded.

    ``stop_at`` (a ``time.time()`` instant, the same on every machine of a
    cluster) ends it with ``IncompleteSearchError``; Ctrl-C is seen between slices.
    """
    import numpy as np

    from cpqueens.kernels import peaceable_pairs as kernel

    reps, rev, masks, start = tables(n, symmetry)
    rows = np.ascontiguousarray(reps[index::of])
    state = np.zeros(6, dtype=np.int64)
    state[kernel.BEST] = floor
    found = np.zeros(3, dtype=np.int64)
    while not state[kernel.DONE]:
        if stop_at is not None and time.time() > stop_at:
            raise IncompleteSearchError("the time limit ended a part of the search")
        kernel.search(n, rows, state, found, rev, masks, start, CHUNK, 1 if symmetry else 0)
    value = int(state[kernel.BEST])
    if value <= floor:
        return 0
    code = encode(value, int(found[0]), int(found[1]), int(found[2]), n)
    witness(code, n)  # checked here too: a wrong answer never leaves the worker
    return code


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
            if clock is not None:
                clock.check()
            done[i] = fn(*arguments(part))
            if stop(done[i]):
                break
        return parts, done

    return run


def above(
    n: int,
    floor: int,
    run: PartsRunner,
    clock: Deadline | None = None,
    *,
    symmetry: bool = True,
    first: bool = False,
    pays: bool | None = None,
) -> int:
    """The best armies larger than ``floor`` (encoded), or 0 when the search proves there are none.

    ``first``: stop at the first part that finds some (the code is then that
    part's best, not necessarily the board's). ``saved``: the runner records
    the parts in its checkpoint (the proof), or not (a step of the ladder).
    """
    stop_at = None if clock is None else time.time() + clock.left()

    def arguments(part: Part) -> tuple[Any, ...]:
        return (part.n, part.floor, part.index, part.of, part.symmetry, stop_at)

    what = f"bitmask: peaceable armies larger than {floor}, by rows and columns"
    parts, values = run(
        what,
        lambda depth: plan(n, floor, depth, symmetry),
        search_part,
        arguments,
        (lambda value: value > 0) if first else (lambda value: False),
        n >= POOL_FROM if pays is None else pays,
    )
    found = [code for code in values.values() if code > 0]
    if not first and len(values) != len(parts):  # pragma: no cover - a runner's bug, not a proof
        raise IncompleteSearchError(f"{len(parts) - len(values)} parts were not searched")
    return max(found, key=lambda code: decode(code, n)[0], default=0)


# --- the verb ---------------------------------------------------------------------------------


def _incumbent(
    problem: CellProblem, clock: Deadline | None, symmetry: bool
) -> tuple[int, list[Cell], list[Cell]]:
    """The best armies known before the proof, or none (-1); the same on every run.

    On boards below ``ANNEAL_FROM``, the whole search in one piece here (a
    second at most); from it on, the annealing until ``ANNEAL_STALE`` restarts
    in a row beat nothing (or it has had ``ANNEAL_SHARE`` of the time left and
    found some armies, or the deadline passed).
    """
    from cpqueens.backends.bitmask import lines
    from cpqueens.backends.bitmask.anneal import Anneal

    n = problem.board.rows
    if n < ANNEAL_FROM:
        stop_at = None if clock is None else time.time() + clock.left()
        try:
            code = search_part(n, -1, 0, 1, symmetry, stop_at)
        except IncompleteSearchError:
            return -1, [], []
        return witness(code, n)
    s = lines.structure(problem)
    anneal = Anneal(lines._shared(s, symmetry, True), seconds=0.2)
    cutoff = None if clock is None else time.monotonic() + ANNEAL_SHARE * clock.left()
    while anneal.stale < ANNEAL_STALE:
        # past its share of the limit, once its first restart has found armies
        if cutoff is not None and time.monotonic() > cutoff and anneal.value >= 0:
            break
        if clock is not None and clock.passed():
            break
        anneal.run(anneal.value)
    if anneal.value < 0:
        return -1, [], []
    white, black = lines.armies(s, anneal.best_label)
    return min(len(white), len(black)), white, black


def rung(best: int, bound: int, leap: int) -> int:
    """The ladder's next step: refute armies of this size, ``leap`` below ``bound`` at most.

    Steps near the bound are quick (n = 16: refuting 64 each takes 3 s of CPU, 56 takes 45 s,
    48 takes 140 s), so the ladder starts one below the bound and doubles its leap after each
    refutation: a run stopped early reports the lowest bound reached, not the rows and
    columns' floor(n^2/4). A step never asks for ``best + 1`` (that is the proof's) and
    never leaps past the middle of the gap (the bisection's step, which the proof needs few of).

    >>> [rung(24, 42, leap) for leap in (1, 2, 8, 64)]
    [42, 41, 35, 34]
    >>> rung(24, 26, 1)
    26
    """
    return max(bound - leap + 1, (best + bound + 2) // 2, best + 2)


def optimise(
    problem: CellProblem,
    sense: str = "maximize",
    *,
    deadline: Deadline | None = None,
    workers: int = 1,
    symmetry: bool = True,
    progress: Progress | None = None,
    run: PartsRunner | None = None,
) -> Outcome:
    """The largest peaceable armies on a free square board, proved unless the deadline ends it.

    The incumbent, then (under a deadline) the ladder of bounds, then the
    proof in parts through ``run`` (the task's runner) or here in order. A
    deadline that ends it gives the best armies found, "feasible", with the
    least bound proved. ``workers`` is the runner's business: accepted, unused.
    """
    if sense != "maximize" or not applies(problem):
        raise ValueError(
            "the pairs search maximises two peaceable armies of queens on a free square board, "
            f"got sense {sense!r} and {problem!r}"
        )
    start = time.perf_counter()
    n = problem.board.rows
    runner = run or _here(deadline)
    # the ladder's steps are not worth a checkpoint (each is a proof of its own): the runner
    # without its file, if it has one
    unsaved = getattr(runner, "unsaved", None)
    steps: PartsRunner = runner if unsaved is None else unsaved()
    best, white, black = _incumbent(problem, deadline, symmetry)
    most = bounds.upper(problem)
    assert most is not None  # two independent armies: the lines' knapsack, rows and columns
    bound = most

    def better(code: int) -> None:
        nonlocal best, white, black
        value, found_white, found_black = witness(code, n)
        if value > best:
            best, white, black = value, found_white, found_black
            if progress is not None:
                progress(best, bound, time.perf_counter() - start)

    if progress is not None and best >= 0:
        progress(best, bound, time.perf_counter() - start)
    try:
        leap = 1
        while deadline is not None and best + 1 < bound:  # the ladder, from the top down
            target = rung(best, bound, leap)
            code = above(
                n, target - 1, steps, deadline, symmetry=symmetry, first=True,
                pays=n >= LADDER_POOL_FROM,
            )  # fmt: skip
            if code:
                better(code)
            else:
                bound, leap = target - 1, 2 * leap
        if best < bound:
            code = above(n, best, runner, deadline, symmetry=symmetry)
            if code:
                better(code)
            bound = best
    except IncompleteSearchError:
        return _outcome("feasible", best, bound, white, black, problem, start)
    return _outcome("optimal", best, best, white, black, problem, start)


def _outcome(
    status: str,
    value: int,
    bound: int,
    white: list[Cell],
    black: list[Cell],
    problem: CellProblem,
    start: float,
) -> Outcome:
    """The engine's answer, its pieces checked against the problem: ``value`` of each army."""
    value = max(value, 0)
    pieces: tuple[Piece, ...] = tuple((r, c, 0) for r, c in white[:value]) + tuple(
        (r, c, 1) for r, c in black[:value]
    )
    if len(pieces) != 2 * value or not peaceable(problem.board.rows, white, black):
        raise InvalidSolutionError(f"internal error: the armies {pieces} are not {value} each")
    if why := problem.check(pieces):
        raise InvalidSolutionError(f"internal error: the pairs search returned {pieces}, but {why}")
    return Outcome(status, value, max(bound, value), pieces, time.perf_counter() - start)  # type: ignore[arg-type]
