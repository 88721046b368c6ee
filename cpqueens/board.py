"""Board: the size n and the cells where no queen may stand."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cpqueens.constraints import Cell


def check_size(n: object) -> int:
    """Return ``n`` if it is a board size (an int >= 1, not a bool), else raise.

    >>> check_size(8)
    8
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"board size n must be an int >= 1, got {n!r} ({type(n).__name__})")
    if n < 1:
        raise ValueError(f"board size n must be an int >= 1, got {n}")
    return n


def check_cells(cells: Iterable[object], n: int, what: str) -> tuple[Cell, ...]:
    """Validate (row, col) pairs on an n x n board; return them sorted, without repeats.

    ``what`` names the cells in error messages ("blocked cell", "placed queen").

    >>> check_cells([(1, 2), (0, 3), (1, 2)], 4, "blocked cell")
    ((0, 3), (1, 2))
    """
    if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
        raise TypeError(f"{what}s must be an iterable of (row, col) pairs, got {cells!r}")
    checked = set()
    for cell in cells:
        if (
            not isinstance(cell, (tuple, list))
            or len(cell) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in cell)
        ):
            raise TypeError(f"{what} must be a (row, col) pair of ints, got {cell!r}")
        row, col = cell
        if not (0 <= row < n and 0 <= col < n):
            raise ValueError(
                f"{what} {(row, col)!r} is off the {n}x{n} board: "
                f"row and column must be in 0..{n - 1}"
            )
        checked.add((row, col))
    return tuple(sorted(checked))


@dataclass(frozen=True)
class Board:
    """An n x n board with some cells blocked (0-based (row, col)).

    >>> Board(4, ((0, 1),)).free_columns(0)
    (0, 2, 3)
    """

    n: int
    blocked: tuple[Cell, ...] = ()

    def __post_init__(self) -> None:
        check_size(self.n)
        object.__setattr__(self, "blocked", check_cells(self.blocked, self.n, "blocked cell"))

    @property
    def blocked_masks(self) -> tuple[int, ...]:
        """Per row, a bitmask with bit c set where cell (row, c) is blocked."""
        masks = [0] * self.n
        for row, col in self.blocked:
            masks[row] |= 1 << col
        return tuple(masks)

    def is_free(self, row: int, col: int) -> bool:
        """Whether a queen may stand on (row, col)."""
        return (row, col) not in set(self.blocked)

    def free_columns(self, row: int) -> tuple[int, ...]:
        """The columns of ``row`` where a queen may stand, ascending."""
        mask = self.blocked_masks[row]
        return tuple(c for c in range(self.n) if not mask >> c & 1)
