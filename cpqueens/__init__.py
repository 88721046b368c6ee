"""cpqueens: declarative N-Queens-family models, counted exactly by several solvers.

>>> import cpqueens
>>> cpqueens.model(6).count(backend="bitmask")
4
"""

from cpqueens.backends import backends
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
from cpqueens.model import Model, model
from cpqueens.tasks.optimise import CellModel, Optimum, cells, domination, independence, peaceable
from cpqueens.tasks.puzzles import Puzzle
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.expressions import (
    Condition,
    Expression,
    all_different,
    count_true,
    table,
)
from cpqueens.vocabulary.solution import Solution

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
