"""User-stated conditions: a small, exact expression language over a model's variables.

``model.q[r]`` is colour 0's column in row r, ``model.q[colour, r]`` another
colour's. Operators build a tree of plain frozen nodes (hashable, printable,
picklable), each meaning exactly what it means in Python on ints:

- integer nodes: :class:`Var` (one variable), plain ``int`` constants and
  :class:`Operator` (``+``, ``-``, unary ``neg``, ``*`` by an int, ``abs``,
  ``%`` by a positive int with Python's sign rule);
- condition nodes: :class:`Comparison` (``== != < <= > >=``), :class:`Logic`
  (``and``, ``or``, ``not``: ``&``, ``|``, ``~``) and :class:`Distinct`
  (``all_different``).

Every node knows the variables it reads (``reads(node)``), so a backend can
check a condition as soon as its last variable is set. Backends translate the
nodes; no user callable ever reaches a solver. The user-facing
:class:`Expression` and :class:`Condition` wrap a node with the board it
belongs to (size and colours), so that mixing models or using a condition as a
Python bool is refused with a message that says why.

>>> from cpqueens import model
>>> m = model(8)
>>> print(m.q[0] < m.q[7])
q0[0] < q0[7]
>>> print((abs(m.q[0] - m.q[1]) % 3 != 1) & ~(m.q[2] == 4))
(abs(q0[0] - q0[1]) % 3 != 1) & ~(q0[2] == 4)
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Callable, Iterable, Sequence
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
        return _text(self)


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
        return f"{_text(self.lhs)} {self.name} {_text(self.rhs)}"


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
        return f"all_different({', '.join(_text(arg) for arg in self.args)})"


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
        return _text(self)


@dataclass(frozen=True)
class Truth:
    """A condition as an integer: 1 where it holds, else 0 (``cpqueens.count_true``)."""

    condition: CondNode

    def __str__(self) -> str:
        return _text(self)


IntNode = Union[int, Var, CellVar, Operator, Element, Truth]  # noqa: UP007 (a runtime alias, used before 3.12 syntax)
CondNode = Union[Comparison, Logic, Distinct]  # noqa: UP007

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "%": 2, "neg": 3}


def _text(node: IntNode, outer: int = 0, right: bool = False) -> str:
    """Python-like text of an integer node, parenthesised only where Python needs it."""
    if isinstance(node, int):
        return f"({node})" if node < 0 and outer else str(node)
    if isinstance(node, (Var, CellVar)):
        return str(node)
    if isinstance(node, Element):
        return f"table({', '.join(map(str, node.values))})[{_text(node.index)}]"
    if isinstance(node, Truth):
        return f"int({node.condition})"
    if node.name == "abs":
        return f"abs({_text(node.args[0])})"
    level = _PRECEDENCE[node.name]
    if node.name == "neg":
        text = f"-{_text(node.args[0], level)}"
    else:
        a, b = node.args
        text = f"{_text(a, level)} {node.name} {_text(b, level, right=True)}"
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
    found: set[Variable] = set()
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Var):
            found.add((item.colour, item.row))
        elif isinstance(item, CellVar):
            found.add((item.row, item.col))
        elif isinstance(item, Comparison):
            stack += (item.lhs, item.rhs)
        elif isinstance(item, (Operator, Logic, Distinct)):
            stack.extend(item.args)
        elif isinstance(item, Element):
            stack.append(item.index)
        elif isinstance(item, Truth):
            stack.append(item.condition)
    return tuple(sorted(found))


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


# --- the user-facing wrappers ---------------------------------------------------------------


def _shape_text(shape: Shape) -> str:
    if shape[1] < 0:  # the cell level: (rows, -columns)
        return f"{shape[0]}x{-shape[1]} board of cells"
    return f"{shape[0]}x{shape[0]} board with {shape[1]} colour(s)"


def _join(left: Shape | None, right: Shape | None, what: str) -> Shape | None:
    if left is not None and right is not None and left != right:
        raise ValueError(
            f"{what} mixes variables of two models: a {_shape_text(left)} "
            f"and a {_shape_text(right)}"
        )
    return left if left is not None else right


def _operand(value: object, context: str) -> tuple[IntNode, Shape | None]:
    """The node and shape of an operand: an Expression or an int (never a float or bool)."""
    if isinstance(value, Expression):
        return value.node, value.shape
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value), None
    if isinstance(value, Condition):
        raise TypeError(
            f"{context}: ({value}) is a condition, not an integer expression; "
            "combine conditions with &, | and ~"
        )
    raise TypeError(
        f"{context}: cannot use {value!r} ({type(value).__name__}); "
        "expressions combine only with ints and expressions of the same model"
    )


def _show(value: object) -> str:
    """An operand as error messages show it: an expression's text, else its repr."""
    return str(value) if isinstance(value, (Expression, Condition)) else repr(value)


