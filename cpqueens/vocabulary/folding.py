"""Board rules stated as kinds become their keywords: one rule, one meaning, however it is added.

``model(4, per_row=None, per_column=None).with_constraints(NoTouch())`` and
``model(4, per_row=None, per_column=None, no_touch=True)`` state the same
problem, so they must be the same statement: a built-in rule added as a kind
is folded into the field its keyword sets (the board's attack relation, its
blocked cells, the regions, the placed pieces) whenever the keyword means
exactly that rule on the statement at hand. A kind is a rule over ``q`` (one
piece per row) only where no keyword says the same thing:

- ``Forbidden`` cells are blocked cells, ``Placed`` cells placed pieces, on
  every statement;
- ``Regions`` is ``regions=grid`` with one piece per region, on one colour
  and one army with no regions yet;
- ``Toroidal``, ``KnightMoves`` and ``NoTouch`` are ``toroidal``, ``knight``
  and ``no_touch``, on one colour and one army of independent pieces that
  need not dominate (where the keyword changes the attack relation and no
  more), the wrapping of the kind the board's.

>>> from cpqueens.vocabulary.cells import CellBoard
>>> from cpqueens.vocabulary.rules import NoTouch
>>> fields = fold(CellBoard(4, 4), (NoTouch(),), colours=1, armies=1, independent=True,
...               dominating=False, regions=None, placed=())
>>> fields.board.touch, fields.kinds
(False, ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from cpqueens.vocabulary.cells import CellBoard, Piece
from cpqueens.vocabulary.constraints import (
    Forbidden,
    KnightMoves,
    NoTouch,
    Placed,
    Regions,
    Toroidal,
)


@dataclass(frozen=True)
class Folded:
    """The fields of a statement once its board rules are folded in, and the kinds left."""

    board: CellBoard
    regions: tuple[tuple[int, ...], ...] | None
    placed: tuple[Piece, ...]
    kinds: tuple[object, ...]


def fold(
    board: CellBoard,
    kinds: Sequence[object],
    *,
    colours: int,
    armies: int,
    independent: bool,
    dominating: bool,
    regions: tuple[tuple[int, ...], ...] | None,
    placed: tuple[Piece, ...],
) -> Folded:
    """``kinds`` in order, each built-in board rule folded into its keyword's field where it may."""
    plain_attack = colours == 1 and armies == 1 and independent and not dominating
    left: list[object] = []
    pieces = list(placed)
    for kind in kinds:
        if isinstance(kind, Forbidden):
            board = replace(board, blocked=(*board.blocked, *kind.cells))
        elif isinstance(kind, Placed) and 0 <= kind.colour < max(colours, armies):
            pieces += [(r, c, kind.colour) for r, c in kind.cells]
        elif (
            isinstance(kind, Regions)
            and colours == 1
            and armies == 1
            and kind.colour == 0
            and regions is None
            and len(kind.grid) == board.rows == board.cols
        ):
            regions = kind.grid
        elif plain_attack and _folds_into_attack(kind, board):
            board = _with_rule(board, kind)
        else:
            left.append(kind)
    return Folded(board, regions, tuple(pieces), tuple(left))


def _folds_into_attack(kind: object, board: CellBoard) -> bool:
    """Whether ``kind`` (of colour 0) says what its keyword says on ``board``."""
    if getattr(kind, "colour", None) != 0:
        return False
    if isinstance(kind, Toroidal):
        # the keyword wraps every rule of the board: only the diagonals may be there to wrap
        lines = board.attack in ("queen", "bishop")
        return lines and (board.toroidal or (not board.knight and board.touch))
    if isinstance(kind, KnightMoves):
        return kind.wraps == board.toroidal
    if isinstance(kind, NoTouch):
        # on a torus of queen lines (or king steps) a wrapped touch is an attack already
        return kind.wraps == board.toroidal or (
            board.toroidal and board.attack in ("queen", "king")
        )
    return False


def _with_rule(board: CellBoard, kind: object) -> CellBoard:
    """``board`` with the rule of ``kind`` (one of :func:`_folds_into_attack`'s) switched on."""
    if isinstance(kind, Toroidal):
        return replace(board, toroidal=True)
    if isinstance(kind, KnightMoves):
        return replace(board, knight=True)
    return replace(board, touch=False)


__all__ = ["Folded", "fold"]
