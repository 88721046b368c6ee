"""Side by side, one process: cpqueens' optimisation against a plain CP-SAT model of each problem.

The plain models are written as the OR-Tools documentation writes a model:
one Boolean per cell (per army), one constraint per condition, no symmetry
breaking:

- domination: for each cell, the sum over it and the cells attacking it >= 1;
  independent domination adds ``sum <= 1`` over each row, column and diagonal;
- peaceable: ``w + b <= 1`` on each cell, ``w[c] + b[d] <= 1`` for each pair of
  cells attacking each other, ``sum w == sum b``, maximise ``sum w``.

cpqueens states the same problems (``cpqueens.domination``,
``cpqueens.peaceable``) with lex-leader constraints over the board's
symmetries (and the colour swap), and peaceable armies as mutually maximal
pairs. Both get the same CP-SAT workers and time limit; every optimum is
checked against OEIS. A plain run stopped by the limit is reported as such.
Then the larger sizes cpqueens alone proves (``--large``), and the k-queens
counts on 8 x 8 by the compiled counter.

Writes benchmarks/RESULTS-optimise.md (rows appear as they finish).

    python benchmarks/bench_optimise.py [--workers 2] [--limit 300] [--large]

``--peaceable`` runs only the peaceable table (n = 6..11: the line search,
the same search without its symmetry breaking, cpqueens' earlier CP-SAT model
of mutually maximal armies, and the plain model up to ``--plain-max``) and
rewrites only its section of the results file. ``--ablation`` runs the line
search without its symmetry breaking and/or its knapsack bound (n = 6..10),
into a section of its own.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import ortools
from ortools.sat.python import cp_model

import cpqueens
from cpqueens.backends.bitmask import lines as cells_lines
from cpqueens.backends.cpsat import cells as cells_cpsat
from cpqueens.vocabulary.cells import CellBoard, CellProblem

HERE = Path(__file__).resolve().parent
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5]
A075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5]
A250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21]
EIGHT_BY_EIGHT = [64, 1288, 10320, 34568, 46736, 22708, 3192, 92]


def attacks(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Queens on a and b attack each other (written out, as a plain model would)."""
    return a != b and (a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))


def plain_domination(n: int, independent: bool) -> cp_model.CpModel:
    """Queen domination as the OR-Tools documentation would write it."""
    model = cp_model.CpModel()
    cells = [(r, c) for r in range(n) for c in range(n)]
    x = {cell: model.new_bool_var(f"x{cell}") for cell in cells}
    for cell in cells:
        model.add(sum(x[d] for d in cells if d == cell or attacks(cell, d)) >= 1)
    if independent:
        for line in CellBoard(n, n).lines:  # rows, columns, diagonals
            model.add(sum(x[cell] for cell in line) <= 1)
    model.minimize(sum(x.values()))
    return model


def plain_peaceable(n: int) -> cp_model.CpModel:
    """Peaceable queens as the OR-Tools documentation would write it."""
    model = cp_model.CpModel()
    cells = [(r, c) for r in range(n) for c in range(n)]
    w = {cell: model.new_bool_var(f"w{cell}") for cell in cells}
    b = {cell: model.new_bool_var(f"b{cell}") for cell in cells}
    for cell in cells:
        model.add(w[cell] + b[cell] <= 1)
        for other in cells:
            if attacks(cell, other):
                model.add(w[cell] + b[other] <= 1)
    model.add(sum(w.values()) == sum(b.values()))
    model.maximize(sum(w.values()))
    return model


