"""The default backend: OR-Tools CP-SAT solution enumeration.

The model reads like the mathematics: one integer variable per row and colour,
three AllDifferent constraints per colour. Enumeration always runs with exactly
one CP-SAT worker (parallel enumeration duplicates and loses solutions) and a
fixed search strategy (rows in order and smallest column first, which is both
faster and yields the solutions in lexicographic order; counting takes the row
with the fewest columns left first), and no inprocessing,
presolve, probing or LP relaxation (they cost more than they save here).
"""

from __future__ import annotations

import atexit
import queue
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ortools.sat.python import cp_model

from cpqueens.backends import Capabilities
from cpqueens.backends.cpsat.solve import run
from cpqueens.backends.translate import domains as cell_domains
from cpqueens.backends.translate import tight_regions, unsupported
from cpqueens.clock import Deadline
from cpqueens.errors import IncompleteSearchError
from cpqueens.expressions import (
    NEGATED,
    CellVar,
    Comparison,
    CondNode,
    Distinct,
    Element,
    IntNode,
    Logic,
    Truth,
    Var,
    bounds,
    evaluate,
    reads,
)
from cpqueens.vocabulary.constraints import (
    BUILT_IN_KINDS,
    AllDifferent,
    Disjoint,
    Invariant,
    KnightMoves,
    LexLeader,
    NoTouch,
    Regions,
    Toroidal,
    Where,
    lower,
)
from cpqueens.vocabulary.geometry import AFFINE

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem

#: The constraint classes this backend translates.
SUPPORTS = BUILT_IN_KINDS

NAME = "cpsat"
#: The widest board whose model CP-SAT builds and presolves within a time limit (n = 3,000:
#: 4 s past a 1 s limit; 10,000: still building after 20 s).
MAX_N = 1000

#: How messages name the solver.
TITLE = "CP-SAT"

#: Splits a symmetric model into lex-leader classes; decides with its own free search;
#: stopped by its own time limit and stop call.
CAPABILITIES = Capabilities(
    lex_leader_split=True,
    free_search=True,
    stops="solver",
    regions="cpqueens.backends.cpsat.regions",
    cells="cpqueens.backends.cpsat.cells",
    whole=True,
)

# How many solutions the solver thread may run ahead of a lazy consumer.
_QUEUE_SIZE = 256

# How often (seconds) a waiting thread looks again at a stop request or a full queue.
_POLL = 0.05


