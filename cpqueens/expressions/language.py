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
from collections.abc import Iterable

from cpqueens.expressions.nodes import (
    CellVar,
    Comparison,
    CondNode,
    Distinct,
    Element,
    IntNode,
    Logic,
    Operator,
    Truth,
    Var,
    bounds,
    node_text,
)

#: Where a model's variables live: (board size, colours), or (rows, -columns) for cells.
Shape = tuple[int, int]

# --- the user-facing wrappers ---------------------------------------------------------------


def _shape_text(shape: Shape) -> str:
    if shape[1] < 0:  # the cell level: (rows, -columns)
        return f"{shape[0]}x{-shape[1]} board of cells"
    colours = "1 colour" if shape[1] == 1 else f"{shape[1]} colours"
    return f"{shape[0]}x{shape[0]} board with {colours}"


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
        return node_text(self.node)

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
    if not 0 <= value < size:  # type: ignore[operator]  # an Integral compares with ints
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
