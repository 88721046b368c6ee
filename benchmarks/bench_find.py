"""Side by side in one run: Model.find against plain CP-SAT finding one solution.

Issue 12's goals for ``find``:

- free board, n = 1,000: at most a tenth of plain CP-SAT's time for n = 200;
- free board, n = 100,000: within a minute;
- random completion instances (``benchmarks/completion.py``: 10-30% of n placed,
  n = 200 to 1,000): each within 30 s, and at n = 200 ten times faster than
  plain CP-SAT with two workers.

Plain CP-SAT is OR-Tools' n-queens sample model (three AllDifferent over
q[r], q[r] + r, q[r] - r; the placed queens fixed), solved for one solution
with two workers and CP-SAT's own search, stopped at a cap and then reported
as "> cap". Every find() answer is checked here too, independently of
cpqueens (and cpqueens checks it before returning it). Both sides run in this
process, interleaved, best of ``--repeats``; numba's kernels are loaded by a
warm-up first, as CP-SAT's library is.

Writes benchmarks/RESULTS-find.md.

    python benchmarks/bench_find.py [--repeats 3] [--cap 120] [--completion-cap 60]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

from ortools.sat.python import cp_model

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from completion import instance  # noqa: E402

import cpqueens  # noqa: E402

SIZES = (200, 500, 1000)
FRACTIONS = (0.1, 0.2, 0.3)
SEEDS = (1, 2, 3)


def valid(n: int, columns: tuple[int, ...], placed: list[tuple[int, int]]) -> bool:
    """Whether ``columns`` places n non-attacking queens keeping ``placed``."""
    return (
        len(columns) == n
        and len(set(columns)) == n
        and len({c + r for r, c in enumerate(columns)}) == n
        and len({c - r for r, c in enumerate(columns)}) == n
        and all(columns[r] == c for r, c in placed)
    )


def plain_cpsat(n: int, placed: list[tuple[int, int]], cap: float) -> tuple[float, str]:
    """OR-Tools' sample model, one solution, two workers: (seconds, 'sat'/'unsat'/'cap')."""
    start = time.perf_counter()
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[r] + r for r in range(n))
    model.add_all_different(q[r] - r for r in range(n))
    for r, c in placed:
        model.add(q[r] == c)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = cap
    status = solver.solve(model)
    seconds = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        columns = tuple(solver.value(v) for v in q)
        assert valid(n, columns, placed), "CP-SAT returned a wrong solution"
        return seconds, "sat"
    if status == cp_model.INFEASIBLE:
        return seconds, "unsat"
    return seconds, "cap"


def timed_find(n: int, placed: list[tuple[int, int]]) -> tuple[float, str]:
    """``cpqueens.model(n, placed=placed).find()``: (seconds, 'sat'/'unsat')."""
    start = time.perf_counter()
    found = cpqueens.model(n, placed=placed).find()
    seconds = time.perf_counter() - start
    if found is None:
        return seconds, "unsat"
    assert valid(n, found.columns, placed), "find() returned a wrong solution"
    return seconds, "sat"


def shown(seconds: float, answer: str, cap: float) -> str:
    """A time for the table: '> cap' when the cap stopped the search."""
    return f"> {cap:g}" if answer == "cap" else f"{seconds:.3f}"


