"""The interface of a way to count: a counting strategy, and what its parts carry.

A strategy splits a model into independent parts, says how to count one part
(a top-level function and its arguments, so that any executor can run it)
and puts the parts' counts together. Each part carries what a checkpoint
records of it (``execution.checkpoint.Part``: a label and the counts it may
have). The planner tries the strategies in one ordered list
(``planner.strategies()``) and takes the first that fits: a new way to count is
one module with one such class, and one entry in that list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # a type only: a count without a checkpoint never loads checkpoints
    from cpqueens.execution.checkpoint import Part
    from cpqueens.vocabulary.problem import Problem

#: A split aims at this many parts per worker, so that no worker idles at the end.
SUBPROBLEMS_PER_WORKER = 16


class Strategy(Protocol):
    """A way to count a model exactly, in independent parts."""

    #: Its name, as ``Model.engine()``'s explanations and the tests say it.
    name: str
    #: Whether its parts run the symmetry kernels: its work is then about a quarter of
    #: the plain search's (``work.KERNEL_SHARE``), and the kernels are always loaded.
    kernels: bool
    #: Whether its parts spend their time in compiled kernels that release the GIL
    #: (``nogil``): a short count then shares them among threads of this process.
    threads: bool
    #: What its parts load when the count pays for it (``strategies/warm.py``):
    #: "classes" (the symmetry kernels), "less-holes" (the hole sums' kernel),
    #: "engine" (what the engine counts the whole model with: ``Engine.warm``).
    loads: tuple[str, ...]
    #: Whether it counts the classes by size too (``unique`` from the same parts).
    counts_classes: bool

    def fits(self, model: Problem, engine: str) -> bool:
        """Whether it counts ``model`` on ``engine`` (and pays)."""
        ...

    def plan(self, model: Problem, engine: str, workers: int) -> tuple[int, Sequence[Part]]:
        """The split depth for that many workers, and the parts at that depth."""
        ...

    def parts(self, model: Problem, engine: str, depth: int) -> Sequence[Part]:
        """The parts of the split at a recorded ``depth`` (a resumed checkpoint)."""
        ...

    #: The top-level function that counts one part, called as
    #: ``count_part(*arguments(model, engine, part))`` in whichever process runs it.
    count_part: Callable[..., int]

    def arguments(self, model: Problem, engine: str, part: Any) -> tuple[Any, ...]:
        """The (picklable) arguments of ``count_part`` for one part."""
        ...

    def total(self, model: Problem, parts: Sequence[Any], counts: Sequence[int]) -> int:
        """The model's count from the count of every part."""
        ...

    def classes(self, model: Problem, parts: Sequence[Any], counts: Sequence[int]) -> int:
        """The model's classes from the count of every part (``counts_classes`` only)."""
        ...
