"""python-constraint states a cell problem: one 0/1 variable per free cell and army.

The statement, with python-constraint's own constraints (a comment before each
block in :func:`build`):

- the variable ``(army, row, col)`` is 1 when a piece of that army stands on
  the free cell; blocked cells have none, a placed piece's domain is ``[1]``;
- one army, independent: ``MaxSumConstraint(1)`` over the free cells of each
  line of the attack relation;
- two armies: ``MaxSumConstraint(1)`` over a cell's two variables, and, when
  independent, over ``(0, a)`` and ``(1, b)`` for every two cells a, b that
  attack each other;
- dominating: ``MinSumConstraint(1)`` over each free cell and the free cells
  attacking it, every army;
- quotas: ``ExactSumConstraint(k)`` over the free cells of each row, column
  or region;
- the size: ``ExactSumConstraint(k)`` over each army (or ``MinSumConstraint``
  / ``MaxSumConstraint`` for a bound); two armies of any size:
  ``ExactSumConstraint(0)`` with multipliers 1 and -1.

A constraint that checks the clock on every assignment ends a search at its
time limit (``IncompleteSearchError``, never a partial count) and lets Ctrl-C
through. No symmetry breaking: class counts are CP-SAT's. :func:`optimise`
steps the size and proves each step by exhausting the next one: exact, and
for small boards only.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import islice
from typing import Any, Literal

import constraint as pc

from cpqueens.backends.outcome import Outcome, Progress
from cpqueens.clock import Deadline
from cpqueens.errors import IncompleteSearchError, InvalidSolutionError, NotSupportedError
from cpqueens.expressions import CondNode, evaluate, reads
from cpqueens.vocabulary.cells import Cell, CellProblem, Piece
from cpqueens.vocabulary.checks import check_time_limit

NAME = "python-constraint"
Sense = Literal["maximize", "minimize"]


#: The most free cells (times armies) a cross-check hands python-constraint: its search over
#: 0/1 cells answers a 6 x 6 Star Battle in about a second, an 8 x 8 one in minutes.
QUICK_CELLS = 36


def refusal(problem: CellProblem) -> str | None:
    """Why python-constraint will not state this cell form (None: it states every one)."""
    return None


def quick(problem: CellProblem) -> str | None:
    """Why a cross-check leaves this engine out (too many cells to answer soon), or None."""
    cells = len(problem.board.free) * problem.armies
    if cells > QUICK_CELLS:
        return f"{cells} free cells, more than the {QUICK_CELLS} it answers in seconds"
    return None


class Clock(pc.Constraint):
    """A constraint that always holds but raises ``IncompleteSearchError`` past a deadline.

    Stated over every variable, it runs (as Python code) on each assignment,
    so a time limit ends the search within an assignment and Ctrl-C is seen
    at once.
    """

    def __init__(self, deadline: Deadline | None) -> None:
        """Keep the deadline (None: no limit, only Ctrl-C)."""
        self.deadline = deadline

    def __call__(self, *args: object, **kwargs: object) -> bool:
        """True, or the deadline's error once it has passed."""
        if self.deadline is not None:
            self.deadline.check()
        return True


