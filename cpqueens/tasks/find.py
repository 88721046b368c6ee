"""Any one solution, fast: a portfolio of a construction, local search, a DFS and CP-SAT.

- A free board (no blocked cell, no placed queen, no other constraint) gets
  an explicit construction in O(n) when one is known (``cpqueens.strategies.construct``).
- Otherwise min-conflicts local search (``cpqueens.kernels.local_search``) and, on
  boards of at most 64 columns, a complete DFS taking the row with the fewest
  columns left first, with random restarts (``cpqueens.kernels.mrv_search``), run in
  alternate chunks in this thread, raced against CP-SAT's own free search with two
  workers in another thread (joining after a moment, 0.2 ms per row: most
  boards are solved by then); the first answer wins and the other is stopped.
  Local search handles blocked cells, placed queens and colours, and scales to
  boards of 100,000 columns and more, but proves nothing; None is returned
  only on a proof: the DFS or CP-SAT saw every branch, or a contradiction
  is plain without search (a row or column with too few free cells, placed
  queens that attack, more colours than columns).
- Every solution is checked against the model (``cpqueens.vocabulary.verify``) before
  it is returned. A time limit ends the search with ``IncompleteSearchError``;
  Ctrl-C stops every member and raises ``KeyboardInterrupt``.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from cpqueens.backends import check_name, get, is_installed
from cpqueens.errors import IncompleteSearchError
from cpqueens.strategies import construct
from cpqueens.vocabulary import verify
from cpqueens.vocabulary.constraints import AllDifferent, Disjoint, Forbidden, Placed
from cpqueens.vocabulary.solution import Solution

if TYPE_CHECKING:
    from cpqueens.model import Model

#: The backends ``find`` takes: the portfolio, or CP-SAT's free search alone.
FIND_BACKENDS = ("auto", "cpsat")
#: CP-SAT joins the race up to this board size (its model grows as n²; beyond, it cannot keep up).
CPSAT_MAX_N = 2000
#: The local search runs alone for this long per row before CP-SAT joins (seconds).
CPSAT_DELAY_PER_ROW = 0.0002
#: The complete DFS (``cpqueens.kernels.mrv_search``) joins for boards of at most 64 columns and
#: this many (colour, row) variables: its stack holds that many squared words.
DFS_MAX_VARIABLES = 512
#: CP-SAT's workers in the race (the machine's other core runs the local search).
CPSAT_WORKERS = 2
#: How often (seconds) a wait looks again at the clock and at Ctrl-C.
POLL = 0.05
#: The constraints the construction and the local search understand.
_LOCAL = (AllDifferent, Forbidden, Placed, Disjoint)

Columns = tuple[tuple[int, ...], ...]


def check_backend(backend: object) -> str:
    """Return ``backend`` if ``find`` can search with it, else raise a ValueError saying why."""
    name = check_name(backend, ("auto", *_known()))
    if name not in FIND_BACKENDS:
        raise ValueError(
            f"find() searches with backend 'auto' (the portfolio) or 'cpsat' (CP-SAT's own "
            f"search alone), got {name!r}; first(backend={name!r}) gives the "
            "lexicographically first solution"
        )
    if name == "cpsat":
        get(name)  # a missing solver says what to install
    return name


def _known() -> tuple[str, ...]:
    from cpqueens.backends import known

    return known()


def find(model: Model, backend: str = "auto", time_limit: float | None = None) -> Solution | None:
    """Any one solution of ``model``, checked, or None if it provably has none."""
    from cpqueens.tasks.count import check_time_limit

    backend = check_backend(backend)
    limit = check_time_limit(time_limit)
    deadline = None if limit is None else time.monotonic() + limit
    found = _search(model, backend, limit, deadline)
    if found is None:
        return None
    verify.check(model, found)
    return Solution(found, model.board, model.symmetries())


def _search(
    model: Model, backend: str, limit: float | None, deadline: float | None
) -> Columns | None:
    """The portfolio: a contradiction or a construction at once, else the race."""
    local = all(isinstance(c, _LOCAL) for c in model.constraints)
    fixed = _fixed(model)
    if local and _contradiction(model, fixed):
        return None
    if backend == "auto" and local and not model.board.blocked and not model.placed:
        if model.extra == () or all(isinstance(c, (Disjoint, AllDifferent)) for c in model.extra):
            built = construct.free_board(model.n, model.colours)
            if built is not None and verify.violation(model, built) is None:
                return built
    searcher = dfs = lines = None
    if backend == "auto" and local:
        from cpqueens.kernels import mrv_search
        from cpqueens.kernels.local_search import Search
        from cpqueens.tasks.decide import line_search

        searcher = Search(model.n, model.colours, model.board.blocked, fixed)
        if model.n <= mrv_search.MAX_N and model.n * model.colours <= DFS_MAX_VARIABLES:
            masks = mrv_search.allowed_masks(model.n, model.colours, model.board.blocked, fixed)
            dfs = mrv_search.Search(model.n, masks)
        lines = line_search(model)  # exists()'s search: proves "none" where the others stall
    member = None
    use_cpsat = is_installed("cpsat") and (
        backend == "cpsat" or searcher is None or model.n <= CPSAT_MAX_N
    )
    if searcher is None and not use_cpsat:
        raise IncompleteSearchError(
            f"no search can answer {model}: the local search does not know its constraints "
            "and CP-SAT is not installed"
        )
    # CP-SAT joins once the local search has had a moment: most boards are solved by then.
    joins = time.monotonic() + (CPSAT_DELAY_PER_ROW * model.n if searcher is not None else 0)
    try:
        while True:
            if use_cpsat and member is None and time.monotonic() >= joins:
                use_cpsat, member = False, _CpsatMember(model, _left(deadline))
                member.start()
            if member is not None and member.done.is_set():
                if member.error is not None:
                    raise member.error
                if member.solution is not None:
                    return member.solution
                if member.proved_none:
                    return None
                member = None  # stopped without an answer: the deadline has passed
                if searcher is None:
                    _out_of_time(limit)
            others = time.monotonic()
            if dfs is not None:
                status = dfs.step()
                if status == mrv_search.FOUND:
                    return dfs.solution()
                if status == mrv_search.EXHAUSTED:
                    return None  # the complete search saw every branch
            if searcher is not None:
                if searcher.step():
                    return searcher.solution()
            elif lines is None:
                member.done.wait(POLL)  # type: ignore[union-attr]
            if lines is not None:  # as much time as the others had, at least one chunk
                until = 2 * time.monotonic() - others
                while True:
                    found = lines.step()
                    if found:
                        return (lines.columns(),)
                    if found is False:
                        return None  # complete too: every branch seen
                    if time.monotonic() >= until:
                        break
            if deadline is not None and time.monotonic() >= deadline:
                _out_of_time(limit)
    finally:
        if member is not None:
            member.stop()


def _left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (at least a millisecond), None for no deadline."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.001)


def _out_of_time(limit: float | None) -> None:
    raise IncompleteSearchError(
        f"the time limit of {limit:g} s ended the search before it found a solution "
        "or proved there is none"
    )


def _fixed(model: Model) -> list[dict[int, int]]:
    """Each colour's placed queens as {row: column}."""
    fixed: list[dict[int, int]] = [{} for _ in range(model.colours)]
    for constraint in model.constraints:
        if isinstance(constraint, Placed):
            for row, col in constraint.cells:
                if fixed[constraint.colour].setdefault(row, col) != col:
                    fixed[constraint.colour][row] = -1  # two columns in one row: no solution
    return fixed


