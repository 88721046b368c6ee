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
    lines = [plain.describe(), *(str(kind) for kind in statement.kinds)]
    rows = statement.one_piece_rows
    if len(rows) == statement.rows:
        lines.append(
            "sum x[r,c] over c = 1 for every row r: the kinds read q[r], row r's one column"
        )
    elif rows:
        listed = ", ".join(map(str, rows))
        lines.append(f"sum x[r,c] over c = 1 for rows r = {listed}: the conditions read q[r] there")
    return "\n  ".join(lines)
