"""How a model shows itself in a notebook: its board as SVG, its constraints as HTML.

``Model._repr_svg_`` and ``Model._repr_html_`` call these; they read the
problem's plain data only (board, colours, constraints).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from cpqueens.drawing import pictures as drawing
from cpqueens.vocabulary.constraints import Placed
from cpqueens.words import plural

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem


def placed_queens(problem: Problem) -> tuple[drawing.Queen, ...]:
    """Every placed queen of ``problem`` as (colour, row, col), colour by colour.

    >>> from cpqueens.vocabulary.board import Board
    >>> from cpqueens.vocabulary.problem import Problem
    >>> placed_queens(Problem(Board(5), placed=((0, 1), (2, 3))))
    ((0, 0, 1), (0, 2, 3))
    """
    return tuple(
        (constraint.colour, row, col)
        for constraint in problem.constraints
        if isinstance(constraint, Placed)
        for row, col in constraint.cells
    )


def svg(problem: Problem, size: int | None = None) -> str:
    """The model's board as SVG: blocked cells crossed, placed queens by colour, coordinates.

    >>> from cpqueens.vocabulary.board import Board
    >>> from cpqueens.vocabulary.problem import Problem
    >>> picture = svg(Problem(Board(4, ((1, 1),)), placed=((0, 2),)))
    >>> picture.count('class="queen colour-0"'), picture.count('class="blocked"')
    (1, 1)
    """
    return drawing.svg(problem.board, placed_queens(problem), size, coordinates=True)


def html_summary(problem: Problem) -> str:
    """The model as a notebook shows it: its board (the SVG of ``svg``) beside its constraints.

    Notebooks prefer HTML to SVG, so the summary carries the picture too.

    >>> from cpqueens.vocabulary.board import Board
    >>> from cpqueens.vocabulary.problem import Problem
    >>> summary = html_summary(Problem(Board(4)))
    >>> print(next(line for line in summary.splitlines() if line.startswith("<p>")))
    <p><strong>Model</strong>: 4x4 board, 1 colour of 4 queens, 0 blocked cells, 0 placed queens, 3 constraints; symmetries: identity, rot90, rot180, rot270, mirror, flip, diagonal, antidiagonal</p>
    """  # noqa: E501
    n, constraints = problem.n, problem.constraints
    head = (
        f"<strong>Model</strong>: {n}x{n} board, {plural(problem.colours, 'colour')} of {n} "
        f"queens, {plural(len(problem.board.blocked), 'blocked cell')}, "
        f"{plural(len(placed_queens(problem)), 'placed queen')}, "
        f"{plural(len(constraints), 'constraint')}; "
        f"symmetries: {', '.join(problem.symmetries())}"
    )
    rows = [
        f"<tr><td>{type(c).__name__}</td><td><code>{html.escape(str(c))}</code></td></tr>"
        for c in constraints
    ]
    return "\n".join(
        [
            '<div class="cpqueens-model" style="display: flex; gap: 1em; align-items: flex-start">',
            f'<div class="board">{svg(problem, size=min(240, 30 * (n + 1)))}</div>',
            "<div>",
            f"<p>{head}</p>",
            "<table>",
            "<thead><tr><th>kind</th><th>constraint</th></tr></thead>",
            "<tbody>",
            *rows,
            "</tbody>",
            "</table>",
            "</div>",
            "</div>",
        ]
    )
