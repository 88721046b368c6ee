"""Bit tricks on uint64 row masks, shared by every kernel: one machine instruction each.

``popcount``, ``lowest_index`` and ``leading_zeros`` are LLVM intrinsics
(``ctpop``, ``cttz``, ``ctlz``); :func:`live` is the look-ahead that keeps only
the cells of a row whose queen leaves the next row a cell.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from cpqueens.kernels.jit import kernel

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_TOP_BIT = np.uint64(63)


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of a uint64 (one machine instruction)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_index(typingctx, x):
    """The index of the lowest set bit of a non-zero uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


@intrinsic
def leading_zeros(typingctx, x):
    """The number of zero bits above the highest set bit of a non-zero uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


@kernel(inline="always")
def live(free, below):
    """The cells of ``free`` whose queen leaves a cell of ``below`` (the next row's) unattacked.

    A queen attacks its own and the two neighbouring columns of the next row,
    so it empties ``below`` exactly when ``below`` lies within those three: when
    it neighbours both the lowest and the highest cell of ``below``. An empty
    ``below`` leaves no queen.
    """
    low = below & (~below + _ONE)
    high = _ONE << (_TOP_BIT - leading_zeros(below | _ONE))
    near_both = (low | (low << _ONE) | (low >> _ONE)) & (high | (high << _ONE) | (high >> _ONE))
    return free & ~near_both & (_ZERO - np.uint64(below != _ZERO))
