"""The engine contract: one base class that names every capability an engine may have.

An engine answers the forms a statement lowers to (:mod:`cpqueens.lowering`):

- the **column form** (``q[colour][row]``, a
  :class:`~cpqueens.vocabulary.problem.Problem`): :meth:`Engine.count` and
  :meth:`Engine.solutions` always; :meth:`Engine.first` with ``decides``;
  :meth:`Engine.exists` and :meth:`Engine.free_search` with ``free_search``;
  :meth:`Engine.line_search` with ``decides``; :meth:`Engine.counts_whole`
  with ``whole``;
- the **cell form** (``x[row, col]``, a
  :class:`~cpqueens.vocabulary.cells.CellProblem`): :meth:`Engine.cell_count`,
  :meth:`Engine.cell_solutions` and :meth:`Engine.optimise`, each where
  :meth:`Engine.cell_refusal` gives no reason to refuse;
- **region puzzles** (a :class:`~cpqueens.vocabulary.regions.RegionPuzzle`,
  the statement's fast path for k stars per row, column and region):
  :meth:`Engine.region_count` and :meth:`Engine.region_solutions` where
  :meth:`Engine.region_refusal` gives no reason.

Every method here refuses by default (``NotSupportedError`` or a reason), so
an engine overrides what it can do and declares the rest in
:class:`Capabilities`; the planner (``cpqueens.strategies.planner``) reads the
declarations and the refusals, never an engine's name. Every search takes
its time limit as one :class:`~cpqueens.clock.Deadline` named ``deadline``
(None: no limit). ``backends/template.py`` is the template an outside engine
copies.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from cpqueens.errors import NotSupportedError

if TYPE_CHECKING:
    from cpqueens.backends.outcome import Outcome, Progress
    from cpqueens.clock import Deadline
    from cpqueens.vocabulary.cells import CellProblem, Piece
    from cpqueens.vocabulary.problem import Problem
    from cpqueens.vocabulary.regions import Cell, RegionPuzzle

#: One solution of the column form: one column tuple per colour.
Columns = tuple[tuple[int, ...], ...]
#: The verbs of the cell form.
CellVerb = Literal["count", "solutions", "optimise"]
#: What an engine without a region search says of every region puzzle.
NO_REGION_SEARCH = "it has no region search"


class PartsRunner(Protocol):
    """Runs the parts of a long search and returns their values (``tasks.parts.Runner``).

    The engine states the parts (``plan(depth)``), the function that searches
    one (``fn(*arguments(part))``, an int: picklable, for worker processes)
    and when a value ends the rest (``stop``); the runner decides where they
    run (here, a local pool, a cluster), records them in a checkpoint and
    holds the deadline. ``pays``: the engine's word that a local pool pays.
    """

    def __call__(
        self,
        what: str,
        plan: Callable[[int], Sequence[Any]],
        fn: Callable[..., int],
        arguments: Callable[[Any], tuple[Any, ...]],
        stop: Callable[[int], bool],
        pays: bool = True,
    ) -> tuple[Sequence[Any], Mapping[int, int]]:
        """The parts and each finished part's value (index -> value)."""
        ...


@dataclass(frozen=True)
class Capabilities:
    """What an engine declares about itself, for the planner and the strategies.

    - ``kernels``: it counts with the compiled kernels, so the kernels' own
      strategies (symmetry classes, hole sums, Burnside's unique counts) may
      answer for it;
    - ``lex_leader_split``: a model with symmetries is split into lex-leader
      classes (weights |G|, -|G|/2, -|G|/4) rather than by the mirror row;
    - ``short_below_free_rows``: a search of the free board with fewer rows
      is over in well under a second, so it runs in this process (longer
      ones run in worker processes, which Ctrl-C and time limits stop at
      once); the planner compares every count's estimated search tree
      (``strategies/work.py``: holes, placed queens, colours, conditions)
      with that free board's;
    - ``decides``: it has a compiled decision search (``decides``, ``first``,
      ``line_search``);
    - ``free_search``: it decides with its own unordered search (``exists``,
      ``FreeSearch``), and ``find()`` may race it;
    - ``stops``: how a search of it in this process is stopped: "chunks"
      (it returns to Python between chunks and looks at the clock and
      Ctrl-C), "solver" (the solver's own time limit and stop call),
      "checks" (a constraint that looks at the clock);
    - ``whole``: it says model by model (``counts_whole``) when one search
      of the whole model counts it faster than any split.
    """

    kernels: bool = False
    lex_leader_split: bool = False
    short_below_free_rows: int = 13
    decides: bool = False
    free_search: bool = False
    stops: str = "chunks"
    whole: bool = False