def build(
    model: Problem, lexicographic: bool = True
) -> tuple[cp_model.CpModel, list[list[cp_model.IntVar]]]:
    """Translate ``model.constraints`` into a CP-SAT model and its q[colour][row] variables.

    ``lexicographic`` fixes the search to rows in order, smallest column first, so
    that solutions come out in lexicographic order; otherwise (counting) the row
    with the fewest columns left goes first, a smaller search.
    """
    n, colours = model.n, model.colours
    domains, rest = cell_domains(n, colours, lower(model.constraints, SUPPORTS, n, colours))  # type: ignore[arg-type]
    all_different: list[AllDifferent] = []
    disjoint: list[Disjoint] = []
    symmetric: list[LexLeader | Invariant] = []
    variants: list[Toroidal | KnightMoves] = []
    conditions: list[Where] = []
    regions: list[Regions | NoTouch] = []
    for constraint in rest:
        if isinstance(constraint, (Regions, NoTouch)):
            regions.append(constraint)
        elif isinstance(constraint, (Toroidal, KnightMoves)):
            variants.append(constraint)
        elif isinstance(constraint, Where):
            conditions.append(constraint)
        elif isinstance(constraint, AllDifferent):
            all_different.append(constraint)
        elif isinstance(constraint, Disjoint):
            disjoint.append(constraint)
        elif isinstance(constraint, (LexLeader, Invariant)):
            symmetric.append(constraint)
        else:
            raise unsupported(NAME, constraint)

    cp = cp_model.CpModel()
    if any(not cells for colour_domains in domains for cells in colour_domains):
        # A row with no free cell: CP-SAT rejects empty domains, so state the
        # contradiction as an empty clause and keep the variables well-formed.
        cp.add_bool_or([])
        domains = [[cells or {0} for cells in colour_domains] for colour_domains in domains]
    q = [
        [
            cp.new_int_var_from_domain(
                cp_model.Domain.from_values(sorted(domains[colour][row])), f"q{colour}_{row}"
            )
            for row in range(n)
        ]
        for colour in range(colours)
    ]
    # No two queens of one colour share a column or a diagonal.
    for constraint in all_different:
        cp.add_all_different(q[constraint.colour][r] + constraint.offset * r for r in range(n))
    # No cell holds two queens: in every row the colours take different columns.
    for constraint in disjoint:
        for row in range(n):
            cp.add_all_different(q[colour][row] for colour in constraint.colours)
    # Toroidal queens: the diagonals taken mod n differ too.
    for variant in variants:
        row_vars = q[variant.colour]
        if isinstance(variant, Toroidal):
            for sign in (1, -1):
                wrapped = []
                for r, var in enumerate(row_vars):
                    d = cp.new_int_var(0, n - 1, f"t{variant.colour}_{sign}_{r}")
                    cp.add_modulo_equality(d, var + sign * r + n, n)  # non-negative: no sign issue
                    wrapped.append(d)
                cp.add_all_different(wrapped)
            continue
        # Superqueens: no knight's move, |q[r] - q[r+1]| != 2 and |q[r] - q[r+2]| != 1.
        for gap in (1, 2):
            for r in range(n - gap):
                cp.add(row_vars[r + gap] != row_vars[r] + 3 - gap)
                cp.add(row_vars[r + gap] != row_vars[r] - 3 + gap)
    # Regions: each row's queen lies in region grid[r][q[r]] (an element constraint, a
    # function of q), and the n rows' regions differ. No touching: |q[r] - q[r+1]| != 1.
    for constraint in regions:
        row_vars = q[constraint.colour]
        if isinstance(constraint, Regions):
            region = []
            for r, var in enumerate(row_vars):
                target = cp.new_int_var(0, n - 1, f"region{constraint.colour}_{r}")
                cp.add_element(var, list(constraint.grid[r]), target)
                region.append(target)
            cp.add_all_different(region)
            continue
        for r in range(n - 1):
            cp.add(row_vars[r + 1] != row_vars[r] + 1)
            cp.add(row_vars[r + 1] != row_vars[r] - 1)
    # The user's conditions, stated natively (linear terms, abs, modulo, reified logic).
    translator = Conditions(cp, q, n)
    for condition in conditions:
        translator.post(condition.condition)
    # Symmetry breaking: the solution against its images under board symmetries.
    if symmetric:
        _add_symmetry_constraints(cp, q, symmetric)
    # Rows in order, smallest column first: fast, and lexicographic; or fewest columns first.
    cp.add_decision_strategy(
        [var for colour_vars in q for var in colour_vars],
        cp_model.CHOOSE_FIRST if lexicographic else cp_model.CHOOSE_MIN_DOMAIN_SIZE,
        cp_model.SELECT_MIN_VALUE,
    )
    return cp, q


