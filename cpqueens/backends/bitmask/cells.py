"""The compiled counter of cell problems: one army, independent and/or dominating sets.

Quotas (pieces per row, column or region) are not stated here:
:func:`supports` says no, and "auto" takes an engine that states them.

It translates a :class:`CellProblem` into cell masks for
:mod:`cpqueens.kernels.cells` and counts the solutions of a given size: an
independent counter that shares nothing with CP-SAT's statement. Two armies
and class counts are CP-SAT's alone (``NotSupportedError``).

The kernels run :data:`CHUNK` nodes per call and return: between calls a
time limit is checked (``IncompleteSearchError``, never a partial count) and
Ctrl-C raises ``CountInterrupted`` (a ``KeyboardInterrupt``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cpqueens.backends.bitmask import domination
from cpqueens.clock import Deadline
from cpqueens.errors import CountInterrupted, NotSupportedError
from cpqueens.vocabulary.cells import Cell, CellProblem
from cpqueens.vocabulary.checks import check_time_limit
from cpqueens.words import plural

if TYPE_CHECKING:
    import numpy as np

NAME = "bitmask"
#: Nodes per kernel call: some 10-50 ms, so a time limit and Ctrl-C hold within that.
CHUNK = 1 << 20


#: The most cells the compiled counter takes: it holds a mask of every cell per cell
#: (cells^2 bits: 2 MiB at 4,096 cells, a 64 x 64 board).
MAX_CELLS = 4096


def supports(problem: CellProblem, size: int | None = 0, unique: bool = False) -> bool:
    """Whether the kernels count ``problem``'s solutions of ``size``: one army, no classes.

    Quotas (per row, column or region) and conditions are beyond the kernels, and so
    are boards of more than ``MAX_CELLS`` cells: False. Queens dominating a free
    square board are counted by :mod:`~cpqueens.backends.bitmask.domination`, classes too.
    """
    if size is not None and domination.applies(problem):
        return True
    return (
        problem.armies == 1
        and size is not None
        and not unique
        and not problem.quotas
        and not problem.conditions
        and problem.board.rows * problem.board.cols <= MAX_CELLS
    )


def _placed_fit(problem: CellProblem) -> bool:
    """Whether the placed pieces stand on free cells and, if independent, attack no other."""
    board = problem.board
    placed = [(r, c) for r, c, _ in problem.placed]
    if set(placed) & set(board.blocked):
        return False
    return not problem.independent or not any(board.attacks(a, b) for a in placed for b in placed)


def _masks(problem: CellProblem, cells: list[Cell] | None = None) -> dict[str, np.ndarray]:
    import numpy as np

    board = problem.board
    index = {cell: i for i, cell in enumerate(board.cells)}
    size, words = len(index), (len(index) + 63) // 64

    def mask(cells: object) -> np.ndarray:
        out = np.zeros(words, dtype=np.uint64)
        for cell in cells:  # type: ignore[attr-defined]
            i = index[cell]
            out[i // 64] |= np.uint64(1) << np.uint64(i % 64)
        return out

    attack = np.zeros((size, words), dtype=np.uint64)
    closed = np.zeros((size, words), dtype=np.uint64)
    for cell, i in index.items():
        attack[i] = mask(board.neighbours[cell])
        closed[i] = mask(board.neighbours[cell] | {cell})
    placed = [(r, c) for r, c, _ in problem.placed]
    taken = set(board.blocked) | set(placed)
    if problem.independent:
        taken.update(*(board.neighbours[cell] for cell in placed))
    covered = set(placed).union(*(board.neighbours[cell] for cell in placed))
    return {
        "attack": attack,
        "closed": closed,
        "avail": mask(cell for cell in board.cells if cell not in taken),
        "covered": mask(covered),
        "target": mask(board.free),
    }


def _clock(time_limit: object) -> Deadline | None:
    """The deadline of ``time_limit`` (checked), started now; None without a limit."""
    limit = check_time_limit(time_limit)
    return None if limit is None else Deadline(limit)


def _run(step: Callable[[int], int], clock: Deadline | None) -> None:
    """Call ``step(CHUNK)`` until the search is exhausted, checking the clock between calls."""
    from cpqueens.kernels.cells import PAUSED

    chunks = 0
    try:
        while step(CHUNK) == PAUSED:
            chunks += 1
            if clock is not None:
                clock.check()
    except KeyboardInterrupt as stop:  # Ctrl-C, seen between two chunks (or SIGTERM's)
        if isinstance(stop, CountInterrupted):
            raise
        detail = (
            f"the compiled count stopped after {plural(chunks, 'chunk')} of {CHUNK:,} nodes; "
            "nothing is saved, and there is no count"
        )
        raise CountInterrupted(0, 1, None, detail) from stop


def count(
    problem: CellProblem,
    size: int | None,
    *,
    unique: bool = False,
    time_limit: float | None = None,
    deadline: Deadline | None = None,
    run: Any = None,
) -> int:
    """The exact number of solutions with ``size`` pieces; a time limit raises, never a part.

    The limit is ``deadline`` (the caller's clock) or ``time_limit`` seconds from now.
    ``run``: the task's runner of parts, for the domination count (which runs in parts).
    """
    if not supports(problem, size, unique):
        raise NotSupportedError(
            "the compiled cell counter counts one army, of a given size, without quotas"
        )
    clock = deadline if deadline is not None else _clock(time_limit)
    if size is not None and domination.applies(problem):
        return domination.count(problem, size, unique=unique, deadline=clock, run=run)
    from cpqueens.kernels import cells as kernels

    placed = [(r, c) for r, c, _ in problem.placed]
    if not _placed_fit(problem):
        return 0
    assert size is not None
    more = size - len(placed)
    if more < 0:
        return 0
    m = _masks(problem)
    if problem.dominating:
        left, cover, counters = kernels.dominating_state(m["avail"], m["covered"], more)
        _run(
            lambda budget: kernels.dominating_count(
                m["closed"],
                m["attack"],
                m["target"],
                left,
                cover,
                counters,
                more,
                problem.independent,
                budget,
            ),
            clock,
        )
        return int(counters[1])
    return _independent(problem, m, more, clock)[more]


def _independent(
    problem: CellProblem, m: dict[str, np.ndarray], most: int, clock: Deadline | None
) -> list[int]:
    """``counts[k]`` for k = 0..most: the sets of k free cells (independent if asked)."""
    from cpqueens.kernels import cells as kernels

    attack = m["attack"] if problem.independent else m["attack"] & 0
    stack, found, counters = kernels.independent_state(m["avail"], most)
    _run(
        lambda budget: kernels.independent_counts(attack, stack, found, counters, budget),
        clock,
    )
    return [int(v) for v in found]


def counts(problem: CellProblem, time_limit: float | None = None) -> list[int]:
    """``counts[k]``: the solutions with k pieces, for every k (independent, not dominating)."""
    if not supports(problem) or problem.dominating or not problem.independent:
        raise NotSupportedError("all sizes at once: one army of independent pieces only")
    clock = _clock(time_limit)
    placed = [(r, c) for r, c, _ in problem.placed]
    if not _placed_fit(problem):
        return [0] * (len(problem.board.cells) + 1)
    m = _masks(problem)
    found = _independent(problem, m, len(problem.board.cells) - len(placed), clock)
    return [0] * len(placed) + found


#: Why the compiled engine does not optimise a statement.
REFUSED_OPTIMISATION = (
    "the compiled engine optimises two peaceable armies without placed pieces, and the "
    "fewest queens dominating a free square board, only"
)


def runs_parts(problem: CellProblem, sense: str) -> bool:
    """Whether ``optimise`` takes a runner of parts for ``problem``.

    Queens dominating a free square board, or peaceable armies on one.
    """
    from cpqueens.backends.bitmask import pairs

    return domination.runs_parts(problem, sense) or pairs.runs_parts(problem, sense)


def supports_optimise(problem: CellProblem, sense: str) -> bool:
    """Whether the compiled engine optimises ``problem``: peaceable armies, or domination.

    The largest two peaceable armies, or the fewest queens dominating a free square board.
    """
    from cpqueens.backends.bitmask import lines as cells_lines

    if sense == "minimize":
        return domination.applies(problem)
    return sense == "maximize" and cells_lines.supports(problem)


def optimise(
    problem: CellProblem,
    sense: str = "maximize",
    *,
    deadline: Deadline | None = None,
    run: Any = None,
    **options: Any,
) -> Any:
    """The largest peaceable armies, or the fewest queens dominating a free square board.

    The armies on a free square board by :mod:`~cpqueens.backends.bitmask.pairs`,
    on any other board by the line-label branch-and-bound (:mod:`cells_lines`), the
    queens by :mod:`~cpqueens.backends.bitmask.domination` (the parts of both
    through ``run``, the task's runner, when there is one).
    """
    from cpqueens.backends.bitmask import lines as cells_lines

    if not supports_optimise(problem, sense):
        raise NotSupportedError(REFUSED_OPTIMISATION)
    if sense == "minimize":
        return domination.optimise(problem, sense, deadline=deadline, run=run, **options)
    from cpqueens.backends.bitmask import pairs  # peaceable armies on a free square board

    if pairs.applies(problem):
        return pairs.optimise(problem, sense, deadline=deadline, run=run, **options)
    time_limit = None if deadline is None else deadline.left()  # the line search runs in slices
    return cells_lines.optimise(problem, sense, time_limit=time_limit, **options)
