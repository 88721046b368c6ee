"""Side by side, one process: unique counts by Burnside's lemma against checking each solution.

A unique count of a board with some of the 8 symmetries used to narrow the model
by ``LexLeader(group)`` and check every complete solution against its images;
on ``bitmask`` a model with no extra constraint now takes its total (the fast paths) and the
solutions the turns fix, over the group's size (``cpqueens.strategies.burnside``).
Both run here on the same boards, one worker, in this process, the results
checked to agree.

Writes benchmarks/RESULTS-unique.md.

    python benchmarks/bench_unique.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import cpqueens
from cpqueens.model import Model
from cpqueens.strategies.symmetry import leader

HERE = Path(__file__).resolve().parent

BOARDS: dict[str, Model] = {
    "n=12, 2 corners of row 0 (mirror)": cpqueens.model(12, [(0, 0), (0, 11)]),
    "n=12, 2 opposite corners (half turn, diagonals)": cpqueens.model(12, [(0, 0), (11, 11)]),
    "n=13, queen in the middle (all 8)": cpqueens.model(13, placed=[(6, 6)]),
    "n=14, 2 corners of row 0 (mirror)": cpqueens.model(14, [(0, 0), (0, 13)]),
    "n=10, 2n queens (two colours), free (all 8)": cpqueens.model(10, colours=2),
}


def timed(call) -> tuple[float, int]:
    """Run ``call``; return its seconds and its result."""
    start = time.perf_counter()
    found = call()
    return time.perf_counter() - start, found


def main() -> None:
    """Time both ways on every board, write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cpqueens.model(12, [(0, 0)]).count(workers=1)  # load the kernels first
    before = os.getloadavg()
    rows = []
    for name, model in BOARDS.items():
        ways = {
            "burnside": lambda m=model: m.count("bitmask", unique=True, workers=1),
            "checked": lambda m=model: m.with_constraints(leader(m)).count("bitmask", workers=1),
        }
        best = {way: float("inf") for way in ways}
        found = set()
        for _ in range(args.repeats):
            for way, call in ways.items():
                seconds, value = timed(call)
                best[way] = min(best[way], seconds)
                found.add(value)
        if len(found) != 1:
            sys.exit(f"{name}: the two ways disagree: {sorted(found)}")
        rows.append((name, model, found.pop(), best))
        print(name, best, flush=True)
    after = os.getloadavg()
    lines = [
        "# Unique counts: Burnside's lemma against checking each solution (issue 13)",
        "",
        f"- command: `python benchmarks/bench_unique.py --repeats {args.repeats}`",
        f"- date: {datetime.datetime.now(datetime.UTC).isoformat(timespec='seconds')}",
        f"- machine: {os.cpu_count()} CPUs, {platform.machine()}, Python "
        f"{platform.python_version()}; SHARED, load average (1, 5, 15 min) before "
        f"{' '.join(f'{x:.2f}' for x in before)}, after {' '.join(f'{x:.2f}' for x in after)}",
        "- one process, kernels loaded first, one worker, best of the repeats; the counts agree",
        "",
        "| board | group | classes | checked (s) | Burnside (s) | ratio |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for name, model, classes, best in rows:
        lines.append(
            f"| {name} | {', '.join(model.symmetries())} | {classes:,} | {best['checked']:.2f} |"
            f" {best['burnside']:.3f} | {best['checked'] / best['burnside']:.0f}x |"
        )
    lines += [
        "",
        "checked: the model narrowed by `LexLeader(group)`, each solution compared with its",
        "images (the path every unique count took before). Burnside: the total plus the",
        "solutions the half and quarter turns fix, over the group's size (the middle queen,",
        "which all 8 symmetries keep: its lines as holes, on the symmetry kernels).",
    ]
    (HERE / "RESULTS-unique.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
