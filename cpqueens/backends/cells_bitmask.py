"""The compiled counter of cell problems: one army, independent and/or dominating sets.

It translates a :class:`CellProblem` into cell masks for
:mod:`cpqueens.kernels.cells` and counts the solutions of a given size: an
independent counter that shares nothing with CP-SAT's statement. Two armies
and class counts are CP-SAT's alone (``NotSupportedError``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpqueens.errors import NotSupportedError
from cpqueens.vocabulary.cells import Cell, CellProblem

if TYPE_CHECKING:
    import numpy as np


def supports(problem: CellProblem, size: int | None = 0, unique: bool = False) -> bool:
    """Whether the kernels count ``problem``'s solutions of ``size``: one army, no classes."""
    return problem.armies == 1 and size is not None and not unique


def _placed_fit(problem: CellProblem) -> bool:
    """Whether the placed pieces stand on free cells and, if independent, attack no other."""
    board = problem.board
    placed = [(r, c) for r, c, _ in problem.placed]
    if set(placed) & set(board.blocked):
        return False
    return not problem.independent or not any(board.attacks(a, b) for a in placed for b in placed)


def _masks(problem: CellProblem, cells: list[Cell] | None = None) -> dict[str, np.ndarray]:
    import numpy as np

    board = problem.board
    index = {cell: i for i, cell in enumerate(board.cells)}
    size, words = len(index), (len(index) + 63) // 64

    def mask(cells: object) -> np.ndarray:
        out = np.zeros(words, dtype=np.uint64)
        for cell in cells:  # type: ignore[attr-defined]
            i = index[cell]
            out[i // 64] |= np.uint64(1) << np.uint64(i % 64)
        return out

    attack = np.zeros((size, words), dtype=np.uint64)
    closed = np.zeros((size, words), dtype=np.uint64)
    for cell, i in index.items():
        attack[i] = mask(board.neighbours[cell])
        closed[i] = mask(board.neighbours[cell] | {cell})
    placed = [(r, c) for r, c, _ in problem.placed]
    taken = set(board.blocked) | set(placed)
    if problem.independent:
        taken.update(*(board.neighbours[cell] for cell in placed))
    covered = set(placed).union(*(board.neighbours[cell] for cell in placed))
    return {
        "attack": attack,
        "closed": closed,
        "avail": mask(cell for cell in board.cells if cell not in taken),
        "covered": mask(covered),
        "target": mask(board.free),
    }


def count(problem: CellProblem, size: int, **_options: object) -> int:
    """The exact number of solutions with ``size`` pieces (no time limit: it is short)."""
    if not supports(problem, size):
        raise NotSupportedError("the compiled cell counter counts one army, of a given size")
    from cpqueens.kernels import cells as kernels

    placed = [(r, c) for r, c, _ in problem.placed]
    if not _placed_fit(problem):
        return 0
    more = size - len(placed)
    if more < 0:
        return 0
    m = _masks(problem)
    if problem.dominating:
        return int(
            kernels.dominating_count(
                m["closed"],
                m["attack"],
                m["avail"],
                m["covered"],
                m["target"],
                more,
                problem.independent,
            )
        )
    attack = m["attack"] if problem.independent else m["attack"] & 0
    return int(kernels.independent_counts(attack, m["avail"], more)[more])


def counts(problem: CellProblem) -> list[int]:
    """``counts[k]``: the solutions with k pieces, for every k (independent, not dominating)."""
    if not supports(problem) or problem.dominating or not problem.independent:
        raise NotSupportedError("all sizes at once: one army of independent pieces only")
    from cpqueens.kernels import cells as kernels

    placed = [(r, c) for r, c, _ in problem.placed]
    if not _placed_fit(problem):
        return [0] * (len(problem.board.cells) + 1)
    m = _masks(problem)
    found = kernels.independent_counts(m["attack"], m["avail"], len(problem.board.cells))
    return [0] * len(placed) + [int(v) for v in found[: len(found) - len(placed)]]
