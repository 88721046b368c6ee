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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from cpqueens.backends import (
    backends,
    capabilities,
    get,
    is_installed,
    known,
    preference,
)
from cpqueens.backends import check_backend as engine_name
from cpqueens.clock import Deadline
from cpqueens.errors import IncompleteSearchError
from cpqueens.strategies import construct
from cpqueens.strategies.planner import check_width, resolve
from cpqueens.vocabulary import verify
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Disjoint,
    Forbidden,
    NoTouch,
    Placed,
    Regions,
    Toroidal,
)
from cpqueens.vocabulary.limits import no_room
from cpqueens.vocabulary.solution import Solution

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem


T = TypeVar("T")

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
#: Boards of at most this many queens are answered by exists()'s compiled
#: search alone: it settles them at once, while loading the race's kernels (the
#: local search, the MRV and line searches) took seconds in a fresh process.
SMALL_QUEENS = 12
#: From this many queens on, the local search's start and steps run in a thread that the
#: deadline does not wait for: a random start of a million rows takes seconds.
BOUNDED_FROM_QUEENS = 20_000
#: The constraints the construction and the local search understand.
_LOCAL = (AllDifferent, Forbidden, Placed, Disjoint)

Columns = tuple[tuple[int, ...], ...]


def check_backend(backend: object) -> str:
    """Return ``backend`` if ``find`` can search with it, else raise a ValueError saying why.

    ``find`` takes "auto" (the portfolio) or an engine with its own free search.
    """
    name = engine_name(backend)
    if name != "auto" and not capabilities(name).free_search:
        searches = " or ".join(
            f"{other!r} ({get(other).TITLE or other}'s own search alone)"
            for other in _free_searchers(known())
        )
        raise ValueError(
            f"find() searches with backend 'auto' (the portfolio) or {searches}, "
            f"got {name!r}; first(backend={name!r}) gives the lexicographically first solution"
        )
    return name


def _line_search(model: Problem) -> Any:
    """The compiled line search of the first engine that declares one (``decides``), or None.

    Complete: it proves "none" where the other members stall.
    """
    for name in preference():
        if is_installed(name) and capabilities(name).decides:
            return get(name).line_search(model)
    return None


def _title(name: str) -> str:
    """How messages name the engine ``name``'s solver."""
    return get(name).TITLE or name


def _free_searchers(names: tuple[str, ...]) -> tuple[str, ...]:
    """The engines among ``names`` that declare a free search (asked only of installed ones)."""
    installed = set(backends())
    return tuple(name for name in names if name in installed and capabilities(name).free_search)


def find(model: Problem, backend: str = "auto", time_limit: float | None = None) -> Solution | None:
    """Any one solution of ``model``, checked, or None if it provably has none."""
    from cpqueens.tasks.count import check_time_limit

    backend = check_backend(backend)
    if backend != "auto":  # an engine's own search alone: as wide as it builds in time
        check_width(model, backend)
    limit = check_time_limit(time_limit)
    if no_room(model.n, model.colours):
        return None  # more colours than columns: no solution, known at once
    deadline = None if limit is None else time.monotonic() + limit
    found = _search(model, backend, limit, deadline)
    if found is None:
        return None
    verify.check(model, found)
    return Solution(found, model.board, model.symmetries())


#: What a step of a member of the race returns while it has no answer.
_GOING_ON = object()


def _search(
    model: Problem, backend: str, limit: float | None, deadline: float | None
) -> Columns | None:
    """The portfolio: a contradiction or a construction at once, else the race."""
    # the construction and the local searches place queens: rooks go to the solver
    local = model.diagonals and all(isinstance(c, _LOCAL) for c in model.constraints)
    fixed = _fixed(model)
    if local and _contradiction(model, fixed):
        return None
    if backend == "auto":
        built = _constructed(model)
        if built is not None:
            return built
        # rooks and region puzzles too: the engine's own search is as complete and instant
        rules = not model.diagonals or any(isinstance(c, (Regions, NoTouch)) for c in model.extra)
        if (local or rules) and model.n * model.colours <= SMALL_QUEENS:
            return _small(model, limit)
    race = _Race(model, backend, limit, deadline)
    if backend == "auto" and local:
        race.add_local_searches(fixed)
    return race.run()


