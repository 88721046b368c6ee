"""Unique counts by Burnside's lemma: a model's classes from its total and what the turns fix.

The classes of a model under its group G are the mean over G of the solutions
each symmetry fixes: the total for the identity; none for a reflection (it
would fix every queen of a colour on one line, or put two of them on one
diagonal, on a board of n >= 2: colours are never permuted); and for the half
and quarter turns, the solutions equal to their own turn. So the classes are
``(total + fix180 + 2 * fix90) / |G|``, the turns' terms present when G holds them.

The turns' solutions are few and found fast: for one colour by the kernels'
search of turned row pairs (``class_count.turn_fixed``); for several colours
each colour's turned placements are listed here and the tuples of them that
share no cell are counted (a colour's solution is fixed exactly when each
colour's placement is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpqueens.backends import capabilities
from cpqueens.expressions import evaluate
from cpqueens.strategies import class_count
from cpqueens.vocabulary.constraints import Where

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem

Columns = tuple[int, ...]


def fits(model: Problem, backend: str) -> bool:
    """Whether :func:`classes` counts the classes of ``model``: in the kernels, no extra constraint.

    One colour may have user conditions (``Where``, their declared symmetries
    checked first): the turned placements are listed and the conditions
    evaluated on each. The turned placements are searched on machine
    integers: n <= 31.
    """
    conditions = all(isinstance(c, Where) for c in model.extra) and model.colours == 1
    return (
        capabilities(backend).kernels
        and model.diagonals  # the turned placements are searched as queens
        and (not model.extra or conditions)
        and 2 <= model.n <= class_count.MAX_N
    )


def classes(model: Problem, names: Sequence[str], total: int) -> int:
    """The solution classes of ``model`` under its group ``names``, from its ``total`` count.

    Raises ArithmeticError if Burnside's sum does not divide by the group's size.

    >>> from cpqueens import model
    >>> classes(model(8).columns(), ("identity", "rot90", "rot180", "rot270", "mirror", "flip",
    ...                    "diagonal", "antidiagonal"), 92)
    12
    """
    fixed180 = fixed90 = 0
    if "rot180" in names:
        fixed180, fixed90 = turn_fixed(model)
    turns = fixed180 + (2 * fixed90 if "rot90" in names else 0)
    found, left = divmod(total + turns, len(names))
    if left:
        raise ArithmeticError(
            f"Burnside's sum {total} + {turns} does not divide by the group's {len(names)}"
            f" symmetries for {model}"
        )
    return found


def turn_fixed(model: Problem) -> tuple[int, int]:
    """The solutions of ``model`` equal to their half turn, and to their quarter turn.

    The model is one the half turn keeps (its holes and placed queens).

    >>> from cpqueens import model
    >>> turn_fixed(model(8).columns()), turn_fixed(model(6, colours=2).columns())
    ((4, 0), (12, 0))
    """
    n = model.n
    masks = _row_masks(model)
    if model.colours == 1 and model.extra:  # conditions: each turned placement evaluated
        wheres = [c for c in model.extra if isinstance(c, Where)]
        kept = [
            p
            for p in half_turn_placements(n, masks[0])
            if all(evaluate(w.condition, (p,)) for w in wheres)
        ]
        return len(kept), sum(1 for p in kept if is_quarter_turn_fixed(p))
    if model.colours == 1:
        return class_count.turn_fixed(n, masks[0])
    lists = [half_turn_placements(n, rows) for rows in masks]
    quarter = [[p for p in placements if is_quarter_turn_fixed(p)] for placements in lists]
    return _disjoint_tuples(lists), _disjoint_tuples(quarter)


def _row_masks(model: Problem) -> list[list[int]]:
    """Each colour's allowed columns per row (bit c: column c).

    The free cells, and a placed queen's row its cell alone (a model
    :func:`fits` has no other constraint but conditions, which are evaluated apart).
    """
    n = model.n
    rows = [(1 << n) - 1] * n
    for row, col in model.board.blocked:
        rows[row] &= ~(1 << col)
    first = list(rows)
    for row, col in model.placed:
        first[row] &= 1 << col
    return [first, *([rows] * (model.colours - 1))]


def half_turn_placements(n: int, rows: Sequence[int]) -> list[Columns]:
    """Every one-colour placement on per-row ``rows`` (bit c: column c) equal to its half turn.

    The queen (r, c) has its partner (n - 1 - r, n - 1 - c); rows are placed in
    pairs from the top, an odd board's middle queen in the centre.

    >>> half_turn_placements(5, [31] * 5)
    [(1, 4, 2, 0, 3), (3, 0, 2, 4, 1)]
    """
    half = n // 2
    columns = [0] * n
    taken: tuple[set[int], set[int], set[int]] = (set(), set(), set())  # columns, r+c, r-c
    if n % 2:
        if not rows[half] >> half & 1:
            return []
        columns[half] = half
        _mark(taken, half, half)
    found: list[Columns] = []

    def place(r: int) -> None:
        if r == half:
            found.append(tuple(columns))
            return
        for c in range(n):
            partner = (n - 1 - r, n - 1 - c)
            if not (rows[r] >> c & 1 and rows[partner[0]] >> partner[1] & 1):
                continue
            if not _free(taken, r, c):
                continue
            _mark(taken, r, c)
            if _free(taken, *partner):
                _mark(taken, *partner)
                columns[r], columns[partner[0]] = c, partner[1]
                place(r + 1)
                _unmark(taken, *partner)
            _unmark(taken, r, c)

    place(0)
    return found


def is_quarter_turn_fixed(columns: Columns) -> bool:
    """Whether a placement equals its quarter turn, which moves (r, c) to (c, n - 1 - r).

    >>> is_quarter_turn_fixed((1, 3, 0, 2)), is_quarter_turn_fixed((0, 2, 4, 1, 3))
    (True, False)
    """
    n = len(columns)
    return all(columns[c] == n - 1 - r for r, c in enumerate(columns))


def _free(taken: tuple[set[int], set[int], set[int]], r: int, c: int) -> bool:
    return c not in taken[0] and r + c not in taken[1] and r - c not in taken[2]


def _mark(taken: tuple[set[int], set[int], set[int]], r: int, c: int) -> None:
    taken[0].add(c)
    taken[1].add(r + c)
    taken[2].add(r - c)


def _unmark(taken: tuple[set[int], set[int], set[int]], r: int, c: int) -> None:
    taken[0].discard(c)
    taken[1].discard(r + c)
    taken[2].discard(r - c)


def _disjoint_tuples(lists: Sequence[Sequence[Columns]], chosen: tuple[Columns, ...] = ()) -> int:
    """The tuples taking one placement from each list, no two sharing a cell."""
    if len(chosen) == len(lists):
        return 1
    return sum(
        _disjoint_tuples(lists, (*chosen, placement))
        for placement in lists[len(chosen)]
        if all(all(a != b for a, b in zip(placement, other, strict=True)) for other in chosen)
    )
