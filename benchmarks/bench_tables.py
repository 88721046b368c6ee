"""The published domination tables: A002568 counted, and a count stopped half way and resumed.

    python benchmarks/bench_tables.py independent 12 13 14 --limit 900
    python benchmarks/bench_tables.py resume 14 --workers 2
    python benchmarks/bench_tables.py bounds 13:3 14:10 16:60 --versus /tmp/main-src
    python benchmarks/bench_tables.py relaxations 8 9 10 11 12 13 14 15

``independent``: one ``cpqueens optimize independent-domination N --count
--workers W --json`` process per board, from a temporary folder; the answer
checked here in plain Python (its queens independent and covering the board,
as many as the value; the value and count against OEIS A075324 and A002568).
A run still going after ``--limit`` seconds is stopped and said so: never a count.

``resume``: ``cpqueens optimize domination N --count --workers W --checkpoint
dN.json`` run whole, then again in a fresh folder, stopped by SIGINT once
the process and its workers (alive, or exited and reaped: /proc's cutime)
have used half the whole run's CPU time (on a loaded machine half the wall
time says little), the count's parts saved in
``dN.count.json`` as they finish; then the same command again: the rest
against the whole, in wall time and in CPU time (the process and its
workers). Prints Markdown rows.

``bounds``: ``cpqueens optimize peaceable N --time-limit T --json`` for each
``N:T``, the bound the stopped run reports (``--versus DIR``: the same
command on another checkout, ``PYTHONPATH=DIR``, in turn with this one).

``relaxations``: the bounds docs/optimisation.md tabulates, per n: the rows
and columns' floor(n^2/4) and the pairwise-conflict LP of peaceable armies,
the domination theorem and the covering LPs (GLOP), beside the optima.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
A075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8, 9, 9, 9, 10, 11, 11]
A002568 = [1, 4, 1, 16, 16, 120, 8, 728, 92, 8, 2, 840, 24, 436, 10188, 128, 12, 224, 8424, 312]
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11]
A002564 = {13: 288, 14: 4632, 15: 205832, 16: 2968, 17: 124, 18: 16, 19: 84}


A250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32]


def env(root: Path = ROOT) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(root), "PYTHONUNBUFFERED": "1"}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tree_cpu(pid: int) -> float:
    """The CPU seconds so far of ``pid``, of its descendants alive, and of those it has reaped.

    /proc/PID/stat's utime and stime are a process's own; cutime and cstime
    hold its children that have exited and been waited for (a pool shut
    down, its workers reaped): without them, the CPU of every pool already
    gone is missed (the bench's first version never reached half the whole
    run's CPU, so it never sent its signal).
    """
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
    children: dict[int, list[int]] = {}
    for p, fields in stats.items():
        children.setdefault(int(fields[1]), []).append(p)
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        if p in stats:
            total += sum(int(x) for x in stats[p][11:15]) / tick  # utime stime cutime cstime
        todo.extend(children.get(p, []))
    return total


def covers(n: int, queens: list[tuple[int, int]]) -> bool:
    return all(
        any(r == a or c == b or r - c == a - b or r + c == a + b for a, b in queens)
        for r in range(n)
        for c in range(n)
    )


def apart(queens: list[tuple[int, int]]) -> bool:
    return not any(
        r == a or c == b or r - c == a - b or r + c == a + b
        for i, (r, c) in enumerate(queens)
        for a, b in queens[:i]
    )


def python_sigint() -> None:
    """In the child, before Python starts: SIGINT back to its default disposition.

    A process started in the background by a shell without job control (``cmd &``
    in a script, nohup) inherits SIGINT ignored, and Python then installs no
    KeyboardInterrupt handler: the bench's Ctrl-C would do nothing (the first
    versions of ``resume`` never stopped their run, whatever the CPU reading).
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def timed(command: list[str], folder: str, limit: float) -> tuple[str | None, float, float]:
    """(stdout or None if stopped at the limit, wall seconds, CPU seconds of the process tree)."""
    cpu, start = children_cpu(), time.perf_counter()
    process = subprocess.Popen(
        command, cwd=folder, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=python_sigint,
    )  # fmt: skip
    try:
        out, _ = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        process.communicate()
        out = None
    return out, time.perf_counter() - start, children_cpu() - cpu