class Conditions:
    """Translate condition nodes into CP-SAT: every auxiliary variable is fixed by q.

    Integer nodes become linear expressions (``abs`` through
    ``add_abs_equality``, ``%`` through ``add_modulo_equality``, whose
    truncating result is moved up by the modulus when negative, as Python's
    sign rule asks); conditions are posted directly at the top level, and
    reified (a literal equivalent to the condition) under ``|`` and ``~``.
    Each auxiliary variable is a function of q, so every solution is
    enumerated exactly once.
    """

    def __init__(self, cp: cp_model.CpModel, q: list[list[Any]], n: int) -> None:
        """Translate into ``cp`` over the variables ``q[colour][row]`` of an n x n board.

        At the cell level ``q[row][col]`` is each cell's 0/1 variable (or 0 for
        a cell no piece may take), which ``x[row, col]`` nodes read.
        """
        self.cp, self.q, self.n = cp, q, n

    def term(self, node: IntNode) -> cp_model.LinearExpr | int:
        """A linear expression equal to the integer node."""
        cp = self.cp
        if isinstance(node, int):
            return node
        if isinstance(node, Var):
            return self.q[node.colour][node.row]
        if isinstance(node, CellVar):
            return self.q[node.row][node.col]
        if isinstance(node, Element):
            target = cp.new_int_var(min(node.values), max(node.values), "element")
            cp.add_element(self.term(node.index), list(node.values), target)
            return target
        if isinstance(node, Truth):
            return self.literal(node.condition)
        args = node.args
        if node.name == "+":
            return self.term(args[0]) + self.term(args[1])
        if node.name == "-":
            return self.term(args[0]) - self.term(args[1])
        if node.name == "neg":
            return -self.term(args[0])
        if node.name == "*":
            # One of the two is an int (the expression checks it); the stubs cannot know which.
            return self.term(args[0]) * self.term(args[1])  # type: ignore[operator]
        lo, hi = bounds(node, self.n)
        if node.name == "abs":
            target = cp.new_int_var(lo, hi, "abs")
            cp.add_abs_equality(target, self.term(args[0]))
            return target
        # %: CP-SAT truncates towards zero (the result takes the dividend's sign).
        modulus = args[1]
        assert isinstance(modulus, int)
        inner_lo, inner_hi = bounds(args[0], self.n)
        truncated = cp.new_int_var(
            max(-(modulus - 1), min(inner_lo, 0)), min(modulus - 1, max(inner_hi, 0)), "mod"
        )
        cp.add_modulo_equality(truncated, self.term(args[0]), modulus)
        if inner_lo >= 0:
            return truncated
        negative = cp.new_bool_var("mod_negative")
        cp.add(truncated < 0).only_enforce_if(negative)
        cp.add(truncated >= 0).only_enforce_if(~negative)
        return truncated + modulus * negative

    def post(self, node: CondNode) -> None:
        """Require the condition."""
        cp = self.cp
        if not reads(node):
            if not evaluate(node, ()):
                cp.add_bool_or([])  # false whatever the queens: no solution
            return
        if isinstance(node, Comparison):
            cp.add(self._compare(node.name, node))
        elif isinstance(node, Distinct):
            cp.add_all_different([self.term(arg) for arg in node.args])
        elif node.name == "and":
            for arg in node.args:
                self.post(arg)
        else:
            cp.add_bool_or([self.literal(node)])

    def literal(self, node: CondNode) -> cp_model.BoolVarT:
        """A Boolean literal equivalent to the condition (both ways)."""
        cp = self.cp
        if not reads(node):
            return cp.new_constant(int(bool(evaluate(node, ()))))
        if isinstance(node, Logic) and node.name == "not":
            return ~self.literal(node.args[0])
        if isinstance(node, Logic):
            parts = [self.literal(arg) for arg in node.args]
            result = cp.new_bool_var(node.name)
            if node.name == "and":
                cp.add_bool_and(parts).only_enforce_if(result)
                cp.add_bool_or([~part for part in parts]).only_enforce_if(~result)
            else:
                cp.add_bool_or(parts).only_enforce_if(result)
                cp.add_bool_and([~part for part in parts]).only_enforce_if(~result)
            return result
        if isinstance(node, Distinct):  # pairwise: reified all_different is not native
            pairs = [
                Comparison("!=", a, b) for i, a in enumerate(node.args) for b in node.args[i + 1 :]
            ]
            return self.literal(Logic("and", tuple(pairs)))
        result = cp.new_bool_var("cmp")
        cp.add(self._compare(node.name, node)).only_enforce_if(result)
        cp.add(self._compare(NEGATED[node.name], node)).only_enforce_if(~result)
        return result

    def _compare(self, name: str, node: Comparison) -> cp_model.BoundedLinearExpression:
        # The difference is an expression even when one side is an int.
        difference = self.term(node.lhs) - self.term(node.rhs)
        if isinstance(difference, int):  # both sides constant after all (x - x is not)
            difference = cp_model.LinearExpr.constant(difference)
        return {
            "==": lambda d: d == 0,
            "!=": lambda d: d != 0,
            "<": lambda d: d < 0,
            "<=": lambda d: d <= 0,
            ">": lambda d: d > 0,
            ">=": lambda d: d >= 0,
        }[name](difference)


