"""Which path answers a count: the engine, the way to count, and what counts each part.

``Model.engine(path=True)`` and the CLI's ``--json`` (``"path"``) say it, so
that nothing a user writes falls back to pure Python without saying so. An
engine may describe how it counts one model (a ``describe(model)`` function
in its module: the bitmask engine names its kernel or the Python DFS and why).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpqueens.backends import get
from cpqueens.strategies.planner import placed_as_holes, strategy, takes_placed_as_holes

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem


def path(model: Problem, engine: str) -> str:
    """How ``engine`` (a backend name, not "auto") counts ``model``, in a few words.

    >>> from cpqueens import model
    >>> m = model(16)
    >>> path(m.columns(), "bitmask")
    'bitmask: classes'
    >>> path(m.where(m.q[0] < m.q[15]).columns(), "bitmask")
    'bitmask: subproblems, each by the compiled conditions kernel'
    """
    if takes_placed_as_holes(model, engine):
        model = placed_as_holes(model)
    way = strategy(model, engine)
    text = f"{engine}: {way.name}"
    described = None if way.kernels else get(engine).describe(model)
    if described is None:
        return text
    each = "each by" if getattr(way, "splits", True) else "by"
    return f"{text}, {each} {described}"