def build(
    problem: CellProblem,
    size: int | None = None,
    *,
    at_least: int | None = None,
    at_most: int | None = None,
    deadline: Deadline | None = None,
) -> pc.Problem | None:
    """The ``constraint.Problem`` of ``problem``; None when it has no variable at all.

    The rules are the cell form's primitives (:mod:`cpqueens.lowering.primitives`),
    one block each, over one variable per free cell and army (a blocked cell's
    is the constant 0). ``size`` fixes the pieces per army, ``at_least`` /
    ``at_most`` bound them.
    """
    from cpqueens.lowering.primitives import primitives

    board = problem.board
    free = set(board.free)
    if not free:
        return None
    stated = primitives(problem, size)
    ones = {variable for variable, value in stated.fixed if value == 1}
    csp = pc.Problem()
    # x[army, cell] in {0, 1}; a placed piece's is 1; a blocked cell has none (0).
    variables = [(army, r, c) for army, (r, c) in stated.variables if (r, c) in free]
    for army, r, c in variables:
        csp.addVariable((army, r, c), [1] if (army, (r, c)) in ones else [0, 1])

    def names(group: tuple[tuple[int, Cell], ...]) -> list[tuple[int, int, int]]:
        return [(army, r, c) for army, (r, c) in group if (r, c) in free]

    # At most one piece on each attack line (one army), in each cell (two armies).
    for group in stated.at_most_one:
        csp.addConstraint(pc.MaxSumConstraint(1), names(group))
    # Every free cell occupied or attacked.
    for group in stated.at_least_one:
        csp.addConstraint(pc.MinSumConstraint(1), names(group))
    # Quotas and the size asked (a quota on no free cell is _may_fit's to answer).
    for group, k in stated.exactly:
        if names(group):
            csp.addConstraint(pc.ExactSumConstraint(k), names(group))
    # Two armies of equal size (when no size is asked).
    if stated.equal is not None and size is None:
        white, black = names(stated.equal[0]), names(stated.equal[1])
        weights = [1] * len(white) + [-1] * len(black)
        csp.addConstraint(pc.ExactSumConstraint(0, weights), white + black)
    # Peaceable: no piece of army 0 on a line with one of army 1, pair by pair.
    pairs = {
        (w, b)
        for white, black in stated.apart
        for w in names(white)
        for b in names(black)
        if w[1:] != b[1:]
    }
    for pair in sorted(pairs):
        csp.addConstraint(pc.MaxSumConstraint(1), list(pair))
    # Bounds on each army's size (the optimisation's steps).
    for army in range(stated.armies):
        mine = [(army, r, c) for r, c in board.free]
        if at_least is not None:
            csp.addConstraint(pc.MinSumConstraint(at_least), mine)
        if at_most is not None:
            csp.addConstraint(pc.MaxSumConstraint(at_most), mine)
    # Users' conditions over x[r, c]: checked once every cell they read has a value.
    for condition in stated.conditions:
        read = [(r, c) for r, c in reads(condition)]
        cells = [(0, r, c) for r, c in read if (r, c) in free]

        def holds(*values: int, condition: CondNode = condition, read: list = read) -> bool:
            grid = [[0] * board.cols for _ in range(board.rows)]
            free_values = iter(values)
            for r, c in read:
                grid[r][c] = next(free_values) if (r, c) in free else 0
            return bool(evaluate(condition, grid))

        if cells:
            csp.addConstraint(pc.FunctionConstraint(holds), cells)
        elif not holds():
            return None  # a condition on blocked cells only, false: no solution
    csp.addConstraint(Clock(deadline), variables)
    return csp


def _may_fit(
    problem: CellProblem, size: int | None, at_least: int | None, at_most: int | None
) -> bool:
    """False when the placed pieces or the sizes rule out every solution before any search.

    python-constraint's preprocessing fails on a domain it empties (placed
    pieces that attack each other, a size below the placed pieces'): the
    common cases are answered here, the rest where :func:`_search` catches it.
    """
    board, placed = problem.board, problem.placed
    cells = [(r, c) for r, c, _ in placed]
    if len(set(cells)) != len(cells) or set(cells) & set(board.blocked):
        return False
    if problem.independent and any(
        (a != b or problem.armies == 1) and board.attacks((r, c), (r2, c2))
        for r, c, a in placed
        for r2, c2, b in placed
    ):
        return False
    blocked = set(board.blocked)
    for quota in problem.quotas:
        if sum(1 for cell in quota.cells if cell not in blocked) < quota.k:
            return False
    mine = [sum(1 for *_, a in placed if a == army) for army in range(problem.armies)]
    most = len(board.free) // problem.armies  # two armies hold as many pieces each
    low = max(v for v in (size, at_least, 0) if v is not None)
    high = min(v for v in (size, at_most, most) if v is not None)
    return max(mine, default=0) <= high and low <= high


def _search(
    problem: CellProblem,
    size: int | None,
    at_least: int | None,
    at_most: int | None,
    deadline: Deadline | None,
) -> Iterator[tuple[Piece, ...]]:
    """Every solution as sorted (row, col, army) triples, in the solver's order."""
    if not _may_fit(problem, size, at_least, at_most):
        return
    csp = build(problem, size, at_least=at_least, at_most=at_most, deadline=deadline)
    if csp is None:  # no free cell: the empty set is the only candidate
        fits = (size is None or size == 0) and (at_least is None or at_least <= 0)
        if fits and problem.check(()) is None:
            yield ()
        return
    try:
        found_all = csp.getSolutionIter()
    except ValueError as error:
        # python-constraint 2.9's preprocessing (the sum constraints' bounds) raises on a
        # domain it has emptied, "min() arg is an empty sequence": no value is left for
        # some cell, so there is no solution (a 1x1 board dominated by 0 pieces, say).
        if "empty sequence" not in str(error):
            raise
        return
    for found in found_all:
        pieces = tuple(sorted((r, c, army) for (army, r, c), value in found.items() if value))
        why = problem.check(pieces)
        if why is not None:
            raise InvalidSolutionError(
                f"internal error: python-constraint returned {pieces}, but {why}"
            )
        yield pieces


