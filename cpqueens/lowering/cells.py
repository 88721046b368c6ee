"""The cell form of a statement: ``x[row, col]``, 1 where a piece (of army 0) stands.

Any statement of one colour lowers to a
:class:`~cpqueens.vocabulary.cells.CellProblem`: the board and its attack
relation, armies, independence, domination, quotas, placed pieces, and the
kinds as conditions over the cells. A condition over ``q[r]`` reads
``sum(c * x[r, c])``, the column of row r's piece; ``q[r]`` is that column only
when row r holds exactly one piece, so reading it also states that (the
definition of ``q`` on any statement). A kind (not a condition) is a rule over
``q`` of every row, so it states that every row holds exactly one piece; it
lowers through its ``decompose(n, colours)``.
"""

from __future__ import annotations

from cpqueens.errors import NotSupportedError
from cpqueens.expressions import CellVar, Comparison, CondNode, IntNode, Operator, at_cell_level
from cpqueens.expressions import reads as reads_of
from cpqueens.vocabulary.cells import CellProblem
from cpqueens.vocabulary.constraints import Where
from cpqueens.vocabulary.statement import Statement


def cell_form(statement: Statement) -> CellProblem:
    """The statement over 0/1 cell variables; ``NotSupportedError`` for what cells cannot say.

    Several colours (each its own set of one piece per row and column) have
    no cell form; nor has a kind that neither is a condition nor decomposes.

    >>> from cpqueens.vocabulary.cells import CellBoard
    >>> form = cell_form(Statement(CellBoard(4, 4), per_row=None, per_column=None))
    >>> form.per_row, form.board.rows
    (None, 4)
    """
    if statement.colours != 1:
        raise NotSupportedError(
            f"a statement of {statement.colours} colours has no cell form: each colour is its "
            "own set of one queen per row and column (count it, list it, decide it; armies=2 "
            "states two armies on cells)"
        )
    return CellProblem(
        statement.board,
        statement.armies,
        statement.independent,
        statement.dominating,
        statement.placed,
        per_row=statement.per_row,
        per_column=statement.per_column,
        regions=statement.regions,
        per_region=statement.per_region,
        conditions=conditions(statement),
        kept=statement.group,
    )


def conditions(statement: Statement) -> tuple[CondNode, ...]:
    """Every kind of the statement as conditions over ``x[r, c]``, with the rows ``q`` reads."""
    found: list[CondNode] = []
    for kind in statement.kinds:
        for where in _wheres(kind, statement):
            _check_colour(where.condition)
            found.append(where.condition)
    read = statement.one_piece_rows
    cols = statement.board.cols
    lowered: list[CondNode] = [at_cell_level(node, cols) for node in found]  # type: ignore[misc]
    return (*lowered, *(_one_piece(row, cols) for row in read))


def _wheres(kind: object, statement: Statement) -> list[Where]:
    """``kind`` as conditions: itself, or its decomposition (recursively)."""
    if isinstance(kind, Where):
        return [kind]
    decompose = getattr(kind, "decompose", None)
    if not callable(decompose):
        raise NotSupportedError(
            f"no installed engine states the constraint {kind!r} ({type(kind).__name__}) on "
            "cells: a kind from outside the package states itself in kinds the engines know "
            "with decompose(n, colours)"
        )
    statement.check_kinds_square()
    return [w for part in decompose(statement.board.rows, 1) for w in _wheres(part, statement)]


def _check_colour(node: CondNode) -> None:
    """Refuse a condition that reads ``q`` of a colour other than 0: one colour has cells."""
    from cpqueens.expressions import column_reads

    for var in column_reads(node):
        if var.colour != 0:
            raise NotSupportedError(f"{node} reads q[{var.colour}, ...]: one colour has cells")


def _one_piece(row: int, cols: int) -> CondNode:
    """``sum(x[row, c]) == 1``: row ``row`` holds exactly one piece (``q[row]`` is its column)."""
    total: IntNode = CellVar(row, 0)
    for col in range(1, cols):
        total = Operator("+", (total, CellVar(row, col)))
    return Comparison("==", total, 1)


__all__ = ["cell_form", "conditions", "reads_of"]
