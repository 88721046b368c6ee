r"""Peaceable armies at the frontier: the command line's answers against OEIS and Ainley.

Runs ``python -m cpqueens optimize peaceable N --json --progress`` as a user
does (a subprocess, from a temporary folder), and checks every answer here,
sharing no code with cpqueens: the two armies have the size reported, stand
on distinct cells of the board and no queen of one attacks one of the other
(same row, column or diagonal).

- ``--proofs 11 12 13``: no time limit, the optimum proved (A250000: 17, 21, 24);
  with ``--workers W`` each proof runs on W local processes with a checkpoint
  file (``--checkpoint pN.json`` in the run's folder), with ``--cluster W`` on
  a Dask LocalCluster of W one-thread workers on 127.0.0.1 (``--scheduler``);
- ``--bounded 13:5 15:60``: board 13 with a limit of 5 s, 15 with 60 s (the
  bound a limit-ended run proves, for the docs' "how tight");
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
import contextlib
import datetime
import json
import os
import platform
import re
import resource
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
    "Issue 46's goals: n = 14 (28) and n = 15 (32) proved optimal in at most an hour each "
    "on two cores, resumable (the proofs run with `--workers 2 --checkpoint pN.json`: the "
    "'wall' column); a time-limited run reports a bound from a real relaxation (the 'bound' "
    "column: see below).",
    "",
    "How, on a free square board (n <= 18): `cpqueens/backends/bitmask/pairs.py` and "
    "`cpqueens/kernels/peaceable_pairs.py` label the rows and columns first (one pair of "
    "sets per orbit of the 16 symmetries), the sum diagonals by a depth-first search and the "
    "difference diagonals by an exact knapsack; the incumbent is the annealing's (seeded: "
    "runs of 50,000 flips per line, stopped after 3 restarts in a row that beat nothing), "
    "and the proof asks each of 256 parts (row sets i mod 256, with every column set) for "
    "larger armies, on the local pool, with the checkpoint. Under a time limit a ladder of "
    "such searches (armies of B, B halving the gap between the best found and the bound) "
    "lowers the bound first; the bound a limit-ended run reports is floor(n^2/4) (the rows "
    "and columns: at most st and (n-s)(n-t) for s white rows and t white columns) until a "
    "step of the ladder finishes. On n = 16..18 none finished in 110 s on these loaded "
    "cores, so the bound stayed floor(n^2/4). n = 19 and 20 take the line search of any "
    "board (`cpqueens/kernels/peaceable.py`) with the annealing beside it; its bound is the "
    "same floor(n^2/4) (the proofs sharing its core lowered nothing). The values of n = 14 "
    "and 15 are A250000's proved optima; those of n = 16..20 are Ainley's constructions.",
    "",
    "Published computations: the PicatSAT times are those the design notes quote (n = 10 "
    "in 85-98 s, n = 11 in 767-951 s, on other hardware): the ratio column divides them by "
    "our wall time (whole processes: Python, numba's load, the annealing). A250000 gives no "
    "times for its proofs of n = 14 and 15 (2025). A public repository "
    "(github.com/jphme/math-problems, 2026, not peer reviewed) reports a C branch-and-bound "
    "on the same line labels that refuted 29 on 14 x 14 in 231 s and 33 on 15 x 15 in 156 s "
    "on 4 workers (about 900 and 600 core-seconds at most); here 20 and 87 CPU seconds.",
)
#: PicatSAT's published proof times (the design notes): n -> (least, most) seconds.
PICATSAT = {10: (85, 98), 11: (767, 951)}


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


def children_cpu() -> float:
    """The CPU seconds of this process's finished children (and theirs: the pool's workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(
    n: int, limit: float | None, workers: int | None = None, scheduler: str | None = None
) -> dict[str, object]:
    """One command-line run: its answer (checked), wall and CPU time, first time of its best."""
    command = [sys.executable, "-m", "cpqueens", "optimize", "peaceable", str(n), "--json"]
    command += ["--progress"] + ([] if limit is None else ["--time-limit", f"{limit:g}"])
    if workers is not None:
        command += ["--workers", str(workers), "--checkpoint", f"p{n}.json"]
    if scheduler is not None:
        command += ["--scheduler", scheduler, "--checkpoint", f"p{n}.json"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    began, cpu = time.perf_counter(), children_cpu()
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env)
    wall, cpu = time.perf_counter() - began, children_cpu() - cpu
    if done.returncode not in (0, 1):
        raise AssertionError(f"n = {n}: exit status {done.returncode}: {done.stderr}")
    answer = json.loads(done.stdout)
    white, black = peaceful(n, answer["queens"])
    if not white == black == answer["value"]:
        raise AssertionError(f"n = {n}: armies of {white} and {black}, reported {answer['value']}")
    found = [
        (int(m[1]), float(m[2]))
        for m in re.finditer(r"found (\d+) \(bound \d+\) at ([\d.]+) s", done.stderr)
    ]
    first = min((s for v, s in found if v == answer["value"]), default=None)
    shown = " ".join(command[1:]).replace(scheduler or "\0", "ADDRESS")
    return {**answer, "wall": wall, "cpu": cpu, "first": first, "command": shown}


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
            "(`--progress`); 'bound' is the true upper bound the run proved; 'CPU' adds every "
            "process's (the command and its pool's workers).",
            "",
            "| n | A250000 / best known | cpqueens | status | bound | first found | wall | CPU "
            "(all processes) | PicatSAT (proof) | PicatSAT / wall |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
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
    parser.add_argument(
        "--bounded", nargs="*", default=[], metavar="N:S", help="board N with a limit of S seconds"
    )
    parser.add_argument("--limit", type=float, default=110.0)
    parser.add_argument("--workers", type=int, help="the proofs on W local processes")
    parser.add_argument("--cluster", type=int, help="the proofs on a LocalCluster of W workers")
    args = parser.parse_args()
    start_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rows: list[str] = []
    jobs: list[tuple[int, float | None]] = [(n, None) for n in args.proofs]
    jobs += [(int(n), float(s)) for n, s in (pair.split(":") for pair in args.bounded)]
    jobs += [(n, args.limit) for n in args.armies]
    with cluster(args.cluster) as scheduler:
        for n, limit in jobs:
            proof = limit is None
            r = run(n, limit, args.workers if proof else None, scheduler if proof else None)
            rows.append(row(n, limit, r))
            print(rows[-1], flush=True)
            write(section(rows, args, (start_load, "(running)")))
    end_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    write(section(rows, args, (start_load, end_load)))


