"""Queen domination at the frontier: gamma(Q_n), A002564, the proofs, and projected costs.

Each subcommand writes its own part of the ``## Queen domination`` section of
``benchmarks/RESULTS-frontier.md`` (another section of that file is other
work's; only this one is rewritten):

    python benchmarks/bench_domination.py table      # gamma(Q_n), n = 1..25, whole process each
    python benchmarks/bench_domination.py counts     # A002564 (and classes), n = 1..13
    python benchmarks/bench_domination.py proofs     # n = 14, 15 on 2 workers; a resumed proof
    python benchmarks/bench_domination.py versus     # side by side: the searches on and off
    python benchmarks/bench_domination.py versus --small --runs 3   # n = 8 alone, printed
    python benchmarks/bench_domination.py estimate   # n = 16, 20, 22, 24: rate, tree size, cost

Times are of whole processes (``cpqueens optimize domination N ...``: start-up,
imports and loading the compiled kernels included) unless a row says
otherwise. ``versus`` times whole processes in turn (``alternate.py``; A: the
command as it is; B: the same command with the domination search switched off,
the path main takes: CP-SAT for the optimum, the generic compiled counter for
the count), the ratio pair by pair; ``versus --small`` runs the small board
(n = 8) alone and prints its table without writing the results.
``before ARGS...`` is that B: the command line with
``cpqueens.backends.bitmask.domination.applies`` made to say no.

``estimate`` measures each board's rate (nodes per second of one core, on
the first parts of the split) and estimates the size of the proof's tree by
Knuth's random probes (1975): a probe walks from a part's root to a leaf,
taking a child at random, and sums the products of the branching factors
along the way, an unbiased estimate of the part's nodes. Checked against the
exhaustive counts on n = 14 and 15, where both are known.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import alternate  # noqa: E402

RESULTS = HERE / "RESULTS-frontier.md"
SECTION = "## Queen domination"
BEGIN, END = "<!-- queen-domination: begin -->", "<!-- queen-domination: end -->"
CLI = [sys.executable, "-m", "cpqueens", "optimize", "domination"]

# OEIS A075458 (n = 1..25) and A002564 (n = 1..10; later values from the issue: 12 -> 8, 13 -> 288)
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13]
A002564 = {1: 1, 2: 4, 3: 1, 4: 12, 5: 186, 6: 4, 7: 86, 8: 4860, 9: 114, 10: 8, 12: 8, 13: 288}
#: The published computations: who proved gamma(Q_n) first by computer, where the bound is not met.
PUBLISHED = {
    14: "Kearse and Gibbons 2001",
    15: "Kearse and Gibbons 2001",
    16: "Kearse and Gibbons 2001",
}
#: The boards whose proof is the projection (16 is proved here in seconds: in the table).
FRONTIER = (20, 22, 24)


def machine() -> str:
    """One line: the date, Python, the cores and the load."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{datetime.date.today()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores (shared), load average {load} at the start"
    )


def write(title: str, text: str) -> None:
    """Put ``text`` under ``### title`` in this file's section, replacing what was there.

    The section lies between markers, so that the file's other sections (other work's)
    stay as they are.
    """
    old = RESULTS.read_text() if RESULTS.exists() else "# The frontier: optimisation and counting\n"
    if BEGIN not in old:
        old = old.rstrip("\n") + f"\n\n{BEGIN}\n{SECTION}\n{END}\n"
    start, end = old.index(BEGIN) + len(BEGIN), old.index(END)
    section = old[start:end]
    block = f"### {title}\n\n{text.strip()}\n\n"
    pattern = re.compile(rf"^### {re.escape(title)}\n.*?(?=^### |\Z)", re.MULTILINE | re.DOTALL)
    if pattern.search(section):
        section = pattern.sub(lambda _: block, section)
    else:
        section = section.rstrip("\n") + "\n\n" + block
    RESULTS.write_text(old[:start] + section.rstrip("\n") + "\n" + old[end:])


def run(args: list[str], timeout: float = 3600) -> tuple[dict, float, str]:
    """``cpqueens optimize domination ARGS --json`` in a fresh folder: (answer, seconds, stderr)."""
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        done = subprocess.run(
            [*CLI, *args, "--json"], capture_output=True, text=True, cwd=folder, timeout=timeout
        )
        seconds = time.perf_counter() - began
    return json.loads(done.stdout), seconds, done.stderr.strip()


def dominates(n: int, queens: list[list[int]]) -> bool:
    """The independent check of an answer: every cell shares a line with a queen (plain Python)."""
    return all(
        any(r == a or c == b or r - c == a - b or r + c == a + b for a, b, *_ in queens)
        for r in range(n)
        for c in range(n)
    )