def _contradiction(model: Model, fixed: list[dict[int, int]]) -> bool:
    """Whether the model plainly has no solution: seen without search, so a proof."""
    n, colours = model.n, model.colours
    if colours > n:
        return True  # every row holds a queen of each colour in distinct cells
    blocked = set(model.board.blocked)
    for colour, rows in enumerate(fixed):
        lines: list[set[int]] = [set(), set(), set()]
        for row, col in rows.items():
            if col < 0 or (row, col) in blocked:
                return True
            for line, value in zip(lines, (col, row + col, col - row), strict=True):
                if value in line:
                    return True  # two placed queens of one colour attack each other
                line.add(value)
            for other in range(colours):
                if other != colour and fixed[other].get(row) == col:
                    return True
    per_row, per_col = [0] * n, [0] * n
    for row, col in blocked:
        per_row[row] += 1
        per_col[col] += 1
    for row in range(n):
        taken = {fixed[c][row] for c in range(colours) if row in fixed[c]}
        if per_row[row] + colours - len(taken) > n - len(taken):
            return True  # the row has fewer free cells than queens still to place
    # Each colour has a queen in every column too, so a column needs `colours` free cells.
    return any(per_col[col] + colours > n for col in range(n))


class _CpsatMember:
    """CP-SAT's free search (two workers) for one solution, in a thread that can be stopped.

    The model is built in the thread too. ``stop`` stops a running solver and
    waits for its thread (a solver thread must not outlive the interpreter);
    a thread stopped while still building ends by itself before solving.
    """

    def __init__(self, model: Model, limit: float | None) -> None:
        """Prepare the search (``start`` runs it), stopped after ``limit`` seconds if given."""
        from ortools.sat.python import cp_model

        self.model, self.done = model, threading.Event()
        self.solution: Columns | None = None
        self.proved_none = False
        self.error: BaseException | None = None
        self.solver = cp_model.CpSolver()
        self.solver.parameters.num_workers = CPSAT_WORKERS
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
        from ortools.sat.python import cp_model

        from cpqueens.backends.cpsat import build

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
            self.thread.join(POLL)
