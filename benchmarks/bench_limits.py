"""How far past its time limit each verb returns, at each board size, measured from outside.

Each (verb, n) runs in its own fresh process (``python -c``), as a user's script
or the command line would: the whole process's wall time is measured here, the
call's own time inside it. The overshoot is time minus the limit (negative:
the call answered before its limit).

    python benchmarks/bench_limits.py                 # every verb, n = 20 .. 10**6, limit 1 s
    python benchmarks/bench_limits.py --limit 3 --sizes 100000 1000000 --verbs first count

Prints a Markdown table, one row per verb and size, and the worst overshoot per verb.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

#: What each verb runs in the child; ``{n}`` and ``{limit}`` are filled in.
CALLS = {
    "first": "cpqueens.model({n}).first(time_limit={limit})",
    "exists": "cpqueens.model({n}).exists(time_limit={limit})",
    "count": "cpqueens.model({n}).count(time_limit={limit})",
    "solutions": "list(cpqueens.model({n}).solutions(time_limit={limit}))",
    "find": "cpqueens.model({n}).find(time_limit={limit})",
    "find (blocked)": "cpqueens.model({n}, blocked=[(0, 0), (1, 2)]).find(time_limit={limit})",
    "find (2,000 rows blocked)": (
        "cpqueens.model({n}, blocked=[(r, 0) for r in range(min({n}, 2000))])"
        ".find(time_limit={limit})"
    ),
    "first (cpsat)": "cpqueens.model({n}).first('cpsat', time_limit={limit})",
    "exists (placed)": "cpqueens.model({n}, placed=[(5, 7)]).exists(time_limit={limit})",
    "count (unique)": "cpqueens.model({n}).count(unique=True, time_limit={limit})",
}
#: The command-line verbs: arguments after ``python -m cpqueens``.
COMMANDS = {
    "cli solve": ["solve", "{n}", "--time-limit", "{limit}", "--format", "columns"],
    "cli solve --limit 1": ["solve", "{n}", "--limit", "1", "--time-limit", "{limit}"],
    "cli solve --any": ["solve", "{n}", "--any", "--time-limit", "{limit}", "--format", "columns"],
    "cli exists": ["exists", "{n}", "--time-limit", "{limit}"],
    "cli count": ["count", "{n}", "--time-limit", "{limit}"],
}
CHILD = """
import time, json, sys
import cpqueens
start = time.perf_counter()
try:
    {call}
    outcome = "answered"
except cpqueens.IncompleteSearchError:
    outcome = "time limit"
except Exception as error:
    outcome = type(error).__name__
print(json.dumps([outcome, time.perf_counter() - start]), file=sys.stderr)
"""
#: A run is stopped after the limit plus this many seconds (and reported as such).
KILL_AFTER = 60.0


def measure(verb: str, n: int, limit: float) -> tuple[str, float, float | None]:
    """(outcome, the whole process's seconds, the call's own seconds or None for the CLI)."""
    values = {"n": n, "limit": limit}
    if verb in COMMANDS:
        argv = [sys.executable, "-m", "cpqueens", *(a.format(**values) for a in COMMANDS[verb])]
    else:
        argv = [sys.executable, "-c", CHILD.format(call=CALLS[verb].format(**values))]
    start = time.perf_counter()
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=limit + KILL_AFTER, check=False
        )
    except subprocess.TimeoutExpired:
        return "still running: killed", time.perf_counter() - start, None
    seconds = time.perf_counter() - start
    if verb in COMMANDS:
        last = (done.stderr.strip().splitlines() or [""])[-1]
        outcome = "answered" if done.returncode == 0 else f"exit {done.returncode}: {last[:60]}"
        return outcome, seconds, None
    outcome, inside = json.loads(done.stderr.strip().splitlines()[-1])
    return outcome, seconds, inside


def main() -> None:
    """Run the grid and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=1.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 64, 1000, 100_000, 10**6])
    parser.add_argument("--verbs", nargs="+", default=[*CALLS, *COMMANDS])
    args = parser.parse_args()
    print(f"time limit {args.limit:g} s; `python {' '.join(sys.argv)}`\n")
    print("| verb | n | outcome | process (s) | call (s) | overshoot of the call (s) |")
    print("| --- | ---: | --- | ---: | ---: | ---: |")
    worst: dict[str, tuple[float, int]] = {}
    for verb in args.verbs:
        for n in args.sizes:
            if verb == "first (cpsat)" and n > 1000:
                continue  # refused beyond 1,000 columns (backends/cpsat.py MAX_N)
            outcome, seconds, inside = measure(verb, n, args.limit)
            over = (inside if inside is not None else seconds) - args.limit
            if verb not in worst or over > worst[verb][0]:
                worst[verb] = (over, n)
            call = "-" if inside is None else f"{inside:.2f}"
            print(
                f"| {verb} | {n:,} | {outcome} | {seconds:.2f} | {call} | {over:+.2f} |",
                flush=True,
            )
    print("\nWorst overshoot per verb (the call's own time for the API, the whole process for")
    print("the CLI, less the limit):\n")
    print("| verb | worst overshoot (s) | at n |")
    print("| --- | ---: | ---: |")
    for verb, (over, n) in worst.items():
        print(f"| {verb} | {over:+.2f} | {n:,} |")


if __name__ == "__main__":
    main()
