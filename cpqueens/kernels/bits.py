"""Bit tricks on uint64 row masks, shared by every kernel: one machine instruction each.

``popcount``, ``lowest_index`` and ``leading_zeros`` are LLVM intrinsics
(``ctpop``, ``cttz``, ``ctlz``); :func:`live` is the look-ahead that keeps only
the cells of a row whose queen leaves the next row a cell. :func:`pext` is x86's
BMI2 instruction, for the kernels to use only where :data:`FAST_PEXT` says it is one.
"""

from __future__ import annotations

import platform

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
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


def _fast_pext() -> bool:
    """Whether the kernels compile for a CPU where ``pext`` is one quick instruction.

    x86 with BMI2, but not AMD before Zen 3 (its ``pext`` is microcoded, tens to
    hundreds of cycles), and not when numba is told to compile for another CPU
    (``NUMBA_CPU_NAME``, e.g. ``generic`` for a cache shared among machines) unless
    its features name BMI2.
    """
    from llvmlite import binding
    from numba.core import config

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    if config.CPU_NAME is not None:
        return "+bmi2" in (config.CPU_FEATURES or "").split(",")
    slow = ("znver1", "znver2", "bdver", "btver")
    return bool(binding.get_host_cpu_features().get("bmi2")) and not (
        binding.get_host_cpu_name().startswith(slow)
    )


#: Whether :func:`pext` may be compiled and is fast here (:func:`_fast_pext`).
FAST_PEXT = _fast_pext()


@intrinsic
def pext(typingctx, x, mask):
    """The bits of ``x`` at the set bits of ``mask``, packed into the low bits (x86 BMI2).

    Compile it only where :data:`FAST_PEXT` holds: elsewhere the instruction is
    missing or slow.
    """
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        extract = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(word, [word, word]), "llvm.x86.bmi.pext.64"
        )
        return builder.call(extract, args)

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
