"""Side by side: symmetry-reduced counting against mirror-only counting.

1. bitmask: ``model(n).count(backend="bitmask", workers=1)`` (Takahashi's
   class-weighted kernels in cpqueens/native_symmetry.py) against two
   mirror-only engines (Somers' trick: row 0's queen in the left half, x2):
   a plain numba DFS written here, and the speed issue's engine (the mirror
   split of cpqueens.split counted by cpqueens.native.count_placements, the
   last seven rows unrolled).
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
from cpqueens.counting import count_subproblem
from cpqueens.split import subproblems


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
    assert mirror_engine(14) == 365596

    bitmask_rows = []
    for n in args.n:
        bitmask = {
            "mirror-only numba DFS": [],
            "mirror-only engine (speed issue)": [],
            "symmetry-reduced (library)": [],
        }
        counts = {}
        for _ in range(args.repeats):
            counts["mirror"], t = timed(lambda n=n: mirror_only(n))
            bitmask["mirror-only numba DFS"].append(t)
            counts["engine"], t = timed(lambda n=n: mirror_engine(n))
            bitmask["mirror-only engine (speed issue)"].append(t)
            counts["reduced"], t = timed(
                lambda n=n: cpqueens.model(n).count(backend="bitmask", workers=1)
            )
            bitmask["symmetry-reduced (library)"].append(t)
            print(f"bitmask n={n}: {counts} {[round(v[-1], 3) for v in bitmask.values()]}")
        assert counts["mirror"] == counts["engine"] == counts["reduced"], counts
        b = best_of(bitmask)
        mirror, reduced = b["mirror-only numba DFS"], b["symmetry-reduced (library)"]
        engine = b["mirror-only engine (speed issue)"]
        bitmask_rows.append(
            f"| {n} | {counts['reduced']:,} | {mirror:.3f} | {engine:.3f} | {reduced:.3f} | "
            f"**{mirror / reduced:.2f}x** | **{engine / reduced:.2f}x** |"
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
        "The plain DFS is the simple one-row-at-a-time loop written in this script; the",
        "speed issue's engine (cpqueens.native.count_placements on the mirror split) is",
        "faster per node (explicit stack, last seven rows unrolled), so the ratio against",
        "it is the smaller and the honest one. The symmetry-reduced side search uses the",
        "same DFS structure with the last nine rows unrolled, and weighs a leaf (compares",
        "its 90/180/270 degree images) only where an image can start as near a corner;",
        "the corner pieces are counted by count_placements itself.",
        "",
        "| n | solutions | plain mirror DFS (s) | mirror engine, speed issue (s) "
        "| symmetry-reduced (s) | vs plain DFS | vs mirror engine |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *bitmask_rows,
        "",
        "The issue's target is 3x at n = 16. What bounds the node count (n = 16): a",
        "side piece with row 0's queen at column b enters nearly the whole column-b tree",
        "for small b, because nearly every solution there is its class's representative",
        "(b = 1: 510,930 representatives among the column's 569,531 solutions; b = 2:",
        "492,012 of 736,363), so the symmetry-reduced search walks about four of the",
        "eight column trees the mirror-only one walks. Tried and dropped (each measured",
        "side by side at n = 16): the DFS bottom-up with row 0's queen pinned (faster",
        "only for b >= 5, which is 2% of the time); pre-placing the whole frame (the",
        "queens of rows 0 and n - 1 and columns 0 and n - 1, one class representative",
        "per frame orbit, each completed by count_placements): 2.1 s against 1.4 s;",
        "counting the weight-8 part by count_placements and only three pinned special",
        "pieces with the image test: the pinned pieces cost a quarter of the tree;",
        "a counting-only corner (all corner solutions / 2): twice the time of the",
        "row-1 bound; unrolling ten rows instead of nine: no gain.",
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
