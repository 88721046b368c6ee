"""Enumerating a model's exports with their own tools: a test helper shared by the suites."""

from __future__ import annotations

from typing import Any

import cpqueens


def check_exports(m: cpqueens.Model, expected: int) -> None:
    """``to_cpsat()`` and ``to_cpmpy()``, enumerated over their variables, give ``expected``."""
    from ortools.sat.python import cp_model

    cp, variables = m.to_cpsat()
    flat = _flatten(variables)
    seen: set[tuple[int, ...]] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            seen.add(tuple(self.value(v) for v in flat))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.solve(cp, Collect())
    assert len(seen) == expected, f"to_cpsat() enumerates {len(seen)}, expected {expected}"
    model, x = m.to_cpmpy()
    found: set[tuple[int, ...]] = set()
    total = model.solveAll(
        solver="ortools", display=lambda: found.add(tuple(int(v.value()) for v in x.flat))
    )
    assert len(found) == expected, f"to_cpmpy() enumerates {len(found)}, expected {expected}"
    assert total == expected, f"to_cpmpy() has {total} solutions over all its variables"


def _flatten(variables: Any) -> list[Any]:
    if isinstance(variables, dict):
        return [variables[key] for key in sorted(variables)]
    if isinstance(variables, (list, tuple)):
        return [v for item in variables for v in _flatten(item)]
    return [variables]
