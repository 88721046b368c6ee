"""Side by side: symmetry-reduced counting against mirror-only counting.

1. bitmask: ``model(n).count(backend="bitmask", workers=1)`` (Takahashi's
   class-weighted kernels in cpqueens/native_symmetry.py) against a mirror-only
   numba DFS written here (Somers' trick: row 0's queen in the left half, x2).
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

    bitmask_rows = []
    for n in args.n:
        bitmask = {"mirror-only numba DFS": [], "symmetry-reduced (library)": []}
        counts = {}
        for _ in range(args.repeats):
            counts["mirror"], t = timed(lambda n=n: mirror_only(n))
            bitmask["mirror-only numba DFS"].append(t)
            counts["reduced"], t = timed(
                lambda n=n: cpqueens.model(n).count(backend="bitmask", workers=1)
            )
            bitmask["symmetry-reduced (library)"].append(t)
            print(f"bitmask n={n}: {counts} {[round(v[-1], 3) for v in bitmask.values()]}")
        assert counts["mirror"] == counts["reduced"], counts
        b = best_of(bitmask)
        mirror, reduced = b["mirror-only numba DFS"], b["symmetry-reduced (library)"]
        bitmask_rows.append(
            f"| {n} | {counts['reduced']:,} | {mirror:.3f} | {reduced:.3f} | "
            f"**{mirror / reduced:.2f}x** |"
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
        "## bitmask, free board: symmetry-reduced kernels against a mirror-only DFS",
        "",
        "Both are the same iterative numba bitmask DFS; only the symmetry handling differs.",
        "",
        "| n | solutions | mirror-only (s) | symmetry-reduced (s) | speed-up |",
        "| ---: | ---: | ---: | ---: | ---: |",
        *bitmask_rows,
        "",
        "The issue's target is 3x at n = 16. On this loaded machine the ratio moves",
        "between runs (n = 16: 2.2x, 2.4x, 2.5x in three runs; n = 17: 2.4x and 3.1x).",
        "The machine-independent figure, counted once with instrumented copies of",
        "both kernels at n = 14: the mirror-only DFS visits 13.5 M nodes, the",
        "symmetry-reduced one 6.0 M (2.2x), of which 1.78 M are the tree of a queen at",
        "(0, 1) -- as large as the whole column-1 tree (1.79 M), because almost every",
        "solution with a queen next to a corner is its class's representative. Look-ahead",
        "on the last row and the edge columns cut 20% of the nodes but cost more per",
        "node than they saved; taking the frame (last row, edge columns) first or the",
        "rows bottom-up was slower still.",
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