def independent(boards: list[int], workers: int, limit: float) -> None:
    print("| n | A075324 | value | A002568 | count | set checked | wall | CPU (all processes) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in boards:
        command = [sys.executable, "-m", "cpqueens", "optimize", "independent-domination", str(n)]
        command += ["--count", "--workers", str(workers), "--json"]
        with tempfile.TemporaryDirectory() as folder:
            out, wall, cpu = timed(command, folder, limit)
        if out is None:
            print(f"| {n} | {A075324[n - 1]} | - | {A002568[n - 1]} | not finished | - | "
                  f"stopped at {limit:.0f} s | {cpu:.1f} s |", flush=True)  # fmt: skip
            continue
        answer = json.loads(out)
        queens = [tuple(q) for q in answer["queens"]]
        good = covers(n, queens) and apart(queens) and len(set(queens)) == answer["value"]
        print(f"| {n} | {A075324[n - 1]} | {answer['value']} | {A002568[n - 1]} | "
              f"{answer['count']} | {'yes' if good else 'NO'} | {wall:.1f} s | {cpu:.1f} s |",
              flush=True)  # fmt: skip


def resume(n: int, workers: int, limit: float) -> None:
    command = [sys.executable, "-m", "cpqueens", "optimize", "domination", str(n), "--count"]
    command += ["--workers", str(workers), "--checkpoint", f"d{n}.json", "--json"]
    with tempfile.TemporaryDirectory() as folder:
        out, whole, whole_cpu = timed(command, folder, limit)
        assert out is not None and json.loads(out)["count"] == A002564[n], out
    with tempfile.TemporaryDirectory() as folder:
        counted = Path(folder) / f"d{n}.count.json"
        cpu, start = children_cpu(), time.perf_counter()
        process = subprocess.Popen(
            command, cwd=folder, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, preexec_fn=python_sigint,
        )  # fmt: skip
        while process.poll() is None and tree_cpu(process.pid) < whole_cpu / 2:
            time.sleep(0.05)  # half way through the whole run's CPU time (load-proof)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate()
        first, first_cpu = time.perf_counter() - start, children_cpu() - cpu
        half = 0.0
        if counted.exists():
            data = json.loads(counted.read_text())
            half = len(data["done"]) / data["subproblems"]
        out, rest, rest_cpu = timed(command, folder, limit)
        assert out is not None and json.loads(out)["count"] == A002564[n], out
    print("| run | wall | CPU (all processes) | against the whole (wall, CPU) |")
    print("| --- | --- | --- | --- |")
    print(f"| whole | {whole:.1f} s | {whole_cpu:.1f} s | 1, 1 |")
    print(f"| stopped half way ({half:.0%} of the count's parts saved) | {first:.1f} s | "
          f"{first_cpu:.1f} s | {first / whole:.2f}, {first_cpu / whole_cpu:.2f} |")  # fmt: skip
    print(f"| resumed: the rest | {rest:.1f} s | {rest_cpu:.1f} s | "
          f"{rest / whole:.2f}, {rest_cpu / whole_cpu:.2f} |")  # fmt: skip
    print(f"\nThe interrupted run said: `{err.strip()}`")


def bounds(specs: list[str], versus: str | None) -> None:
    print("| n | limit | checkout | value | status | bound | A250000 | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    roots = [("this", ROOT)] + ([] if versus is None else [("versus", Path(versus))])
    for spec in specs:
        n, limit = spec.split(":")
        for name, root in roots:
            command = [sys.executable, "-m", "cpqueens", "optimize", "peaceable", n]
            command += ["--time-limit", limit, "--json"]
            with tempfile.TemporaryDirectory() as folder:
                out = subprocess.run(
                    command, cwd=folder, env=env(root), capture_output=True, text=True
                ).stdout
            answer = json.loads(out)
            best = A250000[int(n) - 1] if int(n) <= len(A250000) else "-"
            value, status, bound = answer["value"], answer["status"], answer["bound"]
            print(f"| {n} | {limit} s | {name} | {value} | {status} | {bound} | {best} | "
                  f"{answer['seconds']:.1f} |", flush=True)  # fmt: skip


def covering_lp(n: int, independent: bool) -> float:
    """The covering LP of queens on n x n, at most one per line if ``independent`` (GLOP)."""
    from ortools.linear_solver import pywraplp

    lp = pywraplp.Solver.CreateSolver("GLOP")
    x = {(r, c): lp.NumVar(0, 1, "") for r in range(n) for c in range(n)}
    for cell in x:  # covered by a queen on it or on one of its lines
        lp.Add(sum(x[other] for other in x if not apart([cell, other]) or other == cell) >= 1)
    if independent:
        for key in (lambda c: c[0], lambda c: c[1], lambda c: c[0] + c[1], lambda c: c[0] - c[1]):
            for value in {key(c) for c in x}:
                lp.Add(sum(x[c] for c in x if key(c) == value) <= 1)
    lp.Minimize(sum(x.values()))
    assert lp.Solve() == pywraplp.Solver.OPTIMAL
    return float(lp.Objective().Value())


def conflict_lp(n: int) -> float:
    """The LP of peaceable armies by pairwise conflicts: w_c + b_d <= 1 on a shared line."""
    from ortools.linear_solver import pywraplp

    lp = pywraplp.Solver.CreateSolver("GLOP")
    cells = [(r, c) for r in range(n) for c in range(n)]
    w = {c: lp.NumVar(0, 1, "") for c in cells}
    b = {c: lp.NumVar(0, 1, "") for c in cells}
    z = lp.NumVar(0, n * n, "")
    for a in cells:
        for o in cells:
            if not apart([a, o]) or a == o:
                lp.Add(w[a] + b[o] <= 1)
    lp.Add(sum(w.values()) >= z)
    lp.Add(sum(b.values()) >= z)
    lp.Maximize(z)
    assert lp.Solve() == pywraplp.Solver.OPTIMAL
    return float(lp.Objective().Value())


def relaxations(boards: list[int]) -> None:
    print("| n | floor(n^2/4) | conflict LP | A250000 | ceil(n/2) | covering LP | A075458 "
          "| independent covering LP | A075324 |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in boards:
        grid = max(min(s * t, (n - s) * (n - t)) for s in range(n + 1) for t in range(n + 1))
        theorem = n // 2 if n in (3, 11) else (n + 1) // 2
        print(f"| {n} | {grid} | {conflict_lp(n):g} | {A250000[n - 1]} | {theorem} | "
              f"{covering_lp(n, False):.2f} | {A075458[n - 1]} | {covering_lp(n, True):.2f} | "
              f"{A075324[n - 1]} |", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("independent", "resume", "bounds", "relaxations"))
    parser.add_argument("boards", nargs="+", help="board sizes; for bounds N:SECONDS")
    parser.add_argument("--versus", help="bounds: another checkout, run in turn")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=float, default=900.0, help="seconds per run")
    args = parser.parse_args()
    print(f"`python benchmarks/bench_tables.py {' '.join(sys.argv[1:])}` "
          f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at the start)\n")  # fmt: skip
    if args.what == "bounds":
        bounds(args.boards, args.versus)
    elif args.what == "relaxations":
        relaxations([int(n) for n in args.boards])
    elif args.what == "independent":
        independent([int(n) for n in args.boards], args.workers, args.limit)
    else:
        for n in args.boards:
            resume(int(n), args.workers, args.limit)


if __name__ == "__main__":
    main()
