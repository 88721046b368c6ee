"""The one door: ``cpqueens.model(...)``'s keywords read into one statement.

Every keyword is checked here once, with a message that names the bad value;
what it means is stated in :class:`~cpqueens.vocabulary.statement.Statement`.
A ``Board`` brings its blocked cells and queens, a region puzzle its regions,
stars, givens and rules.
"""

from __future__ import annotations

import numbers
import sys
from collections.abc import Iterable, Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from cpqueens.vocabulary.board import Board, check_cells
from cpqueens.vocabulary.cells import CellBoard, Piece
from cpqueens.vocabulary.constraints import Cell, check_region_grid
from cpqueens.vocabulary.limits import MAX_VARIANT_COLOURS
from cpqueens.vocabulary.statement import Statement

if TYPE_CHECKING:
    from typing_extensions import TypeIs  # annotations only: never imported at run time

    from cpqueens.vocabulary.regions import RegionPuzzle

ATTACKS = ("queen", "rook", "king", "bishop")


def statement(arguments: Mapping[str, Any]) -> Statement:
    """The statement ``cpqueens.model``'s arguments make (see its docstring).

    ``arguments`` maps each parameter of :func:`cpqueens.model` to its value
    (its ``locals()``): the keywords, their types and defaults are stated
    once, in that signature, and read here by name.
    """
    a = SimpleNamespace(**arguments)
    n, blocked, colours, placed = a.n, a.blocked, a.colours, a.placed
    toroidal, knight, diagonals, no_touch = a.toroidal, a.knight, a.diagonals, a.no_touch
    regions, per_region, attack, armies = a.regions, a.per_region, a.attack, a.armies
    per_row, per_column, columns = a.per_row, a.per_column, a.columns
    independent, dominating = a.independent, a.dominating
    if attack not in ATTACKS:
        raise ValueError(f"attack must be one of 'queen', 'rook', 'king', 'bishop', got {attack!r}")
    for flag, name in (
        (toroidal, "toroidal"),
        (knight, "knight"),
        (diagonals, "diagonals"),
        (no_touch, "no_touch"),
    ):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    if _is_puzzle(n):
        return _from_puzzle(n, blocked, placed, regions, per_region, diagonals)
    if per_region is not None and regions is None:
        raise ValueError(f"per_region={per_region!r} needs regions: a grid of region numbers")
    if regions is not None and per_region is None:
        per_region = 1
    if isinstance(n, Board):
        size, holes = n.n, (*n.blocked, *check_cells(blocked, n.n, "blocked cell"))
        placed = (*n.queens, *placed)
        if colours is None:
            colours = 1 + max((colour for *_, colour in n.queens), default=0)
    else:
        size = _size(n)
        holes = (
            tuple(blocked) if columns is not None else check_cells(blocked, size, "blocked cell")
        )
    colours = 1 if colours is None else colours
    if toroidal and not diagonals:
        raise ValueError(
            "toroidal=True wraps the diagonals around the board: it needs diagonals=True, "
            "got diagonals=False"
        )
    if not diagonals and attack == "queen":
        attack = "rook"
    board = CellBoard(
        size,
        size if columns is None else columns,
        holes,
        attack=attack,
        toroidal=toroidal,
        knight=knight,
        touch=not no_touch,
    )
    one_per_line = _one_per_line(size, per_row, per_column, per_region, attack, armies,
                                 independent, dominating, columns)  # fmt: skip
    if one_per_line and regions is not None:
        check_region_grid(regions, size)  # the Queens game's n regions, every one used
    if one_per_line and (toroidal or knight or regions is not None or no_touch):
        _check_variant_colours(colours)
    groups = colours if isinstance(colours, int) and not isinstance(colours, bool) else 1
    pieces = placed_pieces(placed, size, max(groups, armies if isinstance(armies, int) else 1),
                     one_per_line, columns)  # fmt: skip
    return Statement(
        board,
        colours=colours,
        armies=armies,
        independent=independent,
        dominating=dominating,
        per_row=per_row,
        per_column=per_column,
        regions=regions,  # type: ignore[arg-type]  # checked and made a tuple by the statement
        per_region=per_region,
        placed=pieces,
    )


