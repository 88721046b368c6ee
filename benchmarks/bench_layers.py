"""Before and after a change of layout: the same workloads on two commits, side by side.

Each workload is a whole process (``python -c ...``) run on the commit before
the change (a temporary ``git worktree``) and on this checkout, in turn, A B A
B ..., so that a machine whose speed drifts slows both alike. The ratio of each
pair (after / before) is reported with its median, min and max; a layout move
should leave every ratio within a few percent of 1.

The workloads are those of bench.py (goals 1-5 and the small-board CLI),
bench_holes.py (4 holes, the corners, 2 placed queens, the free n = 17) and
bench_long.py (a checkpointed and a progress-reporting count of n = 17).

    python benchmarks/bench_layers.py --before 0ccf078 --repeats 3
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKLOADS = {
    "free n=16, bitmask, 1 worker": "cpqueens.model(16).count(backend='bitmask', workers=1)",
    "free n=17, bitmask, 2 workers": "cpqueens.model(17).count(backend='bitmask', workers=2)",
    "n=12, cpsat": "cpqueens.model(12).count(backend='cpsat')",
    "n=11, python-constraint": "cpqueens.model(11).count(backend='python-constraint')",
    "2n queens n=12, bitmask": "cpqueens.model(12, colours=2).count(backend='bitmask')",
    "n=16, 4 asymmetric holes": (
        "cpqueens.model(16, blocked=[(0, 1), (3, 5), (7, 12), (12, 9)]).count(workers=1)"
    ),
    "n=16, the 4 corners": (
        "cpqueens.model(16, blocked=[(0, 0), (0, 15), (15, 0), (15, 15)]).count(workers=1)"
    ),
    "n=18, 2 placed queens": "cpqueens.model(18, placed=[(0, 1), (1, 5)]).count(workers=1)",
    "free n=17, 1 worker": "cpqueens.model(17).count(workers=1)",
    "n=17, checkpoint, 2 workers": (
        "import tempfile, os; d = tempfile.mkdtemp(); "
        "cpqueens.model(17).count(workers=2, checkpoint=os.path.join(d, 'c.json'))"
    ),
    "n=17, progress callback, 2 workers": (
        "cpqueens.model(17).count(workers=2, progress=lambda done, total: None)"
    ),
    "CLI count 8": None,  # python -m cpqueens count 8
    # decisions, puzzles and optimisation (issue 31's move of the engines into packages)
    "decide n=60, 2 holes": "cpqueens.model(60, blocked=[(0, 0), (5, 7)]).exists()",
    "first n=28": "cpqueens.model(28).first()",
    "find n=2000": "cpqueens.model(2000).find()",
    "puzzles: 100 11x11 Queens solved": (
        "import json; d = json.load(open(PUZZLES))['11x11, 1 star(s)']; "
        "[cpqueens.Puzzle.parse(t).solve() for t in list(d.values())[:100]]"
    ),
    "puzzles: 20 10x10 two-star checked": (
        "import json; d = json.load(open(PUZZLES))['10x10, 2 star(s)']; "
        "[cpqueens.Puzzle.parse(t).check() for t in list(d.values())[:20]]"
    ),
    "puzzle 9x9 explained": (
        "import json; d = json.load(open(PUZZLES))['9x9, 1 star(s)']; "
        "[cpqueens.Puzzle.parse(t).explain() for t in list(d.values())[:10]]"
    ),
    "domination 7 (CP-SAT)": "cpqueens.domination(7)",
    "peaceable 7 (line search)": "cpqueens.peaceable(7)",
    "cells 8x8, 6 queens counted": "cpqueens.cells(8).count(queens=6)",
}


def command(workload: str) -> list[str]:
    """The whole process that runs one workload."""
    code = WORKLOADS[workload]
    if code is None:
        return [sys.executable, "-m", "cpqueens", "count", "8"]
    puzzles = ROOT / "benchmarks" / "puzzles_generated.json"
    return [sys.executable, "-c", f"import cpqueens\nPUZZLES = {str(puzzles)!r}\n{code}"]


def timed(args: list[str], tree: Path, cwd: str) -> tuple[float, float]:
    """(wall, cpu) seconds of one whole run of ``args`` importing cpqueens from ``tree``.

    The cpu seconds (user + system of the process and its children, from the
    operating system's accounting) drift less than the wall time on a busy machine.
    """
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, env=env, cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Run every workload on both trees in turn and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the commit before the change")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="workload names to run (default: all)")
    args = parser.parse_args()
    names = args.only or list(WORKLOADS)
    with tempfile.TemporaryDirectory() as scratch:
        before = Path(scratch) / "before"
        git = ["git", "-C", str(ROOT)]
        subprocess.run(
            [*git, "worktree", "add", "-q", "--detach", str(before), args.before], check=True
        )
        try:
            print(
                f"- command: `python benchmarks/bench_layers.py --before {args.before} "
                f"--repeats {args.repeats}`"
            )
            print(f"- load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            print()
            print(
                "| workload | before (s, median) | after (s, median) "
                "| after / before: median | min | max | cpu after / before: median | min | max |"
            )
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            for name in names:
                argv = command(name)
                for tree in (before, ROOT):  # a warm-up each: numba's cache, the OS's file cache
                    timed(argv, tree, scratch)
                old, new = [], []
                for _ in range(args.repeats):
                    old.append(timed(argv, before, scratch))
                    new.append(timed(argv, ROOT, scratch))
                ratios = [b[0] / a[0] for a, b in zip(old, new, strict=True)]
                cpu = [b[1] / a[1] for a, b in zip(old, new, strict=True)]
                print(
                    f"| {name} | {statistics.median(a for a, _ in old):.3f} | "
                    f"{statistics.median(a for a, _ in new):.3f} | "
                    f"{statistics.median(ratios):.3f} | {min(ratios):.3f} | {max(ratios):.3f} | "
                    f"{statistics.median(cpu):.3f} | {min(cpu):.3f} | {max(cpu):.3f} |",
                    flush=True,
                )
            print()
            print(f"- load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(before)], check=True)


if __name__ == "__main__":
    main()
