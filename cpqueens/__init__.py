"""cpqueens: declarative N-Queens-family models, counted exactly by several solvers.

>>> import cpqueens
>>> cpqueens.model(6).count(backend="bitmask")
4
"""

import importlib
from typing import TYPE_CHECKING, Any

from cpqueens.backends import backends
from cpqueens.errors import (
    BackendUnavailableError,
    CheckpointError,
    CountInterrupted,
    CpqueensError,
    CrossCheckError,
    ImageReadError,
    IncompleteSearchError,
    NotSupportedError,
    WorkerLostError,
)
from cpqueens.model import Model, model
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.expressions import (
    Condition,
    Expression,
    all_different,
    count_true,
    table,
)
from cpqueens.vocabulary.solution import Solution

if TYPE_CHECKING:  # loaded on first use (below): a count never pays their import
    from cpqueens.tasks.optimise import (
        CellModel,
        Optimum,
        cells,
        domination,
        independence,
        peaceable,
    )
    from cpqueens.tasks.puzzles import Puzzle

__version__ = "0.1.0"

#: name -> the module that defines it, imported the first time the name is read.
_LAZY = {
    "CellModel": "cpqueens.tasks.optimise",
    "Optimum": "cpqueens.tasks.optimise",
    "cells": "cpqueens.tasks.optimise",
    "domination": "cpqueens.tasks.optimise",
    "independence": "cpqueens.tasks.optimise",
    "peaceable": "cpqueens.tasks.optimise",
    "Puzzle": "cpqueens.tasks.puzzles",
}


def __getattr__(name: str) -> Any:
    """Import the puzzle and optimisation names on first use (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'cpqueens' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, the lazy ones included."""
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "BackendUnavailableError",
    "Board",
    "CellModel",
    "CheckpointError",
    "Condition",
    "CountInterrupted",
    "CpqueensError",
    "CrossCheckError",
    "Expression",
    "ImageReadError",
    "IncompleteSearchError",
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
