"""Side by side: symmetry-reduced counting against mirror-only counting.

1. bitmask: ``model(n).count(backend="bitmask", workers=1)`` (the max-edge
   class-weighted kernels in cpqueens/kernels/classes.py) against three
   mirror-only engines (Somers' trick: row 0's queen in the left half, x2):
   a plain numba DFS written here, the speed issue's engine (the mirror split
   of cpqueens.strategies.split counted by cpqueens.kernels.placements.count_placements, the last
   seven rows unrolled), and the symmetry kernels' own DFS (look-ahead, nine
   rows unrolled) on the mirror split, which isolates what the symmetry
   reduction itself gains.
2. cpsat: ``model(n).count(backend="cpsat", workers=1)`` (lex-leader
   subproblems) against the plain mirror split it replaces.

Repeats are interleaved A/B and the best of each is kept (the machine is shared).
Writes benchmarks/RESULTS-symmetry.md.

    python benchmarks/bench_symmetry.py [--n 14 15 16] [--cpsat-n 12] [--repeats 3]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

import cpqueens
from cpqueens.kernels.classes import _weighed_leaves
from cpqueens.strategies.split import subproblems
from cpqueens.strategies.symmetry import count_subproblem


@njit(cache=True)
def mirror_only(n: int) -> int:
    """All solutions of the free n x n board by the bitmask DFS, halved by the mirror."""
    mask = (1 << n) - 1
    avail = np.zeros(n, np.int64)
    left = np.zeros(n, np.int64)
    down = np.zeros(n, np.int64)
    right = np.zeros(n, np.int64)
    total = 0
    for first in range((n + 1) // 2):
        weight = 1 if 2 * first == n - 1 else 2
        bit = 1 << first
        if n == 1:
            total += 1
            continue
        left[1] = (bit << 1) & mask
        down[1] = bit
        right[1] = bit >> 1
        avail[1] = mask & ~(left[1] | down[1] | right[1])
        found = 0
        y = 1
        while y >= 1:
            free = avail[y]
            if free == 0:
                y -= 1
                continue
            bit = free & -free
            avail[y] = free ^ bit
            lft = ((left[y] | bit) << 1) & mask
            d = down[y] | bit
            r = (right[y] | bit) >> 1
            nxt = mask & ~(lft | d | r)
            if y + 1 == n - 1:
                if nxt:
                    found += 1
                continue
            y += 1
            left[y] = lft
            down[y] = d
            right[y] = r
            avail[y] = nxt
        total += weight * found
    return total


def mirror_engine(n: int) -> int:
    """The speed issue's mirror-only engine: the mirror split, each part by the native kernel."""
    return sum(count_subproblem("bitmask", p) for p in subproblems(cpqueens.model(n), 1))