def _constructed(model: Problem) -> Columns | None:
    """A construction's solution of a free board (toroidal queens too), checked; else None.

    (2r + c) mod n solves every n coprime to 6 on the torus: the construction's first.
    """
    built_ok = model.diagonals and all(
        isinstance(c, (*_LOCAL, Toroidal)) for c in model.constraints
    )
    if not built_ok or model.board.blocked or model.placed:
        return None
    kinds = (Disjoint, AllDifferent, Toroidal)
    if not all(isinstance(c, kinds) for c in model.extra):
        return None
    built = construct.free_board(model.n, model.colours)
    return built if built is not None and verify.violation(model, built) is None else None


class _Race:
    """Local search, a complete DFS, the line search and an engine's free search, in turns.

    Each member takes a step in turn; the first answer wins and the others are
    stopped. The free search (CP-SAT's) runs in its own thread and joins once
    the local search has had a moment: most boards are solved by then.
    """

    def __init__(
        self, model: Problem, backend: str, limit: float | None, deadline: float | None
    ) -> None:
        self.model, self.backend, self.limit, self.deadline = model, backend, limit, deadline
        self.searcher: Any = None
        self.dfs: Any = None
        self.lines: Any = None
        self.member: Any = None
        self.racer = backend if backend != "auto" else next(iter(_free_searchers(known())), None)

    def add_local_searches(self, fixed: list[dict[int, int]]) -> None:
        """Min-conflicts local search, the MRV DFS and the line search (exists()'s)."""
        from cpqueens.kernels import mrv_search
        from cpqueens.kernels.local_search import Search

        model = self.model
        self.searcher = _bounded(
            lambda: Search(model.n, model.colours, model.board.blocked, fixed),
            model,
            self.deadline,
            self.limit,
        )
        if model.n <= mrv_search.MAX_N and model.n * model.colours <= DFS_MAX_VARIABLES:
            masks = mrv_search.allowed_masks(model.n, model.colours, model.board.blocked, fixed)
            self.dfs = mrv_search.Search(model.n, masks)
        self.lines = _line_search(model)  # proves "none" where the others stall

    def run(self) -> Columns | None:
        """The first answer of any member: a solution, or None if one proved there is none."""
        model = self.model
        use_cpsat = self.racer is not None and (
            self.backend != "auto" or self.searcher is None or model.n <= CPSAT_MAX_N
        )
        if self.searcher is None and not use_cpsat:
            raise IncompleteSearchError(
                f"no search can answer {model}: the local search does not know its constraints "
                "and CP-SAT is not installed"
            )
        delay = CPSAT_DELAY_PER_ROW * model.n if self.searcher is not None else 0
        joins = time.monotonic() + delay
        try:
            while True:
                if use_cpsat and self.member is None and time.monotonic() >= joins:
                    self.member = get(self.racer).free_search(  # type: ignore[arg-type]
                        model, _left(self.deadline), CPSAT_WORKERS
                    )
                    use_cpsat = False
                    self.member.start()
                for step in (self._free_step, self._local_steps, self._line_steps):
                    found = step()
                    if found is not _GOING_ON:
                        return found  # type: ignore[return-value]
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    _out_of_time(self.limit)
        finally:
            if self.member is not None:
                self.member.stop()

    def _free_step(self) -> object:
        """The free search's answer once it is done (its own thread searches)."""
        member = self.member
        if member is None or not member.done.is_set():
            return _GOING_ON
        if member.error is not None:
            raise member.error
        if member.solution is not None:
            return member.solution
        if member.proved_none:
            return None
        self.member = None  # stopped without an answer: the deadline has passed
        if self.searcher is None:
            _out_of_time(self.limit)
        return _GOING_ON

    def _local_steps(self) -> object:
        """A step of the MRV DFS and of the local search; a wait if there is neither."""
        from cpqueens.kernels import mrv_search

        self.began = time.monotonic()
        if self.dfs is not None:
            status = self.dfs.step()
            if status == mrv_search.FOUND:
                return self.dfs.solution()
            if status == mrv_search.EXHAUSTED:
                return None  # the complete search saw every branch
        if self.searcher is not None:
            if _bounded(self.searcher.step, self.model, self.deadline, self.limit):
                return self.searcher.solution()
        elif self.lines is None:
            self.member.done.wait(POLL)
        return _GOING_ON

    def _line_steps(self) -> object:
        """The line search, for as long as the others had (at least one chunk)."""
        if self.lines is None:
            return _GOING_ON
        until = 2 * time.monotonic() - self.began
        while True:
            found = self.lines.step()
            if found:
                return (self.lines.columns(),)
            if found is False:
                return None  # complete too: every branch seen
            if time.monotonic() >= until:
                return _GOING_ON


