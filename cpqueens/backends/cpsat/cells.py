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
from cpqueens.clock import Deadline
from cpqueens.errors import IncompleteSearchError, InvalidSolutionError
from cpqueens.vocabulary import bounds
from cpqueens.vocabulary.cells import Cell, CellProblem, Piece
from cpqueens.words import plural

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

Sense = Literal["maximize", "minimize"]


def build(
    problem: CellProblem,
    *,
    size: int | None = None,
    symmetry: bool = False,
    sense: Sense | None = None,
    deadline: Deadline | None = None,
) -> tuple[cp_model.CpModel, list[dict[Cell, cp_model.IntVar]]]:
    """The CP-SAT model of ``problem`` and its variables ``x[army][cell]``.

    The rules are the cell form's primitives (:mod:`cpqueens.lowering.primitives`),
    one block each; ``size`` fixes the number of pieces per army; ``symmetry``
    adds the lex-leader constraints of the problem's group; ``sense`` sets the
    objective (the pieces of army 0). A statement larger than ``MAX_TERMS`` is
    refused at once; ``deadline`` is checked while it is stated.
    """
    from ortools.sat.python import cp_model

    from cpqueens.lowering.primitives import primitives

    check_statement(problem, symmetry)
    stated = primitives(problem, size)
    cp = cp_model.CpModel()
    x = [
        {cell: cp.new_bool_var(f"x{army}_{cell[0]}_{cell[1]}") for cell in stated.cells}
        for army in range(stated.armies)
    ]

    def var(variable: tuple[int, Cell]) -> cp_model.IntVar:
        return x[variable[0]][variable[1]]

    # Blocked cells hold no piece; placed pieces stand.
    for variable, value in stated.fixed:
        cp.add(var(variable) == value)
    # At most one piece on each attack line (one army), in each cell (two armies).
    for group in stated.at_most_one:
        cp.add_at_most_one(var(v) for v in group)
    # Every free cell occupied or attacked.
    for i, group in enumerate(stated.at_least_one):
        if deadline is not None and i % 64 == 0:
            deadline.check()
        cp.add_bool_or([var(v) for v in group])
    # Quotas and the size asked: exact sums.
    for group, k in stated.exactly:
        cp.add(sum(var(v) for v in group) == k)
    # Two armies of equal size.
    if stated.equal is not None:
        white, black = stated.equal
        cp.add(sum(var(v) for v in white) == sum(var(v) for v in black))
    # Peaceable: a line holding a piece of army 0 holds none of army 1.
    for i, (white, black) in enumerate(stated.apart):
        has_white = cp.new_bool_var(f"has_w{i}")
        cp.add_max_equality(has_white, [var(v) for v in white])
        for v in black:
            cp.add_implication(var(v), ~has_white)
    # Users' conditions over x[r, c] (army 0's pieces).
    if stated.conditions:
        from cpqueens.backends.cpsat.conditions import Conditions

        board = problem.board
        grid = [[x[0][(r, c)] for c in range(board.cols)] for r in range(board.rows)]
        translator = Conditions(cp, grid, 2)
        for condition in stated.conditions:
            translator.post(condition)
    if symmetry:
        add_lex_leader(cp, problem, x, deadline)
    if sense == "maximize":
        cp.maximize(sum(x[0].values()))
    elif sense == "minimize":
        cp.minimize(sum(x[0].values()))
    return cp, x


#: The most terms (a variable's appearance in a constraint) a CP-SAT statement of a cell
#: problem may hold: stated in a few seconds and well under a gigabyte (a 68 x 68 queens
#: domination); a larger one is refused at once.
MAX_TERMS = 1_000_000


def statement_terms(problem: CellProblem, symmetry: bool) -> int:
    """About how many terms :func:`build` states for ``problem``, counted from its lines."""
    board = problem.board
    lengths = [len(line) for line in board.lines]
    cells = board.rows * board.cols * problem.armies
    terms = cells + 3 * problem.armies * sum(lengths)  # the lines: has_w, implications
    if problem.dominating:
        terms += problem.armies * sum(k * k for k in lengths)  # each cell's cover
    terms += sum(len(q.cells) for q in problem.quotas)
    if symmetry:
        terms += 8 * cells * (len(problem.symmetries) - 1)  # lex-leader: 4 clauses a cell
    return terms


