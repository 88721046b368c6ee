"""Loading a count's compiled kernels where its parts run, before the first part.

The planner says when a count pays for the engine's compiled kernels
(``planner.kernels_pay``); a :class:`Warm` then loads them in each process
that counts a part: this one before counting here, each worker of a local
pool as it starts, each worker of a Dask cluster through a worker plugin
(``execution/cluster.py``). Loaded, a kernel answers every part of that
process, however small (the engines choose the compiled search once it is
loaded), and a fresh worker pays for numba once, before its first task
rather than inside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from cpqueens.backends import Engine, get, portable
from cpqueens.strategies import class_count
from cpqueens.vocabulary.problem import Problem

#: What each name of ``Strategy.loads`` loads, but the engine's own.
LOADERS = {"classes": class_count.warm_classes, "less-holes": class_count.warm_less_holes}


@dataclass(frozen=True)
class Warm:
    """What loads a count's kernels: picklable, so that any process can be handed it.

    ``loads`` names them as the strategy does (``Strategy.loads``).
    """

    engine: str | Engine
    model: Problem
    loads: tuple[str, ...]

    @classmethod
    def of(cls, engine: str, model: Problem, loads: tuple[str, ...]) -> Warm:
        """The warming of ``model``'s count on ``engine``, loading what ``loads`` names."""
        return cls(portable(engine), model, loads)

    def __call__(self) -> None:
        """Load the kernels in this process, in the order named.

        Without numba (an optional dependency of the engine) there is nothing to
        load: the parts count in plain Python.
        """
        try:
            for name in self.loads:
                if name != "engine":
                    LOADERS[name]()
                    continue
                engine = get(self.engine) if isinstance(self.engine, str) else self.engine
                engine.warm(self.model)
        except ImportError:
            return
