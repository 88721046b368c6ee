"""The symmetry kernels' searches called as machine code loaded without numba.

A short count (``count 16``: 93 pieces, about 1.3 s of search) paid more
than half a second in each process to import numba and numpy before its
first piece. Here the searches of :mod:`cpqueens.kernels.classes` run from
their object file (:mod:`cpqueens.kernels.objects`): llvmlite links it, the
pieces' rows are plain integers in ``ctypes`` arrays, and ``ctypes`` drops
the GIL during each search, so threads share the pieces. The object is
compiled (by numba) the first time a process needs it and no file of this
machine's key is there; it counts exactly what the kernels count, their own
code compiled once more, and :func:`get` answers None where it cannot be
had (no writable cache, an unexpected numba): callers then use the kernels.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cpqueens.kernels import objects
from cpqueens.kernels.edges import by_edge_queens, marks, masks
from cpqueens.kernels.jit import lock_file

#: The files whose text the object's machine code depends on (its key hashes them).
SOURCES = tuple(
    Path(__file__).with_name(name)
    for name in ("classes.py", "last_rows.py", "bits.py", "objects.py")
)
_WORDS = ctypes.POINTER(ctypes.c_uint64)
_LONGS = ctypes.POINTER(ctypes.c_int64)
#: numba's calling convention: status, the result's address, the exception's, then the arguments.
_LEAVES = ctypes.CFUNCTYPE(
    ctypes.c_int32,
    _LONGS,
    ctypes.c_void_p,
    ctypes.c_int64,
    _WORDS,
    _WORDS,
    ctypes.c_uint64,
    _WORDS,
    _WORDS,
)
_TURNS = ctypes.CFUNCTYPE(
    ctypes.c_int32, _LONGS, ctypes.c_void_p, ctypes.c_int64, _LONGS, _LONGS, _LONGS, _LONGS
)


class Entries:
    """The loaded searches: :meth:`count_piece` and :meth:`turn_fixed`, as the kernels'."""

    def __init__(self, addresses: dict[str, int]) -> None:
        """The searches at the addresses :func:`objects.load` gave."""
        self._leaves = _LEAVES(addresses["leaves"])
        self._turns = _TURNS(addresses["turns"])

    def count_piece(self, n: int, piece: Sequence[Any], rows: Sequence[int] | None = None) -> int:
        """As ``kernels.classes.count_piece``: the piece's leaves in twelfths, or a turn's count."""
        kind, distance, row1, row2 = piece
        if kind in ("fixed180", "fixed90"):
            fixed180, fixed90 = self.turn_fixed(n, rows if rows is not None else [(1 << n) - 1] * n)
            return fixed180 if kind == "fixed180" else fixed90
        allowed = masks(n, distance, row1, row2)
        if rows is not None:
            allowed = [a & r for a, r in zip(allowed, rows, strict=True)]
        edge, bottom = marks(n, distance)
        words = ctypes.c_uint64 * n
        edges, ties, stack = words(*edge), words(), (ctypes.c_uint64 * (4 * n))()
        twelfths = 0
        for part in by_edge_queens(n, distance, allowed):  # near a corner: per edge queens
            result = ctypes.c_int64()
            status = self._leaves(
                ctypes.byref(result), None, n, words(*part), edges, bottom, ties, stack
            )
            _check(status)
            twelfths += result.value
        return 2 * twelfths

    def turn_fixed(self, n: int, rows: Sequence[int]) -> tuple[int, int]:
        """As ``kernels.classes.turn_fixed``: the placements its half turn, its quarter turn fix."""
        out = (ctypes.c_int64 * 2)()
        status = self._turns(
            ctypes.byref(ctypes.c_int64()),
            None,
            n,
            (ctypes.c_int64 * n)(*rows),
            (ctypes.c_int64 * n)(),
            (ctypes.c_int64 * (6 * (n // 2 + 1)))(),
            out,
        )
        _check(status)
        return out[0], out[1]


def _check(status: int) -> None:
    """Raise RuntimeError unless a search's status says it finished (the searches never raise)."""
    if status != 0:
        raise RuntimeError(f"a symmetry search ended with status {status}, expected 0")


_LOCK = threading.Lock()
#: This process's entries once asked for: Entries, or None where they cannot be had.
_FOUND: list[Entries | None] = []


def get() -> Entries | None:
    """The searches from their object file (compiled now if missing), or None if unavailable."""
    with _LOCK:
        if not _FOUND:
            _FOUND.append(_make())
        return _FOUND[0]


def _make() -> Entries | None:
    """Read (or compile and write) the object file of this machine's key, and load it."""
    try:
        folder = objects.folder()
        if folder is None:
            return None
        path = folder / f"classes-{objects.key('classes', SOURCES)}.o"
        found = objects.read(path)
        if found is None:  # compiled by one process at a time; the others read its file
            held = lock_file(f"{path}.lock")
            try:
                found = objects.read(path)
                if found is None:
                    from cpqueens.kernels.classes import entries  # numba: compiles them

                    symbols, code = objects.emit(entries())
                    objects.save(path, symbols, code)
                    found = symbols, code
            finally:
                if held is not None:
                    os.close(held)
        return Entries(objects.load(*found))
    except Exception:  # no llvmlite, an unexpected numba: the kernels count as before
        return None
