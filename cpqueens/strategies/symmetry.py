"""A model's symmetry group used for counting: lex-leader rules and CP-SAT's class split.

A model's group (``Problem.symmetries()``) is the set of board symmetries
that map every constraint onto itself (``vocabulary.geometry`` maps cells and
solutions); they map its solutions onto its solutions and split them into
classes (orbits), each with one canonical member (its smallest image).

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

from collections.abc import Sequence
from typing import Any

from cpqueens.backends import Engine, capabilities, portable
from cpqueens.backends import get as get_backend
from cpqueens.strategies.base import SUBPROBLEMS_PER_WORKER
from cpqueens.strategies.split import Subproblem
from cpqueens.strategies.split import subproblems as split_subproblems
from cpqueens.vocabulary.constraints import Invariant, LexLeader
from cpqueens.vocabulary.problem import Problem


def group(model: Problem) -> tuple[str, ...]:
    """The symmetries mapping the whole model onto itself (``Problem.symmetries``).

    >>> from cpqueens import model
    >>> len(group(model(8).columns()))
    8
    >>> group(model(5, placed=[(2, 2)], blocked=[(0, 0)]).columns())
    ('identity', 'diagonal')
    """
    return model.symmetries()


def leader(model: Problem) -> LexLeader:
    """The constraint keeping exactly one solution (the canonical one) of each class."""
    return LexLeader(tuple(name for name in group(model) if name != "identity"))


def subproblems(model: Problem, backend: str, depth: int) -> tuple[Subproblem, ...]:
    """Weighted subproblems adding up to the model's count: lex-leader ones if the engine says.

    For an engine that declares ``lex_leader_split`` (CP-SAT) on a model with
    symmetries (and n >= 2) the parts are the representatives (weight |G|),
    those fixed by rot180 (-|G|/2) and those fixed by rot90 (-|G|/4), each
    split further on ``depth - 1`` rows (the lex-leader constraint already
    does the mirror's work on the first row);
    any other engine gets ``split.subproblems`` (the mirror and colour symmetries).
    The weights hold because no reflection fixes a solution whose queens attack
    along the diagonals; rooks (``diagonals`` False) may be fixed by one (the
    identity permutation by the main diagonal), so they take ``split.subproblems``.
    """
    names = group(model)
    lex = capabilities(backend).lex_leader_split and model.diagonals
    if not lex or len(names) == 1 or model.n < 2:
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


#: The split never lists more subproblems than this (each one row deeper is up to n times more).
MAX_SUBPROBLEMS = 100_000
#: From this width on a board is counted whole: its split alone (n/2 models of n rows at
#: depth 1) would take seconds, more than any time limit allows, for a search no split
#: could finish (the flat DFS's width, ``backends.bitmask.FLAT_MIN_N``).
WHOLE_FROM_N = 1024


def split_depth(model: Problem, workers: int, backend: str = "bitmask") -> int:
    """The fewest rows to split on that give each of ``workers`` many subproblems.

    At least one row (the mirror row), and at most half the free rows, so that
    each subproblem keeps a real search. The split is ``backend``'s
    (``symmetry.subproblems``).

    >>> from cpqueens import model
    >>> twelve = model(12).columns()
    >>> split_depth(twelve, 1), split_depth(twelve, 2), split_depth(twelve, 64)
    (2, 2, 4)
    """
    return split_for(model, workers, backend)[0]


def split_for(model: Problem, workers: int, backend: str) -> tuple[int, tuple[Subproblem, ...]]:
    """The depth ``split_depth`` chooses, with the subproblems it found at that depth."""
    free_rows = model.n - len(model.placed)
    most = max(1, free_rows // 2)
    target = SUBPROBLEMS_PER_WORKER * workers
    if model.n > WHOLE_FROM_N:  # a board this wide is counted whole (memory stays flat)
        return 0, subproblems(model, backend, 0)
    depth = 1
    parts = subproblems(model, backend, depth)
    while depth < most and len(parts) < target and len(parts) * model.n <= MAX_SUBPROBLEMS:
        depth += 1
        parts = subproblems(model, backend, depth)
    return depth, parts


def count_subproblem(backend: str | Engine, subproblem: Subproblem) -> int:
    """One subproblem's weighted count (a top-level function, so a process pool can run it).

    ``backend`` is an engine's name, or the engine itself (``backends.portable``).
    """
    engine = get_backend(backend) if isinstance(backend, str) else backend
    return subproblem.weight * engine.count(subproblem.model)


class Subproblems:
    """Any model: weighted subproblems (the same model with queens placed on its first rows)."""

    name = "subproblems"
    kernels = False
    threads = False
    counts_classes = False
    loads: tuple[str, ...] = ("engine",)
    count_part = staticmethod(count_subproblem)

    def fits(self, model: Problem, engine: str) -> bool:
        """Every model: the last strategy the planner tries."""
        return True

    def plan(self, model: Problem, engine: str, workers: int) -> tuple[int, Sequence[Subproblem]]:
        """The depth :func:`split_depth` chooses, and its subproblems."""
        return split_for(model, workers, engine)

    def parts(self, model: Problem, engine: str, depth: int) -> Sequence[Subproblem]:
        """The subproblems at ``depth``."""
        return subproblems(model, engine, depth)

    def arguments(self, model: Problem, engine: str, part: Subproblem) -> tuple[Any, ...]:
        """The arguments of :func:`count_subproblem` for the part."""
        return (portable(engine), part)

    def total(self, model: Problem, parts: Sequence[Subproblem], counts: Sequence[int]) -> int:
        """The sum of the weighted counts."""
        return sum(counts)

    def classes(self, model: Problem, parts: Sequence[Subproblem], counts: Sequence[int]) -> int:
        """Not counted by this strategy (``counts_classes`` is False)."""
        raise NotImplementedError("subproblems count the total only")