def mirror_same_kernel(n: int) -> int:
    """Mirror-only counting by the symmetry kernels' DFS (no marks: 12 per placement)."""
    full = (1 << n) - 1
    no_marks = np.zeros(n, np.uint64)
    total = 0
    for col in range((n + 1) // 2):
        allowed = np.full(n, full, np.uint64)
        allowed[0] = 1 << col
        twelfths = int(_weighed_leaves(allowed, no_marks, np.uint64(0)))
        total += (1 if 2 * col == n - 1 else 2) * twelfths // 12
    return total


def best_of(runs: dict[str, list[float]]) -> dict[str, float]:
    return {name: min(times) for name, times in runs.items()}


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[14, 15, 16])
    parser.add_argument("--cpsat-n", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS-symmetry.md")))
    args = parser.parse_args()
    cn = args.cpsat_n

    # Warm up the JIT (both kernels are cached on disk after the first run).
    assert mirror_only(8) == cpqueens.model(8).count(backend="bitmask", workers=1) == 92
    assert mirror_engine(14) == mirror_same_kernel(14) == 365596

    bitmask_rows = []
    for n in args.n:
        bitmask = {
            "mirror-only numba DFS": [],
            "mirror-only engine (speed issue)": [],
            "mirror-only, symmetry kernels' DFS": [],
            "symmetry-reduced (library)": [],
        }
        counts = {}
        for _ in range(args.repeats):
            counts["mirror"], t = timed(lambda n=n: mirror_only(n))
            bitmask["mirror-only numba DFS"].append(t)
            counts["engine"], t = timed(lambda n=n: mirror_engine(n))
            bitmask["mirror-only engine (speed issue)"].append(t)
            counts["same"], t = timed(lambda n=n: mirror_same_kernel(n))
            bitmask["mirror-only, symmetry kernels' DFS"].append(t)
            counts["reduced"], t = timed(
                lambda n=n: cpqueens.model(n).count(backend="bitmask", workers=1)
            )
            bitmask["symmetry-reduced (library)"].append(t)
            print(f"bitmask n={n}: {counts} {[round(v[-1], 3) for v in bitmask.values()]}")
        assert len(set(counts.values())) == 1, counts
        b = best_of(bitmask)
        mirror, reduced = b["mirror-only numba DFS"], b["symmetry-reduced (library)"]
        engine = b["mirror-only engine (speed issue)"]
        same = b["mirror-only, symmetry kernels' DFS"]
        bitmask_rows.append(
            f"| {n} | {counts['reduced']:,} | {mirror:.3f} | {engine:.3f} | {same:.3f} "
            f"| {reduced:.3f} | {mirror / reduced:.2f}x | **{engine / reduced:.2f}x** "
            f"| {same / reduced:.2f}x |"
        )

    plain_parts = subproblems(cpqueens.model(cn), 1)
    cpsat = {"plain mirror split": [], "lex-leader subproblems (library)": []}
    ccounts = {}
    for _ in range(args.repeats):
        ccounts["plain"], t = timed(lambda: sum(count_subproblem("cpsat", p) for p in plain_parts))
        cpsat["plain mirror split"].append(t)
        ccounts["lex"], t = timed(lambda: cpqueens.model(cn).count(backend="cpsat", workers=1))
        cpsat["lex-leader subproblems (library)"].append(t)
        print(f"cpsat n={cn}: {ccounts} {[round(v[-1], 3) for v in cpsat.values()]}")
    assert ccounts["plain"] == ccounts["lex"], ccounts

    c = best_of(cpsat)
    cp_ratio = c["plain mirror split"] / c["lex-leader subproblems (library)"]
    lines = [
        "# Symmetry-reduced counting, side by side",
        "",
        f"Command: `python benchmarks/bench_symmetry.py --n {' '.join(map(str, args.n))} "
        f"--cpsat-n {cn} "
        f"--repeats {args.repeats}`",
        f"Machine: {platform.machine()}, Python {sys.version.split()[0]}, shared and noisy; "
        f"A/B interleaved, best of {args.repeats}, one worker.",
        "",
        "## bitmask, free board: symmetry-reduced kernels against mirror-only engines",
        "",
        "The plain DFS is the simple one-row-at-a-time loop written in this script. The",
        "speed issue's engine (cpqueens.kernels.placements.count_placements on the mirror split:",
        "explicit stack, last seven rows unrolled) is the issue's yardstick. The",
        "symmetry kernels' DFS adds a look-ahead (a queen that leaves the next row no",
        "free cell is skipped: a third of the nodes, all dead ends) and unrolls nine",
        "rows; run on the mirror split alone it shows how much of the speed-up is the",
        "DFS and how much the symmetry reduction (last column).",
        "",
        "The reduction (cpqueens/kernels/classes.py): a class's representatives are",
        "the images whose row-0 queen is the edge queen farthest from its corner, so",
        "the search pins row 0's queen to a column D of the left half and closes the",
        "edge columns in the rows farther than D from row 0 and row n - 1; leaves",
        "where other edges tie weigh 4/k, and class sizes come from a small search",
        "for the solutions fixed by the half and quarter turns.",
        "",
        "| n | solutions | plain mirror DFS (s) | mirror engine, speed issue (s) "
        "| mirror, symmetry kernels' DFS (s) | symmetry-reduced (s) | vs plain DFS "
        "| vs speed issue's engine | vs same DFS, mirror only |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *bitmask_rows,
        "",
        "The issue's target is 3x the speed issue's engine at n = 16. Why the",
        "representatives are the farthest edge queens rather than the nearest",
        "(Takahashi's choice, this library's previous kernels, 2.2x): with the",
        "nearest, the pieces with row 0's queen next to a corner keep nearly their",
        "whole column trees (at n = 16, 510,930 of column 1's 569,531 solutions are",
        "representatives), and those trees are the sparsest in solutions; with the",
        "farthest, the unpruned trees are the central columns', the densest, and the",
        "pieces near the corners are cut down early by the closed edge columns.",
        "Counting the tying leaves by pinned sub-searches (inclusion-exclusion)",
        "instead of in the one search cost 50% more; searching the transposed board",
        "(the pinned queen on column 0) cost four times as much.",
        "",
        f"## cpsat, free board n = {cn} ({ccounts['lex']} solutions)",
        "",
        "| counting | best time (s) |",
        "| --- | --- |",
        *(f"| {name} | {t:.3f} |" for name, t in c.items()),
        "",
        f"Speed-up of the lex-leader subproblems over the plain mirror split: **{cp_ratio:.2f}x**.",
        "",
    ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
