"""The kinds the bitmask engine states itself; the others reach it decomposed."""

from __future__ import annotations

from cpqueens.vocabulary.constraints import BUILT_IN_KINDS, KnightMoves, NoTouch


def states(constraint: object) -> bool:
    """Whether the bitmask engine states ``constraint`` natively (else its decomposition).

    Every built-in kind but the knight's moves and the no-touch rule on a
    torus: the compiled kernels shift their masks, they do not wrap them.
    """
    if isinstance(constraint, (KnightMoves, NoTouch)) and constraint.wraps:
        return False
    return isinstance(constraint, BUILT_IN_KINDS)