def solve_plain(model: cp_model.CpModel, workers: int, limit: float) -> tuple[str, int, float]:
    """(status, value, seconds) of the plain model."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = limit
    start = time.perf_counter()
    status = solver.solve(model)
    seconds = time.perf_counter() - start
    return solver.status_name(status).lower(), round(solver.objective_value), seconds


BEGIN, END = "<!-- peaceable: begin -->", "<!-- peaceable: end -->"


def peaceable_table(args: argparse.Namespace) -> None:
    """Peaceable queens side by side; rewrites the section between BEGIN and END."""
    out = HERE / "RESULTS-optimise.md"
    text = out.read_text() if out.exists() else ""
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    load = os.getloadavg()
    lines = [
        BEGIN,
        "## Peaceable queens: the line search",
        "",
        "Command: `"
        + " ".join(["python", f"benchmarks/{Path(__file__).name}", *sys.argv[1:]])
        + "`",
        "",
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
        f"Python {platform.python_version()}, OR-Tools {ortools.__version__}, "
        f"{os.cpu_count()} cores shared with other engineers' jobs "
        f"(load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}), "
        f"CP-SAT workers {args.workers}, limit {args.limit:g} s per solve, one process. "
        "`cpqueens.peaceable(n)` is the compiled line search (one core); "
        "'no symmetry' is the same search without its lex-leader constraints; "
        "'CP-SAT maximal' is cpqueens' earlier model (mutually maximal armies, "
        "lex-leader on cells); 'plain' is the model of bench_optimise.py's docstring.",
        "",
        "| n | A250000 | cpqueens.peaceable | no symmetry | CP-SAT maximal | plain CP-SAT "
        "| plain / cpqueens |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]

    def write() -> None:
        out.write_text(head + "\n".join([*lines, END]) + tail)

    def timed(solve, *args, **options):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        result = solve(*args, **options)
        return result, time.perf_counter() - start

    def cell(status: str, value: int, bound: int | None, seconds: float, n: int) -> str:
        if status == "optimal":
            assert value == A250000[n - 1], (n, value)
            return f"{seconds:.2f} s"
        return f"{seconds:.0f} s {status} ({value}, bound {bound})"

    cpqueens.peaceable(4)  # compile (or load) the kernel first
    for n in range(6, 12):
        problem = CellProblem(CellBoard(n, n), armies=2)
        ours, mine = timed(cpqueens.peaceable, n, time_limit=args.limit)
        row = [str(n), str(A250000[n - 1]), cell(ours.status, ours.value, ours.bound, mine, n)]
        bare, seconds = timed(cells_lines.optimise, problem, time_limit=args.limit, symmetry=False)
        row.append(cell(bare.status, bare.value, bare.bound, seconds, n))
        if n <= args.cpsat_max:
            old, seconds = timed(
                cells_cpsat.optimise,
                problem,
                "maximize",
                time_limit=args.limit,
                workers=args.workers,
            )
            row.append(cell(old.status, old.value, old.bound, seconds, n))
        else:
            row.append("not run")
        ratio = "-"
        if n <= args.plain_max:
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = args.workers
            solver.parameters.max_time_in_seconds = args.limit
            model = plain_peaceable(n)
            start = time.perf_counter()
            status = solver.status_name(solver.solve(model)).lower()
            theirs = time.perf_counter() - start
            bound = int(solver.best_objective_bound + 1e-6)
            row.append(cell(status, round(solver.objective_value), bound, theirs, n))
            if ours.status == "optimal":
                ratio = (
                    f"{theirs / mine:.0f}x" if status == "optimal" else f">= {theirs / mine:.0f}x"
                )
        else:
            row.append("not run")
        row.append(ratio)
        lines.append("| " + " | ".join(row) + " |")
        print(lines[-1], flush=True)
        write()
    load = os.getloadavg()
    lines += ["", f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}."]
    write()


def ablation_table(args: argparse.Namespace) -> None:
    """The line search without its parts, n = 6..10; rewrites its own section."""
    begin, end = "<!-- peaceable-ablation: begin -->", "<!-- peaceable-ablation: end -->"
    out = HERE / "RESULTS-optimise.md"
    text = out.read_text()
    if begin not in text:
        text = text.replace(END, END + "\n\n" + begin + "\n" + end)
    head, _, rest = text.partition(begin)
    _, _, tail = rest.partition(end)
    load = os.getloadavg()
    lines = [
        begin,
        "### The line search without its parts (losers)",
        "",
        "Command: `"
        + " ".join(["python", f"benchmarks/{Path(__file__).name}", *sys.argv[1:]])
        + "`",
        "",
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, one core each, "
        f"load average at the start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (shared "
        f"machine), limit {args.limit:g} s. Nodes in thousands.",
        "",
        "| n | full | no symmetry | no knapsack (counts only) | neither |",
        "| --- | --- | --- | --- | --- |",
    ]

    def write() -> None:
        out.write_text(head + "\n".join([*lines, end]) + tail)

    cpqueens.peaceable(4)  # compile (or load) the kernel first
    for n in range(6, 11):
        problem = CellProblem(CellBoard(n, n), armies=2)
        row = [str(n)]
        for symmetry, knapsack in ((True, True), (False, True), (True, False), (False, False)):
            start = time.perf_counter()
            result = cells_lines.optimise(
                problem, time_limit=args.limit, symmetry=symmetry, knapsack=knapsack
            )
            seconds = time.perf_counter() - start
            if result.status == "optimal":
                assert result.value == A250000[n - 1], (n, result)
                row.append(f"{seconds:.2f} s, {result.nodes / 1000:.0f}k")
            else:
                row.append(f"> {seconds:.0f} s (bound {result.bound})")
        lines.append("| " + " | ".join(row) + " |")
        print(lines[-1], flush=True)
        write()


def main() -> None:
    """Run the side-by-side table and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=float, default=300.0, help="seconds per solve")
    parser.add_argument("--large", action="store_true", help="also cpqueens alone on larger n")
    parser.add_argument("--peaceable", action="store_true", help="only the peaceable table")
    parser.add_argument("--ablation", action="store_true", help="only the line search's ablation")
    parser.add_argument("--plain-max", type=int, default=8, help="largest n for the plain model")
    parser.add_argument("--cpsat-max", type=int, default=8, help="largest n for CP-SAT maximal")
    args = parser.parse_args()
    if args.peaceable:
        peaceable_table(args)
        return
    if args.ablation:
        ablation_table(args)
        return
    out = HERE / "RESULTS-optimise.md"
    lines = [
        "# Optimisation: cpqueens against a plain CP-SAT model, side by side",
        "",
        "Command: `"
        + " ".join(["python", f"benchmarks/{Path(__file__).name}", *sys.argv[1:]])
        + "`",
        "",
        f"{datetime.date.today()}, Python {platform.python_version()}, "
        f"OR-Tools {ortools.__version__}, "
        f"{os.cpu_count()} cores (shared), CP-SAT workers {args.workers}, "
        f"limit {args.limit:g} s per solve, one process.",
        "",
        "| problem | n | optimum (OEIS) | cpqueens | status | plain CP-SAT | status | ratio |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]

    def write() -> None:
        out.write_text("\n".join(lines) + "\n")

    write()
    cases = [
        ("domination", n, A075458, lambda n: plain_domination(n, False)) for n in (7, 8, 9, 10)
    ]
    cases += [
        ("independent domination", n, A075324, lambda n: plain_domination(n, True))
        for n in (7, 8, 9, 10)
    ]
    cases += [("peaceable", n, A250000, plain_peaceable) for n in (6, 7, 8)]
    for name, n, oeis, plain in cases:
        start = time.perf_counter()
        if name == "peaceable":
            ours = cpqueens.peaceable(n, time_limit=args.limit, workers=args.workers)
        else:
            ours = cpqueens.domination(
                n,
                independent=name.startswith("independent"),
                time_limit=args.limit,
                workers=args.workers,
            )
        mine = time.perf_counter() - start
        if ours.status == "optimal":
            assert ours.value == oeis[n - 1], (name, n, ours)
        status, value, theirs = solve_plain(plain(n), args.workers, args.limit)
        if status == "optimal":
            assert value == oeis[n - 1], (name, n, value)
        both = ours.status == "optimal" and status == "optimal"
        if both:
            ratio = f"{theirs / mine:.1f}x"
        else:  # the plain model stopped at the limit: its time is a lower bound
            ratio = f">= {theirs / mine:.1f}x" if ours.status == "optimal" else "-"
        lines.append(
            f"| {name} | {n} | {oeis[n - 1]} | {mine:.2f} s | {ours.status} | "
            f"{theirs:.2f} s | {status} | {ratio} |"
        )
        print(lines[-1], flush=True)
        write()
    lines += [
        "",
        "## k queens on 8 x 8 (compiled counter against CP-SAT enumeration, 1 worker)",
        "",
    ]
    lines += ["| k | placements | compiled | CP-SAT | ratio |", "| --- | --- | --- | --- | --- |"]
    model = cpqueens.cells(8)
    model.count(queens=1, backend="bitmask")  # compile (or load) the kernel first
    for k in (2, 4, 8):
        start = time.perf_counter()
        fast = model.count(queens=k, backend="bitmask")
        mine = time.perf_counter() - start
        start = time.perf_counter()
        slow = model.count(queens=k, backend="cpsat")
        theirs = time.perf_counter() - start
        assert fast == slow == EIGHT_BY_EIGHT[k - 1], (k, fast, slow)
        lines.append(f"| {k} | {fast} | {mine:.3f} s | {theirs:.2f} s | {theirs / mine:.0f}x |")
        print(lines[-1], flush=True)
        write()
    if args.large:
        lines += ["", "## Larger sizes, cpqueens alone", ""]
        lines += [
            "| problem | n | optimum (OEIS) | cpqueens | status |",
            "| --- | --- | --- | --- | --- |",
        ]
        for name, n, oeis in (
            ("domination", 11, A075458),
            ("independent domination", 11, A075324),
            ("peaceable", 9, A250000),
            ("peaceable", 10, A250000),
        ):
            start = time.perf_counter()
            if name == "peaceable":
                ours = cpqueens.peaceable(n, time_limit=args.limit, workers=args.workers)
            else:
                ours = cpqueens.domination(
                    n,
                    independent=name.startswith("independent"),
                    time_limit=args.limit,
                    workers=args.workers,
                )
            mine = time.perf_counter() - start
            if ours.status == "optimal":
                assert ours.value == oeis[n - 1], (name, n, ours)
            bound = "" if ours.status == "optimal" else f" (best {ours.value}, bound {ours.bound})"
            lines.append(f"| {name} | {n} | {oeis[n - 1]} | {mine:.2f} s | {ours.status}{bound} |")
            print(lines[-1], flush=True)
            write()


if __name__ == "__main__":
    main()
