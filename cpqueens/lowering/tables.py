"""A condition's value for every column of the rows it reads: truth tables, in numpy.

:func:`table` is how the compiled search turns a condition on two rows into
a pair table (:mod:`cpqueens.backends.bitmask.conditions`) and how a claimed
symmetry of a condition is proved on every assignment
(:mod:`cpqueens.strategies.declared`).
"""

from __future__ import annotations

from typing import Any

from cpqueens.expressions import (
    Comparison,
    Distinct,
    Element,
    Logic,
    Node,
    Operator,
    Truth,
    Var,
    apply_operator,
)


def table(node: Node, n: int, rows: tuple[Any, ...]) -> Any:
    """``node``'s value for every column of each of ``rows``, as a numpy array (n ** len(rows)).

    Axis k is the column of row ``rows[k]`` (a row of colour 0, or a (colour,
    row) pair); ints follow Python's rules (``%`` too).
    """
    import numpy as np

    if isinstance(node, int):
        return np.int64(node)
    if isinstance(node, Var):
        axis = rows.index(node.row if node.row in rows else (node.colour, node.row))
        shape = [1] * len(rows)
        shape[axis] = n
        return np.arange(n, dtype=np.int64).reshape(shape)
    if isinstance(node, Element):
        return np.asarray(node.values, dtype=np.int64)[table(node.index, n, rows)]
    if isinstance(node, Truth):
        return np.asarray(table(node.condition, n, rows), dtype=np.int64)
    if isinstance(node, Operator):
        args = [table(arg, n, rows) for arg in node.args]
        # numpy's int mod has Python's sign rule
        return apply_operator(node.name, args, absolute=np.abs, modulo=np.mod)
    if isinstance(node, Comparison):
        lhs, rhs = table(node.lhs, n, rows), table(node.rhs, n, rows)
        return {
            "==": np.equal,
            "!=": np.not_equal,
            "<": np.less,
            "<=": np.less_equal,
            ">": np.greater,
            ">=": np.greater_equal,
        }[node.name](lhs, rhs)
    if isinstance(node, Logic):
        args = [np.asarray(table(arg, n, rows), dtype=bool) for arg in node.args]
        if node.name == "not":
            return ~args[0]
        result = np.full([n] * len(rows), node.name == "and")
        for arg in args:
            result = (result & arg) if node.name == "and" else (result | arg)
        return result
    if isinstance(node, Distinct):
        result = np.full([n] * len(rows), True)
        values = [table(arg, n, rows) for arg in node.args]
        for i in range(len(values)):
            for j in range(i + 1, len(values)):
                result = result & (values[i] != values[j])
        return result
    raise TypeError(f"not an expression node: {node!r}")
