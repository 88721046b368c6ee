"""The documented import path of checkpoints (``cpqueens.checkpoint.Checkpoint``).

Checkpoints live in :mod:`cpqueens.execution.checkpoint`.
"""

from cpqueens.execution.checkpoint import Checkpoint

__all__ = ["Checkpoint"]
