"""Peaceable queens as a CP-SAT model over line labels: the idea the compiled search replaced.

One Boolean ``u[L]`` per line ("white may use L"); ``w[c] <-> AND(u[L])`` and
``b[c] <-> AND(not u[L])`` over the lines through c (mutually maximal armies,
so the ~6n labels decide everything); lex-leader constraints ``u >=lex g(u)``
for the 8 board symmetries times the colour swap. Three ways to ask CP-SAT:

- ``opt``: maximise ``min(sum w, sum b)``;
- ``decide``: prove ``sum w >= m+1, sum b >= m+1`` infeasible (m = A250000);
- ``decide --rows``: the same with ``sum w <= |white rows| * |white columns|``
  (and black likewise) as redundant constraints.

Prints one line per run; the figures are recorded in RESULTS-optimise.md.

    python benchmarks/bench_peaceable_cpsat_lines.py N MODE [--no-symmetry] [--rows]
        [--workers 2] [--limit 200]
"""

from __future__ import annotations

import argparse
import time

from ortools.sat.python import cp_model

from cpqueens.vocabulary.cells import CellBoard, CellProblem

A250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21]


def lex_ge(cp: cp_model.CpModel, pairs: list, tag: str) -> None:
    """``a >=lex b`` over the literal pairs, with "equal so far" literals."""
    equal = None
    for i, (a, b) in enumerate(pairs):
        ge = cp.add_bool_or([a, ~b])
        if equal is not None:
            ge.only_enforce_if(equal)
        if i == len(pairs) - 1:
            break
        nxt = cp.new_bool_var(f"lex_{tag}_{i}")
        before = [] if equal is None else [~equal]
        cp.add_bool_or([~nxt, ~a, b])
        cp.add_bool_or([*before, a, nxt])
        cp.add_bool_or([*before, ~b, nxt])
        if equal is not None:
            cp.add_implication(nxt, equal)
        equal = nxt


def model(n: int, symmetry: bool, target: int | None, rows: bool) -> cp_model.CpModel:
    """The line-label model of n x n peaceable queens (see the module)."""
    board = CellBoard(n, n)
    problem = CellProblem(board, armies=2)

    def kind(line: tuple) -> int:
        (r0, c0), (r1, c1) = line[0], line[1]
        return 0 if r0 == r1 else 1 if c0 == c1 else 2

    lines = sorted(board.lines, key=lambda line: (kind(line), line))
    index = {line: i for i, line in enumerate(lines)}
    cp = cp_model.CpModel()
    u = [cp.new_bool_var(f"u{i}") for i in range(len(lines))]
    through: dict = {c: [] for c in board.cells}
    for i, line in enumerate(lines):
        for c in line:
            through[c].append(u[i])
    w, b = {}, {}
    for c in board.cells:
        w[c], b[c] = cp.new_bool_var(f"w{c}"), cp.new_bool_var(f"b{c}")
        cp.add_bool_and(through[c]).only_enforce_if(w[c])
        cp.add_bool_or([w[c], *[~x for x in through[c]]])
        cp.add_bool_and([~x for x in through[c]]).only_enforce_if(b[c])
        cp.add_bool_or([b[c], *through[c]])
    if symmetry:
        for name, swap in problem.symmetries[1:]:
            pairs = []
            for i, line in enumerate(lines):
                j = index[tuple(sorted(board.transform(name, c) for c in line))]
                if i != j or swap:
                    pairs.append((u[i], ~u[j] if swap else u[j]))
            lex_ge(cp, pairs, f"{name}{swap}")
    white, black = sum(w.values()), sum(b.values())
    if rows:
        rw, cw = cp.new_int_var(0, n, "rw"), cp.new_int_var(0, n, "cw")
        cp.add(rw == sum(u[index[line]] for line in lines if kind(line) == 0))
        cp.add(cw == sum(u[index[line]] for line in lines if kind(line) == 1))
        rb, cb = cp.new_int_var(0, n, "rb"), cp.new_int_var(0, n, "cb")
        cp.add(rb == n - rw)
        cp.add(cb == n - cw)
        pw, pb = cp.new_int_var(0, n * n, "pw"), cp.new_int_var(0, n * n, "pb")
        cp.add_multiplication_equality(pw, [rw, cw])
        cp.add_multiplication_equality(pb, [rb, cb])
        cp.add(white <= pw)
        cp.add(black <= pb)
    if target is None:
        smaller = cp.new_int_var(0, n * n, "smaller")
        cp.add(smaller <= white)
        cp.add(smaller <= black)
        cp.maximize(smaller)
    else:
        cp.add(white >= target)
        cp.add(black >= target)
    return cp


def main() -> None:
    """Solve one instance and print its line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("mode", choices=["opt", "decide"])
    parser.add_argument("--no-symmetry", action="store_true")
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=float, default=200.0)
    args = parser.parse_args()
    target = A250000[args.n - 1] + 1 if args.mode == "decide" else None
    cp = model(args.n, not args.no_symmetry, target, args.rows)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = args.workers
    solver.parameters.max_time_in_seconds = args.limit
    start = time.perf_counter()
    status = solver.status_name(solver.solve(cp))
    seconds = time.perf_counter() - start
    extra = "" if target is not None else f" value {solver.objective_value:g}"
    extra += "" if target is not None else f" bound {solver.best_objective_bound:g}"
    print(
        f"n={args.n} {args.mode} symmetry={not args.no_symmetry} rows={args.rows}: "
        f"{status}{extra} in {seconds:.2f} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
