"""The symmetry kernels' searches loaded as object code, without numba (issue 45, goal 2).

``kernels.class_entries`` runs the searches of ``kernels.classes`` from an
object file that llvmlite links: each piece's count must be the kernels'
own, and a count that loads it must not import numba or numpy.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from cpqueens.kernels import class_entries, classes, objects
from cpqueens.strategies.class_count import _turn_fixed, pieces, symmetric_rows

#: OEIS A000170.
A000170 = {8: 92, 10: 724, 12: 14200, 13: 73712}


@pytest.fixture(scope="module")
def native():
    """The loaded searches (compiled into this user's cache the first time)."""
    found = class_entries.get()
    assert found is not None, "the object file could not be compiled or loaded"
    return found


@pytest.mark.parametrize("n", range(5, 14))
def test_every_piece_counts_what_the_kernel_counts(native, n):
    for piece in pieces(n, 1 if n > 10 else 2):
        assert native.count_piece(n, piece) == classes.count_piece(n, piece), (n, piece)


def test_the_free_board_totals_are_oeis(native):
    for n, total in A000170.items():
        twelfths = sum(native.count_piece(n, p) for p in pieces(n) if p.kind == "top")
        assert twelfths // 3 == total, n


def test_boards_with_symmetric_holes_count_as_the_kernel(native):
    for n, cell in ((9, (0, 0)), (12, (2, 5)), (13, (6, 6))):
        rows = symmetric_rows(n, classes._images(n, *cell))  # a cell and its 8 images
        assert rows is not None
        for piece in pieces(n, 1):
            assert native.count_piece(n, piece, rows) == classes.count_piece(n, piece, rows)


def test_the_turn_search_counts_as_plain_python(native):
    for n in range(4, 15):
        full = (1 << n) - 1
        assert native.turn_fixed(n, [full] * n) == _turn_fixed(n, (full,) * n), n
    rows = symmetric_rows(12, classes._images(12, 2, 5))
    assert rows is not None
    assert native.turn_fixed(12, rows) == _turn_fixed(12, rows)


def test_a_damaged_object_file_is_refused(tmp_path):
    path = tmp_path / "classes-x.o"
    objects.save(path, {"leaves": "f"}, b"\x7fELF code")
    assert objects.read(path) == ({"leaves": "f"}, b"\x7fELF code")
    path.write_bytes(path.read_bytes()[:-1] + b"!")
    assert objects.read(path) is None
    assert objects.read(tmp_path / "absent.o") is None


def test_the_key_changes_with_the_source(tmp_path):
    source = tmp_path / "kernel.py"
    source.write_text("a = 1\n")
    first = objects.key("classes", [source])
    assert objects.key("classes", [source]) == first
    source.write_text("a = 2\n")
    assert objects.key("classes", [source]) != first


def test_a_kernel_count_loads_the_object_file_not_numba(native, tmp_path):
    show = (
        "import sys, cpqueens\n"
        "print(cpqueens.model(13).count(workers=2))\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'numpy', 'llvmlite'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", show], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.split("\n")[:2] == ["73712", "['llvmlite']"], done.stderr


def test_without_the_object_file_the_kernels_count(monkeypatch):
    from cpqueens.strategies import class_count

    monkeypatch.setattr(objects, "folder", lambda: None)  # no writable cache folder
    monkeypatch.setattr(class_entries, "_FOUND", [])
    assert class_entries.get() is None
    assert class_count.classes(12) == (4, 18, 1765)  # 14,200 solutions (OEIS A000170)
