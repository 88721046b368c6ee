"""The cell form as primitives: the rules of a cell statement stated once, for every translator.

A :class:`~cpqueens.vocabulary.cells.CellProblem` says which pieces attack
which (the board's lines), how many stand where (quotas), what must be
covered (domination) and what the users' conditions require. Here it becomes
a list of primitives over 0/1 variables ``x[army][cell]`` (one per cell and
army), which CP-SAT, python-constraint and the CPMpy export each translate
with one block per primitive:

- ``fixed``: a variable's value known before search (a blocked cell's 0, a
  placed piece's 1);
- ``at_most_one``: at most one of these variables is 1 (the free cells of an
  attack line, for one army; a cell's two variables, for two);
- ``at_least_one``: at least one is 1 (a free cell's cover, for domination);
- ``exactly``: these variables sum to k (a quota; the size asked);
- ``equal``: two armies of equal size;
- ``apart``: the pieces of army 0 and army 1 on one line are not both there
  (peaceable armies: no line holds pieces of both);
- ``conditions``: the users' conditions over ``x[r, c]`` (army 0).

No translator decides a rule: a new rule is a new primitive here, and one
block in each translator.
"""

from __future__ import annotations

from dataclasses import dataclass

from cpqueens.expressions import CondNode
from cpqueens.vocabulary.cells import Cell, CellProblem

#: A variable: (army, cell).
Variable = tuple[int, Cell]


@dataclass(frozen=True)
class Primitives:
    """A cell statement as primitives over the variables ``x[army][cell]`` of every cell."""

    #: Every cell of the board, row by row (each has one variable per army).
    cells: tuple[Cell, ...]
    armies: int
    fixed: tuple[tuple[Variable, int], ...]
    at_most_one: tuple[tuple[Variable, ...], ...]
    at_least_one: tuple[tuple[Variable, ...], ...]
    exactly: tuple[tuple[tuple[Variable, ...], int], ...]
    equal: tuple[tuple[Variable, ...], tuple[Variable, ...]] | None
    apart: tuple[tuple[tuple[Variable, ...], tuple[Variable, ...]], ...]
    conditions: tuple[CondNode, ...]

    @property
    def variables(self) -> tuple[Variable, ...]:
        """Every variable, army 0's cells first."""
        return tuple((army, cell) for army in range(self.armies) for cell in self.cells)


def primitives(problem: CellProblem, size: int | None = None) -> Primitives:
    """The primitives of ``problem`` with ``size`` pieces per army (None: any size).

    >>> from cpqueens.vocabulary.cells import CellBoard
    >>> found = primitives(CellProblem(CellBoard(2, 2), per_row=1))
    >>> len(found.at_most_one), found.exactly[0]
    (6, (((0, (0, 0)), (0, (0, 1))), 1))
    """
    board = problem.board
    armies = range(problem.armies)
    blocked = set(board.blocked)
    free = board.free
    fixed = [((army, cell), 0) for army in armies for cell in board.blocked]
    fixed += [((army, (r, c)), 1) for r, c, army in problem.placed]
    lines = [tuple(cell for cell in line if cell not in blocked) for line in board.lines]
    lines = [line for line in lines if len(line) >= 2]
    at_most_one: list[tuple[Variable, ...]] = []
    apart: list[tuple[tuple[Variable, ...], tuple[Variable, ...]]] = []
    equal = None
    if problem.armies == 1:
        if problem.independent:  # no two pieces on one line of the attack relation
            at_most_one += [tuple((0, cell) for cell in line) for line in lines]
    else:
        at_most_one += [((0, cell), (1, cell)) for cell in free]  # a cell holds one piece
        equal = (tuple((0, cell) for cell in free), tuple((1, cell) for cell in free))
        if problem.independent:  # no line holds pieces of both armies
            apart += [
                (tuple((0, cell) for cell in line), tuple((1, cell) for cell in line))
                for line in lines
            ]
    at_least_one = []
    if problem.dominating:  # every free cell occupied or attacked
        for cell in free:
            cover = [cell, *sorted(board.neighbours[cell] - blocked)]
            at_least_one.append(tuple((army, other) for army in armies for other in cover))
    exactly = [
        (tuple((0, cell) for cell in quota.cells if cell not in blocked), quota.k)
        for quota in problem.quotas
    ]
    if size is not None:
        exactly += [(tuple((army, cell) for cell in free), size) for army in armies]
    return Primitives(
        board.cells,
        problem.armies,
        tuple(fixed),
        tuple(at_most_one),
        tuple(at_least_one),
        tuple(exactly),
        equal,
        tuple(apart),
        problem.conditions,
    )