def _small(model: Problem, limit: float | None) -> Columns | None:
    """exists()'s answer on a small board: the chosen engine's own search, complete and instant."""
    engine = get(resolve(model, "auto"))
    deadline = None if limit is None else Deadline(limit)
    if capabilities(resolve(model, "auto")).decides and engine.decides(model):
        return engine.first(model, deadline, False)
    found = engine.solutions(model, deadline)
    try:
        return next(found, None)
    finally:
        close = getattr(found, "close", None)
        if close is not None:
            close()


def _bounded(
    call: Callable[[], T], model: Problem, deadline: float | None, limit: float | None
) -> T:
    """``call()``, but on a wide board given up when ``deadline`` passes first.

    The local search's kernels release the GIL, so ``call`` runs in a thread
    while this one watches the clock: past the deadline it raises
    ``IncompleteSearchError`` and leaves the thread to finish its piece alone
    (its search is dropped). Small boards call directly: their pieces are short.
    """
    if deadline is None or model.n * model.colours < BOUNDED_FROM_QUEENS:
        return call()
    box: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            box.append((True, call()))
        except BaseException as error:  # raised by the caller
            box.append((False, error))

    thread = threading.Thread(target=run, name="cpqueens-local-search", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(POLL)
        if thread.is_alive() and time.monotonic() >= deadline:
            _out_of_time(limit)
    done, value = box[0]
    if not done:
        raise value
    return value


def _left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (at least a millisecond), None for no deadline."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.001)


def _out_of_time(limit: float | None) -> None:
    if limit is None:  # CP-SAT stopped with no answer and no limit (an invalid model, say)
        raise IncompleteSearchError("CP-SAT stopped before it found a solution or proved none")
    raise IncompleteSearchError(
        f"the time limit of {limit:g} s ended the search before it found a solution "
        "or proved there is none"
    )


def _fixed(model: Problem) -> list[dict[int, int]]:
    """Each colour's placed queens as {row: column}."""
    fixed: list[dict[int, int]] = [{} for _ in range(model.colours)]
    for constraint in model.constraints:
        if isinstance(constraint, Placed):
            for row, col in constraint.cells:
                if fixed[constraint.colour].setdefault(row, col) != col:
                    fixed[constraint.colour][row] = -1  # two columns in one row: no solution
    return fixed


def _contradiction(model: Problem, fixed: list[dict[int, int]]) -> bool:
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
    per_row: dict[int, int] = {}
    per_col: dict[int, int] = {}
    for row, col in blocked:
        per_row[row] = per_row.get(row, 0) + 1
        per_col[col] = per_col.get(col, 0) + 1
    # Only rows with a blocked cell or a placed queen can lack room (colours <= n here).
    for row in set(per_row).union(*fixed):
        taken = {fixed[c][row] for c in range(colours) if row in fixed[c]}
        if per_row.get(row, 0) + colours - len(taken) > n - len(taken):
            return True  # the row has fewer free cells than queens still to place
    # Each colour has a queen in every column too, so a column needs `colours` free cells.
    return any(count + colours > n for count in per_col.values())
