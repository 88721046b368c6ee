"""Side by side, whole processes, one worker: user conditions against a plain C bitmask DFS.

Issue 22's goals at n = 16: each of the four condition kinds
(``q[0] < q[15]``, ``abs(q[0] - q[1]) > 2``, ``all_different(q[r] + 2*r)``,
``(q[3] + q[4]) % 3 == 0``) counted by cpqueens in at most 1.5x the time of
a plain C bitmask DFS of the free board at -O2 with no symmetry
(``anchors/conditions_dfs.c plain``); ``q[0] < q[15]`` with
``keeps=("rot180",)`` faster than that C. The table also compares with the
same C checking each condition as early as it can (``anchors/conditions_dfs.c
KIND``: at its last row, ``all_different`` row by row), which prints the
same counts. Each time is a whole fresh process
(``python -c`` building the model and calling ``count(workers=1)``, numba's
load included), repeats interleaved, best kept; every count is checked
against the C's.

Writes benchmarks/RESULTS-conditions.md.

    python benchmarks/bench_conditions.py [--n 16] [--repeats 2]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Each row: the C anchor's kind, the condition as Python (``q`` and ``n`` bound), what it keeps.
ROWS = {
    "q[0] < q[n-1]": ("lt", "q[0] < q[n - 1]", ()),
    "abs(q[0] - q[1]) > 2": ("abs", "abs(q[0] - q[1]) > 2", ()),
    "all_different(q[r] + 2r)": (
        "alldiff",
        "cpqueens.all_different(q[r] + 2 * r for r in range(n))",
        (),
    ),
    "(q[3] + q[4]) % 3 == 0": ("mod", "(q[3] + q[4]) % 3 == 0", ()),
    "q[0] < q[n-1], keeps rot180": ("lt", "q[0] < q[n - 1]", ("rot180",)),
}
GOAL = 1.5

SCRIPT = """
import cpqueens
n = {n}
m = cpqueens.model(n)
q = m.q
print(m.where({condition}, keeps={keeps!r}).count(workers=1))
"""


def timed(argv: list[str]) -> tuple[float, int]:
    """Run ``argv``; return its wall time and the count it printed."""
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, int(done.stdout.split()[0])


def main() -> None:
    """Compile the C, time the rows side by side, check the counts, write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    n = args.n
    folder = Path(tempfile.mkdtemp(prefix="bench_conditions_"))
    anchor = folder / "conditions_dfs"
    source = HERE / "anchors" / "conditions_dfs.c"
    subprocess.run(["gcc", "-O2", "-o", str(anchor), str(source)], check=True)
    load_before = os.getloadavg()[0]
    c_runs: dict[str, list[float]] = {}
    c_counts: dict[str, int] = {}
    runs: dict[str, list[float]] = {row: [] for row in ROWS}
    for repeat in range(args.repeats):
        seconds, found = timed([str(anchor), "plain", str(n)])
        c_runs.setdefault("plain", []).append(seconds)
        c_counts["plain"] = found
        print(f"repeat {repeat + 1} C plain: {found} in {seconds:.2f} s", flush=True)
        for row, (kind, condition, keeps) in ROWS.items():
            if kind not in c_runs or len(c_runs[kind]) <= repeat:
                seconds, found = timed([str(anchor), kind, str(n)])
                c_runs.setdefault(kind, []).append(seconds)
                c_counts[kind] = found
                print(f"repeat {repeat + 1} C {kind}: {found} in {seconds:.2f} s", flush=True)
            script = SCRIPT.format(n=n, condition=condition, keeps=keeps)
            seconds, found = timed([sys.executable, "-c", script])
            if found != c_counts[kind]:
                raise SystemExit(f"{row}: cpqueens counted {found}, the C {c_counts[kind]}")
            runs[row].append(seconds)
            print(f"repeat {repeat + 1} cpqueens {row}: {seconds:.2f} s", flush=True)
    plain = min(c_runs["plain"])
    lines = [
        "# User conditions compiled, against a plain C bitmask DFS",
        "",
        f"- command: `python benchmarks/bench_conditions.py --n {n} --repeats {args.repeats}`",
        f"- date: {datetime.datetime.now(datetime.UTC).isoformat(timespec='seconds')}",
        f"- machine: {os.cpu_count()} CPUs, {platform.machine()},"
        f" Python {platform.python_version()};"
        f" load average before {load_before:.2f}, after {os.getloadavg()[0]:.2f}",
        f"- each time: a whole process, best of {args.repeats} interleaved; cpqueens is"
        " `python -c` building the model and printing `count(workers=1)` (numba's load"
        " included), the C is `anchors/conditions_dfs.c` at -O2 checking the same"
        " condition at its last row (no symmetry); every count equal to the C's",
        f"- the goal's anchor: the C's free board ({c_counts['plain']:,} solutions, no"
        f" condition, which checking a condition at its last row does not shorten):"
        f" best {plain:.2f} s",
        "- the stronger anchor: the same C checking the condition as early as it can"
        " (at its last row; `all_different` row by row against a mask of the values taken)",
        "",
        "| condition | keeps | count | cpqueens (s) | ratio to the free-board C (goal)"
        " | goal | met | C with the condition (s) | ratio to it |",
        "| --- | --- | ---: | ---: | ---: | --- | --- | ---: | ---: |",
    ]
    for row, (kind, _, keeps) in ROWS.items():
        c_best, best = min(c_runs[kind]), min(runs[row])
        ratio = best / plain
        goal = 1.0 if keeps else GOAL
        met = "yes" if ratio <= goal else "**no**"
        lines.append(
            f"| `{row}` | {', '.join(keeps) or '-'} | {c_counts[kind]:,} | {best:.2f} |"
            f" {ratio:.2f}x | <= {goal}x | {met} | {c_best:.2f} | {best / c_best:.2f}x |"
        )
    rounded = {row: [round(t, 2) for t in times] for row, times in runs.items()}
    c_rounded = {kind: [round(t, 2) for t in times] for kind, times in c_runs.items()}
    lines += ["", f"All cpqueens runs (s): {rounded}", f"All C runs (s): {c_rounded}", ""]
    (HERE / "RESULTS-conditions.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
