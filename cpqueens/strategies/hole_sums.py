"""A board with a few holes counted as signed counts of the free board with queens on the holes.

Inclusion-exclusion over the holes H: the solutions that avoid every hole are
the sum, over the sets S of holes, of (-1)^|S| times the solutions of the free
board with a queen on every cell of S. The empty set and the single holes are
counted together, in one pass of the symmetry kernels over the free board
(about a sixth of a plain search): each leaf weighs its class's share less
the holes' images its queens stand on (``kernels.classes.count_less_holes``).
Every larger set is a completion with |S| >= 2 queens placed, a small search.
Sets with two attacking cells have no solution and are left out; sets that a
board symmetry maps onto each other have one count, so they are counted once,
their signs summed, in the image with its queens highest on the board (the
DFS goes down the rows: a queen near the top prunes it soonest).

The parts of a count (``parts``) are the free board's "less-holes" kernel
pieces and each larger set's signed completion, so that workers, progress,
checkpoints and time limits treat them as any other split.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from cpqueens.backends import get
from cpqueens.strategies import class_count
from cpqueens.strategies.base import SUBPROBLEMS_PER_WORKER
from cpqueens.strategies.class_count import Piece, kernels_fit
from cpqueens.strategies.split import Subproblem
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.constraints import Cell
from cpqueens.vocabulary.geometry import TRANSFORMS
from cpqueens.vocabulary.problem import Problem

#: At most this many holes (2 ** MAX_HOLES sets); more and the completions cost more than they save.
MAX_HOLES = 8

#: A part of the count: a piece of the free board's kernels, or a signed weighted completion.
Part = Subproblem | Piece


def worth(n: int, holes: Sequence[Cell]) -> bool:
    """Whether the sum pays on an n x n board with ``holes``: a few, at most n / 2 of them.

    The free board and the single holes cost about 1/6 of a plain search, each
    pair of holes about 1/n^2.
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


def terms(n: int, holes: Iterable[Cell], least: int = 2) -> list[tuple[tuple[Cell, ...], int]]:
    """The sets of at least ``least`` holes to place queens on, oriented, with their summed signs.

    Zero sums are left out.

    >>> terms(8, [(0, 0), (7, 7)], least=1)
    [(((0, 0),), -2)]
    >>> terms(8, [(0, 0), (7, 7)])
    []
    """
    holes = sorted(set(holes))
    weights: dict[tuple[Cell, ...], int] = {}
    for size in range(least, len(holes) + 1):
        for chosen in combinations(holes, size):
            if any(_attack(a, b) for a, b in combinations(chosen, 2)):
                continue
            key = orient(n, chosen)
            weights[key] = weights.get(key, 0) + (-1) ** size
    return sorted((cells, weight) for cells, weight in weights.items() if weight)


#: The kind of kernel piece that counts the free board less the single holes.
LESS_HOLES = "less-holes"


def parts(model: Problem, depth: int) -> list[Part]:
    """The free board's "less-holes" pieces at ``depth``, then one completion per larger set.

    The completions stay whole: each is a small search (two queens placed cut
    it to about 1/n^2 of the board's), and splitting them costs more in
    per-part work than it shares (n=16, 4 holes: 0.85 s split by row 0 against
    0.19 s whole).
    """
    n = model.n
    found: list[Part] = [
        Piece(LESS_HOLES, *piece[1:])
        for piece in class_count.pieces(n, depth)
        if piece.kind == "top"
    ]
    free = Board(n, ())
    found.extend(
        Subproblem(Problem(free, 1, cells), weight)
        for cells, weight in terms(n, model.board.blocked)
    )
    return found


def total(n: int, split: Sequence[Part], counts: Sequence[int]) -> int:
    """The board's count from the count of every part of ``split``.

    Raises ArithmeticError if the kernels' pieces do not add up to whole solutions.
    """
    pieces = sum(v for p, v in zip(split, counts, strict=True) if not isinstance(p, Subproblem))
    if pieces % 24:
        raise ArithmeticError(f"the kernel pieces of n={n} add up to {pieces}, not 24ths")
    rest = sum(v for p, v in zip(split, counts, strict=True) if isinstance(p, Subproblem))
    return pieces // 24 + rest


def count_part(backend: str, n: int, part: Part, holes: tuple[Cell, ...]) -> int:
    """One part's count: a "less-holes" kernel piece, or a signed weighted completion."""
    if isinstance(part, Subproblem):
        return part.weight * get(backend).count(part.model)
    return class_count.count_less_holes(n, part, holes)


class HoleSums:
    """A one-colour board with a few holes: the free board less the completions on its holes."""

    name = "hole sums"
    kernels = True  # as long as the free board's count: the kernels' pass dominates
    threads = True
    counts_classes = False
    #: The kernels' pass over the free board, then the engine's completions on the holes.
    loads: tuple[str, ...] = ("less-holes", "engine")
    count_part = staticmethod(count_part)

    def fits(self, model: Problem, engine: str) -> bool:
        """A board the kernels hold with a few holes (:func:`worth`) not all 8 symmetries keep."""
        return (
            kernels_fit(model, engine)
            and worth(model.n, model.board.blocked)
            and class_count.symmetric_rows(model.n, model.board.blocked) is None
        )

    def plan(self, model: Problem, engine: str, workers: int) -> tuple[int, list[Part]]:
        """The kernels' depth for that many workers, and the parts at that depth."""
        depth = class_count.depth_for(model.n, workers, SUBPROBLEMS_PER_WORKER)
        return depth, parts(model, depth)

    def parts(self, model: Problem, engine: str, depth: int) -> list[Part]:
        """The parts at ``depth``."""
        return parts(model, depth)

    def arguments(self, model: Problem, engine: str, part: Part) -> tuple[Any, ...]:
        """The arguments of :func:`count_part` for the part."""
        return (engine, model.n, part, model.board.blocked)

    def total(self, model: Problem, parts: Sequence[Part], counts: Sequence[int]) -> int:
        """The board's count (:func:`total`)."""
        return total(model.n, parts, counts)

    def classes(self, model: Problem, parts: Sequence[Part], counts: Sequence[int]) -> int:
        """Not counted by this strategy (``counts_classes`` is False)."""
        raise NotImplementedError("hole sums count the total only")
