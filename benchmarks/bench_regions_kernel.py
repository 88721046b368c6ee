"""Side by side, one process: the regions engine against its kernel at an earlier git revision.

The kernel as it was at ``--before`` (``cpqueens/kernels/regions.py`` read
with ``git show``, compiled here; either the one-call kernel of ``a4e838b``
or the resumable one of ``565351e``, driven as that revision's engine drove
it: rows top to bottom, slices of ``BUDGET`` candidates) and the current
engine path (``backends/regions_bitmask.search``), each solving and proving
unique (``limit=2``) the same puzzles from
``benchmarks/puzzles_generated.json`` (``bench_puzzles.py`` writes it),
alternating which runs first, best of ``--repeat`` runs each. Both answers
must agree.

Appends its table to benchmarks/RESULTS-puzzles.md (or prints it with --print).

    python benchmarks/bench_regions_kernel.py [--before 565351e] [--repeat 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cpqueens.backends.bitmask import regions as regions_bitmask

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_puzzles import cached  # noqa: E402


def old_kernel(ref: str):  # type: ignore[no-untyped-def]
    """cpqueens/kernels/regions.py at git ``ref`` as a module, compiled in a temp folder."""
    source = subprocess.run(
        ["git", "show", f"{ref}:cpqueens/kernels/regions.py"],
        cwd=HERE.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="regions-before-"))
    path = folder / "regions_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("regions_before", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_old(module, puzzle) -> int:  # type: ignore[no-untyped-def]
    """Solve and prove unique with the old kernel, as its engine called it; the count (<= 2).

    The solutions are turned into cells as the engine does (the same code it ran then), so
    that both sides pay for the same Python around the kernel.
    """
    region, masks, columns, _skip, start, cells = regions_bitmask.arrays(puzzle)
    out = np.zeros((2, puzzle.n), dtype=np.int64)
    args = (puzzle.n, puzzle.stars, puzzle.diagonals, region, masks, columns, start, cells, 2, out)
    if not hasattr(module, "first_state"):  # the one-call kernel
        total = int(module.search(*args))
    else:
        state, counters = module.first_state(puzzle.n, start)
        while module.search(*args, state, counters, regions_bitmask.BUDGET) == module.PAUSED:
            pass
        total = int(counters[1])
    n = puzzle.n
    [  # the solutions as cells, as the engine returned them then
        tuple((row, c) for row in range(n) for c in range(n) if (int(out[i, row]) >> c) & 1)
        for i in range(min(total, len(out)))
    ]
    return total


def run_new(puzzle) -> int:  # type: ignore[no-untyped-def]
    """Solve and prove unique with the resumable kernel, as the engine calls it."""
    return regions_bitmask.search(puzzle, 2, keep=2)[0]


def best(call, puzzle, repeat: int) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """The fastest of ``repeat`` runs, and the answer."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        answer = call(puzzle)
        times.append(time.perf_counter() - start)
    return min(times), answer


def main() -> None:
    """Time both kernels on every cached set and print or append the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="565351e", help="the git ref of the old kernel")
    parser.add_argument("--repeat", type=int, default=5, help="runs per puzzle and kernel")
    parser.add_argument("--print", action="store_true", help="print, do not append")
    parser.add_argument(
        "--rows-only",
        action="store_true",
        help="the current engine never turns the board (FIRST_SLICE unbounded): the kernel alone",
    )
    parser.add_argument("--stars14-seeds", metavar="S,S,...", help="as for bench_puzzles.py")
    args = parser.parse_args()
    seeds14 = [int(s) for s in args.stars14_seeds.split(",")] if args.stars14_seeds else None
    if args.rows_only:
        regions_bitmask.FIRST_SLICE = 1 << 62
    old = old_kernel(args.before)
    sets = {
        "Queens 9x9 (20)": cached(9, 1, 20, 9000),
        "Queens 11x11 (1000)": cached(11, 1, 1000, 11000),
        "Star Battle 10x10, 2 stars (100)": cached(10, 2, 100, 10000),
        "Star Battle 14x14, 3 stars (10)": cached(14, 3, 10, 14000, seeds14),
    }
    start_load = os.getloadavg()
    warm = sets["Queens 9x9 (20)"][0]
    run_old(old, warm), run_new(warm)  # compile both before timing
    rows = []
    for name, puzzles in sets.items():
        before, after = [], []
        for i, puzzle in enumerate(puzzles):
            first, second = (run_old, run_new) if i % 2 == 0 else (run_new, run_old)
            timed = {}
            for call in (first, second):
                if call is run_old:
                    timed["old"] = best(lambda p: run_old(old, p), puzzle, args.repeat)
                else:
                    timed["new"] = best(run_new, puzzle, args.repeat)
            if timed["old"][1] != timed["new"][1]:
                raise AssertionError(f"the kernels disagree on\n{puzzle}")
            before.append(timed["old"][0])
            after.append(timed["new"][0])
        rows.append(
            f"| {name} | {sum(before) / len(before) * 1000:.3f} ms | "
            f"{sum(after) / len(after) * 1000:.3f} ms | {max(before) * 1000:.2f} ms | "
            f"{max(after) * 1000:.2f} ms | {sum(after) / sum(before):.3f} |"
        )
        print(rows[-1], flush=True)
    load = os.getloadavg()
    command = "python benchmarks/bench_regions_kernel.py " + " ".join(sys.argv[1:])
    driven = "in slices" if hasattr(old, "first_state") else "in one call"
    text = f"""
## The regions engine against its kernel at `{args.before}`

`{command.strip()}` on {time.strftime("%Y-%m-%d %H:%M")}, load average
{start_load[0]:.2f} {start_load[1]:.2f} {start_load[2]:.2f} at the start and
{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end (1, 5, 15 min; 2 cores, shared).
Per puzzle, solve and prove unique (`limit=2`); the best of {args.repeat} runs each, the two
alternating which runs first. "before" is the kernel at `{args.before}`, driven {driven}
as its engine drove it (rows top to bottom); "after" the current engine path
(`regions_bitmask.search`). Both answers agree on every puzzle.

| puzzles | before, mean | after, mean | before, max | after, max | after / before (total) |
|---|---|---|---|---|---|
{chr(10).join(rows)}
"""
    if args.print:
        print(text)
    else:
        with open(HERE / "RESULTS-puzzles.md", "a") as results:
            results.write(text)


if __name__ == "__main__":
    main()
