"""A board with a few holes counted as signed counts of the free board with queens on the holes.

Inclusion-exclusion over the holes H: the solutions that avoid every hole are
the sum, over the sets S of holes, of (-1)^|S| times the solutions of the free
board with a queen on every cell of S. The empty set's term is the free board,
which the symmetry kernels count in about a sixth of a plain search
(:mod:`cpqueens.class_count`); every other term is a completion with |S|
queens placed, about 1/n of a plain search for one queen, far less for more.
Sets with two attacking cells have no solution and are left out; sets that a
board symmetry maps onto each other have one count, so they are counted once,
their signs summed, in the image with its queens highest on the board (the
DFS goes down the rows: a queen near the top prunes it soonest).

The parts of a count (``parts``) are the free board's kernel pieces and each
term's weighted subproblems (``split.subproblems``), so that workers, progress,
checkpoints and time limits treat them as any other split.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from cpqueens import class_count
from cpqueens.board import Board
from cpqueens.class_count import Piece
from cpqueens.constraints import Cell
from cpqueens.model import Model
from cpqueens.split import Subproblem
from cpqueens.split import subproblems as split_subproblems
from cpqueens.symmetry import TRANSFORMS

#: At most this many holes (2 ** MAX_HOLES sets); more and the completions cost more than they save.
MAX_HOLES = 8

#: A part of the count: a piece of the free board's kernels, or a signed weighted completion.
Part = Subproblem | Piece


def worth(n: int, holes: Sequence[Cell]) -> bool:
    """Whether the sum pays on an n x n board with ``holes``: a few, at most n / 2 of them.

    Each one-hole term costs about 1/n of a plain search, the free board about 1/6.
    """
    return 1 <= len(holes) <= min(MAX_HOLES, n // 2)


def _attack(a: Cell, b: Cell) -> bool:
    return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])


def orient(n: int, cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The image of ``cells`` under the 8 symmetries with its queens highest (least row sum).

    >>> orient(16, [(13, 8)])
    ((2, 7),)
    """
    images = [tuple(sorted(f(r, c, n) for r, c in cells)) for f in TRANSFORMS.values()]
    return min(images, key=lambda image: (sum(r for r, _ in image), image))


def terms(n: int, holes: Iterable[Cell]) -> list[tuple[tuple[Cell, ...], int]]:
    """The non-empty sets of holes to place queens on, oriented, with their summed signs.

    The free board's term (+1) is not listed. Zero sums are left out.

    >>> terms(8, [(0, 0), (7, 7)])
    [(((0, 0),), -2)]
    """
    holes = sorted(set(holes))
    weights: dict[tuple[Cell, ...], int] = {}
    for size in range(1, len(holes) + 1):
        for chosen in combinations(holes, size):
            if any(_attack(a, b) for a, b in combinations(chosen, 2)):
                continue
            key = orient(n, chosen)
            weights[key] = weights.get(key, 0) + (-1) ** size
    return sorted((cells, weight) for cells, weight in weights.items() if weight)


def parts(model: Model, depth: int) -> list[Part]:
    """The free board's kernel pieces at ``depth``, then every term's subproblems at ``depth``."""
    n = model.n
    found: list[Part] = list(class_count.pieces(n, depth))
    free = Board(n, ())
    for cells, weight in terms(n, model.board.blocked):
        for piece in split_subproblems(Model(free, 1, cells), depth):
            found.append(Subproblem(piece.model, weight * piece.weight))
    return found


def total(n: int, split: Sequence[Part], counts: Sequence[int]) -> int:
    """The board's count from the count of every part of ``split``.

    Raises ArithmeticError if the kernels' pieces do not fit together.
    """
    pieces = [
        (part, value) for part, value in zip(split, counts, strict=True) if isinstance(part, tuple)
    ]
    two, four, eight = class_count.combine(n, [p for p, _ in pieces], [v for _, v in pieces])
    rest = sum(
        value for part, value in zip(split, counts, strict=True) if not isinstance(part, tuple)
    )
    return 2 * two + 4 * four + 8 * eight + rest
