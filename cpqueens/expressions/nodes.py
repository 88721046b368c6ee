"""The expression language's nodes: plain frozen data, their text, what they read, their value.

Integer nodes (:class:`Var` ``q[colour][row]``, :class:`CellVar` ``x[row, col]``,
ints, :class:`Operator`, :class:`Element`, :class:`Truth`) and condition nodes
(:class:`Comparison`, :class:`Logic`, :class:`Distinct`): hashable,
printable, picklable. Every node knows the variables it reads (:func:`reads`);
:func:`evaluate` gives its value as Python computes it, :func:`bounds` its
range; :func:`at_cell_level` states a condition over ``q`` with cell variables.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Union

#: (colour, row): one variable of a model, the column of that colour's queen in that row.
Variable = tuple[int, int]
#: Where a model's variables live: (board size, colours).
Shape = tuple[int, int]

INT_OPERATORS = ("+", "-", "neg", "*", "abs", "%")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
LOGIC = ("and", "or", "not")

#: The comparison that holds exactly when ``name`` does not.
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


@dataclass(frozen=True)
class Var:
    """The column of ``colour``'s queen in ``row``.

    >>> str(Var(1, 3))
    'q1[3]'
    """

    colour: int
    row: int

    def __str__(self) -> str:
        return f"q{self.colour}[{self.row}]"


@dataclass(frozen=True)
class CellVar:
    """1 if a piece (of army 0) stands on cell (``row``, ``col``), else 0: the cell level.

    >>> str(CellVar(1, 3))
    'x[1,3]'
    """

    row: int
    col: int

    def __str__(self) -> str:
        return f"x[{self.row},{self.col}]"


@dataclass(frozen=True)
class Operator:
    """An integer operation: ``name`` is one of ``+ - neg * abs %`` over ``args``.

    ``+`` and ``-`` take two arguments, ``neg`` and ``abs`` one; ``*`` takes an
    expression and an int (either order); ``%`` an expression and a positive int.
    """

    name: str
    args: tuple[IntNode, ...]

    def __post_init__(self) -> None:
        if self.name not in INT_OPERATORS:
            raise ValueError(f"unknown operator {self.name!r}: expected one of {INT_OPERATORS}")

    def __str__(self) -> str:
        return node_text(self)


@dataclass(frozen=True)
class Comparison:
    """``lhs name rhs`` for ``name`` one of ``== != < <= > >=``."""

    name: str
    lhs: IntNode
    rhs: IntNode

    def __post_init__(self) -> None:
        if self.name not in COMPARISONS:
            raise ValueError(f"unknown comparison {self.name!r}: expected one of {COMPARISONS}")

    def __str__(self) -> str:
        return f"{node_text(self.lhs)} {self.name} {node_text(self.rhs)}"


@dataclass(frozen=True)
class Logic:
    """``and`` / ``or`` of its conditions, or ``not`` of its one condition."""

    name: str
    args: tuple[CondNode, ...]

    def __post_init__(self) -> None:
        if self.name not in LOGIC:
            raise ValueError(f"unknown logic operator {self.name!r}: expected one of {LOGIC}")

    def __str__(self) -> str:
        if self.name == "not":
            return f"~{_wrap(self.args[0])}"
        joiner = " & " if self.name == "and" else " | "
        return joiner.join(_wrap(arg) for arg in self.args) or str(self.name == "and")


@dataclass(frozen=True)
class Distinct:
    """Every argument takes a different value (``cpqueens.all_different``)."""

    args: tuple[IntNode, ...]

    def __str__(self) -> str:
        return f"all_different({', '.join(node_text(arg) for arg in self.args)})"


@dataclass(frozen=True)
class Element:
    """``values[index]``: a table looked up at an integer node (CP's element constraint).

    The index always lies within the table (``cpqueens.table`` checks its bounds).

    >>> str(Element((3, 1, 4), Var(0, 2)))
    'table(3, 1, 4)[q0[2]]'
    """

    values: tuple[int, ...]
    index: IntNode

    def __str__(self) -> str:
        return node_text(self)


@dataclass(frozen=True)
class Truth:
    """A condition as an integer: 1 where it holds, else 0 (``cpqueens.count_true``)."""

    condition: CondNode

    def __str__(self) -> str:
        return node_text(self)


IntNode = Union[int, Var, CellVar, Operator, Element, Truth]  # noqa: UP007 (a runtime alias, used before 3.12 syntax)
CondNode = Union[Comparison, Logic, Distinct]  # noqa: UP007

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "%": 2, "neg": 3}


def node_text(node: IntNode, outer: int = 0, right: bool = False) -> str:
    """Python-like text of an integer node, parenthesised only where Python needs it."""
    if isinstance(node, int):
        return f"({node})" if node < 0 and outer else str(node)
    if isinstance(node, (Var, CellVar)):
        return str(node)
    if isinstance(node, Element):
        return f"table({', '.join(map(str, node.values))})[{node_text(node.index)}]"
    if isinstance(node, Truth):
        return f"int({node.condition})"
    if node.name == "abs":
        return f"abs({node_text(node.args[0])})"
    level = _PRECEDENCE[node.name]
    if node.name == "neg":
        text = f"-{node_text(node.args[0], level)}"
    else:
        a, b = node.args
        text = f"{node_text(a, level)} {node.name} {node_text(b, level, right=True)}"
    if level < outer or (right and level == outer):
        return f"({text})"
    return text


def _wrap(node: CondNode) -> str:
    if isinstance(node, Distinct) or (isinstance(node, Logic) and node.name == "not"):
        return str(node)
    return f"({node})"


Node = Union[IntNode, CondNode]  # noqa: UP007


def reads(node: Node) -> tuple[Variable, ...]:
    """The variables ``node`` reads, as sorted (colour, row) pairs ((row, col) at the cell level).

    >>> reads(Comparison("<", Var(0, 7), Operator("+", (Var(0, 2), 1))))
    ((0, 2), (0, 7))
    """
    found = {(v.colour, v.row) if isinstance(v, Var) else (v.row, v.col) for v in _leaves(node)}
    return tuple(sorted(found))


def column_reads(node: Node) -> tuple[Var, ...]:
    """The column variables ``q[colour][row]`` that ``node`` reads (not ``x[r, c]``), sorted.

    >>> column_reads(Comparison("==", Var(0, 3), CellVar(1, 2)))
    (Var(colour=0, row=3),)
    """
    found = {v for v in _leaves(node) if isinstance(v, Var)}
    return tuple(sorted(found, key=lambda v: (v.colour, v.row)))


def _leaves(node: Node) -> Iterator[Var | CellVar]:
    """Every variable leaf of ``node``'s tree."""
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (Var, CellVar)):
            yield item
        elif isinstance(item, Comparison):
            stack += (item.lhs, item.rhs)
        elif isinstance(item, (Operator, Logic, Distinct)):
            stack.extend(item.args)
        elif isinstance(item, Element):
            stack.append(item.index)
        elif isinstance(item, Truth):
            stack.append(item.condition)


