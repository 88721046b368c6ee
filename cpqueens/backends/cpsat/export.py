"""A statement in another tool: the CP-SAT model the cpsat engine solves, or a CPMpy model.

``Model.to_cpsat()`` and ``Model.to_cpmpy()`` call these. They lower the
statement the way the engines do (:mod:`cpqueens.lowering`): a statement of
one piece per row and column to its column form and its variables
``q[colour][row]`` (the column of that colour's piece in that row), any
other to its cell form and its 0/1 variables ``x``. Kinds arrive as their
decompositions. Every auxiliary variable (a ``%``, an ``abs``, a table's
entry) is a function of those variables, so the solutions over all
variables are the statement's.
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
from cpqueens.lowering.cells import cell_form
from cpqueens.lowering.columns import column_form
from cpqueens.lowering.kinds import lower
from cpqueens.vocabulary.constraints import AllDifferent, Forbidden, Placed, Where
from cpqueens.vocabulary.problem import Problem
from cpqueens.vocabulary.statement import Statement

#: The column kinds the CPMpy export states natively; every other arrives decomposed.
EXPORTED = (AllDifferent, Forbidden, Placed, Where)


def to_cpsat(statement: Statement) -> tuple[Any, Any]:
    """The OR-Tools ``CpModel`` the cpsat engine solves for ``statement``, and its variables."""
    problem = column_form(statement)
    if problem is not None:
        from cpqueens.backends.cpsat.columns import build

        return build(problem, lexicographic=True)
    from cpqueens.backends.cpsat.cells import build as build_cells

    return build_cells(cell_form(statement))


def to_cpmpy(statement: Statement) -> tuple[Any, Any]:
    """A ``cpmpy.Model`` of ``statement`` and its variables (``q``, or the cells' ``x``)."""
    problem = column_form(statement)
    if problem is None:
        return cells_to_cpmpy(cell_form(statement))
    return columns_to_cpmpy(problem)


def columns_to_cpmpy(model: Problem) -> tuple[Any, Any]:
    """A ``cpmpy.Model`` of a column form and its variables ``q`` (shape colours x n).

    Raises ``NotSupportedError`` for symmetry-breaking constraints (they are
    cpqueens' own, added while counting, never stated by a user).
    """
    import cpmpy as cp

    n, colours = model.n, model.colours
    q = cp.intvar(0, max(n - 1, 0), shape=(colours, n), name="q")
    stated = lower(model.constraints, EXPORTED, n, colours)
    columns, rest = domains(n, colours, stated)  # type: ignore[arg-type]
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
        elif isinstance(constraint, Where):
            constraints.append(_expression(cp, constraint.condition, q, n, constraints))
        else:
            raise unsupported("cpmpy export", constraint)
    return cp.Model(*constraints), q


def cells_to_cpmpy(problem: Any) -> tuple[Any, Any]:
    """A ``cpmpy.Model`` of a cell form and its 0/1 variables ``x`` (armies x rows x cols).

    The rules are the cell form's primitives (:mod:`cpqueens.lowering.primitives`),
    the ones CP-SAT and python-constraint translate, one block each.
    """
    import cpmpy as cp

    from cpqueens.lowering.primitives import primitives

    board = problem.board
    stated = primitives(problem)
    x = cp.boolvar(shape=(stated.armies, board.rows, board.cols), name="x")

    def var(variable: tuple[int, tuple[int, int]]) -> Any:
        army, (r, c) = variable
        return x[army, r, c]

    # Every variable belongs to the model (a statement without constraints has 2^cells solutions).
    constraints: list[Any] = [cp.sum(x) >= 0]
    constraints += [var(v) == value for v, value in stated.fixed]
    constraints += [cp.sum([var(v) for v in group]) <= 1 for group in stated.at_most_one]
    constraints += [cp.sum([var(v) for v in group]) >= 1 for group in stated.at_least_one]
    constraints += [cp.sum([var(v) for v in group]) == k for group, k in stated.exactly]
    if stated.equal is not None:
        white, black = stated.equal
        constraints.append(cp.sum([var(v) for v in white]) == cp.sum([var(v) for v in black]))
    for white, black in stated.apart:  # no line holds pieces of both armies
        constraints.append(~(cp.any([var(v) for v in white]) & cp.any([var(v) for v in black])))
    for condition in stated.conditions:
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
        if isinstance(item, Element):  # the index as its own variable: CPMpy's element wants one
            lo, hi = bounds(item.index, n)
            index = cp.intvar(max(lo, 0), min(hi, len(item.values) - 1))
            constraints.append(index == walk(item.index))
            return cp.cpm_array(list(item.values))[index]
        if isinstance(item, Truth):  # a 0/1 variable equal to the condition
            truth = cp.boolvar()
            constraints.append(truth == _as_bool(cp, walk(item.condition)))
            return truth
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
            args = [_as_bool(cp, walk(arg)) for arg in item.args]
            if item.name == "not":
                return ~args[0]
            return cp.all(args) if item.name == "and" else cp.any(args)
        if isinstance(item, Distinct):  # pairwise: CPMpy's solvers take != of any expressions
            args = [walk(arg) for arg in item.args]
            pairs = [a != b for i, a in enumerate(args) for b in args[i + 1 :]]
            return cp.all([_as_bool(cp, pair) for pair in pairs]) if pairs else cp.BoolVal(True)
        raise TypeError(f"not an expression node: {item!r}")

    return walk(node)


def _as_bool(cp: Any, value: Any) -> Any:
    """A CPMpy Boolean expression: a Python bool becomes ``BoolVal``."""
    return cp.BoolVal(value) if isinstance(value, bool) else value