def _size(n: object) -> int:
    """``n`` as a board size: an int >= 1 (the statement bounds it by what it states)."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"board size n must be an int >= 1, got {n!r} ({type(n).__name__})")
    if n < 1:  # type: ignore[operator]
        raise ValueError(f"board size n must be an int >= 1, got {int(n)}")  # type: ignore[call-overload]
    return int(n)  # type: ignore[call-overload]


def _one_per_line(
    n: int,
    per_row: object,
    per_column: object,
    per_region: object,
    attack: str,
    armies: object,
    independent: object,
    dominating: object,
    columns: object,
) -> bool:
    """Whether the keywords state one piece per row and column (``Statement.column_shaped``)."""
    if columns not in (None, n) or armies != 1 or independent is not True:
        return False
    if dominating is not False or per_region not in (None, 1):
        return False
    if attack == "king":
        return (per_row, per_column) == (1, 1)
    return (per_row, per_column) in ((1, 1), (1, None), (None, 1))


def _check_variant_colours(colours: object) -> None:
    """Refuse more colours than the variant rules are stated for (one rule per colour)."""
    if isinstance(colours, int) and not isinstance(colours, bool) and colours > MAX_VARIANT_COLOURS:
        raise ValueError(  # one variant constraint per colour: refused before they are built
            f"colours must be at most {MAX_VARIANT_COLOURS:,} with toroidal or knight, regions "
            f"or no_touch, got {colours:,}"
        )


def placed_pieces(
    placed: Iterable[Any], n: int, groups: int, one_per_line: bool, columns: int | None
) -> tuple[Piece, ...]:
    """The placed pieces as (row, col, group) triples: pairs are group 0.

    With one piece per row and column, two placed pieces of one group may not
    share a row (the message names both).
    """
    if isinstance(placed, (str, bytes)) or not isinstance(placed, Iterable):
        check_cells(placed, n, "placed queen")  # raises its error naming the value
    pieces: list[Piece] = []
    for item in placed:
        group = 0
        if isinstance(item, (tuple, list)) and len(item) == 3:
            if isinstance(item[2], bool) or not isinstance(item[2], numbers.Integral):
                raise TypeError(f"placed queen {tuple(item)!r}: its colour must be an int")
            group = int(item[2])
            if not 0 <= group < groups and one_per_line:
                raise ValueError(
                    f"placed queen {tuple(item)!r}: colour {group} is outside the "
                    f"model's colours 0..{groups - 1}"
                )
            if not 0 <= group < groups:
                raise ValueError(
                    f"placed piece {tuple(item)!r} has army {group}; armies are 0..{groups - 1}"
                )
            item = tuple(item[:2])
        if columns is None:
            (cell,) = check_cells([item], n, "placed queen")
        else:
            cell = _cell_pair(item)
        pieces.append((*cell, int(group)))
    if one_per_line:
        one_per_row(pieces)
    return tuple(pieces)


def _cell_pair(item: object) -> Cell:
    """A (row, col) pair of ints (the statement checks that it lies on the board)."""
    if (
        not isinstance(item, (tuple, list))
        or len(item) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
    ):
        raise TypeError(f"placed piece must be (row, col) or (row, col, army), got {item!r}")
    return int(item[0]), int(item[1])


def one_per_row(pieces: list[Piece]) -> None:
    """Refuse two placed pieces of one group in one row (one piece per row stated)."""
    rows: dict[tuple[int, int], Cell] = {}
    for r, c, group in sorted(set(pieces)):
        if (group, r) in rows:
            other = rows[(group, r)]
            of = f" of colour {group}" if group else ""
            raise ValueError(
                f"placed queens {other!r} and {(r, c)!r}{of} share row {r}: "
                f"expected at most one placed queen per row{' and colour' if group else ''}"
            )
        rows[(group, r)] = (r, c)


def _is_puzzle(n: object) -> TypeIs[RegionPuzzle]:
    """Whether ``n`` is a region puzzle; none can exist before its module is imported."""
    puzzles = sys.modules.get("cpqueens.vocabulary.regions")
    return puzzles is not None and isinstance(n, puzzles.RegionPuzzle)


def _from_puzzle(
    puzzle: RegionPuzzle,
    blocked: Iterable[Cell],
    placed: Iterable[Any],
    regions: object,
    per_region: object,
    diagonals: bool,
) -> Statement:
    """A region puzzle's statement, with more blocked cells and pieces if given.

    ``diagonals`` left True takes the puzzle's own choice; False turns them off.
    """
    from dataclasses import replace

    from cpqueens.lowering.regions import statement_of

    if regions is not None:
        raise ValueError(f"pass regions or a puzzle, not both: got regions={regions!r}")
    if not diagonals and puzzle.diagonals:
        puzzle = replace(puzzle, diagonals=False)
    found = statement_of(puzzle)
    n = puzzle.n
    holes = check_cells(blocked, n, "blocked cell")
    pieces = placed_pieces(placed, n, 1, False, None)
    board = replace(found.board, blocked=(*found.board.blocked, *holes))
    found = replace(found, board=board, placed=(*found.placed, *pieces))
    return found if per_region is None else replace(found, per_region=per_region)  # type: ignore[arg-type]
