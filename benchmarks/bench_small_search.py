"""Where plain Python stops paying: small searches against loading and running the kernels.

Issue 32: a small question must not wait for numba, so the bitmask engine
searches small region puzzles (``backends/bitmask/propagate.py``, a budget of
nodes) and the turn-fixed solutions of boards up to ``TURN_PYTHON_MAX_N``
(``strategies/class_count.py``) in plain Python. This measures, in one
process, side by side on the same inputs:

- region puzzles (generated from seeds, as ``bench_puzzles.py``'s sets): the
  plain-Python search (its nodes, and how many gave way at the budget)
  against the compiled search, warm; and, in fresh processes, a daily
  puzzle's first answer on either path (the kernel's includes importing
  numba and loading the cached kernel: best of 3);
- the turn-fixed search of the free n x n board, n = 11..16: plain Python
  against the kernel, warm, and the kernel's first call once numba is
  loaded (loading it from the cache).

Every answer of the two paths is checked to agree.

    python benchmarks/bench_small_search.py [--per-set 20]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from cpqueens import Puzzle
from cpqueens.backends.bitmask import propagate as regions_propagate
from cpqueens.backends.bitmask import regions as regions_bitmask
from cpqueens.strategies import class_count

SETS = ((7, 1), (9, 1), (11, 1), (10, 2), (14, 3))

LOAD = """
import time
from cpqueens import Puzzle
from cpqueens.backends.bitmask import propagate as regions_propagate
from cpqueens.backends.bitmask import regions as regions_bitmask
p = Puzzle.loads({text!r})
regions_propagate.NODES = {nodes}
start = time.perf_counter()
regions_bitmask.search(p, 2, keep=2)
print(time.perf_counter() - start)
"""


def first_answer(puzzle: Puzzle, nodes: int) -> float:
    """Seconds to the first answer in a fresh process (the puzzle read before the clock starts)."""
    runs = []
    for _ in range(3):
        code = LOAD.format(text=puzzle.to_text(), nodes=nodes)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        runs.append(float(done.stdout.split()[-1]))
    return min(runs)


def python_search(puzzle: Puzzle) -> tuple[float, tuple | None]:
    """The plain-Python search with its budget: seconds, and its answer (None: gave way)."""
    free = regions_bitmask._free(puzzle.n, puzzle.blocked)
    start = time.perf_counter()
    found = regions_propagate.search(
        puzzle.n, puzzle.stars, puzzle.regions, free, puzzle.queens, puzzle.diagonals, 2, 2
    )
    return time.perf_counter() - start, found


def kernel_search(puzzle: Puzzle) -> tuple[float, tuple]:
    """The compiled search (loaded already): seconds, and its answer."""
    before = regions_propagate.NODES
    regions_propagate.NODES = 0
    try:
        start = time.perf_counter()
        found = regions_bitmask.search(puzzle, 2, keep=2)
        return time.perf_counter() - start, found
    finally:
        regions_propagate.NODES = before


def puzzles_table(per_set: int) -> None:
    """The region puzzles' table."""
    kernel_search(Puzzle.generate(5, seed=0)[0])  # the kernel loaded before any timing
    print("| puzzles | Python, mean | Python, max | gave way | kernel (warm), mean | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for n, k in SETS:
        count = per_set if n < 14 else max(1, per_set // 4)
        mine, theirs, gave_way = [], [], 0
        for seed in range(count):
            puzzle = Puzzle.generate(n, k, seed=1000 + seed)[0]
            seconds, found = python_search(puzzle)
            kernel_seconds, expected = kernel_search(puzzle)
            if found is None:
                gave_way += 1
            else:
                assert found == expected, (n, k, seed)
            mine.append(seconds)
            theirs.append(kernel_seconds)
        print(
            f"| {n}x{n}, {k} star(s), {count} | {statistics.mean(mine) * 1e3:.2f} ms "
            f"| {max(mine) * 1e3:.2f} ms | {gave_way} | {statistics.mean(theirs) * 1e3:.2f} ms "
            f"| {statistics.mean(mine) / statistics.mean(theirs):.1f}x |",
            flush=True,
        )
    daily = Puzzle.generate(9, seed=0)[0]
    python_first = first_answer(daily, regions_propagate.NODES)
    kernel_first = first_answer(daily, 0)
    print(
        f"\nA 9x9 puzzle's first answer in a fresh process (best of 3): plain Python "
        f"{python_first * 1e3:.1f} ms, the kernel (numba imported, cached kernel loaded) "
        f"{kernel_first * 1e3:.0f} ms: {kernel_first / python_first:.0f}x."
    )


def turns_table() -> None:
    """The turn-fixed search's table."""
    from cpqueens.kernels.classes import turn_fixed

    start = time.perf_counter()
    turn_fixed(8, (255,) * 8)  # numba and the kernel module are loaded: this loads the kernel
    print(
        f"\nThe turn-fixed kernel's first call, numba loaded (the kernel loaded from the "
        f"cache): {(time.perf_counter() - start) * 1e3:.1f} ms."
    )
    print("\n| n | Python | kernel, warm | Python / warm |")
    print("| ---: | ---: | ---: | ---: |")
    for n in range(11, 17):
        rows = ((1 << n) - 1,) * n
        start = time.perf_counter()
        mine = class_count._turn_fixed(n, rows)
        python_seconds = time.perf_counter() - start
        assert turn_fixed(n, rows) == mine
        start = time.perf_counter()
        turn_fixed(n, rows)
        warm = time.perf_counter() - start
        print(
            f"| {n} | {python_seconds * 1e3:.1f} ms | {warm * 1e3:.2f} ms "
            f"| {python_seconds / warm:.0f}x |",
            flush=True,
        )


def main() -> None:
    """Print both tables (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-set", type=int, default=20)
    options = parser.parse_args()
    puzzles_table(options.per_set)
    turns_table()


if __name__ == "__main__":
    main()
