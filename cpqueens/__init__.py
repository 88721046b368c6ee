"""cpqueens: declarative N-Queens-family models, counted exactly by several solvers.

>>> import cpqueens
>>> cpqueens.model(6).count(backend="bitmask")
4
"""

from cpqueens.backends import backends
from cpqueens.board import Board
from cpqueens.errors import (
    BackendUnavailableError,
    CheckpointError,
    CountInterrupted,
    CpqueensError,
    CrossCheckError,
    IncompleteSearchError,
    NotSupportedError,
    WorkerLostError,
)
from cpqueens.expressions import Condition, Expression, all_different
from cpqueens.model import Model, model
from cpqueens.solution import Solution
from cpqueens.tasks.optimise import CellModel, Optimum, cells, domination, independence, peaceable

__version__ = "0.1.0"

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
    "IncompleteSearchError",
    "Model",
    "NotSupportedError",
    "Optimum",
    "Solution",
    "WorkerLostError",
    "__version__",
    "all_different",
    "backends",
    "cells",
    "domination",
    "independence",
    "model",
    "peaceable",
]