def table(limit: float) -> None:
    """gamma(Q_n) for n = 1..25: the answer, its status, and the whole process's time."""
    rows = [
        "| n | OEIS A075458 | answer | status | bound | set checked | whole process "
        "| how it is proved |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for n in range(1, 26):
        args = [str(n)] if n not in FRONTIER else [str(n), "--time-limit", str(limit)]
        answer, seconds, _ = run(args)
        checked = "yes" if dominates(n, answer["queens"]) else "NO"
        floor = (n - 1) // 2 if n in (3, 11) else (n + 1) // 2
        if n in FRONTIER:
            how = "exhaustive search (Bird 2017); here: feasible, the proof projected below"
        elif n in PUBLISHED:
            how = f"exhaustive search, here and by {PUBLISHED[n]}"
        elif A075458[n - 1] == floor:
            how = "a set of the bound's size: " + ("(n-1)/2" if n in (3, 11) else "ceil(n/2)")
        else:
            how = "exhaustive search"
        limit_note = f" (limit {limit:g} s)" if n in FRONTIER else ""
        rows.append(
            f"| {n} | {A075458[n - 1]} | {answer['value']} | {answer['status']}{limit_note} | "
            f"{answer['bound']} | {checked} | {seconds:.2f} s | {how} |"
        )
        print(rows[-1], flush=True)
    text = (
        f"Command: `python benchmarks/bench_domination.py table --limit {limit:g}` ({machine()}).\n"
        "Each row is one `cpqueens optimize domination N --json` process; the frontier boards "
        f"(n = {', '.join(map(str, FRONTIER))}) with `--time-limit {limit:g}`: their proofs are "
        "the projections below. Every set is checked here in plain Python (every cell shares "
        "a line with a queen).\n\n" + "\n".join(rows)
    )
    write("gamma(Q_n), n = 1..25", text)


def counts() -> None:
    """A002564: the minimum dominating sets (and their classes), n = 1..13, whole process each."""
    rows = [
        "| n | gamma | OEIS A002564 | count | classes | whole process |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for n in range(1, 14):
        answer, seconds, _ = run([str(n), "--count", "--unique"])
        rows.append(
            f"| {n} | {answer['value']} | {A002564.get(n, '-')} | {answer['count']} | "
            f"{answer['classes']} | {seconds:.2f} s |"
        )
        print(rows[-1], flush=True)
    text = (
        f"Command: `python benchmarks/bench_domination.py counts` ({machine()}). Each row is "
        "one `cpqueens optimize domination N --count --unique --json` process (one core: the "
        "count runs its parts in order).\n\n" + "\n".join(rows)
    )
    write("Minimum dominating sets (A002564)", text)


def proofs(workers: int) -> None:
    """The proofs beyond the bound (n = 14, 15): whole processes on ``workers``, and a resume."""
    rows = [
        "| n | gamma | proof | workers | answer | whole process | CPU (all processes) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for n in (14, 15):
        for w in (1, workers):
            before = os.times()
            answer, seconds, _ = run([str(n), "--workers", str(w)])
            after = os.times()
            cpu = (after.children_user - before.children_user) + (
                after.children_system - before.children_system
            )
            assert dominates(n, answer["queens"]), answer
            rows.append(
                f"| {n} | {A075458[n - 1]} | no {A075458[n - 1] - 1} queens cover it | {w} | "
                f"{answer['value']} ({answer['status']}) | {seconds:.1f} s | {cpu:.1f} s |"
            )
            print(rows[-1], flush=True)
    # a proof stopped half-way and resumed from its checkpoint
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "d15.json"
        command = [*CLI, "15", "--workers", str(workers), "--checkpoint", str(path), "--json"]
        pipe = subprocess.PIPE
        process = subprocess.Popen(command, stdout=pipe, stderr=pipe, text=True)
        began = time.perf_counter()
        while not path.exists() or len(json.loads(path.read_text() or "{}").get("done", [])) < 8:
            time.sleep(0.2)
        process.send_signal(2)
        _, err = process.communicate()
        first = time.perf_counter() - began
        saved = len(json.loads(path.read_text())["done"])
        answer, second, _ = run(["15", "--workers", str(workers), "--checkpoint", str(path)])
    resume = (
        f"A proof stopped by Ctrl-C and resumed: `cpqueens optimize domination 15 --workers "
        f"{workers} --checkpoint d15.json`, interrupted after {first:.1f} s with {saved} of 36 "
        f"parts saved (it said: `{err.strip()}`), then the same command again: "
        f"{answer['value']} ({answer['status']}) in {second:.1f} s more."
    )
    text = (
        f"Command: `python benchmarks/bench_domination.py proofs --workers {workers}` "
        f"({machine()}). Each row is one `cpqueens optimize domination N --workers W --json` "
        "process: the lattices find gamma queens at once, then the exhaustive search proves "
        "that one fewer do not cover the board (the split: one part per orbit of the first "
        "queen; the local loky pool when W > 1).\n\n" + "\n".join(rows) + "\n\n" + resume
    )
    write("Proofs beyond the bound: n = 14 and 15", text)


def before(args: list[str]) -> int:
    """The command line with the domination search switched off: main's path (B of ``versus``)."""
    from cpqueens import cli
    from cpqueens.backends.bitmask import domination

    domination.applies = lambda problem: False  # CP-SAT optimises, the generic kernel counts
    return cli.main(["optimize", "domination", *args])


def versus(runs: int, small: bool = False) -> None:
    """A (this branch) against B (the same with the domination search off), whole processes.

    ``small``: the small board alone, printed and not written to the results.
    """
    script = str(Path(__file__).resolve())
    cases = [
        (["12", "--count"], 1, "A002564(12) = 8: main took 114 s"),
        (["14", "--time-limit", "120"], 1, "main: 8 found, bound 7, at the limit"),
        (["19", "--time-limit", "120"], 1, "main: no answer in 120 s"),
        (["8"], runs, "a small board, both proved"),
    ]
    if small:
        cases = cases[-1:]
    rows = [
        "| command | A (median) | B (median) | A/B (median) | pairs | note |",
        "| --- " * 6 + "|",
    ]
    for args, n, note in cases:
        a = [*CLI, *args]
        b = [sys.executable, script, "before", *args]
        pairs = alternate.alternate(a, b, n, warmup=0, timeout=3600)
        print(f"`cpqueens optimize domination {' '.join(args)}`", flush=True)
        print(alternate.table(pairs), flush=True)
        found = alternate.summary(pairs)
        a_med, b_med, r_med = (found[k][1] for k in ("A wall s", "B wall s", "A/B wall"))
        rows.append(
            f"| `cpqueens optimize domination {' '.join(args)}` | {a_med:.3f} s | "
            f"{b_med:.3f} s | {r_med:.4f} | {len(pairs)} | {note} |"
        )
    text = (
        f"Command: `python benchmarks/bench_domination.py versus --runs {runs}` ({machine()}). "
        "Whole processes timed in turn (A B A B ..., `benchmarks/alternate.py`), the ratio "
        "A/B taken pair by pair, medians of the wall seconds; B is the same command with the "
        "domination search switched off (`bench_domination.py before ARGS`): CP-SAT's model "
        "with its bounds for the optimum, the generic compiled counter for the count, as on "
        "main.\n\n" + "\n".join(rows)
    )
    if small:
        print("\n".join(rows))
    else:
        write("Side by side: the domination search on and off", text)


# --- the projections: Knuth's estimate of the tree, and the measured rate ----------------------


def probe_tree(n: int, k: int, probes: int, seed: int = 1) -> tuple[float, float, int]:
    """Knuth's estimate of the proof's nodes: (mean, standard error, parts), summed over parts."""
    import numpy as np

    from cpqueens.backends.bitmask import domination
    from cpqueens.kernels import domination as kernel

    rng = random.Random(seed)
    _, orbit, firsts = domination.symmetry(n)
    total = variance = 0.0
    for q0 in firsts:
        values = []
        for _ in range(probes):
            path: list[int] = []
            weight = nodes = 1.0
            while True:
                state = kernel.start(n, k, q0, orbit)
                m = kernel.children(
                    n, k, False, domination.FRAME, np.array(path, dtype=np.int64), *state
                )
                if m <= 0:
                    break
                weight *= m
                nodes += weight
                path.append(rng.randrange(m))
            values.append(nodes)
        mean = sum(values) / probes
        total += mean
        variance += sum((v - mean) ** 2 for v in values) / (probes - 1) / probes
    return total, math.sqrt(variance), len(firsts)


def rate(n: int, k: int, seconds: float) -> tuple[float, int]:
    """Nodes per CPU second of one core on the proof's first parts, run for about ``seconds``."""
    import numpy as np

    from cpqueens.backends.bitmask import domination
    from cpqueens.kernels import domination as kernel

    images, orbit, firsts = domination.symmetry(n)
    nodes, began = 0, time.process_time()
    for q0 in firsts:
        state = kernel.start(n, k, q0, orbit)
        empty = np.zeros(0, dtype=np.int64)
        while time.process_time() - began < seconds:
            if (
                kernel.search(
                    n, k, False, domination.FRAME, q0, images, empty, *state, True, 1 << 16
                )
                != kernel.PAUSED
            ):
                break
        nodes += int(state[-1][kernel.NODES])
        if time.process_time() - began >= seconds:
            break
    return nodes / (time.process_time() - began), nodes


def estimate(probes: int, seconds: float) -> None:
    """The rate and Knuth's tree size, checked on n = 14, 15, projected on n = 16, 20, 22, 24."""
    from cpqueens.backends.bitmask import domination

    domination.decide(6, 2, domination._here(None))  # load the kernels first
    rows = [
        "| n | proof | parts | rate (nodes/s, 1 core) | nodes (Knuth, mean +- s.e.) "
        "| nodes (exhaustive) | core-hours | 2 cores | 100 cores | 1,000 cores |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for n in (14, 15, 16, *FRONTIER):
        k = A075458[n - 1] - 1
        speed, _ = rate(n, k, seconds)
        began = time.perf_counter()
        mean, error, parts = probe_tree(n, k, probes)
        probing = time.perf_counter() - began
        exact = "-"
        if n <= 16:
            counted = 0
            for part in domination.plan(n, k):
                counted += _nodes(n, k, part.q0)
            exact = f"{counted:,}"
        hours = mean / speed / 3600
        rows.append(
            f"| {n} | no {k} queens | {parts} | {speed:,.0f} | {mean:.3g} +- {error:.2g} | {exact} "
            f"| {hours:.3g} | {_span(hours / 2)} | {_span(hours / 100)} | {_span(hours / 1000)} |"
        )
        print(rows[-1], f"(probes {probing:.0f} s)", flush=True)
    text = (
        f"Command: `python benchmarks/bench_domination.py estimate --probes {probes} --seconds "
        f"{seconds:g}` ({machine()}). The rate is measured on the proof's first parts (one "
        "core, this process); the tree's size is Knuth's estimate from "
        f"{probes} random probes per part (its standard error beside it: the tree is "
        "lopsided, so read it as an order of magnitude), checked against the exhaustive count "
        "of nodes where the proof runs here. The cost on C cores assumes the split is fine "
        "enough to keep them busy (on an executor the proof splits two levels deep: thousands "
        "of parts; `cpqueens optimize domination N --scheduler ADDRESS`), at this machine's "
        "rate per core.\n\n" + "\n".join(rows)
    )
    write("The frontier: measured rates and projected costs (n = 16, 20, 22, 24)", text)


def _nodes(n: int, k: int, q0: int) -> int:
    """The nodes of one part, searched to its end."""
    import numpy as np

    from cpqueens.backends.bitmask import domination
    from cpqueens.kernels import domination as kernel

    images, orbit, _ = domination.symmetry(n)
    state = kernel.start(n, k, q0, orbit)
    empty = np.zeros(0, dtype=np.int64)
    while (
        kernel.search(n, k, False, domination.FRAME, q0, images, empty, *state, True, 1 << 20)
        == kernel.PAUSED
    ):
        pass
    return int(state[-1][kernel.NODES])


def _span(hours: float) -> str:
    """Hours as the unit that reads best."""
    if hours < 1 / 60:
        return f"{hours * 3600:.0f} s"
    if hours < 1:
        return f"{hours * 60:.0f} min"
    if hours < 48:
        return f"{hours:.1f} h"
    if hours < 24 * 730:
        return f"{hours / 24:.0f} days"
    return f"{hours / 24 / 365:.0f} years"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("table").add_argument("--limit", type=float, default=60.0)
    commands.add_parser("counts")
    commands.add_parser("proofs").add_argument("--workers", type=int, default=2)
    side_by_side = commands.add_parser("versus")
    side_by_side.add_argument("--runs", type=int, default=3)
    side_by_side.add_argument("--small", action="store_true", help="n = 8 alone, not written")
    probing = commands.add_parser("estimate")
    probing.add_argument("--probes", type=int, default=500)
    probing.add_argument("--seconds", type=float, default=20.0)
    commands.add_parser("before").add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.command == "before":
        return before(args.args)
    {
        "table": lambda: table(args.limit),
        "counts": counts,
        "proofs": lambda: proofs(args.workers),
        "versus": lambda: versus(args.runs, args.small),
        "estimate": lambda: estimate(args.probes, args.seconds),
    }[args.command]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
