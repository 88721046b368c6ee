"""Splitting a model into independent subproblems whose weighted counts add up to its count.

A subproblem is the same model with more queens placed, so every backend can
solve it. Two symmetries cut the work where the model allows them:

- mirror: if the model maps onto itself under (r, c) -> (r, n-1-c), a queen on
  the left of the first split row stands for its mirror image too (weight 2),
  one in the middle column for itself (weight 1), one on the right is skipped;
- colours: if no constraint names a particular colour, the k colours are
  interchangeable and every solution has k! images with the colours permuted,
  exactly one of which takes increasing columns in row 0 (weight k!).

A model the flip (r, c) -> (n-1-r, c) keeps but the mirror does not is split
as its transpose (reflected in the main diagonal), which the mirror keeps: the
transpose maps the solutions one-to-one onto the transposed model's, so the
counts agree, and the mirror halves the work. (Splitting rows 0 and n - 1
together instead, one pair of cells per orbit of the flip or the half turn,
was measured and costs more than it saves: the top-down search does the
upper rows' work again for each bottom queen; ``benchmarks/RESULTS-split-symmetry.md``.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations
from math import factorial

from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.constraints import Cell, Placed
from cpqueens.vocabulary.problem import Problem


@dataclass(frozen=True)
class Subproblem:
    """A narrowed model and how many solutions of the whole each of its solutions stands for."""

    model: Problem
    weight: int

    def label(self) -> str:
        """The exact text that identifies the subproblem within its split."""
        return f"{self.weight} {self.model.placed!r} {self.model.extra!r}"

    def admits(self, value: int, n: int) -> bool:
        """Whether ``value`` can be the subproblem's weighted count.

        Its weight times 0..most: the weight may be negative (CP-SAT's
        lex-leader split subtracts the solutions fixed by a rotation), so the
        count may be too.
        """
        if self.weight == 0 or value % self.weight:
            return False
        return 0 <= value // self.weight <= most_solutions(self.model)

    def expects(self, n: int) -> str:
        """What :meth:`admits` expects of the count, for an error message."""
        return f"its weight is {self.weight}"


def most_solutions(model: Problem) -> int:
    """An upper bound on the number of solutions of ``model``.

    Colour 0 completes its placed queens (one per row) to a permutation, and
    every other colour is some permutation.

    >>> from cpqueens import model
    >>> most_solutions(model(4, placed=[(0, 1)], colours=2).columns())
    144
    """
    n = model.n
    return factorial(n - len(model.placed)) * factorial(n) ** (model.colours - 1)


def is_mirror_symmetric(model: Problem) -> bool:
    """Whether the reflection (r, c) -> (r, n-1-c) maps the model onto itself.

    >>> from cpqueens import model
    >>> is_mirror_symmetric(model(5, blocked=[(0, 1), (0, 3)]).columns())
    True
    >>> is_mirror_symmetric(model(5, blocked=[(0, 1)]).columns())
    False
    """
    n = model.n
    if any("mirror" not in getattr(c, "keeps", ()) for c in model.extra):
        return False  # an extra constraint not known to keep the mirror: assume nothing
    return _keeps_cells(model, lambda r, c: (r, n - 1 - c))


def is_flip_symmetric(model: Problem) -> bool:
    """Whether the reflection (r, c) -> (n-1-r, c) maps the model onto itself.

    Only a model with no extra constraint is taken for kept (see :func:`transposed`).

    >>> from cpqueens import model
    >>> is_flip_symmetric(model(5, blocked=[(0, 1), (4, 1)]).columns())
    True
    """
    n = model.n
    return not model.extra and _keeps_cells(model, lambda r, c: (n - 1 - r, c))


def _keeps_cells(model: Problem, image: Callable[[int, int], Cell]) -> bool:
    """Whether ``image`` maps the model's holes onto its holes and its placed queens onto theirs."""
    return all(
        {image(r, c) for r, c in cells} == set(cells)
        for cells in (model.board.blocked, model.placed)
    )