def main() -> None:
    """Run every row, interleaved, and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=120.0, help="plain CP-SAT free n=200 cap")
    parser.add_argument("--completion-cap", type=float, default=60.0)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    timed_find(200, instance(200, 0.2, 0))  # warm-up: the numba kernels load from their cache
    free: dict[str, list[float]] = {"find 1000": [], "find 100000": [], "cpsat 200": []}
    answers: dict[str, str] = {}
    for repeat in range(args.repeats):
        for key, run in (
            ("find 1000", lambda: timed_find(1000, [])),
            ("find 100000", lambda: timed_find(100_000, [])),
            ("cpsat 200", lambda: plain_cpsat(200, [], args.cap)),
        ):
            if key == "cpsat 200" and answers.get(key) == "cap":
                continue  # capped once: another run would only be capped again
            seconds, answers[key] = run()
            free[key].append(seconds)
            print(f"repeat {repeat + 1} {key}: {seconds:.3f} s ({answers[key]})", flush=True)
    rows = []
    for n in SIZES:
        for fraction in FRACTIONS:
            for seed in SEEDS:
                placed = instance(n, fraction, seed)
                finds = [timed_find(n, placed) for _ in range(args.repeats)]
                best = min(seconds for seconds, _ in finds)
                answer = finds[0][1]
                plain = plain_cpsat(n, placed, args.completion_cap) if n == 200 else None
                rows.append((n, fraction, seed, len(placed), best, answer, plain))
                print(f"completion n={n} {fraction} seed {seed}: find {best:.3f} s ({answer})"
                      + (f", plain CP-SAT {plain[0]:.3f} s ({plain[1]})" if plain else ""),
                      flush=True)  # fmt: skip
    write(args, load_before, free, answers, rows)


def write(args, load_before, free, answers, rows) -> None:
    """Write benchmarks/RESULTS-find.md."""
    best = {key: min(times) for key, times in free.items()}
    cpsat = shown(best["cpsat 200"], answers["cpsat 200"], args.cap)
    capped = answers["cpsat 200"] == "cap"
    ratio = best["find 1000"] / best["cpsat 200"]
    ratio_text = f"< {ratio:.2g}" if capped else f"{ratio:.2g}"
    lines = [
        "# Model.find against plain CP-SAT (one solution)",
        "",
        f"- command: `python benchmarks/bench_find.py --repeats {args.repeats} --cap {args.cap:g}"
        f" --completion-cap {args.completion_cap:g}`",
        f"- date: {datetime.datetime.now(datetime.UTC).isoformat(timespec='seconds')}",
        f"- machine: {os.cpu_count()} CPUs, {platform.machine()},"
        f" Python {platform.python_version()}; SHARED with other jobs: load average before"
        f" {load_before:.2f}, after {os.getloadavg()[0]:.2f} (absolute times are noisy; the"
        " ratios are side by side in one run)",
        "- plain CP-SAT: OR-Tools' sample model, one solution, 2 workers, its own search,"
        " stopped at the cap ('> cap'); find(): `cpqueens.model(n, placed=...).find()`,"
        f" best of {args.repeats}, every answer checked independently",
        "",
        "## Free boards",
        "",
        "| row | seconds | goal | met |",
        "| --- | ---: | --- | --- |",
        f"| plain CP-SAT, free n = 200 | {cpsat} | | |",
        f"| find(), free n = 1,000 | {best['find 1000']:.3f} | <= 1/10 of plain CP-SAT n = 200"
        f" (ratio {ratio_text}) | {'yes' if ratio <= 0.1 else '**no**'} |",
        f"| find(), free n = 100,000 | {best['find 100000']:.3f} | <= 60 s |"
        f" {'yes' if best['find 100000'] <= 60 else '**no**'} |",
        "",
        "## Random completion instances (`benchmarks/completion.py`)",
        "",
        "| n | placed fraction | seed | queens placed | find() s | answer | plain CP-SAT s |"
        " CP-SAT / find | within 30 s |",
        "| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |",
    ]
    speedups = []
    for n, fraction, seed, count, seconds, answer, plain in rows:
        if plain is None:
            plain_text = speedup = ""
        else:
            plain_text = shown(plain[0], plain[1], args.completion_cap)
            factor = plain[0] / seconds
            speedups.append((factor, plain[1] == "cap"))
            speedup = f"{'> ' if plain[1] == 'cap' else ''}{factor:,.0f}x"
        lines.append(
            f"| {n} | {fraction:g} | {seed} | {count} | {seconds:.3f} | {answer} | {plain_text} |"
            f" {speedup} | {'yes' if seconds <= 30 else '**no**'} |"
        )
    within = sum(seconds <= 30 for *_, seconds, _, _ in rows)
    low = min(factor for factor, _ in speedups)
    high = max(factor for factor, _ in speedups)
    lines += [
        "",
        f"- within 30 s: {within} of {len(rows)} instances;"
        f" slowest find(): {max(row[4] for row in rows):.3f} s",
        f"- n = 200, plain CP-SAT / find(): {low:,.0f}x to {high:,.0f}x"
        f" (goal >= 10x: {'met' if low >= 10 else '**not met**'})",
        "",
        f"All free-board runs (s): { {k: [round(t, 4) for t in v] for k, v in free.items()} }",
        "",
    ]
    out = HERE / "RESULTS-find.md"
    out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
