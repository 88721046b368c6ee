"""A statement as mathematics: what ``print(model)`` shows, every rule and every kind."""

from __future__ import annotations

from dataclasses import replace

from cpqueens.vocabulary.statement import Statement


def describe(statement: Statement) -> str:
    """The statement as lines of mathematics: its column form's, or its cells' with its kinds.

    >>> from cpqueens.vocabulary.cells import CellBoard
    >>> print(describe(Statement(CellBoard(3, 3, attack="king"), per_row=None, per_column=None)))
    3x3 board, king steps; 0/1 variables x[r,c] for each free cell
      sum x <= 1 over each of the 20 lines
    """
    from cpqueens.lowering.cells import cell_form
    from cpqueens.lowering.columns import column_form

    columns = column_form(statement)
    if columns is not None:
        return str(columns)
    plain = cell_form(replace(statement, kinds=()))
    return "\n  ".join([plain.describe(), *(str(kind) for kind in statement.kinds)])
