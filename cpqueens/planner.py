"""The documented import path of the planner's public names (``cpqueens.planner.BackendName``).

The planner lives in :mod:`cpqueens.strategies.planner`.
"""

from cpqueens.strategies.planner import AUTO, BackendName, resolve

__all__ = ["AUTO", "BackendName", "resolve"]
