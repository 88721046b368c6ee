"""CP-SAT states a cell problem: 0/1 variables per cell and army, optimised or enumerated.

The statement (see :meth:`CellProblem.describe`), a comment before each block:

- one army, independent: at most one piece on each line of the attack
  relation (a clique: a row, a diagonal, a knight's pair);
- two armies: no cell holds both; ``has_w[line] = max(w on the line)`` and no
  ``b`` on a line that has a ``w`` (same-army attacks are allowed);
- dominating: every free cell is occupied or attacked, a clause over its
  closed neighbourhood;
- quotas: a linear sum over the free cells of each row, column or region
  equal to its quota (``x`` on a blocked cell is 0);
- symmetry: ``x >=lex g(x)`` for every element g of the problem's group (board
  symmetries, and the colour swap for two armies), over the cells row by row
  (army 0 first). Exactly one member of each class (orbit) satisfies all of
  them, so counting under them counts classes, and an optimum is kept.

Every auxiliary variable is a function of the cell variables, so enumeration
counts each solution once. Enumeration uses one worker (parallel enumeration
loses solutions); optimisation may use several.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Literal

from cpqueens.backends.cpsat.solve import run
from cpqueens.backends.outcome import Outcome, Progress
from cpqueens.errors import IncompleteSearchError, InvalidSolutionError
from cpqueens.vocabulary.cells import Cell, CellProblem, Piece

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

Sense = Literal["maximize", "minimize"]


def build(
    problem: CellProblem,
    *,
    size: int | None = None,
    symmetry: bool = False,
    sense: Sense | None = None,
) -> tuple[cp_model.CpModel, list[dict[Cell, cp_model.IntVar]]]:
    """The CP-SAT model of ``problem`` and its variables ``x[army][cell]``.

    ``size`` fixes the number of pieces per army; ``symmetry`` adds the
    lex-leader constraints of the problem's group; ``sense`` sets the
    objective (the pieces of army 0).
    """
    from ortools.sat.python import cp_model

    board = problem.board
    cp = cp_model.CpModel()
    x = [
        {cell: cp.new_bool_var(f"x{army}_{cell[0]}_{cell[1]}") for cell in board.cells}
        for army in range(problem.armies)
    ]
    # No piece on a blocked cell; the placed pieces stand.
    for cell in board.blocked:
        for army in range(problem.armies):
            cp.add(x[army][cell] == 0)
    for r, c, army in problem.placed:
        cp.add(x[army][(r, c)] == 1)
    free_lines = [[cell for cell in line if cell not in board.blocked] for line in board.lines]
    free_lines = [line for line in free_lines if len(line) >= 2]
    if problem.armies == 1:
        # Independent: at most one piece on each line of the attack relation.
        if problem.independent:
            for line in free_lines:
                cp.add_at_most_one(x[0][cell] for cell in line)
    else:
        w, b = x
        # No cell holds two pieces; the armies have the same size.
        for cell in board.free:
            cp.add_at_most_one(w[cell], b[cell])
        cp.add(sum(w.values()) == sum(b.values()))
        # Peaceable: a line holding a white piece holds no black one.
        if problem.independent:
            for i, line in enumerate(free_lines):
                has_white = cp.new_bool_var(f"has_w{i}")
                cp.add_max_equality(has_white, [w[cell] for cell in line])
                for cell in line:
                    cp.add_implication(b[cell], ~has_white)
    # Dominating: each free cell is occupied or attacked.
    if problem.dominating:
        for cell in board.free:
            cover = [cell, *sorted(board.neighbours[cell] - set(board.blocked))]
            cp.add_bool_or([x[army][d] for army in range(problem.armies) for d in cover])
    # Quotas: exactly k pieces on the free cells of each row, column, region.
    for quota in problem.quotas:
        cp.add(sum(x[0][cell] for cell in quota.cells) == quota.k)
    # Users' conditions over x[r, c] (army 0's pieces).
    if problem.conditions:
        from cpqueens.backends.cpsat import Conditions

        grid = [[x[0][(r, c)] for c in range(board.cols)] for r in range(board.rows)]
        translator = Conditions(cp, grid, 2)
        for condition in problem.conditions:
            translator.post(condition)
    if size is not None:
        cp.add(sum(x[0].values()) == size)
    if symmetry:
        add_lex_leader(cp, problem, x)
    if sense == "maximize":
        cp.maximize(sum(x[0].values()))
    elif sense == "minimize":
        cp.minimize(sum(x[0].values()))
    return cp, x


def maximal_armies(problem: CellProblem) -> bool:
    """Whether ``optimise`` may search mutually maximal armies only (see :func:`build_maximal`)."""
    return (
        problem.armies == 2
        and problem.independent
        and not problem.dominating
        and not problem.placed
    )


def build_maximal(
    problem: CellProblem, *, symmetry: bool = False
) -> tuple[cp_model.CpModel, list[dict[Cell, cp_model.IntVar]]]:
    """Peaceable armies as mutually maximal pairs: maximise ``min(|W|, |B|)``.

    Every peaceable pair (W, B) grows into one where B is every free cell that
    W neither holds nor attacks, and W every free cell that B neither holds
    nor attacks (take B' = free - N[W], then W' = free - N[B']: B' is then
    free - N[W'] too). Both armies only grow, and removing pieces keeps the
    peace, so the largest ``min(|W|, |B|)`` over these pairs is the optimum
    of equal armies, and the search only meets pairs where each army is a
    function of the other. The pairs are closed under the board symmetries
    and the colour swap, so the same lex-leader constraints apply. For
    optimisation only: counts use :func:`build`.
    """
    from ortools.sat.python import cp_model

    board = problem.board
    cp = cp_model.CpModel()
    x = [
        {cell: cp.new_bool_var(f"x{army}_{cell[0]}_{cell[1]}") for cell in board.cells}
        for army in range(2)
    ]
    free = set(board.free)
    for cell in board.blocked:
        cp.add(x[0][cell] == 0)
        cp.add(x[1][cell] == 0)
    free_lines = [[cell for cell in line if cell in free] for line in board.lines]
    free_lines = [line for line in free_lines if len(line) >= 2]
    # has[army][i]: line i holds a piece of that army
    has = [[cp.new_bool_var(f"has{army}_{i}") for i in range(len(free_lines))] for army in (0, 1)]
    through: dict[Cell, list[int]] = {cell: [] for cell in free}
    for i, line in enumerate(free_lines):
        for army in (0, 1):
            cp.add_max_equality(has[army][i], [x[army][cell] for cell in line])
        for cell in line:
            through[cell].append(i)
    for cell in board.free:
        for army in (0, 1):
            # a piece of this army on the cell <-> the other army neither holds nor attacks it
            other = 1 - army
            quiet = [~x[other][cell], *(~has[other][i] for i in through[cell])]
            cp.add_bool_and(quiet).only_enforce_if(x[army][cell])
            cp.add_bool_or([x[army][cell], *(~lit for lit in quiet)])
    if symmetry:
        add_lex_leader(cp, problem, x)
    smaller = cp.new_int_var(0, len(free), "smaller_army")
    cp.add(smaller <= sum(x[0].values()))
    cp.add(smaller <= sum(x[1].values()))
    cp.maximize(smaller)
    return cp, x


def add_lex_leader(
    cp: cp_model.CpModel, problem: CellProblem, x: list[dict[Cell, cp_model.IntVar]]
) -> None:
    """``x >=lex g(x)`` for each element g of the problem's group but the identity.

    Positions are (army, row, col) in order; ``g(x)`` at (a, cell) reads
    ``x[a'][g(cell)]`` with a' the other army when g swaps them (the group is
    closed under inverses, so reading through g or its inverse states the same
    set of constraints). "Equal so far" literals ``e`` are fully determined by
    x: ``e' <-> e and (x_i == y_i)``, written with clauses.
    """
    board = problem.board
    order = [(army, cell) for army in range(problem.armies) for cell in board.cells]
    for name, swap in problem.symmetries[1:]:
        pairs = []
        for army, cell in order:
            a = x[army][cell]
            b = x[1 - army if swap else army][board.transform(name, cell)]
            if a is not b:
                pairs.append((a, b))
        equal = None  # "every earlier position is equal": True at the start
        for i, (a, b) in enumerate(pairs):
            # a >= b while the prefix is equal
            ge = cp.add_bool_or([a, ~b])
            if equal is not None:
                ge.only_enforce_if(equal)
            if i == len(pairs) - 1:
                break
            # next <-> equal and (a == b); under equal, a >= b already holds, so a == b is (~a or b)
            nxt = cp.new_bool_var(f"lex_{name}_{swap}_{i}")
            before = [] if equal is None else [~equal]
            cp.add_bool_or([~nxt, ~a, b])
            cp.add_bool_or([*before, a, nxt])
            cp.add_bool_or([*before, ~b, nxt])
            if equal is not None:
                cp.add_implication(nxt, equal)
            equal = nxt


def _pieces(value: Callable[[Any], int], x: list[dict[Cell, cp_model.IntVar]]) -> tuple[Piece, ...]:
    return tuple(
        (r, c, army) for army, cells in enumerate(x) for (r, c), var in cells.items() if value(var)
    )


def _checked(problem: CellProblem, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    why = problem.check(pieces)
    if why is not None:
        raise InvalidSolutionError(f"internal error: CP-SAT returned {pieces}, but {why}")
    return pieces


def optimise(
    problem: CellProblem,
    sense: Sense,
    *,
    time_limit: float | None = None,
    workers: int = 2,
    symmetry: bool = True,
    progress: Progress | None = None,
) -> Outcome:
    """Maximise or minimise the size of a solution; "optimal" only with CP-SAT's proof."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    maximal = sense == "maximize" and maximal_armies(problem)
    if maximal:
        cp, x = build_maximal(problem, symmetry=symmetry)
    else:
        cp, x = build(problem, symmetry=symmetry, sense=sense)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(time_limit, 1e-3)

    callback = None
    if progress is not None:

        class Report(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                progress(
                    round(self.objective_value),
                    _whole(self.best_objective_bound, sense),
                    self.wall_time,
                )

        callback = Report()
    status = run(solver, cp, callback)
    seconds = time.perf_counter() - start
    if status == cp_model.INFEASIBLE:
        return Outcome("infeasible", None, None, (), seconds)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise IncompleteSearchError(
            f"CP-SAT found no solution before it stopped ({solver.status_name(status)}); "
            "give it more time"
        )
    value = round(solver.objective_value)
    pieces = _pieces(solver.boolean_value, x)
    if maximal:  # the first ``value`` pieces of each army: fewer pieces keep the peace
        pieces = tuple(
            piece for army in (0, 1) for piece in [p for p in pieces if p[2] == army][:value]
        )
    pieces = _checked(problem, pieces)
    if status == cp_model.OPTIMAL:
        return Outcome("optimal", value, value, pieces, seconds)
    return Outcome("feasible", value, _whole(solver.best_objective_bound, sense), pieces, seconds)


def _whole(bound: float, sense: Sense) -> int:
    """The bound as an int that stays a true bound: a maximum's rounds down, a minimum's up."""
    return math.floor(bound + 1e-6) if sense == "maximize" else math.ceil(bound - 1e-6)


def supports(problem: CellProblem, size: int | None = None, unique: bool = False) -> bool:
    """CP-SAT counts every cell problem, of any or a given size, solutions or classes."""
    return True


def count(
    problem: CellProblem,
    size: int | None = None,
    *,
    unique: bool = False,
    time_limit: float | None = None,
) -> int:
    """The exact number of solutions (of ``size`` pieces per army), or of their classes."""
    total = 0

    def tally(pieces: tuple[Piece, ...]) -> None:
        nonlocal total
        _checked(problem, pieces)
        total += 1

    _enumerate(problem, size, unique, time_limit, tally)
    return total


def solutions(
    problem: CellProblem,
    size: int | None = None,
    *,
    unique: bool = False,
    time_limit: float | None = None,
) -> Iterator[tuple[Piece, ...]]:
    """Every solution (one per class if ``unique``), enumerated by one CP-SAT worker.

    The solutions are collected by the search, then yielded; a time limit that
    ends the search first raises ``IncompleteSearchError``.
    """
    found: list[tuple[Piece, ...]] = []
    _enumerate(problem, size, unique, time_limit, found.append)
    for pieces in found:
        yield _checked(problem, pieces)


def _enumerate(
    problem: CellProblem,
    size: int | None,
    unique: bool,
    time_limit: float | None,
    report: Callable[[tuple[Piece, ...]], None],
) -> None:
    """Hand every solution to ``report``; raise if the search stops before the end."""
    from ortools.sat.python import cp_model

    cp, x = build(problem, size=size, symmetry=unique)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # parallel enumeration loses solutions
    solver.parameters.enumerate_all_solutions = True
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(time_limit, 1e-3)
    seen = 0

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            nonlocal seen
            seen += 1
            report(_pieces(self.boolean_value, x))

    status = run(solver, cp, Collect())
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        raise IncompleteSearchError(
            f"CP-SAT stopped after {seen} solutions before it had seen them all "
            f"({solver.status_name(status)}): no count"
        )
