"""cpqueens: declarative N-Queens-family models, counted exactly by several solvers.

>>> import cpqueens
>>> cpqueens.model(6).count(backend="bitmask")
4
"""

import sys
from typing import TYPE_CHECKING, Any

from cpqueens.errors import (
    BackendUnavailableError,
    CheckpointError,
    CountInterrupted,
    CpqueensError,
    CrossCheckError,
    ImageReadError,
    IncompleteSearchError,
    LongCountWarning,
    NotSupportedError,
    WorkerLostError,
)
from cpqueens.model import Model, cells, domination, independence, model, peaceable
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.solution import Solution

if TYPE_CHECKING:  # loaded on first use (below): a count never pays their import
    from cpqueens.backends import BackendName, backends
    from cpqueens.execution.checkpoint import Checkpoint
    from cpqueens.expressions import (
        Condition,
        Expression,
        all_different,
        count_true,
        table,
    )
    from cpqueens.model.puzzle import Puzzle
    from cpqueens.tasks.optimise import Optimum

if not TYPE_CHECKING:  # the package, callable: cpqueens.backends() lists the engines, and
    from cpqueens import backends  # import cpqueens.backends.base finds its module

__version__ = "0.1.0"

#: The name cells() models had before there was one model: the same class.
CellModel = Model

#: The names imported the first time they are read: puzzles, optimisation, and the condition
#: language (``import cpqueens`` builds none of its classes).
_LAZY = (
    "Optimum",
    "Puzzle",
    "Checkpoint",
    "BackendName",
    "Condition",
    "Expression",
    "all_different",
    "count_true",
    "table",
)


def __getattr__(name: str) -> Any:
    """Import the lazy names (``_LAZY``) on first use (PEP 562)."""
    module: Any
    if name == "Optimum":
        from cpqueens.tasks import optimise as module
    elif name == "Puzzle":
        from cpqueens.model import puzzle as module
    elif name == "Checkpoint":
        from cpqueens.execution import checkpoint as module
    elif name == "BackendName":  # the module, which the function backends() shadows here
        module = sys.modules["cpqueens.backends"]
    elif name in _LAZY:
        from cpqueens import expressions as module
    else:
        raise AttributeError(f"module 'cpqueens' has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, the lazy ones included."""
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "BackendName",
    "BackendUnavailableError",
    "Board",
    "CellModel",
    "Checkpoint",
    "CheckpointError",
    "Condition",
    "CountInterrupted",
    "CpqueensError",
    "CrossCheckError",
    "Expression",
    "ImageReadError",
    "IncompleteSearchError",
    "LongCountWarning",
    "Model",
    "NotSupportedError",
    "Optimum",
    "Puzzle",
    "Solution",
    "WorkerLostError",
    "__version__",
    "all_different",
    "backends",
    "cells",
    "count_true",
    "domination",
    "independence",
    "model",
    "peaceable",
    "table",
]