def _add_symmetry_constraints(
    cp: cp_model.CpModel, q: list[list[cp_model.IntVar]], found: list[LexLeader | Invariant]
) -> None:
    """State ``LexLeader`` and ``Invariant`` over the images of q under board symmetries.

    Each colour's queens are a permutation, so an image is affine in q or in
    its inverse p (``vocabulary.geometry.AFFINE``). The lexicographic comparison
    uses one "equal so far" literal per position, fully determined by q, so
    every solution is enumerated exactly once.
    """
    n = len(q[0])
    inverse: list[list[cp_model.IntVar]] = []

    def images(name: str) -> list:
        reads_inverse, reverse, negate = AFFINE[name]
        if reads_inverse and not inverse:
            for colour, row_vars in enumerate(q):
                p = [cp.new_int_var(0, n - 1, f"p{colour}_{col}") for col in range(n)]
                cp.add_inverse(row_vars, p)
                inverse.append(p)
        result = []
        for colour in range(len(q)):
            x = inverse[colour] if reads_inverse else q[colour]
            for i in range(n):
                value = x[n - 1 - i if reverse else i]
                result.append(n - 1 - value if negate else value)
        return result

    flat = [var for row_vars in q for var in row_vars]
    for constraint in found:
        if isinstance(constraint, Invariant):
            for var, mapped in zip(flat, images(constraint.symmetry), strict=True):
                cp.add(var == mapped)
            continue
        for name in constraint.symmetries:
            mapped = images(name)
            # The literal "the positions before i are all equal"; none at i = 0.
            equal: cp_model.BoolVarT | None = None
            for i, (var, other) in enumerate(zip(flat, mapped, strict=True)):
                before = [equal] if equal is not None else []
                cp.add(var <= other).only_enforce_if(before)
                if i == len(flat) - 1:
                    break
                still = cp.new_bool_var(f"eq_{name}_{i}")
                if equal is not None:
                    cp.add_implication(still, equal)
                cp.add(var == other).only_enforce_if(still)
                cp.add(var != other).only_enforce_if([*before, ~still])
                equal = still


def _solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.search_branching = cp_model.FIXED_SEARCH
    # Presolve may fix or substitute variables and so reorder the search:
    # without it the fixed strategy is followed as written (lexicographic order).
    solver.parameters.cp_model_presolve = False
    # Measured on n=12 (benchmarks/): SAT inprocessing between solutions costs more than
    # it saves in enumeration; probing, symmetry detection and the LP relaxation are
    # set-up work that a small, already tight model does not repay.
    solver.parameters.use_sat_inprocessing = False
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.symmetry_level = 0
    solver.parameters.linearization_level = 0
    solver.parameters.catch_sigint_signal = False  # no handler swapped in and out per subproblem
    return solver


def _check_time_limit(time_limit: float | None) -> None:
    """Reject a ``time_limit`` that is not None or a number of seconds > 0."""
    if time_limit is None:
        return
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not time_limit > 0
    ):
        raise ValueError(f"time_limit must be None or a number of seconds > 0, got {time_limit!r}")


def _limited_solver(time_limit: float | None) -> cp_model.CpSolver:
    """The enumerating solver, stopped after ``time_limit`` seconds if one is given."""
    solver = _solver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    return solver


