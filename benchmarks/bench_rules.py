"""Rules alone and levels over a year of daily-style puzzles (issue 47, items 3, 4 and 6).

Generates ``--days`` puzzles the way a daily game ships them (one star,
sizes 7-11 in turn, the default difficulty: any puzzle the rules up to k in
k lines solve, seeds 0..days-1) and ``--expert`` more that the compiled
rules cannot finish (``difficulty="expert"``, seeds 0..expert-1, the same
sizes), then explains each one, timed: how many need search, the spread of
levels, which techniques, and the time of ``explain()`` (the slowest, and
all together). Every explanation's queens are checked against the
compiled search's one solution.

    python benchmarks/bench_rules.py [--days 365] [--expert 73] [--published DIR] [--out FILE]

``--published DIR`` adds the game's published puzzles as transcribed by the
MIT-licensed clone github:samimsu/queens-game-linkedin (its files are read
where they lie, never copied into this repository): one ``levelN.ts`` /
``levelN.js`` per puzzle with its ``colorRegions`` letter grid. Its last
commit holding them is efcda9b ("Add level 616"); extract them with

    git -C CHECKOUT archive efcda9b src/utils/levels | tar -x -C /tmp/levels
    python benchmarks/bench_rules.py --published /tmp/levels/src/utils/levels

Each published puzzle is also solved by the compiled search, which must
find exactly one solution, the explanation's.

Prints Markdown (tables for benchmarks/RESULTS-puzzles.md) to stdout or ``--out``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import re
import sys
import time
from collections import Counter
from datetime import UTC, datetime

from cpqueens import Puzzle
from cpqueens.tasks.deduce import SEARCH
from cpqueens.tasks.levels import techniques

#: The sizes of the daily puzzles, in turn (the game's run from 7 to 11, most of them 8-9).
SIZES = (7, 8, 8, 9, 9, 10, 11)
LEVELS = ("easy", "medium", "hard", "expert", "needs search")


def puzzles(count: int, difficulty: str | None) -> list[tuple[int, Puzzle, tuple]]:
    """``count`` generated puzzles: (seed, puzzle, solution), sizes from :data:`SIZES` in turn."""
    made = []
    for seed in range(count):
        n = SIZES[seed % len(SIZES)]
        p, solution = Puzzle.generate(n, difficulty=difficulty, seed=seed)
        made.append((seed, p, solution))
        print(f"  generated {difficulty or 'daily'} {seed + 1}/{count}", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return made


def published(folder: str) -> list[tuple[int, Puzzle, tuple]]:
    """The puzzles of a folder of ``levelN.ts`` / ``levelN.js`` files: (N, puzzle, solution)."""
    named = re.compile(r"level\d+\.(ts|js)")
    files = [f for f in pathlib.Path(folder).iterdir() if named.fullmatch(f.name)]
    made = []
    for f in sorted(files, key=lambda f: int(re.sub(r"\D", "", f.name))):
        text = f.read_text()
        grid = re.search(r"colorRegions:\s*\[(.*?)\]\s*,\s*regionColors", text, re.S)
        if grid is None:
            raise SystemExit(f"{f}: no colorRegions letter grid")
        rows = [re.findall(r'"([^"]+)"', row) for row in re.findall(r"\[([^\[\]]*)\]", grid[1])]
        labels = sorted({label for row in rows for label in row})
        p = Puzzle(len(rows), tuple(tuple(labels.index(x) for x in row) for row in rows))
        solutions = p.solutions(limit=2)
        if len(solutions) != 1:
            raise SystemExit(f"{f}: {len(solutions)} solutions found, expected one")
        made.append((int(re.sub(r"\D", "", f.name)), p, tuple(sorted(solutions[0]))))
    return made


def explained(
    made: list[tuple[int, Puzzle, tuple]],
) -> tuple[Counter, Counter, list[float], list[float]]:
    """Explain each puzzle, timed: the levels, the techniques used, wall and CPU seconds each."""
    spread: Counter[str] = Counter()
    used: Counter[str] = Counter()
    seconds = []
    cpu = []
    for _, p, solution in made:
        start, start_cpu = time.perf_counter(), time.process_time()
        explanation = p.explain()
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert tuple(sorted(explanation.queens)) == tuple(sorted(solution))
        spread[explanation.difficulty] += 1
        for rule, times in techniques(step.rule for step in explanation.steps).items():
            used[rule] += 1 if times else 0
    return spread, used, seconds, cpu


def hinted(made: list[tuple[int, Puzzle, tuple]]) -> tuple[int, int, int]:
    """Play each puzzle by ``hint()`` alone: (puzzles finished, hints taken, of them search).

    Each hint's queens are placed and its crosses crossed before the next one is
    asked for; the queens at the end must be the solution.
    """
    finished = hints = searched = 0
    for _, p, solution in made:
        queens: set = set()
        crossed: set = set()
        while (step := p.hint(queens, crossed=crossed)) is not None:
            hints += 1
            searched += step.level == SEARCH
            queens.update(step.queens)
            crossed.update(step.crossed)
        assert tuple(sorted(queens)) == tuple(sorted(solution))
        finished += 1
    return finished, hints, searched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--expert", type=int, default=73)
    parser.add_argument("--published", help="a folder of the clone's levelN.ts files (see above)")
    parser.add_argument("--out", help="write the Markdown here (default: stdout)")
    args = parser.parse_args()
    Puzzle.generate(7, seed=0)[0].explain()  # the kernels loaded before timing
    load = os.getloadavg()
    sets = [("daily-style (default)", puzzles(args.days, None))]
    if args.expert:
        sets.append(("past the compiled rules (expert)", puzzles(args.expert, "expert")))
    if args.published:
        sets.append(("published (the game's, as transcribed)", published(args.published)))
    lines = [
        f"`python benchmarks/bench_rules.py --days {args.days} --expert {args.expert}"
        + (f" --published {args.published}" if args.published else "")
        + f"` on "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start.",
        "",
        "| set | puzzles | " + " | ".join(LEVELS)
        + " | explain, max (wall / CPU) | explain, total (wall / CPU) |",
        "|---|---|" + "---|" * len(LEVELS) + "---|---|",
    ]  # fmt: skip
    every: list[float] = []
    every_cpu: list[float] = []
    uses = []
    for title, made in sets:
        spread, used, seconds, cpu = explained(made)
        every += seconds
        every_cpu += cpu
        uses.append((title, len(made), used))
        lines.append(
            f"| {title} | {len(made)} | "
            + " | ".join(str(spread[level]) for level in LEVELS)
            + f" | {max(seconds):.3f} / {max(cpu):.3f} s | {sum(seconds):.2f} / {sum(cpu):.2f} s |"
        )
    lines.append(
        f"| all | {len(every)} | " + " | ".join("" for _ in LEVELS)
        + f" | {max(every):.3f} / {max(every_cpu):.3f} s"
        + f" | {sum(every):.2f} / {sum(every_cpu):.2f} s |"
    )  # fmt: skip
    lines += ["", "Puzzles whose explanation uses each technique at least once:", ""]
    names = sorted({rule for _, _, used in uses for rule in used})
    lines.append("| set | " + " | ".join(names) + " |")
    lines.append("|---|" + "---|" * len(names))
    for title, count, used in uses:
        lines.append(f"| {title} ({count}) | " + " | ".join(str(used[r]) for r in names) + " |")
    if args.published:
        finished, hints, searched = hinted(sets[-1][1])
        lines += [
            "",
            f"Played by `hint()` alone, the published set: {finished} puzzles finished, "
            f"{hints} hints, {searched} of them search.",
        ]
    load = os.getloadavg()
    lines += ["", f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}."]
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as out:
            out.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
