"""The statement: the whole problem a user states, as plain frozen data.

:func:`cpqueens.model` reads its keywords into one :class:`Statement`, and
every builder of a model (``with_placed``, ``with_constraints``, ``where``)
returns a new one. The statement knows no encoding: the planner lowers it
(:mod:`cpqueens.lowering`) to the column form ``q[colour][row]`` when it has
one piece per row and column, or to the cell form ``x[row, col]`` otherwise,
and every engine and exporter reads those forms. Its ``symmetries()`` are
the one group that ``count(unique=True)`` counts classes under.

>>> from cpqueens.vocabulary.cells import CellBoard
>>> s = Statement(CellBoard(4, 4))
>>> s.column_shaped, s.symmetries()[:3]
(True, ('identity', 'rot90', 'rot180'))
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from cpqueens.errors import NotSupportedError
from cpqueens.vocabulary.cells import SWAP_LINES, CellBoard, Piece, check_quotas
from cpqueens.vocabulary.constraints import ConstraintKind, Where
from cpqueens.vocabulary.folding import fold
from cpqueens.vocabulary.geometry import BOARD_SYMMETRIES, closure
from cpqueens.vocabulary.limits import check_n, check_queens

#: How a symmetry that also exchanges the two armies is named: "swap" alone, or "rot90+swap".
SWAP = "swap"


def symmetry_name(board: str, swap: bool) -> str:
    """The name of a board symmetry, followed by the exchange of the armies if ``swap``.

    >>> symmetry_name("identity", True), symmetry_name("rot90", True), symmetry_name("flip", False)
    ('swap', 'rot90+swap', 'flip')
    """
    if not swap:
        return board
    return SWAP if board == "identity" else f"{board}+{SWAP}"


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return value


def _count(value: object, name: str, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int >= 1, got {value!r}")
    if value < 1 or (most is not None and value > most):  # type: ignore[operator]
        expected = f"1 or {most}" if most == 2 else "an int >= 1"
        raise ValueError(f"{name} must be {expected}, got {value!r}")
    return int(value)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Statement:
    """A problem of the N-Queens family: a board, its pieces, their rules and the user's kinds.

    - ``board``: rows, columns, blocked cells and the attack relation
      (queen lines, rook lines or king steps; toroidal; knight's moves; no
      touching): :class:`~cpqueens.vocabulary.cells.CellBoard`.
    - ``colours``: sets of pieces with one piece per row and column each;
      the pieces of one colour attack no other of that colour, and no cell
      holds two (the "2n queens").
    - ``armies``: 1, or 2 armies of equal size none of whose pieces attacks
      a piece of the other (peaceable armies).
    - ``independent``: no piece attacks another (of its colour; of the other
      army, with two); ``dominating``: every free cell holds or is attacked
      by a piece.
    - ``per_row``, ``per_column``, ``regions`` and ``per_region``: exactly so
      many pieces (of each colour) on every row, column and region.
    - ``placed``: (row, col, group) pieces every solution holds (group: the
      colour or the army).
    - ``kinds``: constraint kinds, in the order stated: users' conditions
      (``Where``, over ``q`` or ``x``), kinds defined anywhere.
    """

    board: CellBoard
    colours: int = 1
    armies: int = 1
    independent: bool = True
    dominating: bool = False
    per_row: int | None = 1
    per_column: int | None = 1
    regions: tuple[tuple[int, ...], ...] | None = None
    per_region: int | None = None
    placed: tuple[Piece, ...] = ()
    kinds: tuple[object, ...] = ()

    def __post_init__(self) -> None:
        """Validate every field and normalise the placed pieces and the quotas."""
        if not isinstance(self.board, CellBoard):
            raise TypeError(f"board must be a CellBoard, got {self.board!r}")
        colours = _count(self.colours, "colours")
        armies = _count(self.armies, "armies", most=2)
        object.__setattr__(self, "colours", colours)
        object.__setattr__(self, "armies", armies)
        _flag(self.independent, "independent")
        _flag(self.dominating, "dominating")
        self._fold_rules()
        quotas = check_quotas(
            self.board, armies, self.per_row, self.per_column, self.regions, self.per_region
        )
        for name, value in zip(
            ("per_row", "per_column", "regions", "per_region"), quotas, strict=True
        ):
            object.__setattr__(self, name, value)
        if colours > 1 and armies > 1:
            raise ValueError(
                f"colours={colours} and armies={armies}: a statement has several colours "
                "(one piece per row and column each) or two armies, not both"
            )
        if colours > 1 and not self.column_shaped:
            raise ValueError(
                f"colours={colours} holds one queen per row and column for each colour on a square "
                "board of independent pieces: with any other quotas the pieces are stated on "
                "cells, where armies=2 gives two armies"
            )
        object.__setattr__(self, "placed", self._checked_placed())
        if self.column_shaped:
            check_n(self.board.rows)  # q[r]: a board of up to a million columns
            check_queens(self.board.rows, colours)  # n x colours² checks of one queen by another
        else:
            self.board.check_size()  # stated on cells: up to 10,000 of them

    def _fold_rules(self) -> None:
        """Fold the kinds that are board rules into their keywords' fields (``folding.fold``)."""
        if isinstance(self.kinds, (str, bytes)) or not isinstance(self.kinds, Iterable):
            raise TypeError(f"kinds must be a tuple of constraint kinds, got {self.kinds!r}")
        if not isinstance(self.placed, Iterable):
            raise TypeError(f"placed must be (row, col, group) triples, got {self.placed!r}")
        regions = self.regions
        folded = fold(
            self.board,
            tuple(self.kinds),
            colours=self.colours,
            armies=self.armies,
            independent=self.independent,
            dominating=self.dominating,
            regions=regions,
            placed=tuple(self.placed),
        )
        if folded.regions is not regions and self.per_region is None:
            object.__setattr__(self, "per_region", 1)  # the Queens game's one per region
        for name in ("board", "regions", "placed", "kinds"):
            if getattr(folded, name) is not getattr(self, name):
                object.__setattr__(self, name, getattr(folded, name))

    def _checked_placed(self) -> tuple[Piece, ...]:
        """The placed pieces as sorted (row, col, group) triples, each checked."""
        groups = max(self.colours, self.armies)
        rows, cols = self.board.rows, self.board.cols
        found: set[Piece] = set()
        for piece in self.placed:
            if not isinstance(piece, tuple) or len(piece) != 3:
                raise TypeError(f"placed piece must be a (row, col, group) triple, got {piece!r}")
            row, col, group = piece
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in piece):
                raise TypeError(f"placed piece must hold three ints, got {piece!r}")
            if not (0 <= row < rows and 0 <= col < cols):
                raise ValueError(
                    f"placed piece {(row, col)!r} is off the {rows}x{cols} board: row must be "
                    f"in 0..{rows - 1} and column in 0..{cols - 1}"
                )
            if not 0 <= group < groups:
                what = "colour" if self.colours > 1 else "army"
                raise ValueError(
                    f"placed piece {(row, col, group)!r} has {what} {group}; "
                    f"expected 0..{groups - 1}"
                )
            found.add((row, col, group))
        return tuple(sorted(found))

    # -- reading it ------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        """The number of rows."""
        return self.board.rows

    @property
    def cols(self) -> int:
        """The number of columns."""
        return self.board.cols

    @property
    def groups(self) -> int:
        """How many sets of pieces: the colours, or the armies."""
        return max(self.colours, self.armies)

    @property
    def square(self) -> bool:
        """Whether the board has as many rows as columns."""
        return self.board.rows == self.board.cols

    @cached_property
    def column_shaped(self) -> bool:
        """Whether the statement has one piece per row and column (of each colour): ``q[r]``.

        A square board, one army of independent pieces that need not
        dominate, at most one per region, and quotas that give one piece per
        row and column: (1, 1), or (1, None) / (None, 1) for queens and rooks
        (n pieces that share no column on n rows share no row either);
        kings and bishops need both quotas said.
        """
        if not self.square or self.armies != 1 or not self.independent or self.dominating:
            return False
        if self.per_region not in (None, 1):
            return False
        lines = (self.per_row, self.per_column)
        if self.board.attack in ("king", "bishop"):
            return lines == (1, 1)
        return lines in ((1, 1), (1, None), (None, 1))

    @property
    def size(self) -> int | None:
        """The pieces of each group every solution has, as the quotas fix it (None: any)."""
        if self.per_row is not None:
            return self.per_row * self.board.rows
        if self.per_column is not None:
            return self.per_column * self.board.cols
        if self.per_region is not None and self.regions is not None:
            return self.per_region * (1 + max(max(row) for row in self.regions))
        return None

    @cached_property
    def one_piece_rows(self) -> tuple[int, ...]:
        """The rows that hold exactly one piece because the kinds read ``q[r]`` there.

        On a statement of any number of pieces ``q[r]`` is the column of row
        r's one piece: a condition that reads it states that row r holds
        exactly one piece, and a kind (a rule over ``q`` of every row, which
        no keyword says) states it of every row. None on a statement of one
        piece per row and column, where ``q`` is its own.

        >>> from cpqueens.vocabulary.cells import CellBoard
        >>> from cpqueens.expressions import Comparison, Var
        >>> s = Statement(CellBoard(4, 4), per_row=None, per_column=None)
        >>> s.with_kinds(Where(Comparison("<", Var(0, 0), Var(0, 3)))).one_piece_rows
        (0, 3)
        """
        if self.column_shaped or not self.kinds:
            return ()
        if any(not isinstance(kind, Where) for kind in self.kinds):
            return tuple(range(self.rows))
        from cpqueens.expressions import column_reads

        rows = {var.row for kind in self.conditions() for var in column_reads(kind.condition)}
        return tuple(sorted(rows))

    def placed_of(self, group: int) -> tuple[tuple[int, int], ...]:
        """The (row, col) cells of the pieces placed for ``group``."""
        return tuple((r, c) for r, c, g in self.placed if g == group)

    def conditions(self) -> tuple[Where, ...]:
        """The users' conditions among the kinds, in order."""
        return tuple(kind for kind in self.kinds if isinstance(kind, Where))

    # -- builders: each returns a new statement -------------------------------------------

    def with_placed(self, pieces: Iterable[Piece]) -> Statement:
        """The same statement with more placed pieces."""
        return replace(self, placed=(*self.placed, *pieces))

    def with_kinds(self, *kinds: object) -> Statement:
        """The same statement narrowed by more constraint kinds."""
        return replace(self, kinds=(*self.kinds, *kinds))

    # -- symmetry ------------------------------------------------------------------------

    @cached_property
    def group(self) -> tuple[tuple[str, bool], ...]:
        """The symmetries mapping the statement onto itself: (board symmetry, swap the armies).

        A board symmetry of the board (blocked cells, attack relation) that
        keeps the quotas, maps the regions onto regions, each group's placed
        pieces onto themselves and every kind onto itself (``kept_by``); with
        two armies, each such symmetry followed by the exchange of the armies
        too, if it maps the placed pieces of each army onto the other's and no
        condition is stated (a condition reads ``x``, the first army's cells,
        which the exchange turns into the second's). The identity comes first.
        """
        board = self.board
        kept = [name for name in board.symmetries if self._keeps(name)]
        found: list[tuple[str, bool]] = []
        exchange = self.armies == 2 and not self.conditions()
        for swap in (False, True) if exchange else (False,):
            for name in kept:
                image = {
                    (*board.transform(name, (r, c)), (1 - g) if swap else g)
                    for r, c, g in self.placed
                }
                if image == set(self.placed):
                    found.append((name, swap))
        return tuple(found)

    def _keeps(self, name: str) -> bool:
        """Whether the board symmetry ``name`` keeps the quotas, the regions and every kind."""
        if not self._keeps_lines(name):
            return False
        if self.regions is not None and not _maps_regions(self, name):
            return False
        for kind in self.kinds:
            if not isinstance(kind, ConstraintKind):
                return name == "identity"
            if not self.square:
                return name == "identity"
            # a kind kept by two symmetries is kept by their composition: an outside kind
            # may name generators only ("rot180", "diagonal"), and classes need the group
            if name not in closure(kind.kept_by(self.board.rows)):
                return False
        return True

    def _keeps_lines(self, name: str) -> bool:
        """Whether ``name`` maps the rows' and columns' quotas onto each other's.

        Rows and columns trade places under the quarter turns and the diagonal
        reflections: their quotas must agree. The rows that hold one piece
        because a kind reads ``q`` there (:attr:`one_piece_rows`) count as a
        quota of one; independent pieces that attack along the columns put
        one piece in every column when every row holds one (and the other way
        round), as on a statement of one piece per row and column.
        """
        if self.column_shaped:
            return True
        forced = set(self.one_piece_rows)
        n = self.rows
        rows = [1 if r in forced else self.per_row for r in range(n)]
        columns = [self.per_column] * self.cols
        lines = self.independent and self.armies == 1 and self.board.attack in ("queen", "rook")
        if lines and self.square and all(rule == 1 for rule in rows):
            columns = [1] * n  # n pieces, at most one per column: one in each
        if lines and self.square and all(rule == 1 for rule in columns):
            rows = [1] * n
        if name not in SWAP_LINES:
            reverses = self.board.transform(name, (0, 0))[0] != 0  # flip, rot180: rows reversed
            return all(rows[r] == rows[n - 1 - r if reverses else r] for r in range(n))
        return rows == columns

    def symmetries(self) -> tuple[str, ...]:
        """The names of the symmetries in :attr:`group` (``count(unique=True)`` counts under them).

        With two armies, a symmetry that also exchanges them is named
        ``"swap"`` (the exchange alone) or ``"<board>+swap"``.
        """
        return tuple(symmetry_name(name, swap) for name, swap in self.group)

    def check_kinds_square(self) -> None:
        """Refuse kinds on a board that is not square: they are stated over ``q`` of n x n."""
        outside = [kind for kind in self.kinds if not isinstance(kind, Where)]
        if outside and not self.square:
            raise NotSupportedError(
                f"the kind {outside[0]} is stated over q[row] of an n x n board; this board is "
                f"{self.board.rows}x{self.board.cols}"
            )


def _maps_regions(statement: Statement, name: str) -> bool:
    """Whether ``name`` maps every region onto a region (a bijection of the labels)."""
    assert statement.regions is not None
    grid, board = statement.regions, statement.board
    image: dict[int, int] = {}
    for cell in board.cells:
        r, c = board.transform(name, cell)
        here, there = grid[cell[0]][cell[1]], grid[r][c]
        if image.setdefault(here, there) != there:
            return False
    return len(set(image.values())) == len(image)


__all__ = ["BOARD_SYMMETRIES", "SWAP", "Statement", "symmetry_name"]
