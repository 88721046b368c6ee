"""A model in another tool: the CP-SAT model the cpsat backend solves, or a CPMpy model.

``Model.to_cpsat()`` and ``Model.to_cpmpy()`` call these. Each returns the
tool's model with the queens' variables ``q[colour][row]`` (the column of that
colour's queen in that row), so a modeller can add constraints of the rest of
the pipeline and solve it there. Auxiliary variables (a ``%``, an ``abs``)
are functions of q, so the solutions over all variables are the model's.
"""

from __future__ import annotations

from typing import Any

from cpqueens.backends.translate import domains, unsupported
from cpqueens.expressions import (
    CellVar,
    Comparison,
    Distinct,
    Element,
    Logic,
    Node,
    Operator,
    Truth,
    Var,
    apply_operator,
    bounds,
)
from cpqueens.vocabulary.constraints import (
    AllDifferent,
    Disjoint,
    KnightMoves,
    NoTouch,
    Regions,
    Toroidal,
    Where,
)


def to_cpsat(model: Any) -> tuple[Any, list[list[Any]]]:
    """The OR-Tools ``CpModel`` the cpsat backend solves for ``model``, and its q variables."""
    from cpqueens.backends import cpsat

    return cpsat.build(model, lexicographic=True)


def to_cpmpy(model: Any) -> tuple[Any, Any]:
    """A ``cpmpy.Model`` of ``model`` and its variables ``q`` (shape colours x n).

    Raises ``NotSupportedError`` for symmetry-breaking constraints (they are
    cpqueens' own, added while counting, never stated by a user).
    """
    import cpmpy as cp

    n, colours = model.n, model.colours
    q = cp.intvar(0, max(n - 1, 0), shape=(colours, n), name="q")
    columns, rest = domains(n, colours, model.constraints)
    constraints: list[Any] = []
    for colour in range(colours):
        for row in range(n):
            constraints += [
                q[colour, row] != col for col in range(n) if col not in columns[colour][row]
            ]
    for constraint in rest:
        if isinstance(constraint, AllDifferent):
            k, c = constraint.offset, constraint.colour
            constraints.append(cp.AllDifferent([q[c, r] + k * r for r in range(n)]))
        elif isinstance(constraint, Disjoint):
            group = sorted(constraint.colours)
            for i, a in enumerate(group):
                for b in group[i + 1 :]:
                    constraints += [q[a, r] != q[b, r] for r in range(n)]
        elif isinstance(constraint, Toroidal):
            c = constraint.colour
            for sign in (1, -1):
                constraints.append(
                    cp.AllDifferent(
                        [
                            _mod(
                                cp, q[c, r] + sign * r, (sign * r, n - 1 + sign * r), n, constraints
                            )
                            for r in range(n)
                        ]
                    )
                )
        elif isinstance(constraint, KnightMoves):
            c = constraint.colour
            constraints += [cp.abs(q[c, r] - q[c, r + 1]) != 2 for r in range(n - 1)]
            constraints += [cp.abs(q[c, r] - q[c, r + 2]) != 1 for r in range(n - 2)]
        elif isinstance(constraint, Regions):  # the rows' regions differ
            c, grid = constraint.colour, constraint.grid
            regions = Distinct(tuple(Element(grid[r], Var(c, r)) for r in range(n)))
            constraints.append(_expression(cp, regions, q, n, constraints))
        elif isinstance(constraint, NoTouch):
            c = constraint.colour
            constraints += [cp.abs(q[c, r] - q[c, r + 1]) != 1 for r in range(n - 1)]
        elif isinstance(constraint, Where):
            constraints.append(_expression(cp, constraint.condition, q, n, constraints))
        else:
            raise unsupported("cpmpy export", constraint)
    return cp.Model(*constraints), q


