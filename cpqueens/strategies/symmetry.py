"""The 8 symmetries of the board: which of them a model has, canonical solutions, class counts.

A board symmetry maps cells (r, c) of the n x n board to cells; it maps a
solution by mapping every queen, each colour to the same colour (colours are
never permuted). A model's group (``Model.symmetries()``) is the set of board
symmetries that map its blocked cells, and each colour's placed queens, onto
themselves: they then map its solutions onto its solutions, and split them
into classes (orbits).

Canonical: solutions compare as ``by_colour`` tuples (colour 0's columns row by
row, then colour 1's, ...), the order in which every backend enumerates them.
The canonical form of a solution is the smallest of its images under the
model's group; a class has exactly one canonical member, its representative.

Counting classes: the model narrowed by ``LexLeader(group)`` has exactly the
representatives as solutions. On a one-colour board, free or with holes all
8 symmetries keep, the numba kernels of
``cpqueens.kernels.classes`` count them directly, by class size
(``cpqueens.strategies.class_count`` shares the work).

Totals from representatives: no reflection fixes a solution with n >= 2 (it
would put every queen of a colour on one line, or two of them on one
diagonal), so a representative's stabiliser is {id}, {id, rot180} or the four
rotations, and its class has |G|, |G|/2 or |G|/4 members. Hence
``total = |G| * #reps - |G|/2 * #reps fixed by rot180 - |G|/4 * #reps fixed by rot90``,
three counts of narrowed models: how CP-SAT counts a symmetric model faster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from cpqueens.strategies.split import Subproblem
from cpqueens.strategies.split import subproblems as split_subproblems
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.constraints import (
    BOARD_SYMMETRIES,
    Forbidden,
    Invariant,
    KnightMoves,
    LexLeader,
    Placed,
    Toroidal,
    Where,
)

if TYPE_CHECKING:
    from cpqueens.model import Model

Cell = tuple[int, int]
Columns = tuple[tuple[int, ...], ...]

#: name -> the map of cell (r, c) on an n x n board; rows grow downwards.
TRANSFORMS: dict[str, Callable[[int, int, int], Cell]] = {
    "identity": lambda r, c, n: (r, c),
    "rot90": lambda r, c, n: (c, n - 1 - r),  # a quarter turn clockwise
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror": lambda r, c, n: (r, n - 1 - c),  # left <-> right
    "flip": lambda r, c, n: (n - 1 - r, c),  # top <-> bottom
    "diagonal": lambda r, c, n: (c, r),  # the main diagonal stays put
    "antidiagonal": lambda r, c, n: (n - 1 - c, n - 1 - r),
}
assert tuple(TRANSFORMS) == BOARD_SYMMETRIES

#: name -> (reads the inverse permutation, reverses the index, negates the value):
#: the image of a permutation q is ``image[i] = v(x[j])`` with x = q or its inverse,
#: j = i or n-1-i, v(x) = x or n-1-x. Solvers state images this way.
AFFINE: dict[str, tuple[bool, bool, bool]] = {
    "identity": (False, False, False),
    "rot90": (True, False, True),
    "rot180": (False, True, True),
    "rot270": (True, True, False),
    "mirror": (False, False, True),
    "flip": (False, True, False),
    "diagonal": (True, False, False),
    "antidiagonal": (True, True, True),
}


def transform(name: str, cell: Cell, n: int) -> Cell:
    """Map ``cell`` of an n x n board by the symmetry ``name``.

    >>> transform("rot90", (0, 1), 4)
    (1, 3)
    """
    if name not in TRANSFORMS:
        LexLeader((name,))  # raises the vocabulary's error naming the choices
    return TRANSFORMS[name](cell[0], cell[1], n)


def _maps_onto_itself(name: str, cells: Iterable[Cell], n: int) -> bool:
    cells = set(cells)
    return {TRANSFORMS[name](r, c, n) for r, c in cells} == cells


def board_group(board: Board) -> tuple[str, ...]:
    """The symmetries that map the board's blocked cells onto themselves.

    >>> board_group(Board(4, ((0, 0), (3, 3))))
    ('identity', 'rot180', 'diagonal', 'antidiagonal')
    """
    return tuple(name for name in TRANSFORMS if _maps_onto_itself(name, board.blocked, board.n))


def group(model: Model) -> tuple[str, ...]:
    """The symmetries mapping the whole model onto itself; ``('identity',)`` if none other.

    Blocked cells and each colour's placed queens must map onto themselves. A
    constraint that names the symmetries it ``keeps`` (``Toroidal``,
    ``KnightMoves``, a ``Where`` condition: by default only the identity)
    cuts the group down to the group they generate. Any other extra
    constraint (symmetry breaking, or one this module does not know) leaves
    only the identity.

    >>> from cpqueens import model
    >>> len(group(model(8)))
    8
    >>> group(model(5, placed=[(2, 2)], blocked=[(0, 0)]))
    ('identity', 'diagonal')
    """
    n = model.n
    blocked = set(model.board.blocked)
    placed: dict[int, set[Cell]] = {0: set(model.placed)}
    kept = set(TRANSFORMS)
    for constraint in model.extra:
        if isinstance(constraint, Forbidden):
            blocked.update(constraint.cells)
        elif isinstance(constraint, Placed):
            placed.setdefault(constraint.colour, set()).update(constraint.cells)
        elif isinstance(constraint, (Toroidal, KnightMoves, Where)):
            kept &= set(closure(constraint.keeps))
        else:
            return ("identity",)
    return tuple(
        name
        for name in TRANSFORMS
        if name in kept
        and _maps_onto_itself(name, blocked, n)
        and all(_maps_onto_itself(name, cells, n) for cells in placed.values())
    )


def _signature(name: str) -> tuple[Cell, ...]:
    """How ``name`` maps the cells of a 3x3 board: a different tuple for each symmetry."""
    return tuple(TRANSFORMS[name](r, c, 3) for r in range(3) for c in range(3))


_BY_SIGNATURE = {_signature(name): name for name in TRANSFORMS}


def compose(first: str, then: str) -> str:
    """The symmetry that maps as ``first`` and then ``then``.

    >>> compose("rot90", "rot90"), compose("mirror", "flip")
    ('rot180', 'rot180')
    """
    cells = [TRANSFORMS[first](r, c, 3) for r in range(3) for c in range(3)]
    return _BY_SIGNATURE[tuple(TRANSFORMS[then](r, c, 3) for r, c in cells)]


def closure(names: Iterable[str]) -> tuple[str, ...]:
    """The group generated by ``names`` (with the identity), in ``BOARD_SYMMETRIES`` order.

    A symmetry that keeps a condition keeps it twice over: declaring
    ``rot90`` declares ``rot180`` and ``rot270`` too.

    >>> closure(["rot90"])
    ('identity', 'rot90', 'rot180', 'rot270')
    """
    found = {"identity", *names}
    for name in found - set(TRANSFORMS):
        LexLeader((name,))  # raises the vocabulary's error naming the choices
    while True:
        more = {compose(a, b) for a in found for b in found} - found
        if not more:
            return tuple(name for name in TRANSFORMS if name in found)
        found |= more


def image(name: str, by_colour: Columns, n: int) -> Columns:
    """The image of a solution (one column tuple per colour) under the symmetry ``name``.

    >>> image("rot90", ((0, 4, 7, 5, 2, 6, 1, 3),), 8)
    ((7, 1, 3, 0, 6, 4, 2, 5),)
    """
    result = []
    for columns in by_colour:
        mapped: list[int | None] = [None] * n
        for row, col in enumerate(columns):
            r, c = transform(name, (row, col), n)
            mapped[r] = c
        if None in mapped or len(columns) != n:
            raise ValueError(
                f"cannot map {columns!r} by {name}: expected one queen in every row and column"
            )
        result.append(tuple(mapped))  # type: ignore[arg-type]
    return tuple(result)


def canonical(by_colour: Columns, names: Iterable[str], n: int) -> Columns:
    """The smallest image of ``by_colour`` under the symmetries ``names`` (with the identity)."""
    return min([by_colour, *(image(name, by_colour, n) for name in names)])


def orbit(by_colour: Columns, names: Iterable[str], n: int) -> tuple[Columns, ...]:
    """Every distinct image of ``by_colour`` under the symmetries ``names``, sorted.

    >>> len(orbit(((1, 3, 0, 2),), BOARD_SYMMETRIES, 4))
    2
    """
    return tuple(sorted({by_colour, *(image(name, by_colour, n) for name in names)}))


def satisfies(by_colour: Columns, constraint: LexLeader | Invariant, n: int) -> bool:
    """Whether a complete solution meets a ``LexLeader`` or ``Invariant`` constraint."""
    if isinstance(constraint, Invariant):
        return image(constraint.symmetry, by_colour, n) == by_colour
    return all(by_colour <= image(name, by_colour, n) for name in constraint.symmetries)


def leader(model: Model) -> LexLeader:
    """The constraint keeping exactly one solution (the canonical one) of each class."""
    return LexLeader(tuple(name for name in group(model) if name != "identity"))


def subproblems(model: Model, backend: str, depth: int) -> tuple[Subproblem, ...]:
    """Weighted subproblems adding up to the model's count: lex-leader ones for CP-SAT.

    For CP-SAT on a model with symmetries (and n >= 2) the parts are the
    representatives (weight |G|), those fixed by rot180 (-|G|/2) and those
    fixed by rot90 (-|G|/4), each split further on ``depth - 1`` rows (the
    lex-leader constraint already does the mirror's work on the first row);
    any other backend gets ``split.subproblems`` (the mirror and colour symmetries).
    """
    names = group(model)
    if backend != "cpsat" or len(names) == 1 or model.n < 2:
        return split_subproblems(model, depth)
    size = len(names)
    lead = leader(model)
    parts = [(model.with_constraints(lead), size)]
    if "rot180" in names:
        parts.append((model.with_constraints(lead, Invariant("rot180")), -size // 2))
    if "rot90" in names:
        parts.append((model.with_constraints(lead, Invariant("rot90")), -size // 4))
    return tuple(
        Subproblem(piece.model, weight * piece.weight)
        for narrowed, weight in parts
        for piece in split_subproblems(narrowed, max(depth - 1, 0))
    )
