"""The column form of a statement: ``q[colour][row]``, the column of each colour's piece in a row.

A statement with one piece per row and column (:attr:`Statement.column_shaped`)
lowers to a :class:`~cpqueens.vocabulary.problem.Problem`: every colour's
queens on distinct columns (and diagonals, for queens), the blocked cells,
the placed pieces, and the board's other rules as kinds, in this order:
other colours' placed pieces, ``Toroidal``, ``KnightMoves``, ``Regions``,
``NoTouch``, then the statement's kinds as stated. A condition over ``x[r, c]``
reads ``int(q[r] == c)`` here.
"""

from __future__ import annotations

from cpqueens.expressions import CellVar, Comparison, Node, Truth, Var
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.constraints import (
    Constraint,
    KnightMoves,
    NoTouch,
    Placed,
    Regions,
    Toroidal,
    Where,
)
from cpqueens.vocabulary.problem import Problem
from cpqueens.vocabulary.statement import Statement


def column_form(statement: Statement) -> Problem | None:
    """The statement as ``q[colour][row]``, or None when it has not one piece per row and column.

    Placed pieces of one colour that share a row leave no column form (no
    solution holds them; the cell form says so).

    >>> from cpqueens.vocabulary.cells import CellBoard
    >>> print(column_form(Statement(CellBoard(4, 4, attack="king"))))
    Model: 4x4 board, 1 colour of 4 queens (no diagonals: rows and columns attack)
      AllDifferent(q0[r] for every row r)
      NoTouch(no two q0 queens touch)
    """
    if not statement.column_shaped:
        return None
    by_colour: dict[int, list[tuple[int, int]]] = {}
    for r, c, colour in statement.placed:  # sorted: rows in order within a colour
        by_colour.setdefault(colour, []).append((r, c))
    for cells in by_colour.values():
        if len({r for r, _ in cells}) < len(cells):
            return None
    board = statement.board
    n, colours = board.rows, statement.colours
    queens = board.attack in ("queen", "bishop")  # the columns are a quota's, the diagonals attack
    extra: list[object] = [
        Placed(tuple(cells), colour) for colour, cells in sorted(by_colour.items()) if colour
    ]
    if board.toroidal and queens:  # the diagonals wrap
        extra += [Toroidal(colour) for colour in range(colours)]
    if board.knight:
        extra += [KnightMoves(colour, wraps=board.toroidal) for colour in range(colours)]
    if statement.regions is not None:
        extra += [Regions(statement.regions, colour) for colour in range(colours)]
    if board.attack == "king" or not board.touch:
        wraps = board.toroidal and not queens
        extra += [NoTouch(colour, wraps=wraps) for colour in range(colours)]
    extra += [_at_column_level(kind) for kind in statement.kinds]
    return Problem(
        Board(n, board.blocked),
        colours,
        tuple(by_colour.get(0, ())),
        tuple(extra),  # type: ignore[arg-type]  # outside kinds are constraints too
        diagonals=queens,
    )


def _at_column_level(kind: object) -> Constraint | object:
    """A kind as the column form states it: a condition over ``x`` reads ``int(q[r] == c)``."""
    if isinstance(kind, Where):
        node = x_as_q(kind.condition)
        return kind if node is kind.condition else Where(node, kind.keeps)  # type: ignore[arg-type]
    return kind


def x_as_q(node: Node) -> Node:
    """``node`` with each cell variable ``x[r, c]`` read as ``int(q[r] == c)`` (colour 0).

    >>> print(x_as_q(Comparison("==", CellVar(1, 2), 1)))
    int(q0[1] == 2) == 1
    """
    if isinstance(node, CellVar):
        return Truth(Comparison("==", Var(0, node.row), node.col))
    if isinstance(node, (int, Var)):
        return node
    from cpqueens.expressions import Distinct, Element, Logic, Operator

    if isinstance(node, Element):
        return Element(node.values, x_as_q(node.index))  # type: ignore[arg-type]
    if isinstance(node, Truth):
        return Truth(x_as_q(node.condition))  # type: ignore[arg-type]
    if isinstance(node, Comparison):
        return Comparison(node.name, x_as_q(node.lhs), x_as_q(node.rhs))  # type: ignore[arg-type]
    if isinstance(node, Distinct):
        return Distinct(tuple(x_as_q(arg) for arg in node.args))  # type: ignore[misc]
    if isinstance(node, Logic):
        return Logic(node.name, tuple(x_as_q(arg) for arg in node.args))  # type: ignore[misc]
    assert isinstance(node, Operator)
    return Operator(node.name, tuple(x_as_q(arg) for arg in node.args))  # type: ignore[misc]
