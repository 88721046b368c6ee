"""Side by side, one process: the Queens game as a Model against the same puzzle as a Puzzle.

Issue 23 item 1. Every puzzle is generated here from a seed (``Puzzle.generate``,
unique by construction). For each one, in a warm process (every kernel loaded
before timing): ``Puzzle.count()`` (the compiled regions search),
``cpqueens.model(puzzle).count()`` ("auto": the bitmask engine's one search on
the same kernel, through the planner), ``model.first()``, ``model.count(
unique=True)``, and ``model.count("cpsat")`` (the model stated for CP-SAT:
an element constraint per row, AllDifferent of the rows' regions, no-touch
as two disequalities per pair of rows). Every count is checked to agree.

Writes benchmarks/RESULTS-region-model.md.

    python benchmarks/bench_region_model.py [--puzzles 30] [--repeat 20]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import time
from pathlib import Path

import cpqueens
from cpqueens import Puzzle

HERE = Path(__file__).resolve().parent


def timed(call, repeat: int) -> tuple[float, object]:
    """The mean seconds of ``repeat`` calls, and the last value."""
    start = time.perf_counter()
    for _ in range(repeat):
        value = call()
    return (time.perf_counter() - start) / repeat, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    rows = []
    for size in (7, 8, 9, 11):
        puzzles = [Puzzle.generate(size, seed=seed)[0] for seed in range(args.puzzles)]
        warm = cpqueens.model(puzzles[0])
        warm.count(), warm.first(), warm.count(unique=True), puzzles[0].count()
        times: dict[str, list[float]] = {}
        for puzzle in puzzles:
            m = cpqueens.model(puzzle)
            calls = {
                "Puzzle.count()": lambda p=puzzle: p.count(),
                "model.count()": lambda m=m: m.count(),
                "model.first()": lambda m=m: m.first() is not None,
                "model.count(unique=True)": lambda m=m: m.count(unique=True) >= 1,
                'model.count("cpsat")': lambda m=m: m.count("cpsat"),
            }
            values = {}
            for name, call in calls.items():
                repeat = max(1, args.repeat // 10) if "cpsat" in name else args.repeat
                seconds, values[name] = timed(call, repeat)
                times.setdefault(name, []).append(seconds)
            assert values["Puzzle.count()"] == values["model.count()"] == 1
            assert values['model.count("cpsat")'] == 1 and values["model.first()"]
        rows.append((size, len(puzzles), {k: statistics.mean(v) for k, v in times.items()}))
    names = list(rows[0][2])
    lines = [
        "# The Queens game as a Model, side by side with Puzzle",
        "",
        f"`python benchmarks/bench_region_model.py --puzzles {args.puzzles} --repeat "
        f"{args.repeat}` on {datetime.date.today()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores (shared with other work; load average at the start "
        f"{os.getloadavg()[0]:.2f}), one process, every kernel loaded before timing.",
        "Puzzles from `Puzzle.generate(n, seed=s)`, s = 0, 1, ...; every count agrees (1).",
        "Mean milliseconds per call over the puzzles:",
        "",
        "| n | puzzles | " + " | ".join(names) + " | model.count() / Puzzle.count() |",
        "|---|---|" + "---|" * len(names) + "---|",
    ]
    for size, count, means in rows:
        ratio = means["model.count()"] / means["Puzzle.count()"]
        cells = " | ".join(f"{means[name] * 1e3:.2f}" for name in names)
        lines.append(f"| {size} | {count} | {cells} | {ratio:.2f} |")
    text = "\n".join(lines) + "\n"
    (HERE / "RESULTS-region-model.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
