"""Pieces of boards whose corners are holes, searched upside down (issue 45, goal 6).

``kernels.edges.piece_rows`` turns such a piece over when row 0's queen is
near a corner (a faster search there). The counts must stay the plain
bitmask search's, a brute force's at n <= 8, and each piece's the unturned
search's, on both ways of running the kernel (numba's and the object file's).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from cpqueens.kernels import class_entries, classes, edges
from cpqueens.kernels.placements import count_placements
from cpqueens.strategies.class_count import combine, pieces, symmetric_rows


def _orbit(n: int, r: int, c: int) -> set[tuple[int, int]]:
    """Cell (r, c) and its images under the 8 board symmetries."""
    return set(classes._images(n, r, c))


def _boards(n: int) -> list[set[tuple[int, int]]]:
    """Boards whose holes all 8 symmetries keep: the corners alone, and with more holes."""
    corners = _orbit(n, 0, 0)
    return [corners, corners | _orbit(n, 1, 2), corners | _orbit(n, n // 2, n // 2)]


def _brute(n: int, holes: set[tuple[int, int]]) -> int:
    """The placements of n queens on the board less ``holes``, by trying every permutation."""
    return sum(
        all((r, c) not in holes for r, c in enumerate(p))
        and len({r + c for r, c in enumerate(p)}) == n
        and len({r - c for r, c in enumerate(p)}) == n
        for p in permutations(range(n))
    )


@pytest.fixture(scope="module")
def searches():
    """The two ways of counting a piece: numba's kernels and the object file's entries."""
    native = class_entries.get()
    assert native is not None, "the object file could not be compiled or loaded"
    return {"numba": classes.count_piece, "object": native.count_piece}


def _total(count, n: int, rows, depth: int) -> int:
    """The board's total from its pieces at ``depth``, each counted by ``count``."""
    split = pieces(n, depth)
    two, four, eight = combine(n, split, [count(n, piece, rows) for piece in split])
    return 2 * two + 4 * four + 8 * eight


@pytest.mark.parametrize("n", range(5, 14))
def test_totals_are_the_plain_search(searches, n):
    for holes in _boards(n):
        rows = symmetric_rows(n, holes)
        assert rows is not None
        plain = count_placements(np.array(rows, np.uint64))
        for depth in (0, 1) if n > 11 else (0, 1, 2):
            for way, count in searches.items():
                assert _total(count, n, rows, depth) == plain, (n, sorted(holes), depth, way)


@pytest.mark.parametrize("n", range(5, 9))
def test_totals_are_a_brute_force(searches, n):
    for holes in _boards(n)[: 1 if n == 8 else None]:
        rows = symmetric_rows(n, holes)
        assert _total(searches["object"], n, rows, 0) == _brute(n, holes), (n, sorted(holes))


def test_each_turned_piece_counts_as_unturned(searches, monkeypatch):
    turned = 0
    for n in (11, 12, 13):
        rows = symmetric_rows(n, _orbit(n, 0, 0))
        split = [p for p in pieces(n, 1) if p.kind == "top"]
        turned += sum(edges.upside_down(n, p.distance, rows) for p in split)
        with monkeypatch.context() as patch:
            patch.setattr(edges, "upside_down", lambda *args: False)
            before = {way: [count(n, p, rows) for p in split] for way, count in searches.items()}
        for way, count in searches.items():
            assert [count(n, p, rows) for p in split] == before[way], (n, way)
    assert turned > 0


def test_only_boards_with_corner_holes_turn():
    n = 17
    corners = symmetric_rows(n, _orbit(n, 0, 0))
    centre = symmetric_rows(n, _orbit(n, 8, 8))
    assert [d for d in range(1, 9) if edges.upside_down(n, d, corners)] == [1, 2, 3, 4]
    assert not any(edges.upside_down(n, d, centre) for d in range(1, 9))
    assert not any(edges.upside_down(n, d, None) for d in range(1, 9))
