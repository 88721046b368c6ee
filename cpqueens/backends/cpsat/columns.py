"""CP-SAT on the column form: one integer variable per row and colour, read like the mathematics.

Three AllDifferent constraints per colour of queens; every other rule (toroidal
diagonals, knight's moves, regions, no touching, colours sharing no cell) comes
as the conditions its kind decomposes into (:mod:`cpqueens.lowering.kinds`),
posted by :class:`~cpqueens.backends.cpsat.conditions.Conditions`.
Enumeration always runs with exactly one CP-SAT worker (parallel enumeration
duplicates and loses solutions) and a fixed search strategy (rows in order
and smallest column first, which is both faster and yields the solutions in
lexicographic order; counting takes the row with the fewest columns left
first), and no inprocessing, presolve, probing or LP relaxation (they cost
more than they save here).
"""

from __future__ import annotations

import atexit
import queue
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from cpqueens.backends.cpsat.conditions import Conditions, add_symmetry_constraints
from cpqueens.backends.cpsat.solve import run
from cpqueens.backends.translate import domains as cell_domains
from cpqueens.backends.translate import unsupported
from cpqueens.clock import Deadline, seconds_left
from cpqueens.errors import IncompleteSearchError
from cpqueens.lowering.kinds import lower
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Forbidden,
    Invariant,
    LexLeader,
    Placed,
    Where,
)

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem

NAME = "cpsat"
#: The column kinds CP-SAT states natively; every other kind arrives decomposed.
SUPPORTS = (AllDifferent, Forbidden, Placed, LexLeader, Invariant, Where)

# How many solutions the solver thread may run ahead of a lazy consumer.
_QUEUE_SIZE = 256

# How often (seconds) a waiting thread looks again at a stop request or a full queue.
_POLL = 0.05


def build(
    model: Problem, lexicographic: bool = True
) -> tuple[cp_model.CpModel, list[list[cp_model.IntVar]]]:
    """Translate the column form into a CP-SAT model and its q[colour][row] variables.

    ``lexicographic`` fixes the search to rows in order, smallest column first, so
    that solutions come out in lexicographic order; otherwise (counting) the row
    with the fewest columns left goes first, a smaller search.
    """
    n, colours = model.n, model.colours
    stated = lower(model.constraints, SUPPORTS, n, colours)
    domains, rest = cell_domains(n, colours, stated)  # type: ignore[arg-type]
    all_different: list[AllDifferent] = []
    symmetric: list[LexLeader | Invariant] = []
    conditions: list[Where] = []
    for constraint in rest:
        if isinstance(constraint, AllDifferent):
            all_different.append(constraint)
        elif isinstance(constraint, Where):
            conditions.append(constraint)
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
    # Every other rule, as the conditions it decomposes into (and the user's own).
    translator = Conditions(cp, q, n)
    for condition in conditions:
        translator.post(condition.condition)
    # Symmetry breaking: the solution against its images under board symmetries.
    if symmetric:
        add_symmetry_constraints(cp, q, symmetric)
    # Rows in order, smallest column first: fast, and lexicographic; or fewest columns first.
    cp.add_decision_strategy(
        [var for colour_vars in q for var in colour_vars],
        cp_model.CHOOSE_FIRST if lexicographic else cp_model.CHOOSE_MIN_DOMAIN_SIZE,
        cp_model.SELECT_MIN_VALUE,
    )
    return cp, q


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


def _limited_solver(deadline: Deadline | None) -> cp_model.CpSolver:
    """The enumerating solver, stopped when ``deadline`` passes if there is one."""
    solver = _solver()
    left = seconds_left(deadline)
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    return solver


def _check_complete(
    status: cp_model.CpSolverStatus, solver: cp_model.CpSolver, deadline: Deadline | None
) -> None:
    """Raise IncompleteSearchError unless ``status`` says the search saw every solution."""
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return
    if deadline is not None:
        raise deadline.error()
    raise IncompleteSearchError(
        f"CP-SAT stopped before enumerating every solution (status {solver.status_name(status)})"
    )


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self) -> None:
        super().__init__()
        self.found = 0

    def on_solution_callback(self) -> None:
        self.found += 1


def count(model: Problem, deadline: Deadline | None = None) -> int:
    """The exact number of solutions; raises IncompleteSearchError if the search stopped early.

    A ``deadline`` that passes ends a longer search with that error, which names the limit.
    """
    cp, _ = build(model, lexicographic=False)
    solver = _limited_solver(deadline)
    counter = _Counter()
    status = solver.solve(cp, counter)
    _check_complete(status, solver, deadline)
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
    model: Problem, deadline: Deadline | None = None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Lazily yield every solution in lexicographic order; the solver runs in a thread.

    A ``deadline`` bounds the whole search: when it ends the search early, the
    solutions found so far have been yielded and the iterator then raises
    IncompleteSearchError, which names the limit. Closing the iterator (or
    dropping it, or Ctrl-C while it waits) stops the solver at once, even in a
    long stretch without solutions.
    """
    cp, q = build(model)
    search = _Search(cp, q, _limited_solver(deadline))
    search.start()
    try:
        while True:
            kind, value = search.out.get()
            if kind == "solution":
                yield value
            elif kind == "error":
                raise value
            else:
                _check_complete(value, search.solver, deadline)
                return
    finally:
        search.stop()


def exists(model: Problem, deadline: Deadline | None = None) -> bool:
    """One CP-SAT decision solve with its free search, in a thread that Ctrl-C stops."""
    cp, _ = build(model, lexicographic=False)
    solver = cp_model.CpSolver()
    left = seconds_left(deadline)
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    status = run(solver, cp)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    if deadline is not None:
        raise deadline.error()
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
