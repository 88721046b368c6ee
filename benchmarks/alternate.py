"""Two commands timed as whole processes in turn, A B A B ..., the ratio A/B taken pair by pair.

Each run is one whole process, timed from outside: wall seconds from just
before its start to just after it is reaped (``time.perf_counter``), CPU
seconds the user + system time the operating system accounts to the finished
child and the children it waited for (``resource.getrusage(RUSAGE_CHILDREN)``,
read before and after). A and B run in turn, so that a drift in the machine's
speed (other jobs on shared cores) moves both of a pair alike; the ratio A/B
is taken pair by pair and every figure is printed as min, median and max:
quote the median, the spread says how noisy the machine was.

    python benchmarks/alternate.py [--pairs 5] [--warmup 1] [--timeout 3600] 'A COMMAND' 'B COMMAND'

Each command is one string split as a shell splits words (``shlex``) and run
without a shell: one that needs a pipe, a redirection or a variable is
written ``env X=1 CMD`` or ``sh -c '...'``. ``--warmup`` runs of each, first,
are not counted. ``--timeout`` bounds the whole call: the run under way at the
bound is stopped (its process group killed) and the finished pairs printed.
What the commands print is read and kept from the table (a caller of
``alternate`` gets it in each ``Run``); their exit codes are printed when one
is not 0. Peak memory is not measured here: ``/usr/bin/time -v CMD`` prints a
process's (its "Maximum resident set size").

Used by ``bench_domination.py versus`` and ``bench_nqueensfaf.py compare``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import time
from typing import NamedTuple


class Run(NamedTuple):
    """One whole process: wall and CPU seconds, its exit code and what it printed."""

    wall: float
    cpu: float
    code: int
    stdout: str


def timed(
    command: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    timeout: float | None = None,
) -> Run:
    """Run ``command`` once, a whole process, and time it (TimeoutExpired at ``timeout``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
        start_new_session=True,  # its own process group: a timeout stops all of it
    )
    try:
        stdout, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, process.returncode, stdout)


def alternate(
    a: list[str],
    b: list[str],
    pairs: int,
    *,
    warmup: int = 1,
    timeout: float | None = None,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
) -> list[tuple[Run, Run]]:
    """``pairs`` runs of A and B in turn after ``warmup`` uncounted runs of each.

    ``timeout`` bounds the whole call: the pairs finished by then are returned.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    done: list[tuple[Run, Run]] = []
    try:
        for i in range(warmup + pairs):
            pair = []
            for command in (a, b):
                left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
                pair.append(timed(command, env=env, cwd=cwd, timeout=left))
            if i >= warmup:
                done.append((pair[0], pair[1]))
    except subprocess.TimeoutExpired:
        print(f"alternate: stopped at the {timeout:g} s bound", file=sys.stderr)
    return done


def summary(pairs: list[tuple[Run, Run]]) -> dict[str, tuple[float, float, float]]:
    """Min, median and max of A's and B's seconds and of A/B, pair by pair, wall and CPU."""
    found: dict[str, tuple[float, float, float]] = {}
    for kind in ("wall", "cpu"):
        a = [getattr(x, kind) for x, _ in pairs]
        b = [getattr(y, kind) for _, y in pairs]
        ratio = [x / y if y else float("nan") for x, y in zip(a, b, strict=True)]
        for name, values in ((f"A {kind} s", a), (f"B {kind} s", b), (f"A/B {kind}", ratio)):
            found[name] = (min(values), statistics.median(values), max(values))
    return found


def table(pairs: list[tuple[Run, Run]]) -> str:
    """The summary as a Markdown table: one row a figure, its min, median and max."""
    rows = ["| | min | median | max |", "| --- | ---: | ---: | ---: |"]
    for name, (low, middle, high) in summary(pairs).items():
        rows.append(f"| {name} | {low:.3f} | {middle:.3f} | {high:.3f} |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    """The command line: time A against B and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="command A, one string (split as a shell splits words)")
    parser.add_argument("b", help="command B, the baseline")
    parser.add_argument("--pairs", type=int, default=5, help="counted pairs (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="uncounted runs of each first")
    parser.add_argument("--timeout", type=float, help="a bound in seconds on the whole call")
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.warmup < 0:
        parser.error(f"--pairs {args.pairs} --warmup {args.warmup}: expected >= 1 and >= 0")
    pairs = alternate(
        shlex.split(args.a),
        shlex.split(args.b),
        args.pairs,
        warmup=args.warmup,
        timeout=args.timeout,
    )
    if not pairs:
        print("alternate: no pair finished", file=sys.stderr)
        return 1
    print(f"A: {args.a}\nB: {args.b}\n{len(pairs)} pairs, A B A B ..., {args.warmup} warm-up\n")
    print(table(pairs))
    codes = {(a.code, b.code) for a, b in pairs}
    if codes != {(0, 0)}:
        print(f"\nexit codes (A, B): {sorted(codes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