def cells_to_cpmpy(problem: Any) -> tuple[Any, Any]:
    """A ``cpmpy.Model`` of a cell statement and its 0/1 variables ``x`` (armies x rows x cols).

    The same statement as CP-SAT's cell model (``backends/cpsat/cells.py``):
    at most one piece per attack line (independent), a cell for one piece,
    armies of equal size whose pieces do not attack each other, every free
    cell covered (dominating), the quotas' sums and the conditions over
    ``x[r, c]`` (army 0's pieces).
    """
    import cpmpy as cp

    board, armies = problem.board, range(problem.armies)
    x = cp.boolvar(shape=(problem.armies, board.rows, board.cols), name="x")
    blocked = set(board.blocked)
    free = [cell for cell in board.cells if cell not in blocked]
    constraints: list[Any] = [x[army, r, c] == 0 for army in armies for r, c in sorted(blocked)]
    constraints += [x[army, r, c] == 1 for r, c, army in problem.placed]
    lines = [[cell for cell in line if cell not in blocked] for line in board.lines]
    lines = [line for line in lines if len(line) >= 2]
    if problem.armies == 1:
        if problem.independent:
            constraints += [cp.sum([x[0, r, c] for r, c in line]) <= 1 for line in lines]
    else:
        constraints += [x[0, r, c] + x[1, r, c] <= 1 for r, c in free]
        constraints.append(cp.sum(x[0]) == cp.sum(x[1]))
        if problem.independent:
            constraints += [
                x[0, a[0], a[1]] + x[1, b[0], b[1]] <= 1
                for a in free
                for b in sorted(board.neighbours[a] - blocked)
            ]
    if problem.dominating:
        for cell in free:
            cover = [cell, *sorted(board.neighbours[cell] - blocked)]
            constraints.append(cp.sum([x[army, r, c] for army in armies for r, c in cover]) >= 1)
    for quota in problem.quotas:
        constraints.append(cp.sum([x[0, r, c] for r, c in quota.cells]) == quota.k)
    for condition in problem.conditions:
        constraints.append(_expression(cp, condition, x[0], 2, constraints))
    return cp.Model(*constraints), x


def _mod(cp: Any, value: Any, span: tuple[int, int], modulus: int, constraints: list[Any]) -> Any:
    """``value % modulus`` with Python's sign rule: a remainder in 0..modulus-1 and a quotient."""
    lo, hi = span
    remainder = cp.intvar(0, modulus - 1)
    quotient = cp.intvar(lo // modulus, hi // modulus)
    constraints.append(value == modulus * quotient + remainder)
    return remainder


def _expression(cp: Any, node: Node, q: Any, n: int, constraints: list[Any]) -> Any:
    """The CPMpy expression of a node (auxiliary constraints appended to ``constraints``)."""

    def walk(item: Node) -> Any:
        if isinstance(item, int):
            return item
        if isinstance(item, Var):
            return q[item.colour, item.row]
        if isinstance(item, CellVar):  # the cell level: q is army 0's grid of 0/1 variables
            return q[item.row, item.col]
        if isinstance(item, Element):
            return cp.cpm_array(list(item.values))[walk(item.index)]
        if isinstance(item, Truth):
            return walk(item.condition)
        if isinstance(item, Operator):
            args = [walk(arg) for arg in item.args]
            span = bounds(item.args[0], n) if item.name == "%" else (0, 0)
            return apply_operator(
                item.name,
                args,
                absolute=lambda v: abs(v) if isinstance(v, int) else cp.abs(v),
                modulo=lambda v, m: (
                    v % m if isinstance(v, int) else _mod(cp, v, span, m, constraints)
                ),
            )
        if isinstance(item, Comparison):
            lhs, rhs = walk(item.lhs), walk(item.rhs)
            result = {
                "==": lambda: lhs == rhs,
                "!=": lambda: lhs != rhs,
                "<": lambda: lhs < rhs,
                "<=": lambda: lhs <= rhs,
                ">": lambda: lhs > rhs,
                ">=": lambda: lhs >= rhs,
            }[item.name]()
            return cp.BoolVal(result) if isinstance(result, bool) else result
        if isinstance(item, Logic):
            args = [walk(arg) for arg in item.args]
            if item.name == "not":
                return ~args[0]
            return cp.all(args) if item.name == "and" else cp.any(args)
        if isinstance(item, Distinct):
            return cp.AllDifferent([walk(arg) for arg in item.args])
        raise TypeError(f"not an expression node: {item!r}")

    return walk(node)
