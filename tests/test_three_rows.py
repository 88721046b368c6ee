"""The last three rows by table: the table, and both ways to read it.

``kernels.classes`` and ``kernels.placements`` finish the last three rows of a
count with one lookup in ``last_rows.THREE_ROWS``, keyed by the cells left free
and the gaps between the three free columns, gathered with x86's ``pext`` where
it is fast and with shifts elsewhere. The table is checked here against queens
placed on real coordinates, the placements kernel against the brute-force oracle
on holed boards, the hole sums' kernel against the placements kernel, and the
shifts' way (the one this machine does not take when it has BMI2) by whole counts
in a fresh interpreter told to compile for a generic CPU.
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from cpqueens.kernels.last_rows import THREE_ROWS
from cpqueens.kernels.placements import count_placements
from cpqueens.strategies import class_count
from tests.oracle import placements

#: OEIS A000170 and A002562, n = 1..14.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]


def ways_by_placing(columns: tuple[int, int, int], free: tuple[int, int, int]) -> int:
    """The table's entry made by placing three queens on rows 0..2 at real columns."""
    found = 0
    for order in itertools.permutations(range(3)):
        cells = [(row, columns[i]) for row, i in enumerate(order)]
        if not all((free[row] >> i) & 1 for row, i in enumerate(order)):
            continue
        if all(
            abs(r1 - r2) != abs(c1 - c2) for (r1, c1), (r2, c2) in itertools.combinations(cells, 2)
        ):
            found |= 1 << (3 * order[0] + order[2])
    return found


@pytest.mark.parametrize("g1", range(1, 6))
@pytest.mark.parametrize("g2", range(1, 6))
def test_every_entry_is_what_queens_on_the_board_give(g1, g2):
    # gaps of 4 and 5 read the entries of 3: farther columns never meet on a diagonal here
    columns = (2, 2 + g1, 2 + g1 + g2)
    gaps = (min(g1, 3) - 1) * 3 + (min(g2, 3) - 1)
    for rows in range(512):
        free = (rows >> 6, (rows >> 3) & 7, rows & 7)
        assert int(THREE_ROWS[gaps * 512 + rows]) == ways_by_placing(columns, free), (g1, g2, rows)


def test_a_full_three_by_three_square_has_no_way_and_spread_columns_have_six():
    assert THREE_ROWS[0 * 512 + 511] == 0  # columns side by side: 3 queens on 3 x 3 never fit
    assert bin(int(THREE_ROWS[8 * 512 + 511])).count("1") == 6  # gaps of 3 and more: any order


def holed_boards() -> list[tuple[int, list[tuple[int, int]]]]:
    """Boards of 9 rows with 6 to 14 random holes (seeded): the lookup runs from the first row."""
    rng = random.Random(45)
    return [
        (n, rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(6, 14)))
        for n in (9, 9, 9, 9, 9, 9)
    ]


def row_masks(n: int, holes: list[tuple[int, int]]) -> np.ndarray:
    """Each row's allowed cells as a bit mask (bit c: column c)."""
    masks = [(1 << n) - 1] * n
    for r, c in holes:
        masks[r] &= ~(1 << c)
    return np.array(masks, dtype=np.uint64)


@pytest.mark.parametrize(("n", "holes"), holed_boards())
def test_the_placements_kernel_counts_holed_boards_as_the_oracle(n, holes):
    assert count_placements(row_masks(n, holes)) == len(placements(n, holes))


@pytest.mark.parametrize(("n", "seed"), [(9, 1), (10, 2), (11, 3), (12, 4)])
def test_the_hole_sums_kernel_weighs_each_way_of_the_lookup_by_its_cells(n, seed):
    # count_less_holes sums 24 x (the free board less, per hole, its solutions with a queen
    # there) over the "top" pieces: the lookup's ways each read their three queens' cells.
    # The reference is the placements kernel, which has no symmetry and no cell weights
    # (checked against the brute-force oracle above).
    holes = random.Random(seed).sample([(r, c) for r in range(n) for c in range(n)], 3)
    tops = [piece for piece in class_count.pieces(n, 1) if piece[0] == "top"]
    value = sum(class_count.count_less_holes(n, piece, tuple(holes)) for piece in tops)
    free = count_placements(row_masks(n, []))
    on_holes = sum(free - count_placements(row_masks(n, [hole])) for hole in holes)
    assert free == A000170[n - 1]
    assert value == 24 * (free - on_holes)


COUNT_GENERIC = """
from cpqueens.kernels import bits
import cpqueens
assert not bits.FAST_PEXT, "the generic CPU must take the shifts' way"
print(*(cpqueens.model(n).count() for n in range(1, 15)))
print(*(cpqueens.model(n).count(unique=True) for n in range(1, 15)))
import numpy as np
from cpqueens.kernels.placements import count_placements
from cpqueens.strategies import class_count
print(*(count_placements(np.array(masks, dtype=np.uint64)) for masks in {boards}))
"""


@pytest.mark.slow
def test_the_shifts_way_counts_as_oeis_in_a_fresh_interpreter(tmp_path):
    # NUMBA_CPU_NAME=generic: numba compiles for any x86-64, so no pext; an empty cache of
    # its own, so that the kernels and their object file are compiled that way
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(NUMBA_CPU_NAME="generic", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    boards = [row_masks(n, holes).tolist() for n, holes in holed_boards()]
    done = subprocess.run(
        [sys.executable, "-c", COUNT_GENERIC.format(boards=boards)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    totals, classes, holed = done.stdout.splitlines()
    assert [int(x) for x in totals.split()] == A000170
    assert [int(x) for x in classes.split()] == A002562
    assert [int(x) for x in holed.split()] == [len(placements(n, h)) for n, h in holed_boards()]
