"""CP-SAT deciding a blocked n-Queens board, as a user would write it from OR-Tools' nqueens sample.

One variable per row (its domain: the row's free columns), three add_all_different
constraints, default solver parameters (every core), stop at the first solution.
Usage: python cpsat_decide.py < board  (n, then n rows of 1 = free, 0 = blocked)
Prints "sat" or "unsat" (or the solver's status) and the seconds solve() took.
"""

import sys
import time

from ortools.sat.python import cp_model


def main() -> None:
    lines = sys.stdin.read().split()
    n, rows = int(lines[0]), lines[1:]
    model = cp_model.CpModel()
    # One queen per row: q[r] is its column, among the row's free cells.
    q = []
    for r in range(n):
        free = [c for c in range(n) if rows[r][c] == "1"]
        if not free:
            print("unsat 0.0")
            return
        q.append(model.new_int_var_from_domain(cp_model.Domain.from_values(free), f"q{r}"))
    # No two queens share a column or a diagonal.
    model.add_all_different(q)
    model.add_all_different(q[r] + r for r in range(n))
    model.add_all_different(q[r] - r for r in range(n))
    solver = cp_model.CpSolver()
    start = time.perf_counter()
    status = solver.solve(model)
    seconds = time.perf_counter() - start
    names = {cp_model.OPTIMAL: "sat", cp_model.FEASIBLE: "sat", cp_model.INFEASIBLE: "unsat"}
    print(names.get(status, solver.status_name(status).lower()), f"{seconds:.3f}")


if __name__ == "__main__":
    main()
