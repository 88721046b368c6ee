"""Drawing: boards, solutions and region puzzles as text grids, column lists, JSON and SVG.

Pure functions over plain data (a board's size and blocked cells, queens as
(colour, row, col)): :mod:`cpqueens.drawing.pictures` draws boards and
solutions, :mod:`cpqueens.drawing.regions` region puzzles. ``Style`` names the
drawing styles every ``draw`` takes.
"""

from cpqueens.drawing.pictures import STYLES, Style

__all__ = ["STYLES", "Style"]
