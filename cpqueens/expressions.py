"""The documented import path of the expression language's nodes (``cpqueens.expressions``).

The language lives in :mod:`cpqueens.vocabulary.expressions`.
"""

from cpqueens.vocabulary.expressions import (
    Comparison,
    Condition,
    CondNode,
    Distinct,
    Expression,
    IntNode,
    Logic,
    Operator,
    Var,
    Variables,
    all_different,
    evaluate,
    reads,
)

__all__ = [
    "Comparison",
    "CondNode",
    "Condition",
    "Distinct",
    "Expression",
    "IntNode",
    "Logic",
    "Operator",
    "Var",
    "Variables",
    "all_different",
    "evaluate",
    "reads",
]
