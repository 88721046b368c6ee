"""The names players give small shapes: dominoes, trominoes, tetrominoes and pentominoes.

A shape is a set of cells; its name does not depend on where it stands, nor
on a turn or a mirror (a free polyomino). :func:`shape_name` names the
connected shapes of 2 to 5 cells ("an L-tromino"), a connected shape of 6 a
hexomino, and anything else by its count of cells.

>>> shape_name([(0, 0), (0, 1), (1, 0)])
'an L-tromino'
>>> shape_name([(3, 3), (4, 3)])
'a domino'
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

Cell = tuple[int, int]

#: Each named shape drawn in one of its positions (``#`` a cell), by name.
DRAWN: dict[str, tuple[str, ...]] = {
    "a domino": ("##",),
    "an I-tromino": ("###",),
    "an L-tromino": ("##", "#."),
    "an I-tetromino": ("####",),
    "an O-tetromino (a 2x2 square)": ("##", "##"),
    "a T-tetromino": ("###", ".#."),
    "an L-tetromino": ("###", "#.."),
    "an S-tetromino": (".##", "##."),
    "an F-pentomino": (".##", "##.", ".#."),
    "an I-pentomino": ("#####",),
    "an L-pentomino": ("####", "#..."),
    "an N-pentomino": ("##..", ".###"),
    "a P-pentomino": ("##", "##", "#."),
    "a T-pentomino": ("###", ".#.", ".#."),
    "a U-pentomino": ("#.#", "###"),
    "a V-pentomino": ("#..", "#..", "###"),
    "a W-pentomino": ("#..", "##.", ".##"),
    "an X-pentomino (a plus sign)": (".#.", "###", ".#."),
    "a Y-pentomino": ("####", ".#.."),
    "a Z-pentomino": ("##.", ".#.", ".##"),
}


def _normal(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The cells moved to touch row 0 and column 0, sorted."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def canonical(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The same form for a shape in any of its 8 turns and mirrors: the least of them."""
    cells = list(cells)
    forms = []
    for turn in range(4):
        for mirror in (False, True):
            moved = []
            for r, c in cells:
                for _ in range(turn):
                    r, c = c, -r
                moved.append((r, -c) if mirror else (r, c))
            forms.append(_normal(moved))
    return min(forms)


@lru_cache(maxsize=1)
def _names() -> dict[tuple[Cell, ...], str]:
    """Each named shape's canonical form, to its name."""
    return {
        canonical(
            (r, c) for r, line in enumerate(rows) for c, mark in enumerate(line) if mark == "#"
        ): name
        for name, rows in DRAWN.items()
    }


def connected(cells: Iterable[Cell]) -> bool:
    """Whether the cells are one piece, side to side."""
    todo = set(cells)
    if not todo:
        return False
    seen = [todo.pop()]
    for r, c in seen:
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in todo:
                todo.remove(near)
                seen.append(near)
    return not todo


def shape_name(cells: Iterable[Cell]) -> str:
    """What a player calls the shape of ``cells``: "an L-tromino", "a hexomino", "3 cells apart"."""
    cells = list(cells)
    if len(cells) == 1:
        return "one cell"
    if connected(cells):
        named = _names().get(canonical(cells))
        if named is not None:
            return named
        if len(cells) == 6:
            return "a hexomino"
        return f"a shape of {len(cells)} cells"
    return f"{len(cells)} cells apart"