class Expression:
    """An integer expression over a model's variables, built with ``+ - * % abs()``.

    Comparing it (``== != < <= > >=``) gives a :class:`Condition` for
    ``Model.where``. ``node`` is its plain-data tree.
    """

    __slots__ = ("node", "shape")
    __hash__ = None  # type: ignore[assignment]  # == builds a condition

    def __init__(self, node: IntNode, shape: Shape | None) -> None:
        """Wrap ``node``, an expression over the variables of a model of ``shape``."""
        self.node = node
        self.shape = shape

    def __repr__(self) -> str:
        return f"Expression({self.node})"

    def __str__(self) -> str:
        return _text(self.node)

    def _binary(self, name: str, other: object, reflected: bool = False) -> Expression:
        context = (
            f"{self} {name} {_show(other)}" if not reflected else f"{_show(other)} {name} {self}"
        )
        node, shape = _operand(other, context)
        shape = _join(self.shape, shape, context)
        args = (node, self.node) if reflected else (self.node, node)
        return Expression(Operator(name, args), shape)

    def __add__(self, other: Expression | int) -> Expression:
        return self._binary("+", other)

    def __radd__(self, other: int) -> Expression:
        return self._binary("+", other, reflected=True)

    def __sub__(self, other: Expression | int) -> Expression:
        return self._binary("-", other)

    def __rsub__(self, other: int) -> Expression:
        return self._binary("-", other, reflected=True)

    def __neg__(self) -> Expression:
        return Expression(Operator("neg", (self.node,)), self.shape)

    def __pos__(self) -> Expression:
        return self

    def __abs__(self) -> Expression:
        return Expression(Operator("abs", (self.node,)), self.shape)

    def __mul__(self, other: int) -> Expression:
        return self._times(other, reflected=False)

    def __rmul__(self, other: int) -> Expression:
        return self._times(other, reflected=True)

    def _times(self, other: object, reflected: bool) -> Expression:
        context = f"{_show(other)} * {self}" if reflected else f"{self} * {_show(other)}"
        if isinstance(other, Expression):
            raise TypeError(f"{context}: an expression multiplies only by an int constant")
        node, _ = _operand(other, context)
        return self._binary("*", node, reflected)

    def __mod__(self, other: int) -> Expression:
        context = f"{self} % {_show(other)}"
        if isinstance(other, Expression):
            raise TypeError(f"{context}: the modulus must be a positive int constant")
        node, _ = _operand(other, context)
        if not isinstance(node, int) or node <= 0:
            raise ValueError(f"{context}: the modulus must be a positive int constant")
        return self._binary("%", node)

    def __rmod__(self, other: object) -> Expression:
        raise TypeError(f"{_show(other)} % {self}: the modulus must be a positive int constant")

    def _compare(self, name: str, other: object) -> Condition:
        context = f"{self} {name} {_show(other)}"
        node, shape = _operand(other, context)
        return Condition(Comparison(name, self.node, node), _join(self.shape, shape, context))

    def __eq__(self, other: object) -> Condition:  # type: ignore[override]
        return self._compare("==", other)

    def __ne__(self, other: object) -> Condition:  # type: ignore[override]
        return self._compare("!=", other)

    def __lt__(self, other: Expression | int) -> Condition:
        return self._compare("<", other)

    def __le__(self, other: Expression | int) -> Condition:
        return self._compare("<=", other)

    def __gt__(self, other: Expression | int) -> Condition:
        return self._compare(">", other)

    def __ge__(self, other: Expression | int) -> Condition:
        return self._compare(">=", other)

    def isin(self, values: Iterable[int]) -> Condition:
        """The condition that the expression takes one of ``values`` (ints).

        >>> from cpqueens import model
        >>> print(model(8).q[2].isin({5, 1, 3}))
        (q0[2] == 1) | (q0[2] == 3) | (q0[2] == 5)
        """
        if isinstance(values, (str, bytes, Expression, Condition)) or not isinstance(
            values, Iterable
        ):
            raise TypeError(f"{self}.isin() takes an iterable of ints, got {_show(values)}")
        found = sorted({_constant(value, f"{self}.isin()") for value in values})
        return Condition(
            Logic("or", tuple(Comparison("==", self.node, value) for value in found)), self.shape
        )

    def __bool__(self) -> bool:
        raise TypeError(
            f"the expression {self} has no truth value: it is a column of the model "
            "that the solver chooses; compare it (==, <, ...) to state a condition"
        )