def _clock(time_limit: object, deadline: Deadline | None = None) -> Deadline | None:
    """The caller's ``deadline``, or one of ``time_limit`` seconds from now (None: no limit)."""
    if deadline is not None:
        return deadline
    limit = check_time_limit(time_limit)
    return None if limit is None else Deadline(limit)


def solutions(
    problem: CellProblem,
    size: int | None = None,
    *,
    unique: bool = False,
    at_least: int | None = None,
    at_most: int | None = None,
    time_limit: float | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
) -> Iterator[tuple[Piece, ...]]:
    """Every solution (``size`` pieces per army, or between the bounds), at most ``limit``, lazily.

    Each is a sorted tuple of (row, col, army) triples; the order is the
    solver's. A time limit that ends the search raises ``IncompleteSearchError``.
    """
    if unique:
        raise NotSupportedError("python-constraint does not break symmetries: no class counts")
    found = _search(problem, size, at_least, at_most, _clock(time_limit, deadline))
    yield from found if limit is None else islice(found, limit)


def count(
    problem: CellProblem,
    size: int | None = None,
    *,
    unique: bool = False,
    at_least: int | None = None,
    at_most: int | None = None,
    time_limit: float | None = None,
) -> int:
    """The exact number of solutions; a time limit that ends the search raises."""
    found = solutions(
        problem, size, unique=unique, at_least=at_least, at_most=at_most, time_limit=time_limit
    )
    return sum(1 for _ in found)


def optimise(
    problem: CellProblem,
    sense: Sense,
    *,
    time_limit: float | None = None,
    progress: Progress | None = None,
    deadline: Deadline | None = None,
    **_options: Any,
) -> Outcome:
    """The largest or smallest solution, proved by exhausting the next size: small boards only.

    Minimise: k = 0, 1, ...: the first k with a solution of exactly k pieces
    per army is the minimum (each smaller k was exhausted: a proved bound).
    Maximise: k grows from the placed pieces' count until k + 1 has none.
    Without conditions or domination the sizes that have solutions are
    consecutive (removing a piece keeps a solution), so each step searches
    an exact size; otherwise a solution of at least k + 1 after one of k (a
    condition may force pieces, domination may need them).
    Quotas fix the size: that size is searched alone. A time limit gives
    the best found, "feasible", with the bound proved so far (a maximum's:
    the free cells per army).
    """
    start = time.perf_counter()
    deadline = _clock(time_limit, deadline)
    best: tuple[Piece, ...] | None = None
    free = len(problem.board.free) // problem.armies
    placed = max(sum(1 for *_, a in problem.placed if a == army) for army in (0, 1))
    bound = free if sense == "maximize" else placed

    def size(pieces: tuple[Piece, ...]) -> int:
        return sum(1 for *_, army in pieces if army == 0)

    def report(found: tuple[Piece, ...]) -> None:
        if progress is not None:
            progress(size(found), bound, time.perf_counter() - start)

    try:
        if problem.size is not None:  # the quotas fix the size: nothing to step
            bound = problem.size
            best = next(_search(problem, problem.size, None, None, deadline), None)
        elif sense == "minimize":
            for k in range(placed, free + 1):
                bound = k
                best = next(_search(problem, k, None, None, deadline), None)
                if best is not None:
                    report(best)
                    break
        else:
            # Without conditions or domination, removing a piece (one of each army) keeps a
            # solution: the sizes with solutions are consecutive, and an exact size is the
            # quicker search. Otherwise a solution of at least k + 1 after one of k.
            exact = not (problem.conditions or problem.dominating)
            k = placed
            while True:
                if exact:
                    found = next(_search(problem, k, None, None, deadline), None)
                else:
                    found = next(_search(problem, None, k, None, deadline), None)
                if found is None:
                    break
                best, k = found, size(found) + 1
                report(found)
    except IncompleteSearchError:
        if best is None:
            shown = deadline.time_limit if deadline is not None else time_limit
            raise IncompleteSearchError(
                f"python-constraint found no solution before the time limit of {shown:g} s"
            ) from None
        seconds = time.perf_counter() - start
        return Outcome("feasible", size(best), bound, best, seconds)
    seconds = time.perf_counter() - start
    if best is None:
        return Outcome("infeasible", None, None, (), seconds)
    return Outcome("optimal", size(best), size(best), best, seconds)