@contextlib.contextmanager
def cluster(workers: int | None):  # type: ignore[no-untyped-def]
    """A Dask LocalCluster of ``workers`` one-thread processes on 127.0.0.1, or nothing."""
    if workers is None:
        yield None
        return
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None,
    ) as local:  # fmt: skip
        yield local.scheduler_address


def row(n: int, limit: float | None, r: dict[str, object]) -> str:
    """One line of the table."""
    known = A250000[n - 1] if n <= len(A250000) else None
    target = f"{known}" if known is not None else f"{AINLEY[n]} (Ainley)"
    if known is not None and n in AINLEY:
        target += " (Ainley's too)"
    first = "-" if r["first"] is None else f"{r['first']:.2f} s"
    bound = str(r["bound"]) if r["status"] != "optimal" else "proved"
    wall, cpu = float(r["wall"]), float(r["cpu"])  # type: ignore[arg-type]
    picat = PICATSAT.get(n)
    ratio = "-" if picat is None else f"{picat[0] / wall:.0f}-{picat[1] / wall:.0f}x"
    return (
        f"| {n} | {target} | {r['value']} | {r['status']} | {bound} | {first} | "
        f"{wall:.1f} s{'' if limit is None else f' (limit {limit:g} s)'} | {cpu:.1f} s | "
        f"{'-' if picat is None else f'{picat[0]}-{picat[1]} s'} | {ratio} |"
    )


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