class Engine:
    """An engine: the column form always; the cell form and region puzzles where it can.

    Subclasses set the class attributes and override the methods they
    answer; what they do not override refuses with ``NotSupportedError``
    (or, for the ``*_refusal`` methods, a reason), which the planner turns
    into "use backend 'X'" naming one that can.
    """

    #: The name users pass as ``backend``.
    NAME: ClassVar[str] = ""
    #: How messages name its solver.
    TITLE: ClassVar[str] = ""
    #: The column kinds it states natively; every other kind reaches it through its
    #: ``decompose(n, colours)`` (``cpqueens.lowering.kinds.lower``).
    SUPPORTS: ClassVar[tuple[type, ...]] = ()
    #: The widest column board it builds within a time limit (None: any width).
    MAX_N: ClassVar[int | None] = None
    #: What it declares about itself.
    CAPABILITIES: ClassVar[Capabilities] = Capabilities()

    def __repr__(self) -> str:
        return f"<engine {self.NAME!r}>"

    def accepts(self, constraint: object) -> bool:
        """Whether the engine states ``constraint`` natively (else its decomposition)."""
        return isinstance(constraint, self.SUPPORTS)

    # -- the column form -------------------------------------------------------------------

    def count(self, problem: Problem, deadline: Deadline | None = None) -> int:
        """The exact number of solutions of the column form (a limit raises, never a part)."""
        raise NotSupportedError(f"backend {self.NAME!r} does not count column forms")

    def solutions(self, problem: Problem, deadline: Deadline | None = None) -> Iterator[Columns]:
        """Every solution of the column form in lexicographic order, lazily."""
        raise NotSupportedError(f"backend {self.NAME!r} does not list column forms")

    def decides(self, problem: Problem) -> bool:
        """Whether the compiled decision search (``first``) holds ``problem`` (``decides``)."""
        return False

    def first(
        self, problem: Problem, deadline: Deadline | None, lexicographic: bool
    ) -> Columns | None:
        """The first solution (lexicographic, or any) of a problem ``decides`` holds, or None."""
        raise NotSupportedError(f"backend {self.NAME!r} has no compiled decision search")

    def exists(self, problem: Problem, deadline: Deadline | None = None) -> bool:
        """Whether ``problem`` has a solution, by the engine's own free search (``free_search``)."""
        raise NotSupportedError(f"backend {self.NAME!r} has no free search of its own")

    def free_search(self, problem: Problem, limit: float | None, workers: int) -> Any:
        """The engine's own search for one solution, ready to ``start()`` (``free_search``).

        It offers ``start()``, ``stop()``, ``done`` (an Event), ``solution``,
        ``proved_none`` and ``error``; ``find()`` races it.
        """
        raise NotSupportedError(f"backend {self.NAME!r} has no free search of its own")

    def line_search(self, problem: Problem) -> Any | None:
        """A complete, resumable fewest-free-row search of ``problem`` (``decides``), or None."""
        return None

    def counts_whole(self, problem: Problem) -> bool:
        """Whether one search of the whole problem counts it best (``whole``)."""
        return False

    def describe(self, problem: Problem) -> str | None:
        """What counts ``problem`` on this engine, in a few words (None: nothing to add)."""
        return None

    def warm(self, problem: Problem) -> None:
        """Load in this process what counting ``problem`` whole would use (compiled kernels).

        The planner calls it where a count's parts run when the whole count pays
        for it, so that parts too small to pay for a kernel alone take it too.
        """

    # -- the cell form --------------------------------------------------------------------

    def cell_refusal(
        self,
        problem: CellProblem,
        verb: CellVerb,
        size: int | None = None,
        unique: bool = False,
        sense: str | None = None,
    ) -> str | None:
        """Why the engine will not answer ``verb`` for this cell form (None: it will)."""
        return "it does not state cell forms"

    def quick(self, problem: CellProblem) -> str | None:
        """Why a cross-check leaves the engine out of this cell form (too slow), or None."""
        return None

    def cell_count(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
    ) -> int:
        """The exact number of solutions (of ``size`` pieces per army), or of their classes.

        With ``limit``, the count may stop there: ``limit`` means at least that many.
        """
        raise NotSupportedError(f"backend {self.NAME!r} does not count cell forms")

    def cell_solutions(
        self,
        problem: CellProblem,
        size: int | None,
        *,
        unique: bool = False,
        deadline: Deadline | None = None,
        limit: int | None = None,
    ) -> Iterator[tuple[Piece, ...]]:
        """Every solution as (row, col, army) triples (one per class if ``unique``), lazily."""
        raise NotSupportedError(f"backend {self.NAME!r} does not list cell forms")

    def optimise(
        self,
        problem: CellProblem,
        sense: str,
        *,
        deadline: Deadline | None = None,
        workers: int = 2,
        symmetry: bool = True,
        progress: Progress | None = None,
        run: PartsRunner | None = None,
    ) -> Outcome:
        """The largest or smallest solution, proved optimal unless the deadline ends it first.

        ``run`` is given only when :meth:`runs_parts` says yes: the task's
        runner of the search's parts (here, a local pool or a cluster, with a
        checkpoint); an engine that searches in one piece never receives it.
        """
        raise NotSupportedError(f"backend {self.NAME!r} does not optimise cell forms")

    def runs_parts(self, problem: CellProblem, sense: str) -> bool:
        """Whether :meth:`optimise` splits this search into parts that a runner may place."""
        return False

    # -- region puzzles -----------------------------------------------------------------

    def region_refusal(self, puzzle: RegionPuzzle) -> str | None:
        """Why the engine will not search this region puzzle directly (None: it will)."""
        return NO_REGION_SEARCH

    def region_count(
        self, puzzle: RegionPuzzle, limit: int | None, deadline: Deadline | None = None
    ) -> int:
        """The puzzle's number of solutions, or ``limit`` if there are at least that many."""
        raise NotSupportedError(f"backend {self.NAME!r} has no region search")

    def region_solutions(
        self, puzzle: RegionPuzzle, limit: int | None, deadline: Deadline | None = None
    ) -> list[tuple[Cell, ...]]:
        """The puzzle's solutions (the first ``limit``), each as sorted (row, col) cells."""
        raise NotSupportedError(f"backend {self.NAME!r} has no region search")

    def region_sample(
        self, puzzle: RegionPuzzle, rng: random.Random, deadline: Deadline | None = None
    ) -> tuple[Cell, ...] | None:
        """A solution drawn with ``rng`` (a generator's random start), or None if there is none."""
        raise NotSupportedError(f"backend {self.NAME!r} has no region search")
