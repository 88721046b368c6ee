"""Shortcuts over the one door: pieces on cells, and the classic optimisation problems."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.constraints import Cell

if TYPE_CHECKING:
    from cpqueens.model.facade import Model
    from cpqueens.tasks.optimise import Optimum
    from cpqueens.vocabulary.cells import Attack


def cells(
    n: int | Board,
    m: int | None = None,
    blocked: Iterable[Cell] = (),
    *,
    placed: Iterable[tuple[int, ...]] = (),
    toroidal: bool = False,
    knight: bool = False,
    attack: Attack = "queen",
    armies: int = 1,
    independent: bool = True,
    dominating: bool = False,
    per_row: int | None = None,
    per_column: int | None = None,
    regions: Sequence[Sequence[int]] | None = None,
    per_region: int | None = None,
) -> Model:
    """A board of n rows and m columns (m = n if None) where any number of pieces stand.

    The same ``Model`` as ``model(n, columns=m, per_row=None,
    per_column=None, ...)``, with the same keywords: no quota unless one is
    given. Star Battle with k stars is ``cells(n, attack="king", per_row=k,
    per_column=k, regions=grid, per_region=k)``; the n-queens problem is
    ``cells(n, per_row=1)``.

    >>> cells(8, per_row=1).count()
    92
    >>> cells(4, attack="rook", per_row=1, per_column=1).count(unique=True)
    7
    """
    from cpqueens.model.facade import model

    return model(
        n,
        blocked,
        placed=placed,  # type: ignore[arg-type]
        toroidal=toroidal,
        knight=knight,
        attack=attack,
        armies=armies,
        independent=independent,
        dominating=dominating,
        per_row=per_row,
        per_column=per_column,
        regions=regions,
        per_region=per_region,
        columns=m,
    )


def independence(
    n: int | Board, m: int | None = None, blocked: Iterable[Cell] = (), **options: Any
) -> Optimum:
    """The most pieces no two of which attack each other, on an n x m board or a ``Board``.

    Keywords of the statement (``attack``, ``toroidal``, ``knight``) go to
    ``cells``; the others (``time_limit``, ``count``, ...) to ``maximize``.

    >>> independence(8).value, independence(3, 5, blocked=[(1, 2)]).value
    (8, 3)
    """
    statement, solve = _split(options)
    return cells(n, m, blocked, **statement).maximize(**solve)


def domination(
    n: int | Board, m: int | None = None, blocked: Iterable[Cell] = (), **options: Any
) -> Optimum:
    """The fewest pieces that occupy or attack every free cell (OEIS A075458 for queens).

    ``independent=True``: no two of them attack each other (A075324).

    >>> domination(8).value, domination(8, independent=True).value
    (5, 5)
    """
    options.setdefault("independent", False)
    statement, solve = _split(options)
    return cells(n, m, blocked, dominating=True, **statement).minimize(**solve)


def peaceable(
    n: int | Board, m: int | None = None, blocked: Iterable[Cell] = (), **options: Any
) -> Optimum:
    """The largest k such that k white and k black pieces attack none of the other army.

    OEIS A250000 for queens; queens come back as (row, col, army). On a free
    square board the proof runs in parts (``workers``, ``executor``,
    ``checkpoint``: the same call resumes); on other boards by the compiled
    line search on one core. ``count=True`` counts the optimal armies with CP-SAT.

    >>> peaceable(5).value
    4
    """
    statement, solve = _split(options)
    return cells(n, m, blocked, armies=2, **statement).maximize(**solve)


#: The keywords of the shortcuts that state the problem (the rest go to the verb).
_STATEMENT = frozenset({"toroidal", "attack", "knight", "independent", "placed"})


def _split(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The shortcuts' keywords: (the statement's, the verb's)."""
    statement = {k: v for k, v in options.items() if k in _STATEMENT}
    return statement, {k: v for k, v in options.items() if k not in _STATEMENT}