class Condition:
    """A condition over a model's variables, for ``Model.where``; combine with ``& | ~``.

    It is not a Python bool: ``if condition:``, ``and``/``or``/``not`` and
    chained comparisons (``0 < q < 3``) raise a TypeError.
    """

    __slots__ = ("node", "shape")

    def __init__(self, node: CondNode, shape: Shape | None) -> None:
        """Wrap ``node``, a condition over the variables of a model of ``shape``."""
        self.node = node
        self.shape = shape

    def __repr__(self) -> str:
        return f"Condition({self.node})"

    def __str__(self) -> str:
        return str(self.node)

    def _logic(self, name: str, other: object) -> Condition:
        if not isinstance(other, Condition):
            raise TypeError(
                f"({self}) {'&' if name == 'and' else '|'} {_show(other)}: "
                "& and | combine two conditions"
            )
        shape = _join(self.shape, other.shape, f"({self}) {name} ({other})")
        args: list[CondNode] = []
        for node in (self.node, other.node):
            if isinstance(node, Logic) and node.name == name:
                args.extend(node.args)
            else:
                args.append(node)
        return Condition(Logic(name, tuple(args)), shape)

    def __and__(self, other: Condition) -> Condition:
        return self._logic("and", other)

    def __or__(self, other: Condition) -> Condition:
        return self._logic("or", other)

    def __invert__(self) -> Condition:
        return Condition(Logic("not", (self.node,)), self.shape)

    def as_int(self) -> Expression:
        """The condition as an integer expression: 1 where it holds, else 0.

        (``q[0] + (q[1] < 2)`` stays an error, a likely slip of precedence: say
        ``(q[1] < 2).as_int()`` or ``count_true``.)
        """
        return Expression(Truth(self.node), self.shape)

    def __bool__(self) -> bool:
        raise TypeError(
            f"the condition {self} has no truth value: the solver decides it, not Python. "
            "Pass it to Model.where(); combine conditions with &, | and ~ "
            "(not 'and', 'or', 'not' or a chained comparison such as 0 < q < 3)"
        )


def all_different(expressions: Iterable[Expression | int]) -> Condition:
    """The condition that the expressions all take different values.

    >>> from cpqueens import model
    >>> m = model(5)
    >>> print(all_different(m.q[r] + 2 * r for r in range(3)))
    all_different(q0[0] + 0, q0[1] + 2, q0[2] + 4)
    """
    if isinstance(expressions, (Expression, Condition)) or not isinstance(expressions, Iterable):
        raise TypeError(f"all_different takes an iterable of expressions, got {_show(expressions)}")
    nodes: list[IntNode] = []
    shape: Shape | None = None
    for item in expressions:
        node, item_shape = _operand(item, "all_different")
        shape = _join(shape, item_shape, "all_different")
        nodes.append(node)
    return Condition(Distinct(tuple(nodes)), shape)


def count_true(conditions: Iterable[Condition]) -> Expression | int:
    """How many of ``conditions`` hold, as an integer expression.

    >>> from cpqueens import model
    >>> m = model(8)
    >>> print(count_true(m.q[r] == 0 for r in range(3)) == 1)
    int(q0[0] == 0) + int(q0[1] == 0) + int(q0[2] == 0) == 1
    """
    if isinstance(conditions, (Expression, Condition)) or not isinstance(conditions, Iterable):
        raise TypeError(f"count_true takes an iterable of conditions, got {_show(conditions)}")
    total: Expression | int = 0
    for item in conditions:
        if not isinstance(item, Condition):
            raise TypeError(f"count_true takes conditions, got {_show(item)}")
        total = item.as_int() if isinstance(total, int) else total + item.as_int()
    return total


