"""Claimed symmetries checked: a ``keeps`` or a ``kept_by`` that does not hold raises.

``Model.where(condition, keeps=(...))`` declares board symmetries that map the
solutions meeting the conditions onto such solutions, and a kind defined
outside the package names its own (``kept_by``); counts then use them (the
split, Burnside's lemma, unique counts, lex-leader constraints). A false claim
would give a wrong count, so before any verb uses the group,
:func:`check_declared` (the column form) and :func:`check_cell_claims` (any
other) prove each claimed symmetry or refuse it with a counterexample:

- **symbolically**, for the symmetries that map each row to a row (mirror,
  flip, rot180: the image of ``q[r]`` is ``q[r]``, ``q[n-1-r]``, ``n-1-q[r]``
  or ``n-1-q[n-1-r]``): the conditions imply their image for every column of
  every row they read (all at once, as numpy arrays, when there are at most
  ``SYMBOLIC_CELLS`` assignments);
- **on the solutions** otherwise: the model's solutions are listed until one
  meets the conditions while its image does not (the counterexample); none
  means the declaration holds on this model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, overload

from cpqueens.expressions import (
    Comparison,
    CondNode,
    Distinct,
    Element,
    IntNode,
    Logic,
    Node,
    Operator,
    Truth,
    Var,
    reads,
)
from cpqueens.lowering.kinds import lower
from cpqueens.strategies.symmetry import group
from cpqueens.vocabulary.constraints import BUILT_IN_KINDS, ConstraintKind, Where
from cpqueens.vocabulary.geometry import AFFINE, closure, image

if TYPE_CHECKING:
    from cpqueens.vocabulary.cells import CellProblem
    from cpqueens.vocabulary.problem import Problem as Model

#: The most assignments of the rows a condition reads that the symbolic check evaluates.
SYMBOLIC_CELLS = 1 << 20


@overload
def mapped(node: IntNode, name: str, n: int) -> IntNode: ...
@overload
def mapped(node: CondNode, name: str, n: int) -> CondNode: ...
def mapped(node: Node, name: str, n: int) -> Node:
    """``node`` read on the image of a solution under ``name`` (a symmetry mapping rows to rows).

    >>> str(mapped(Comparison("<", Var(0, 0), Var(0, 7)), "rot180", 8))
    '7 - q0[7] < 7 - q0[0]'
    """
    _, reverse, negate = AFFINE[name]
    if isinstance(node, int):
        return node
    if isinstance(node, Var):
        var = Var(node.colour, n - 1 - node.row if reverse else node.row)
        return Operator("-", (n - 1, var)) if negate else var
    if isinstance(node, Comparison):
        return Comparison(node.name, mapped(node.lhs, name, n), mapped(node.rhs, name, n))
    if isinstance(node, Operator):
        return Operator(node.name, tuple(mapped(arg, name, n) for arg in node.args))
    if isinstance(node, Logic):
        return Logic(node.name, tuple(mapped(arg, name, n) for arg in node.args))
    if isinstance(node, Distinct):
        return Distinct(tuple(mapped(arg, name, n) for arg in node.args))
    if isinstance(node, Element):
        return Element(node.values, mapped(node.index, name, n))
    if isinstance(node, Truth):
        return Truth(mapped(node.condition, name, n))
    raise TypeError(f"not an expression node: {node!r}")


def proved(condition: CondNode, name: str, n: int) -> bool:
    """Whether ``condition`` implies its image under ``name`` for every assignment it reads.

    Only for the symmetries that map rows to rows, and at most ``SYMBOLIC_CELLS``
    assignments; False means "not proved", not "false".
    """
    import numpy as np

    from cpqueens.lowering.tables import table

    if AFFINE[name][0]:
        return False  # the image reads the inverse permutation: not row by row
    image_node = mapped(condition, name, n)
    variables = tuple(sorted(set(reads(condition)) | set(reads(image_node))))
    if n ** len(variables) > SYMBOLIC_CELLS:
        return False
    shape = (n,) * len(variables)
    before = np.broadcast_to(table(condition, n, variables), shape)
    after = np.broadcast_to(table(image_node, n, variables), shape)
    return bool(np.all(~before | after))


def claimed(kind: object) -> bool:
    """Whether ``kind``'s symmetries are a user's claim: a condition's ``keeps``, an outside kind's.

    The built-in kinds' ``kept_by`` are the package's own (each tested); a
    condition keeps what ``where(keeps=...)`` declares, a kind defined outside
    the package what its ``kept_by`` names: both are checked before they prune.
    """
    if isinstance(kind, Where):
        return len(kind.keeps) > 1
    return not isinstance(kind, BUILT_IN_KINDS)


def check_declared(model: Model, names: tuple[str, ...] | None = None) -> None:
    """Raise ValueError if a symmetry of ``model``'s group does not keep what claims it.

    ``names`` is the group (``symmetry.group(model)`` if None). Each symmetry
    is proved symbolically where it maps rows to rows and the claims are
    conditions (an outside kind read through its decomposition), else looked
    for in the solutions: the message names the symmetry, the claim and a
    solution that meets it while its image does not.
    """
    claims: list[Any] = [kind for kind in model.extra if claimed(kind)]
    names = group(model) if names is None else names
    if not claims or len(names) == 1:
        return
    for name in names:
        if name == "identity" or _proved(claims, name, model.n, model.colours):
            continue
        found = counterexample(model, claims, name)
        if found is not None:
            raise ValueError(_refusal(claims, name, model.n, *found))


def _proved(claims: Sequence[object], name: str, n: int, colours: int) -> bool:
    """Whether the claims, read as conditions, imply their image under ``name`` (symbolically)."""
    conditions: list[CondNode] = []
    for kind in lower(claims, BUILT_IN_KINDS, n, colours):
        if isinstance(kind, Where):
            conditions.append(kind.condition)
        elif not isinstance(kind, ConstraintKind) or not isinstance(kind, BUILT_IN_KINDS):
            return False  # a part no condition states
        elif name not in closure(kind.kept_by(n)):
            return False  # a built-in part its own symmetries leave out
    return not conditions or proved(Logic("and", tuple(conditions)), name, n)


def counterexample(
    model: Model, claims: Sequence[object], name: str
) -> tuple[Any, Any, Any] | None:
    """A solution whose image under ``name`` breaks a claim: (solution, image, claim), or None."""
    from cpqueens.backends import get
    from cpqueens.strategies.planner import resolve

    for found in get(resolve(model)).solutions(model):
        mapped_solution = image(name, found, model.n)
        for kind in claims:
            if kind.violation(mapped_solution, model.n) is not None:  # type: ignore[attr-defined]
                return found, mapped_solution, kind
    return None


def _refusal(
    claims: Sequence[object], name: str, n: int, solution: Any, mapped: Any, kind: Any
) -> str:
    """The message of a claim that ``name`` does not keep, with its counterexample."""
    if isinstance(kind, Where):
        declared = tuple(dict.fromkeys(k for w in claims if isinstance(w, Where) for k in w.keeps))
        declared = tuple(k for k in declared if k != "identity")
        return (
            f"the conditions are not kept by {name} (declared with keeps={declared!r}): "
            f"the solution {_text(solution)} meets them, its image under {name} "
            f"{_text(mapped)} does not; declare only symmetries that keep every condition"
        )
    return (
        f"the kind {kind} is not kept by {name} (its kept_by({n}) names "
        f"{tuple(kind.kept_by(n))!r}): the solution {_text(solution)} meets it, its image "
        f"under {name} {_text(mapped)} does not; name only symmetries that keep the kind"
    )


def check_cell_claims(problem: CellProblem, kinds: tuple[object, ...]) -> None:
    """Raise ValueError if a symmetry of a cell form's group breaks what a user's kind claims.

    The group of a statement of any number of pieces (``problem.symmetries``)
    trusts its conditions' ``keeps`` and outside kinds' ``kept_by``; when one
    claims more than the identity, every solution's image under every
    symmetry of the group must be a solution (``problem.check``), else the
    message names the symmetry and the solution it maps out of the statement.
    """
    if len(problem.symmetries) == 1 or not any(claimed(kind) for kind in kinds):
        return
    from cpqueens.backends import get
    from cpqueens.strategies.planner import AUTO, cell_engine

    board = problem.board
    engine = cell_engine(problem, AUTO, "solutions", None, False, None)
    for pieces in get(engine).cell_solutions(problem, None, unique=False, deadline=None):
        for name, swap in problem.symmetries[1:]:
            mapped = tuple(
                sorted(
                    (*board.transform(name, (r, c)), (1 - a) if swap else a) for r, c, a in pieces
                )
            )
            why = problem.check(mapped)
            if why is not None:
                what = f"{name}+swap" if swap else name
                raise ValueError(
                    f"the kinds and conditions are not kept by {what}, which they claim: it maps "
                    f"the solution {sorted(pieces)} to {list(mapped)}, where {why}; claim only "
                    "symmetries that keep them"
                )


def _text(solution: Any) -> str:
    """A solution as its columns (colour 0 alone for one colour)."""
    return str(solution[0] if len(solution) == 1 else solution)
