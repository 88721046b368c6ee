"""What the backends share when reading constraints: the unsupported-constraint error."""

from __future__ import annotations

from cpqueens.errors import NotSupportedError


def unsupported(backend: str, constraint: object) -> NotSupportedError:
    """The error a backend raises for a constraint it does not know."""
    return NotSupportedError(
        f"backend {backend!r} does not support the constraint {constraint!r} "
        f"({type(constraint).__name__})"
    )