def _check_complete(
    status: cp_model.CpSolverStatus, solver: cp_model.CpSolver, time_limit: float | None
) -> None:
    """Raise IncompleteSearchError unless ``status`` says the search saw every solution."""
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return
    if time_limit is not None:
        raise IncompleteSearchError(
            f"the time limit of {time_limit:g} s ended the search before it was complete"
        )
    raise IncompleteSearchError(
        f"CP-SAT stopped before enumerating every solution (status {solver.status_name(status)})"
    )


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self) -> None:
        super().__init__()
        self.found = 0

    def on_solution_callback(self) -> None:
        self.found += 1


def count(model: Problem, time_limit: float | None = None) -> int:
    """The exact number of solutions; raises IncompleteSearchError if the search stopped early.

    ``time_limit`` (seconds > 0) ends a longer search with that error, which names the limit.
    """
    _check_time_limit(time_limit)
    cp, _ = build(model, lexicographic=False)
    solver = _limited_solver(time_limit)
    counter = _Counter()
    status = solver.solve(cp, counter)
    _check_complete(status, solver, time_limit)
    return counter.found


class _Feeder(cp_model.CpSolverSolutionCallback):
    """Hands each solution to a bounded queue; stops the search when told to."""

    def __init__(
        self, q: list[list[cp_model.IntVar]], out: queue.Queue, stop: threading.Event
    ) -> None:
        super().__init__()
        self._q, self._out, self._stop = q, out, stop

    def on_solution_callback(self) -> None:
        """Queue the solution, waiting while the queue is full; stop if the consumer left."""
        found = tuple(tuple(self.value(var) for var in row_vars) for row_vars in self._q)
        while not self._stop.is_set():
            try:
                self._out.put(("solution", found), timeout=_POLL)
                return
            except queue.Full:
                continue
        self.stop_search()


class _Search:
    """One enumeration running in its own thread, which any thread can stop and wait for.

    The solver thread only looks at ``stopping`` when it finds a solution, so
    ``stop`` also stops the solver itself (``CpSolver.stop_search``): a search
    that finds nothing for minutes ends at once when its consumer leaves.
    Every search not yet stopped is in ``_LIVE``, which an ``atexit`` hook
    stops: a solver thread still running when the interpreter finalizes
    aborts the process (``terminate called without an active exception``).
    """

    def __init__(
        self, cp: cp_model.CpModel, q: list[list[cp_model.IntVar]], solver: cp_model.CpSolver
    ) -> None:
        self.solver = solver
        self.out: queue.Queue = queue.Queue(maxsize=_QUEUE_SIZE)
        self.stopping = threading.Event()
        self._cp, self._feeder = cp, _Feeder(q, self.out, self.stopping)
        self.thread = threading.Thread(target=self._run, name="cpqueens-cpsat", daemon=True)

    def start(self) -> None:
        """Start the solver thread and record the search as live."""
        with _LIVE_LOCK:
            _LIVE.add(self)
        self.thread.start()

    def _run(self) -> None:
        if self.stopping.is_set():
            return
        item: tuple[str, cp_model.CpSolverStatus | BaseException]
        try:
            item = ("done", self.solver.solve(self._cp, self._feeder))
        except BaseException as error:  # handed to the consumer, raised there
            item = ("error", error)
        while not self.stopping.is_set():
            try:
                self.out.put(item, timeout=_POLL)
                return
            except queue.Full:
                continue

    def stop(self) -> None:
        """Stop the solver and wait for its thread to end (at once if it is the caller)."""
        self.stopping.set()
        if threading.current_thread() is self.thread:  # a garbage collection on the solver thread
            self.solver.stop_search()
            return
        while self.thread.is_alive():
            # Asked again and again: a stop before solve() has begun is not remembered.
            self.solver.stop_search()
            self.thread.join(_POLL)
        with _LIVE_LOCK:
            _LIVE.discard(self)


_LIVE: set[_Search] = set()
_LIVE_LOCK = threading.Lock()


