"""One search of the whole model, for an engine whose compiled search answers it at once.

An engine that declares ``Capabilities.whole`` says, model by model
(``counts_whole(model)``), when one call of its search counts the model
faster than any split would: the bitmask engine's compiled regions kernel
solves a Queens-game model in well under a millisecond, where dozens of
subproblems would each pay for their own set-up. The count is one part,
so checkpoints, progress and time limits work as for any strategy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cpqueens.backends import capabilities, get, portable
from cpqueens.strategies.split import Subproblem
from cpqueens.strategies.symmetry import count_subproblem
from cpqueens.vocabulary.problem import Problem


class Whole:
    """The model itself, one part counted by one search of the engine."""

    name = "one search"
    kernels = False
    threads = False
    counts_classes = False
    loads: tuple[str, ...] = ("engine",)
    #: Its one part is not a split: ``paths`` says "by", not "each by".
    splits = False
    count_part = staticmethod(count_subproblem)

    def fits(self, model: Problem, engine: str) -> bool:
        """Whether ``engine`` declares that one search of it counts ``model`` best."""
        return capabilities(engine).whole and bool(get(engine).counts_whole(model))

    def plan(self, model: Problem, engine: str, workers: int) -> tuple[int, Sequence[Subproblem]]:
        """Depth 0: the model as its one part."""
        return 0, self.parts(model, engine, 0)

    def parts(self, model: Problem, engine: str, depth: int) -> Sequence[Subproblem]:
        """The model itself, weight 1."""
        return (Subproblem(model, 1),)

    def arguments(self, model: Problem, engine: str, part: Subproblem) -> tuple[Any, ...]:
        """The arguments of ``symmetry.count_subproblem`` for the part."""
        return (portable(engine), part)

    def total(self, model: Problem, parts: Sequence[Subproblem], counts: Sequence[int]) -> int:
        """The one part's count."""
        return sum(counts)

    def classes(self, model: Problem, parts: Sequence[Subproblem], counts: Sequence[int]) -> int:
        """Not counted by this strategy (``counts_classes`` is False)."""
        raise NotImplementedError("one search counts the total only")
