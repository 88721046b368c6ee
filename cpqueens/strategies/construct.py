"""Explicit constructions: one solution of a free board in O(n), for one colour or several.

- :func:`explicit`: the classic construction for any n except 2 and 3 (even
  columns, then odd ones, with the two fix-ups for n mod 6 = 2 and 3; Hoffman,
  Loessi and Moore 1969).
- :func:`free_board`: ``k`` colours of queens, pairwise disjoint: the modular
  placements ``(2r + c) mod n`` when n is coprime to 6 (any k <= n), else
  pairwise disjoint images of the explicit placement under the 8 board
  symmetries (two colours for every even n), else None (no construction: search).
"""

from __future__ import annotations

from math import gcd

Columns = tuple[int, ...]


def explicit(n: int) -> Columns | None:
    """One non-attacking placement of n queens (a column per row), None for n = 2 and 3.

    >>> explicit(8)
    (1, 3, 5, 7, 2, 0, 6, 4)
    >>> explicit(3) is None
    True
    """
    if n in (2, 3):
        return None
    evens = list(range(2, n + 1, 2))  # 1-based, as the construction is stated
    odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds = [3, 1, *range(7, n + 1, 2), 5]
    elif n % 6 == 3:
        evens = [*range(4, n + 1, 2), 2]
        odds = [*range(5, n + 1, 2), 1, 3]
    return tuple(c - 1 for c in evens + odds)


def _images(columns: Columns) -> list[Columns]:
    """The 8 images of a placement under the board symmetries (duplicates kept out)."""
    n = len(columns)
    inverse = [0] * n
    for row, col in enumerate(columns):
        inverse[col] = row
    found: list[Columns] = []
    for base in (columns, tuple(inverse)):  # the identity and the transpose
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                rows = base[::-1] if flip_rows else base
                image = tuple(n - 1 - c for c in rows) if flip_cols else tuple(rows)
                if image not in found:
                    found.append(image)
    return found


def free_board(n: int, colours: int = 1) -> tuple[Columns, ...] | None:
    """``colours`` pairwise cell-disjoint placements on a free n x n board, or None if none known.

    None means only that no construction applies here, not that there is no solution.

    >>> free_board(5, 3)
    ((0, 2, 4, 1, 3), (1, 3, 0, 2, 4), (2, 4, 1, 3, 0))
    >>> free_board(8, 2)[1]
    (6, 4, 2, 0, 5, 7, 1, 3)
    """
    if colours > n:
        return None
    if gcd(n, 6) == 1:
        return tuple(tuple((2 * r + c) % n for r in range(n)) for c in range(colours))
    base = explicit(n)
    if base is None:
        return None
    if colours == 1:
        return (base,)
    chosen: list[Columns] = []
    for image in _images(base):
        if all(all(a != b for a, b in zip(image, other, strict=True)) for other in chosen):
            chosen.append(image)
            if len(chosen) == colours:
                return tuple(chosen)
    return None