def transposed(model: Problem) -> Problem:
    """The model reflected in its main diagonal: cell (r, c) becomes (c, r).

    Its solutions are the transposes of the model's, one to one. Only for a
    model with no extra constraint (a condition on rows would need rewriting).

    >>> from cpqueens import model
    >>> transposed(model(5, blocked=[(0, 1), (4, 1)], placed=[(2, 3)]).columns()).board.blocked
    ((1, 0), (1, 4))
    """
    if model.extra:
        raise ValueError(f"cannot transpose a model with extra constraints: {model.extra!r}")
    board = Board(model.n, tuple(sorted((c, r) for r, c in model.board.blocked)))
    return replace(model, board=board, placed=tuple(sorted((c, r) for r, c in model.placed)))


def colours_interchangeable(model: Problem) -> bool:
    """Whether permuting the colours maps the model onto itself (no colour-specific constraint)."""
    return model.colours > 1 and not model.placed and not model.extra


def _attacks(a: Cell, b: Cell, diagonals: bool = True) -> bool:
    """Whether queens on ``a`` and ``b`` share a column (or, with ``diagonals``, a diagonal)."""
    return a[1] == b[1] or (diagonals and abs(a[0] - b[0]) == abs(a[1] - b[1]))


def subproblems(model: Problem, depth: int = 1, *, symmetry: bool = True) -> tuple[Subproblem, ...]:
    """Split ``model`` on its first ``depth`` rows without a placed queen.

    The weighted counts of the subproblems add up to the model's count.

    >>> from cpqueens import model
    >>> parts = subproblems(model(8).columns())
    >>> [(p.model.placed, p.weight) for p in parts]
    [(((0, 0),), 2), (((0, 1),), 2), (((0, 2),), 2), (((0, 3),), 2)]
    >>> from cpqueens.backends import get
    >>> sum(p.weight * get("bitmask").count(p.model) for p in parts)
    92
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"split depth must be an int >= 0, got {depth!r}")
    n = model.n
    taken = {r for r, _ in model.placed}
    rows = [r for r in range(n) if r not in taken][:depth]
    if not rows:
        return (Subproblem(model, 1),)
    blocked = set(model.board.blocked)
    found: list[Subproblem] = []

    if symmetry and colours_interchangeable(model):
        # Row 0 (no queen is placed): one column per colour, increasing across colours.
        k = model.colours
        free = [c for c in range(n) if (rows[0], c) not in blocked]
        for columns in combinations(free, k):
            narrowed = model.with_constraints(
                *(Placed(((rows[0], c),), colour) for colour, c in enumerate(columns) if colour)
            )
            found.extend(
                _extend(narrowed, [(rows[0], columns[0])], rows[1:], blocked, factorial(k))
            )
        return tuple(found)

    mirror = symmetry and is_mirror_symmetric(model)
    columns = {c for _, c in model.placed}  # type: ignore[assignment]  # two placed queens in a column: no transpose
    if symmetry and not mirror and is_flip_symmetric(model) and len(columns) == len(model.placed):
        return subproblems(transposed(model), depth)  # the mirror keeps the transpose
    for c in range(n):
        weight = 1
        if mirror:
            if c > n - 1 - c:
                continue
            weight = 2 if c < n - 1 - c else 1
        cell = (rows[0], c)
        if cell in blocked or any(_attacks(cell, p, model.diagonals) for p in model.placed):
            continue
        found.extend(_extend(model, [cell], rows[1:], blocked, weight))
    return tuple(found)


def _extend(
    model: Problem,
    chosen: list[Cell],
    rows: list[int],
    blocked: set[Cell],
    weight: int,
) -> list[Subproblem]:
    """Every way to add non-attacking colour-0 queens on ``rows`` to ``chosen``, then place them."""
    if not rows:
        return [Subproblem(model.with_placed(chosen), weight)]
    found = []
    for c in range(model.n):
        cell = (rows[0], c)
        if cell in blocked or any(
            _attacks(cell, p, model.diagonals) for p in (*model.placed, *chosen)
        ):
            continue
        found.extend(_extend(model, [*chosen, cell], rows[1:], blocked, weight))
    return found
