r"""Peaceable armies at the frontier: the command line's answers against OEIS and Ainley.

Runs ``python -m cpqueens optimize peaceable N --json --progress`` as a user
does (a subprocess, from a temporary folder), and checks every answer here,
sharing no code with cpqueens: the two armies have the size reported, stand
on distinct cells of the board and no queen of one attacks one of the other
(same row, column or diagonal).

- ``--proofs 11 12 13``: no time limit, the optimum proved (A250000: 17, 21, 24);
- ``--armies 14 ... 20 --limit 110``: the best armies within the limit, with
  the time the best value was first reported (``--progress``) and the bound;
  Ainley's 1977 sizes are the target (28, 32, 37, 42, 47, 52, 58).

Rewrites the ``## Peaceable armies`` section of benchmarks/RESULTS-frontier.md
(between its markers; other sections are left as they are).

    nice -n 10 python benchmarks/bench_peaceable_frontier.py --proofs 11 12 13 \
        --armies 14 15 16 17 18 19 20 --limit 110
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "RESULTS-frontier.md"
BEGIN, END = "<!-- peaceable-armies: begin -->", "<!-- peaceable-armies: end -->"
#: OEIS A250000, n = 1..15 (proved values).
A250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32]
#: Stephen Ainley's armies (1977), n = 14..20: the best known (OEIS A250000's comments).
AINLEY = {14: 28, 15: 32, 16: 37, 17: 42, 18: 47, 19: 52, 20: 58}
#: What the table shows, under it.
NOTES = (
    "",
    "Issue 39's goals: n = 11 and 12 proved within 600 s each and n = 13 (24) within "
    "30 minutes (the 'wall' column: whole processes, one core); armies as large as "
    "Ainley's for n = 14..20 within 120 s each with `--time-limit` (the 'first found' "
    "column; the runs go on to their limit of 110 s, plus the process's start and the "
    "final bound of the open subtrees).",
    "",
    "How: the proofs are the line-label branch-and-bound (`cpqueens/kernels/peaceable.py`, "
    "one core); the armies of n >= 14 come from simulated annealing on the same line labels "
    "(`cpqueens/kernels/peaceable_anneal.py`, `cpqueens/backends/bitmask/anneal.py`: runs of "
    "50,000 flips per line from random labels, a fixed seed per run), which shares the core "
    "turn by turn with the exact search and the proofs of the bound and raises the exact "
    "search's incumbent. The annealing proves nothing: a run ended by its limit is "
    "'feasible' (exit status 1) with the best bound the proofs reached, far above the "
    "optimum (67 at n = 14, where A250000 says 28). The values of n = 14 and 15 are "
    "A250000's proved optima; those of n = 16..20 are Ainley's constructions, the best "
    "known, not proved optimal.",
    "",
    "Published computations: the PicatSAT times are those the design notes quote (n = 10 "
    "in 85-98 s, n = 11 in 767-951 s, on other hardware). The 2021 MiniZinc challenge's "
    "peaceable-queens instances and their results were not at hand here (no network), so "
    "the table has no column for them.",
)
#: PicatSAT's published proof times (the design notes): n -> seconds.
PICATSAT = {10: "85-98 s", 11: "767-951 s"}


def peaceful(n: int, queens: list[list[int]]) -> tuple[int, int]:
    """The sizes of the two armies, after checking they keep the peace on an n x n board."""
    white = [(r, c) for r, c, army in queens if army == 0]
    black = [(r, c) for r, c, army in queens if army == 1]
    cells = white + black
    if len(set(cells)) != len(cells) or not all(0 <= r < n and 0 <= c < n for r, c in cells):
        raise AssertionError(f"n = {n}: two queens on one cell, or a queen off the board")
    for r1, c1 in white:
        for r2, c2 in black:
            if r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2):
                raise AssertionError(f"n = {n}: white {(r1, c1)} attacks black {(r2, c2)}")
    return len(white), len(black)


def run(n: int, limit: float | None) -> dict[str, object]:
    """One command-line run: its answer (checked), wall time and first time of its best value."""
    command = [sys.executable, "-m", "cpqueens", "optimize", "peaceable", str(n), "--json"]
    command += ["--progress"] + ([] if limit is None else ["--time-limit", f"{limit:g}"])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env)
    wall = time.perf_counter() - began
    answer = json.loads(done.stdout)
    white, black = peaceful(n, answer["queens"])
    if not white == black == answer["value"]:
        raise AssertionError(f"n = {n}: armies of {white} and {black}, reported {answer['value']}")
    found = [
        (int(m[1]), float(m[2]))
        for m in re.finditer(r"found (\d+) \(bound \d+\) at ([\d.]+) s", done.stderr)
    ]
    first = min((s for v, s in found if v == answer["value"]), default=None)
    return {**answer, "wall": wall, "first": first, "command": " ".join(command[1:])}


def section(rows: list[str], args: argparse.Namespace, load: tuple[str, str]) -> str:
    """The results section, in markdown."""
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    argv = " ".join(sys.argv[1:])
    return "\n".join(
        [
            BEGIN,
            "## Peaceable armies",
            "",
            f"Command: `nice -n 10 python benchmarks/bench_peaceable_frontier.py {argv}`",
            "",
            f"{when}, Python {platform.python_version()}, 2 cores shared with other sessions' "
            f"jobs (load average at the start: {load[0]}; at the end: {load[1]}). Each row is "
            "one run of `python -m cpqueens optimize peaceable N --json --progress` (with "
            "`--time-limit` where given) in a subprocess; the bench checks every answer with "
            "its own code: equal armies of the size reported, no queen attacking one of the "
            "other army. 'first found' is the time the command reported that value first "
            "(`--progress`); 'bound' is the true upper bound the run proved (the root's "
            "knapsack bound, lowered by the proofs that share the core and by the bounds of "
            "the subtrees left open).",
            "",
            "| n | A250000 / best known | cpqueens | status | bound | first found | wall | "
            "PicatSAT (proof) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
            *rows,
            *NOTES,
            END,
        ]
    )


def main() -> None:
    """Run the proofs and the time-limited runs, writing the section row by row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proofs", type=int, nargs="*", default=[])
    parser.add_argument("--armies", type=int, nargs="*", default=[])
    parser.add_argument("--limit", type=float, default=110.0)
    args = parser.parse_args()
    start_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rows: list[str] = []
    jobs = [(n, None) for n in args.proofs] + [(n, args.limit) for n in args.armies]
    for n, limit in jobs:
        known = A250000[n - 1] if n <= len(A250000) else None
        target = f"{known}" if known is not None else f"{AINLEY[n]} (Ainley)"
        if known is not None and n in AINLEY:
            target += " (Ainley's too)"
        r = run(n, limit)
        first = "-" if r["first"] is None else f"{r['first']:.2f} s"
        bound = str(r["bound"]) if r["status"] != "optimal" else "proved"
        rows.append(
            f"| {n} | {target} | {r['value']} | {r['status']} | {bound} | {first} | "
            f"{r['wall']:.1f} s{'' if limit is None else f' (limit {limit:g} s)'} | "
            f"{PICATSAT.get(n, '-')} |"
        )
        print(rows[-1], flush=True)
        write(section(rows, args, (start_load, "(running)")))
    end_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    write(section(rows, args, (start_load, end_load)))


def write(text: str) -> None:
    """Replace the section between the markers (or append it), keeping the rest of the file."""
    old = OUT.read_text() if OUT.exists() else "# The frontier: optimisation and counting\n"
    if BEGIN in old:
        head, _, rest = old.partition(BEGIN)
        _, _, tail = rest.partition(END)
        OUT.write_text(head + text + tail)
    else:
        OUT.write_text(old.rstrip("\n") + "\n\n" + text + "\n")


if __name__ == "__main__":
    main()
