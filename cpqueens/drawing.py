"""The documented import path of the drawing styles (``cpqueens.drawing.Style``).

Drawing lives in :mod:`cpqueens.vocabulary.drawing`.
"""

from cpqueens.vocabulary.drawing import STYLES, Style

__all__ = ["STYLES", "Style"]