def at_cell_level(node: Node, cols: int) -> Node:
    """``node`` over cells: each ``q[r]`` (one colour) becomes ``sum(c * x[r,c] for c)``.

    With exactly one piece per row, the sum is the column of the row's piece,
    so the condition holds of the same solutions (the lowering of a condition
    to the cell level).

    >>> print(at_cell_level(Comparison("<", Var(0, 0), 1), 2))
    0 * x[0,0] + 1 * x[0,1] < 1
    """
    if isinstance(node, int) or isinstance(node, CellVar):
        return node
    if isinstance(node, Var):
        total: IntNode = Operator("*", (0, CellVar(node.row, 0)))
        for col in range(1, cols):
            total = Operator("+", (total, Operator("*", (col, CellVar(node.row, col)))))
        return total
    if isinstance(node, Element):
        return Element(node.values, at_cell_level(node.index, cols))  # type: ignore[arg-type]
    if isinstance(node, Truth):
        return Truth(at_cell_level(node.condition, cols))  # type: ignore[arg-type]
    if isinstance(node, Comparison):
        lhs, rhs = at_cell_level(node.lhs, cols), at_cell_level(node.rhs, cols)
        return Comparison(node.name, lhs, rhs)  # type: ignore[arg-type]
    args = tuple(at_cell_level(arg, cols) for arg in node.args)
    return type(node)(node.name, args) if not isinstance(node, Distinct) else Distinct(args)  # type: ignore[arg-type, call-arg]


