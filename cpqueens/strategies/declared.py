"""Declared symmetries checked: a ``keeps`` that the conditions do not keep raises.

``Model.where(condition, keeps=(...))`` declares board symmetries that map the
solutions meeting the conditions onto such solutions; counts then use them
(the split, Burnside's lemma, unique counts). A false declaration would give
a wrong count, so before any count uses the group, :func:`check_declared`
proves each declared symmetry or refuses it with a counterexample:

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
    evaluate,
    reads,
)
from cpqueens.strategies.symmetry import group
from cpqueens.vocabulary.constraints import Where
from cpqueens.vocabulary.geometry import AFFINE, image

if TYPE_CHECKING:
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

    from cpqueens.backends.bitmask.conditions import table

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


def check_declared(model: Model, names: tuple[str, ...] | None = None) -> None:
    """Raise ValueError if a symmetry of ``model``'s group does not keep its conditions.

    ``names`` is the group (``symmetry.group(model)`` if None). The message
    names the symmetry, the declaration and a solution that meets the
    conditions while its image does not.
    """
    wheres = [c for c in model.extra if isinstance(c, Where)]
    names = group(model) if names is None else names
    if not wheres or len(names) == 1:
        return
    condition = Logic("and", tuple(where.condition for where in wheres))
    declared = tuple(dict.fromkeys(k for w in wheres for k in w.keeps if k != "identity"))
    for name in names:
        if name == "identity" or proved(condition, name, model.n):
            continue
        found = counterexample(model, condition, name)
        if found is not None:
            solution, mapped_solution = found
            raise ValueError(
                f"the conditions are not kept by {name} (declared with keeps={declared!r}): "
                f"the solution {_text(solution)} meets them, its image under {name} "
                f"{_text(mapped_solution)} does not; declare only symmetries that keep "
                "every condition"
            )


def counterexample(model: Model, condition: CondNode, name: str) -> tuple[Any, Any] | None:
    """A solution of ``model`` whose image under ``name`` fails ``condition``, with that image."""
    from cpqueens.backends import get

    backend = "bitmask" if _supported("bitmask", model) else "cpsat"
    for found in get(backend).solutions(model):
        mapped_solution = image(name, found, model.n)
        if not evaluate(condition, mapped_solution):
            return found, mapped_solution
    return None


def _supported(backend: str, model: Model) -> bool:
    from cpqueens.strategies.planner import supports

    return supports(backend, model)


def _text(solution: Any) -> str:
    """A solution as its columns (colour 0 alone for one colour)."""
    return str(solution[0] if len(solution) == 1 else solution)
