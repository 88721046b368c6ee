"""What an engine's optimisation returns, shared by every engine's cell module."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from cpqueens.vocabulary.cells import Piece

#: (value, bound, seconds) of each better solution found.
Progress = Callable[[int, int, float], None]


@dataclass(frozen=True)
class Outcome:
    """What one optimisation solve proved: its status, best value and bound, the pieces."""

    status: Literal["optimal", "feasible", "infeasible"]
    value: int | None
    bound: int | None
    pieces: tuple[Piece, ...]
    seconds: float