def check_statement(problem: CellProblem, symmetry: bool) -> None:
    """Refuse a problem whose CP-SAT statement would hold more than ``MAX_TERMS`` terms."""
    terms = statement_terms(problem, symmetry)
    if terms > MAX_TERMS:
        board = problem.board
        raise ValueError(
            f"CP-SAT would state this {board.rows}x{board.cols} cell problem in about "
            f"{terms:,} terms, more than the {MAX_TERMS:,} it states within a time limit "
            "and a gigabyte: use a smaller board"
        )


def maximal_armies(problem: CellProblem) -> bool:
    """Whether ``optimise`` may search mutually maximal armies only (see :func:`build_maximal`)."""
    return (
        problem.armies == 2
        and problem.independent
        and not problem.dominating
        and not problem.placed
        and not problem.conditions
    )


def build_maximal(
    problem: CellProblem, *, symmetry: bool = False, deadline: Deadline | None = None
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

    check_statement(problem, symmetry)
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
        add_lex_leader(cp, problem, x, deadline)
    most = bounds.upper(problem)  # a true bound on the smaller army (the lines' knapsack)
    smaller = cp.new_int_var(0, len(free) if most is None else most, "smaller_army")
    cp.add(smaller <= sum(x[0].values()))
    cp.add(smaller <= sum(x[1].values()))
    cp.maximize(smaller)
    return cp, x


def add_lex_leader(
    cp: cp_model.CpModel,
    problem: CellProblem,
    x: list[dict[Cell, cp_model.IntVar]],
    deadline: Deadline | None = None,
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
        if deadline is not None:
            deadline.check()
        pairs = []
        for army, cell in order:
            a = x[army][cell]
            b = x[1 - army if swap else army][board.transform(name, cell)]
            if a is not b:
                pairs.append((a, b))
        # "Every earlier position is equal": True at the start.
        equal: cp_model.BoolVarT | None = None
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
    deadline: Deadline | None = None,
    workers: int = 2,
    symmetry: bool = True,
    progress: Progress | None = None,
) -> Outcome:
    """Maximise or minimise the size of a solution; "optimal" only with CP-SAT's proof."""
    start = time.perf_counter()  # the first import of ortools counts against the limit too
    from ortools.sat.python import cp_model

    maximal = sense == "maximize" and maximal_armies(problem)
    if maximal:
        cp, x = build_maximal(problem, symmetry=symmetry, deadline=deadline)
    else:
        cp, x = build(problem, symmetry=symmetry, sense=sense, deadline=deadline)
    # The bound known before search (a theorem, the lines, the covering LP): a solution that
    # meets it is proved, and the search stops there. (Stated as a constraint, it slowed the
    # search for good solutions: 11 x 11 domination found 8 in 3 s, not 7.)
    if sense == "minimize":
        lp_seconds = None if deadline is None else deadline.left()
        known: int | None = max(bounds.lower(problem), cover_bound(problem, lp_seconds))
    else:
        known = bounds.upper(problem)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if deadline is not None:  # stating the model counted against the limit too
        if deadline.passed():
            raise IncompleteSearchError(
                f"the time limit of {deadline.time_limit:g} s ended while the model was being "
                "stated, before any solution; give it more time"
            )
        solver.parameters.max_time_in_seconds = max(deadline.left(), 1e-3)

    class Report(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            value = round(self.objective_value)
            if progress is not None:
                progress(value, _whole(self.best_objective_bound, sense), self.wall_time)
            if value == known:  # proved by the bound known before search
                self.stop_search()

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
    bound = _whole(solver.best_objective_bound, sense)
    if known is not None:  # the better of CP-SAT's bound and the one known before search
        bound = max(bound, known) if sense == "minimize" else min(bound, known)
    status_name: Literal["optimal", "feasible"] = "optimal" if bound == value else "feasible"
    return Outcome(status_name, value, bound, pieces, seconds)


#: The most entries (about cells times the cells covering each) of a covering LP that
#: :func:`cover_bound` solves: GLOP answers that size (a 16 x 16 queens board) in a tenth of a
#: second, and 20 x 20 in most of a second.
MAX_LP_ENTRIES = 15_000
#: The longest :func:`cover_bound` runs, in seconds (a quarter of a time limit if less).
LP_SECONDS = 0.5


def cover_bound(problem: CellProblem, time_limit: float | None = None) -> int:
    """A true lower bound on a dominating set: the covering LP's optimum, rounded up (else 0).

    Every free cell is covered by the pieces on it and on the cells attacking
    it: the linear relaxation of those sums >= 1 (with the lines' <= 1 when
    the pieces are independent, the placed pieces fixed) bounds the size from
    below. One army only; 0 for a problem without domination, or one too big
    for a quick LP, or an LP not solved to optimality.

    >>> from cpqueens.vocabulary.cells import CellBoard
    >>> cover_bound(CellProblem(CellBoard(4, 4, attack="king"), dominating=True))
    4
    """
    board = problem.board
    if not problem.dominating or problem.armies != 1:
        return 0
    if sum(len(line) ** 2 for line in board.lines) > MAX_LP_ENTRIES:
        return 0
    from ortools.linear_solver import pywraplp

    lp = pywraplp.Solver.CreateSolver("GLOP")
    if lp is None:
        return 0
    seconds = LP_SECONDS if time_limit is None else min(LP_SECONDS, time_limit / 4)
    lp.SetTimeLimit(max(1, int(seconds * 1000)))
    blocked = set(board.blocked)
    y = {cell: lp.NumVar(0, 0 if cell in blocked else 1, "") for cell in board.cells}
    for r, c, _ in problem.placed:
        y[(r, c)].SetLb(1)
    # Each free cell is covered: the sum over its closed neighbourhood >= 1, stated
    # coefficient by coefficient (expressions cost seconds at 30 x 30).
    for cell in board.free:
        cover = lp.Constraint(1, lp.infinity())
        cover.SetCoefficient(y[cell], 1)
        for other in board.neighbours[cell]:
            cover.SetCoefficient(y[other], 1)
    if problem.independent:
        for line in board.lines:
            most = lp.Constraint(0, 1)
            for cell in line:
                most.SetCoefficient(y[cell], 1)
    objective = lp.Objective()
    for var in y.values():
        objective.SetCoefficient(var, 1)
    objective.SetMinimization()
    if lp.Solve() != pywraplp.Solver.OPTIMAL:
        return 0
    return math.ceil(lp.Objective().Value() - 1e-6)


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
    deadline: Deadline | None = None,
    limit: int | None = None,
) -> int:
    """The exact number of solutions (of ``size`` pieces per army), or of their classes.

    With ``limit``, the count stops there: ``limit`` means at least that many.
    """
    total = 0

    def tally(pieces: tuple[Piece, ...]) -> None:
        nonlocal total
        _checked(problem, pieces)
        total += 1

    _enumerate(problem, size, unique, deadline, tally, limit)
    return total


def solutions(
    problem: CellProblem,
    size: int | None = None,
    *,
    unique: bool = False,
    deadline: Deadline | None = None,
    limit: int | None = None,
) -> Iterator[tuple[Piece, ...]]:
    """Every solution (one per class if ``unique``), enumerated by one CP-SAT worker.

    The solutions are collected by the search, then yielded; a time limit that
    ends the search first raises ``IncompleteSearchError``.
    """
    found: list[tuple[Piece, ...]] = []
    _enumerate(problem, size, unique, deadline, found.append, limit)
    for pieces in found:
        yield _checked(problem, pieces)


def _enumerate(
    problem: CellProblem,
    size: int | None,
    unique: bool,
    deadline: Deadline | None,
    report: Callable[[tuple[Piece, ...]], None],
    limit: int | None = None,
) -> None:
    """Hand every solution (the first ``limit``) to ``report``; raise if the search stops early."""
    from ortools.sat.python import cp_model

    try:
        cp, x = build(problem, size=size, symmetry=unique, deadline=deadline)
        if deadline is not None:  # stating the model counted against the limit too
            deadline.check()
    except IncompleteSearchError as error:
        raise IncompleteSearchError(f"{error}; 0 solutions found by then") from None
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # parallel enumeration loses solutions
    solver.parameters.enumerate_all_solutions = True
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(deadline.left(), 1e-3)
    seen = 0

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            nonlocal seen
            seen += 1
            report(_pieces(self.boolean_value, x))
            if seen == limit:
                self.stop_search()

    status = run(solver, cp, Collect())
    if seen != limit and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        if deadline is not None:  # the solver's time limit was the deadline's
            raise IncompleteSearchError(
                f"{deadline.error()}; {plural(seen, 'solution')} found by then"
            )
        raise IncompleteSearchError(
            f"CP-SAT stopped after {seen} solutions before it had seen them all "
            f"({solver.status_name(status)}): no count"
        )
