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
from cpqueens.tasks.puzzles import Puzzle

__version__ = "0.1.0"

__all__ = [
    "BackendUnavailableError",
    "Board",
    "CheckpointError",
    "Condition",
    "CountInterrupted",
    "CpqueensError",
    "CrossCheckError",
    "Expression",
    "IncompleteSearchError",
    "Model",
    "NotSupportedError",
    "Puzzle",
    "Solution",
    "WorkerLostError",
    "__version__",
    "all_different",
    "backends",
    "model",
]