class Table:
    """A table of ints to look up at an expression: ``cpqueens.table(values)[m.q[r]]``."""

    __slots__ = ("values",)

    def __init__(self, values: Iterable[int]) -> None:
        """The table of ``values`` (ints; entry i is looked up at index i)."""
        if isinstance(values, (str, bytes, Expression, Condition)) or not isinstance(
            values, Iterable
        ):
            raise TypeError(f"table() takes an iterable of ints, got {_show(values)}")
        self.values = tuple(_constant(value, "table()") for value in values)
        if not self.values:
            raise ValueError("table() takes at least one value, got none")

    def __repr__(self) -> str:
        return f"table({', '.join(map(str, self.values))})"

    def __getitem__(self, index: Expression | int) -> Expression | int:
        """The entry at ``index``, an expression whose every value lies within the table."""
        node, shape = _operand(index, f"{self!r}[{_show(index)}]")
        size = len(self.values)
        if isinstance(node, int):
            if not 0 <= node < size:
                raise IndexError(f"{self!r}[{node}]: the table has entries 0..{size - 1}")
            return self.values[node]
        assert shape is not None
        lo, hi = bounds(node, shape[0])
        if lo < 0 or hi >= size:
            raise IndexError(
                f"{self!r}[{index}]: the index takes values {lo}..{hi}, "
                f"the table has entries 0..{size - 1}"
            )
        return Expression(Element(self.values, node), shape)


def table(values: Iterable[int]) -> Table:
    """A table of ints to look up at an expression (CP's element constraint).

    >>> from cpqueens import model
    >>> m = model(4)
    >>> regions = [[0, 0, 1, 1], [0, 2, 2, 1], [3, 2, 2, 1], [3, 3, 3, 1]]
    >>> print(all_different(table(regions[r])[m.q[r]] for r in range(2)))
    all_different(table(0, 0, 1, 1)[q0[0]], table(0, 2, 2, 1)[q0[1]])
    """
    return Table(values)


def _constant(value: object, context: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{context}: expected ints, got {value!r}")
    return int(value)


class Variables:
    """A model's variables: ``q[row]`` for colour 0, ``q[colour, row]`` for any colour."""

    __slots__ = ("shape",)

    def __init__(self, n: int, colours: int) -> None:
        """The variables of a model of board size ``n`` with ``colours`` colours."""
        self.shape = (n, colours)

    def __repr__(self) -> str:
        return f"<variables q of a {_shape_text(self.shape)}>"

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, index: int | tuple[int, int]) -> Expression:
        n, colours = self.shape
        if isinstance(index, tuple):
            if len(index) != 2:
                raise IndexError(f"q[{index!r}]: expected q[row] or q[colour, row]")
            if colours == 1:
                raise ValueError(
                    f"q[{index[0]!r}, {index[1]!r}]: this model has one colour; "
                    f"write q[row] (q[{index[1]!r}])"
                )
            colour, row = index
            colour = _index(colour, colours, "colour", f"colours 0..{colours - 1}")
        else:
            colour, row = 0, index
        row = _index(row, n, "row", f"the {n}x{n} board's rows 0..{n - 1}")
        return Expression(Var(colour, row), self.shape)


def _index(value: object, size: int, what: str, within: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} index must be an int, got {value!r}")
    if not 0 <= value < size:
        raise IndexError(f"{what} {value} is outside {within}")
    return int(value)


class CellVariables:
    """A model's cell variables for ``where``: ``x[row, col]``, 1 where a piece stands, else 0.

    On a one-queen-per-row model ``x[r, c]`` is ``int(q[r] == c)``, so
    every engine states it; at the cell level it is the cell's own 0/1
    variable (army 0's piece).

    >>> print(CellVariables(4, 4, cells=True)[1, 2] + CellVariables(4, 4, cells=True)[0, 0])
    x[1,2] + x[0,0]
    >>> print(CellVariables(4, 4, cells=False)[1, 2])
    int(q0[1] == 2)
    """

    __slots__ = ("cells", "cols", "rows")

    def __init__(self, rows: int, cols: int, *, cells: bool, colours: int = 1) -> None:
        """The cell variables of a ``rows`` x ``cols`` board (``cells``: at the cell level)."""
        self.rows, self.cols, self.cells = rows, cols, cells
        if not cells and colours != 1:
            raise ValueError(
                f"x[row, col] reads one queen per row of one colour; this model has {colours} "
                "colours: write q[colour, row] == col"
            )

    def __repr__(self) -> str:
        return f"<variables x of a {self.rows}x{self.cols} board>"

    def __getitem__(self, index: tuple[int, int]) -> Expression:
        if not isinstance(index, tuple) or len(index) != 2:
            raise IndexError(f"x[{index!r}]: expected x[row, col]")
        row = _index(index[0], self.rows, "row", f"the board's rows 0..{self.rows - 1}")
        col = _index(index[1], self.cols, "column", f"the board's columns 0..{self.cols - 1}")
        if self.cells:
            return Expression(CellVar(row, col), (self.rows, -self.cols))
        on = Comparison("==", Var(0, row), col)
        return Expression(Truth(on), (self.rows, 1))