def apply_operator(
    name: str,
    args: Sequence[Any],
    absolute: Callable[[Any], Any] = abs,
    modulo: Callable[[Any, Any], Any] = operator.mod,
) -> Any:
    """An ``Operator`` named ``name`` applied to its evaluated ``args``.

    ``+ - neg *`` are Python's operators, so ints, numpy arrays and solver
    expressions alike take them; ``abs`` and ``%`` are ``absolute`` and
    ``modulo``, which each reader may give its own.

    >>> apply_operator("-", [3, 5]), apply_operator("%", [-1, 4])
    (-2, 3)
    """
    if name == "+":
        return args[0] + args[1]
    if name == "-":
        return args[0] - args[1]
    if name == "neg":
        return -args[0]
    if name == "*":
        return args[0] * args[1]
    if name == "abs":
        return absolute(args[0])
    return modulo(args[0], args[1])


def evaluate(node: Node, values: Sequence[Sequence[int]]) -> int | bool:
    """The value of ``node`` with ``values[colour][row]`` for each variable, as Python computes it.

    At the cell level ``values[row][col]`` is 1 where a piece stands, else 0.

    >>> evaluate(Operator("%", (Operator("neg", (Var(0, 1),)), 3)), [[0, 4]])
    2
    """
    if isinstance(node, int):
        return node
    if isinstance(node, Var):
        return values[node.colour][node.row]
    if isinstance(node, CellVar):
        return values[node.row][node.col]
    if isinstance(node, Element):
        return node.values[evaluate(node.index, values)]
    if isinstance(node, Truth):
        return int(bool(evaluate(node.condition, values)))
    if isinstance(node, Operator):
        return apply_operator(node.name, [evaluate(arg, values) for arg in node.args])
    if isinstance(node, Comparison):
        lhs, rhs = evaluate(node.lhs, values), evaluate(node.rhs, values)
        return _COMPARE[node.name](lhs, rhs)
    if isinstance(node, Logic):
        if node.name == "not":
            return not evaluate(node.args[0], values)
        if node.name == "and":
            return all(evaluate(arg, values) for arg in node.args)
        return any(evaluate(arg, values) for arg in node.args)
    if isinstance(node, Distinct):
        found = [evaluate(arg, values) for arg in node.args]
        return len(set(found)) == len(found)
    raise TypeError(f"not an expression node: {node!r}")


_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def bounds(node: IntNode, n: int) -> tuple[int, int]:
    """The least and greatest value ``node`` can take when every variable is in 0..n-1.

    >>> bounds(Operator("-", (Var(0, 0), Operator("*", (Var(0, 1), 2)))), 8)
    (-14, 7)
    """
    if isinstance(node, int):
        return node, node
    if isinstance(node, Var):
        return 0, n - 1
    if isinstance(node, CellVar):
        return 0, 1
    if isinstance(node, Element):
        lo, hi = bounds(node.index, n)
        reachable = node.values[max(lo, 0) : hi + 1] or node.values
        return min(reachable), max(reachable)
    if isinstance(node, Truth):
        return 0, 1
    parts = [bounds(arg, n) for arg in node.args]
    name = node.name
    if name == "+":
        return parts[0][0] + parts[1][0], parts[0][1] + parts[1][1]
    if name == "-":
        return parts[0][0] - parts[1][1], parts[0][1] - parts[1][0]
    if name == "neg":
        return -parts[0][1], -parts[0][0]
    if name == "*":
        products = [a * b for a in parts[0] for b in parts[1]]
        return min(products), max(products)
    if name == "abs":
        lo, hi = parts[0]
        return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
    return 0, parts[1][0] - 1  # % by a positive constant
