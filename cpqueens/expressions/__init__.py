"""User-stated conditions: an exact expression language over a model's variables.

``model.q[r]`` is colour 0's column in row r (``q[colour, r]`` another
colour's), ``model.x[r, c]`` is 1 where a piece stands. Operators build a tree
of plain frozen nodes (:mod:`cpqueens.expressions.nodes`); the user-facing
:class:`Expression` and :class:`Condition` (:mod:`cpqueens.expressions.language`)
wrap a node with the board it belongs to.

>>> from cpqueens import model
>>> m = model(8)
>>> print(m.q[0] < m.q[7])
q0[0] < q0[7]
>>> print((abs(m.q[0] - m.q[1]) % 3 != 1) & ~(m.q[2] == 4))
(abs(q0[0] - q0[1]) % 3 != 1) & ~(q0[2] == 4)
"""

from cpqueens.expressions.language import (
    CellVariables,
    Condition,
    Expression,
    Table,
    Variables,
    all_different,
    count_true,
    table,
)
from cpqueens.expressions.nodes import (
    COMPARISONS,
    INT_OPERATORS,
    LOGIC,
    NEGATED,
    CellVar,
    Comparison,
    CondNode,
    Distinct,
    Element,
    IntNode,
    Logic,
    Node,
    Operator,
    Truth,
    Var,
    Variable,
    apply_operator,
    at_cell_level,
    bounds,
    column_reads,
    evaluate,
    reads,
)

__all__ = [
    "COMPARISONS",
    "INT_OPERATORS",
    "LOGIC",
    "NEGATED",
    "CellVar",
    "CellVariables",
    "Comparison",
    "CondNode",
    "Condition",
    "Distinct",
    "Element",
    "Expression",
    "IntNode",
    "Logic",
    "Node",
    "Operator",
    "Table",
    "Truth",
    "Var",
    "Variable",
    "Variables",
    "all_different",
    "apply_operator",
    "at_cell_level",
    "bounds",
    "column_reads",
    "count_true",
    "evaluate",
    "reads",
    "table",
]
