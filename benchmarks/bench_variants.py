"""Side by side, whole CLI processes: the variants' native counts against plain queens.

Issue 14's goal: toroidal queens and superqueens at n = 17 in at most 2x the
plain queens' time on one worker. Each row is a fresh ``cpqueens count 17
--workers 1`` process (with ``--toroidal`` or ``--knight``), repeats
interleaved, best kept, every count checked against OEIS.

Writes benchmarks/RESULTS-variants.md.

    python benchmarks/bench_variants.py [--n 17] [--repeats 3]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: OEIS: A000170 (queens), A051906 (toroidal), A051223 (superqueens).
OEIS = {
    "plain": {15: 2279184, 16: 14772512, 17: 95815104},
    "toroidal": {15: 0, 16: 0, 17: 140692},
    "knight": {15: 32516, 16: 202900, 17: 1330622},
}
FLAGS = {"plain": [], "toroidal": ["--toroidal"], "knight": ["--knight"]}
GOAL = 2.0


def timed(argv: list[str]) -> tuple[float, int]:
    """Run ``argv``; return its wall time and the count it printed."""
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, int(done.stdout.split()[0])


def main() -> None:
    """Time the rows, check the counts, write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=17, choices=sorted(OEIS["plain"]))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    runs: dict[str, list[float]] = {row: [] for row in FLAGS}
    for repeat in range(args.repeats):
        for row, flags in FLAGS.items():
            argv = [sys.executable, "-m", "cpqueens", "count", str(args.n), "--workers", "1"]
            seconds, found = timed([*argv, *flags])
            if found != OEIS[row][args.n]:
                raise SystemExit(f"{row}: counted {found}, OEIS says {OEIS[row][args.n]}")
            runs[row].append(seconds)
            print(f"repeat {repeat + 1} {row}: {seconds:.2f} s", flush=True)
    best = {row: min(times) for row, times in runs.items()}
    lines = [
        "# The variants' native counts against plain queens",
        "",
        f"- command: `python benchmarks/bench_variants.py --n {args.n} --repeats {args.repeats}`",
        f"- date: {datetime.datetime.now(datetime.UTC).isoformat(timespec='seconds')}",
        f"- machine: {os.cpu_count()} CPUs, {platform.machine()},"
        f" Python {platform.python_version()};"
        f" load average before {load_before:.2f}, after {os.getloadavg()[0]:.2f}",
        f"- each time: a whole `cpqueens count {args.n} --workers 1` process,"
        f" best of {args.repeats} interleaved; every count checked against OEIS",
        "",
        "| row | flags | count | best (s) | ratio to plain | goal | met |",
        "| --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for row, flags in FLAGS.items():
        ratio = best[row] / best["plain"]
        goal, met = (
            ("", "") if row == "plain" else (f"<= {GOAL}x", "yes" if ratio <= GOAL else "**no**")
        )
        lines.append(
            f"| {row} | `{' '.join(flags)}` | {OEIS[row][args.n]:,} | {best[row]:.2f} |"
            f" {ratio:.2f}x | {goal} | {met} |"
        )
    rounded = {row: [round(t, 3) for t in times] for row, times in runs.items()}
    lines += ["", f"All runs (s): {rounded}", ""]
    out = HERE / "RESULTS-variants.md"
    out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
