"""Generating puzzles to order: in one process (issue 34), or whole processes in turn (issue 40).

``python benchmarks/bench_generate.py`` prints one Markdown row per case of
issue 34: size, stars, difficulty, wall-clock median and max, CPU median
(seconds), ten seeds each, in this process (the kernels loaded first).

``python benchmarks/bench_generate.py --process [--vs TREE] [--seeds 1-5] [--case N,K,D]``
times whole processes, the way a user waits for them:
``python -m cpqueens puzzle new --size 12 [--difficulty D] [--stars K] --seed S
--format json``, started from an empty temporary folder under ``nice -n 10``,
for 12 x 12 at every difficulty and Star Battle 10 x 10 with two stars,
"medium". With ``--vs TREE`` (a checkout of another commit) each seed runs
with that tree first on ``PYTHONPATH``, then with this one, in turn, and the
row gives both medians and maxima and the median of the ratios pair by pair
(this / that). Every puzzle printed is checked here, outside the timing:
one solution (the compiled search counts to 2, and the printed solution is
it), rated as asked by ``rate()`` (with no difficulty, solved by deduction
alone). The load average (1 minute) is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
#: The whole-process cases of issue 40: (size, stars, difficulty or None).
PROCESS_CASES = [(12, 1, d) for d in ("easy", "medium", "hard", None, "needs search")]
PROCESS_CASES += [(10, 2, "medium")]


def in_process() -> None:
    """Issue 34's table: ten seeds per size and difficulty, in this process."""
    from cpqueens import Puzzle

    Puzzle.generate(5, seed=0)  # load the compiled kernels
    cases = [(n, 1, d) for n in range(7, 12) for d in ("easy", "medium", "hard", None)]
    cases += [(10, 2, d) for d in ("medium", "hard", None)]
    for n, k, d in cases:
        wall, cpu = [], []
        for seed in range(10):
            w, c = time.perf_counter(), time.process_time()
            p, _ = Puzzle.generate(n, k, difficulty=d, seed=seed)
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c)
            rating = p.rate()
            assert rating == d if d else rating in ("easy", "medium", "hard"), (n, k, d, seed)
        print(
            f"| {n} | {k} | {d or 'default'} | {statistics.median(wall):.2f} | {max(wall):.2f} "
            f"| {statistics.median(cpu):.2f} |",
            flush=True,
        )


def one_process(tree: Path, n: int, k: int, d: str | None, seed: int) -> tuple[float, float, str]:
    """Run the command once with ``tree`` first on the path: wall and CPU seconds, its output."""
    command = ["nice", "-n", "10", sys.executable, "-m", "cpqueens", "puzzle", "new"]
    command += ["--size", str(n), "--stars", str(k), "--seed", str(seed), "--format", "json"]
    if d is not None:
        command += ["--difficulty", d.replace(" ", "-")]
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(command, env=env, cwd=folder, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    assert done.returncode == 0, (tree, n, k, d, seed, done.stderr)
    return wall, cpu, done.stdout


def check(output: str, n: int, k: int, d: str | None) -> None:
    """The printed puzzle has one solution, the one printed, and the difficulty asked."""
    from cpqueens import Puzzle

    data = json.loads(output)
    solution = tuple(sorted(tuple(cell) for cell in data.pop("solution")))
    p = Puzzle.from_json(data)
    assert (p.n, p.stars) == (n, k)
    assert p.count(limit=2) == 1 and p.solve() == solution
    rating = p.rate()
    assert rating == d if d else rating in ("easy", "medium", "hard"), (rating, d)


def whole_processes(
    vs: Path | None, seeds: list[int], cases: list[tuple[int, int, str | None]]
) -> None:
    """Issue 40's table: whole processes, this tree (and ``vs``, in turn), per case."""
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    for n, k, d in cases:
        mine, theirs, ratios, cpu = [], [], [], []
        for seed in seeds:
            if vs is not None:
                wall_b, _, out_b = one_process(vs, n, k, d, seed)
                check(out_b, n, k, d)
                theirs.append(wall_b)
            wall_a, cpu_a, out_a = one_process(HERE, n, k, d, seed)
            check(out_a, n, k, d)
            mine.append(wall_a)
            cpu.append(cpu_a)
            if vs is not None:
                ratios.append(wall_a / wall_b)
            print(
                f"  {n}x{n} k={k} {d or 'default'} seed {seed}: {wall_a:.2f} s (CPU {cpu_a:.2f})"
                + (f", vs {theirs[-1]:.2f} s" if vs is not None else ""),
                file=sys.stderr,
                flush=True,
            )
        row = f"| {n} | {k} | {d or 'default'} | {statistics.median(mine):.2f} | {max(mine):.2f} "
        row += f"| {statistics.median(cpu):.2f} |"
        if vs is not None:
            row += f" {statistics.median(theirs):.2f} | {max(theirs):.2f} "
            row += f"| {statistics.median(ratios):.3f} |"
        print(row, flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}", flush=True)


def seed_range(text: str) -> list[int]:
    """``1-5`` or ``1,4,7``: the seeds."""
    if "-" in text:
        first, last = text.split("-")
        return list(range(int(first), int(last) + 1))
    return [int(s) for s in text.split(",")]


def case(text: str) -> tuple[int, int, str | None]:
    """``12,1,needs-search`` or ``10,2,default``: size, stars, difficulty."""
    n, k, d = text.split(",")
    return int(n), int(k), None if d == "default" else d.replace("-", " ")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--process", action="store_true", help="whole processes (issue 40)")
    parser.add_argument("--vs", type=Path, help="another tree to time in turn (a checkout)")
    parser.add_argument("--seeds", type=seed_range, default=list(range(1, 6)))
    parser.add_argument(
        "--case", type=case, action="append", help="N,K,D (D: a difficulty or 'default'); "
        "repeat for several (default: issue 40's six)",
    )  # fmt: skip
    options = parser.parse_args()
    if options.process:
        whole_processes(options.vs, options.seeds, options.case or PROCESS_CASES)
    else:
        in_process()