@atexit.register
def _stop_live_searches() -> None:
    """Stop every search still running, so that no solver thread outlives the interpreter."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for search in live:
        search.stop()


def solutions(
    model: Problem, time_limit: float | None = None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Lazily yield every solution in lexicographic order; the solver runs in a thread.

    ``time_limit`` (seconds > 0) bounds the whole search: when it ends the
    search early, the solutions found so far have been yielded and the
    iterator then raises IncompleteSearchError, which names the limit.
    Closing the iterator (or dropping it, or Ctrl-C while it waits) stops the
    solver at once, even in a long stretch without solutions.
    """
    _check_time_limit(time_limit)
    return _solutions(model, time_limit)


def _solutions(model: Problem, time_limit: float | None) -> Iterator[tuple[tuple[int, ...], ...]]:
    """The generator behind ``solutions``."""
    cp, q = build(model)
    search = _Search(cp, q, _limited_solver(time_limit))
    search.start()
    try:
        while True:
            kind, value = search.out.get()
            if kind == "solution":
                yield value
            elif kind == "error":
                raise value
            else:
                _check_complete(value, search.solver, time_limit)
                return
    finally:
        search.stop()


def exists(model: Problem, clock: Deadline | None = None) -> bool:
    """One CP-SAT decision solve with its free search, in a thread that Ctrl-C stops."""
    cp, _ = build(model, lexicographic=False)
    solver = cp_model.CpSolver()
    left = None if clock is None else clock.left()
    if left is not None:
        solver.parameters.max_time_in_seconds = max(left, 1e-3)
    status = run(solver, cp)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    if clock is not None:
        raise clock.error()
    raise IncompleteSearchError(
        f"CP-SAT stopped before deciding the model (status {solver.status_name(status)})"
    )


class FreeSearch:
    """CP-SAT's free search for one solution, in a thread that can be stopped: a ``find()`` member.

    The model is built in the thread too. ``stop`` stops a running solver and
    waits for its thread (a solver thread must not outlive the interpreter);
    a thread stopped while still building ends by itself before solving.
    """

    def __init__(self, model: Problem, limit: float | None, workers: int = 2) -> None:
        """Prepare the search (``start`` runs it), stopped after ``limit`` seconds if given."""
        self.model, self.done = model, threading.Event()
        self.solution: tuple[tuple[int, ...], ...] | None = None
        self.proved_none = False
        self.error: BaseException | None = None
        self.solver = cp_model.CpSolver()
        self.solver.parameters.num_workers = workers
        self.solver.parameters.catch_sigint_signal = False
        if limit is not None:
            self.solver.parameters.max_time_in_seconds = limit
        self._lock = threading.Lock()
        self._stopping = self._solving = False
        self.thread = threading.Thread(target=self._run, name="cpqueens-find", daemon=True)

    def start(self) -> None:
        """Start the thread."""
        self.thread.start()

    def _run(self) -> None:
        try:
            cp, q = build(self.model, lexicographic=False)
            cp.proto.search_strategy.clear()  # CP-SAT's own search, not a fixed order
            with self._lock:
                if self._stopping:
                    return
                self._solving = True
            status = self.solver.solve(cp)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                values = tuple(tuple(self.solver.value(v) for v in row) for row in q)
                self.solution = values
            elif status == cp_model.INFEASIBLE:
                self.proved_none = True
        except BaseException as error:  # raised by the caller
            self.error = error
        finally:
            self.done.set()

    def stop(self) -> None:
        """Stop the solver and wait for it (not for a thread still building its model)."""
        with self._lock:
            self._stopping = True
            solving = self._solving
        while solving and self.thread.is_alive():
            self.solver.stop_search()  # asked again: a stop before solve() began is not kept
            self.thread.join(_POLL)


def counts_whole(model: Problem) -> bool:
    """Whether one search counts ``model`` best: a Queens-game model (``tight_regions``)."""
    return tight_regions(model)
