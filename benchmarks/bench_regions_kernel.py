"""Side by side, one process: the resumable regions kernel against the one-call kernel before it.

Issue 23's time limits made ``cpqueens.kernels.regions.search`` resumable: its
state in caller-owned arrays, a budget of candidates per call, a loop in
``backends/regions_bitmask.search`` that checks the clock and lets Ctrl-C in
between calls. This measures what that costs per puzzle: the kernel as it was
at ``--before`` (read with ``git show``, compiled here) and the current one,
each solving and proving unique (``limit=2``) the same puzzles from
``benchmarks/puzzles_generated.json`` (``bench_puzzles.py`` writes it),
alternating which runs first, best of ``--repeat`` runs each. Both answers
must agree.

Appends its table to benchmarks/RESULTS-puzzles.md (or prints it with --print).

    python benchmarks/bench_regions_kernel.py [--before a4e838b] [--repeat 5]
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

from cpqueens.backends import regions_bitmask

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_puzzles import cached  # noqa: E402


def old_kernel(ref: str):  # type: ignore[no-untyped-def]
    """The ``search`` of cpqueens/kernels/regions.py at git ``ref``, compiled in a temp folder."""
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
    return module.search


def run_old(search, puzzle) -> int:  # type: ignore[no-untyped-def]
    """Solve and prove unique with the one-call kernel; the count (at most 2)."""
    region, masks, columns, start, cells = regions_bitmask.arrays(puzzle)
    out = np.zeros((2, puzzle.n), dtype=np.int64)
    args = (puzzle.n, puzzle.stars, puzzle.diagonals, region, masks, columns, start, cells, 2, out)
    return int(search(*args))


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
    parser.add_argument("--before", default="a4e838b", help="the git ref of the old kernel")
    parser.add_argument("--repeat", type=int, default=5, help="runs per puzzle and kernel")
    parser.add_argument("--print", action="store_true", help="print, do not append")
    parser.add_argument("--stars14-seeds", metavar="S,S,...", help="as for bench_puzzles.py")
    args = parser.parse_args()
    seeds14 = [int(s) for s in args.stars14_seeds.split(",")] if args.stars14_seeds else None
    old = old_kernel(args.before)
    sets = {
        "Queens 9x9 (20)": cached(9, 1, 20, 9000),
        "Queens 11x11 (1000)": cached(11, 1, 1000, 11000),
        "Star Battle 10x10, 2 stars (100)": cached(10, 2, 100, 10000),
        "Star Battle 14x14, 3 stars (10)": cached(14, 3, 10, 14000, seeds14),
    }
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
    text = f"""
## The resumable kernel against the one-call kernel it replaced

`{command.strip()}`, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores,
shared). Per puzzle, solve and prove unique (`limit=2`); the best of {args.repeat} runs each,
the two kernels alternating which runs first. "before" is the kernel at `{args.before}` (one
call to the end); "after" the current engine path (`regions_bitmask.search`: the state
arrays allocated, the kernel called in slices of {regions_bitmask.BUDGET:,} candidates).

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
