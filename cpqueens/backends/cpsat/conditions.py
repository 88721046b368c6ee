"""CP-SAT states the expression language: every node, linear where it can be, reified elsewhere.

:class:`Conditions` posts a user's condition (and every rule a kind
decomposes into) over the solver's variables: integer nodes become linear
expressions (``abs`` and ``%`` through their equalities), conditions are
posted at the top level, reified under ``|`` and ``~``; each auxiliary
variable is a function of the model's variables, so enumeration counts each
solution once. :func:`add_symmetry_constraints` states lex-leader and
invariance rules over the images of ``q`` under board symmetries.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from cpqueens.expressions import (
    NEGATED,
    CellVar,
    Comparison,
    CondNode,
    Distinct,
    Element,
    IntNode,
    Logic,
    Truth,
    Var,
    bounds,
    evaluate,
    reads,
)
from cpqueens.vocabulary.constraints import Invariant, LexLeader
from cpqueens.vocabulary.geometry import AFFINE


class Conditions:
    """Translate condition nodes into CP-SAT: every auxiliary variable is fixed by q.

    Integer nodes become linear expressions (``abs`` through
    ``add_abs_equality``, ``%`` through ``add_modulo_equality``, whose
    truncating result is moved up by the modulus when negative, as Python's
    sign rule asks); conditions are posted directly at the top level, and
    reified (a literal equivalent to the condition) under ``|`` and ``~``.
    Each auxiliary variable is a function of q, so every solution is
    enumerated exactly once.
    """

    def __init__(self, cp: cp_model.CpModel, q: list[list[Any]], n: int) -> None:
        """Translate into ``cp`` over the variables ``q[colour][row]`` of an n x n board.

        At the cell level ``q[row][col]`` is each cell's 0/1 variable (or 0 for
        a cell no piece may take), which ``x[row, col]`` nodes read.
        """
        self.cp, self.q, self.n = cp, q, n

    def term(self, node: IntNode) -> cp_model.LinearExpr | int:
        """A linear expression equal to the integer node."""
        cp = self.cp
        if isinstance(node, int):
            return node
        if isinstance(node, Var):
            return self.q[node.colour][node.row]
        if isinstance(node, CellVar):
            return self.q[node.row][node.col]
        if isinstance(node, Element):
            target = cp.new_int_var(min(node.values), max(node.values), "element")
            cp.add_element(self.term(node.index), list(node.values), target)
            return target
        if isinstance(node, Truth):
            return self.literal(node.condition)
        args = node.args
        if node.name == "+":
            return self.term(args[0]) + self.term(args[1])
        if node.name == "-":
            return self.term(args[0]) - self.term(args[1])
        if node.name == "neg":
            return -self.term(args[0])
        if node.name == "*":
            # One of the two is an int (the expression checks it); the stubs cannot know which.
            return self.term(args[0]) * self.term(args[1])  # type: ignore[operator]
        lo, hi = bounds(node, self.n)
        if node.name == "abs":
            target = cp.new_int_var(lo, hi, "abs")
            cp.add_abs_equality(target, self.term(args[0]))
            return target
        # %: CP-SAT truncates towards zero (the result takes the dividend's sign).
        modulus = args[1]
        assert isinstance(modulus, int)
        inner_lo, inner_hi = bounds(args[0], self.n)
        truncated = cp.new_int_var(
            max(-(modulus - 1), min(inner_lo, 0)), min(modulus - 1, max(inner_hi, 0)), "mod"
        )
        cp.add_modulo_equality(truncated, self.term(args[0]), modulus)
        if inner_lo >= 0:
            return truncated
        negative = cp.new_bool_var("mod_negative")
        cp.add(truncated < 0).only_enforce_if(negative)
        cp.add(truncated >= 0).only_enforce_if(~negative)
        return truncated + modulus * negative

    def post(self, node: CondNode) -> None:
        """Require the condition."""
        cp = self.cp
        if not reads(node):
            if not evaluate(node, ()):
                cp.add_bool_or([])  # false whatever the queens: no solution
            return
        if isinstance(node, Comparison):
            cp.add(self._compare(node.name, node))
        elif isinstance(node, Distinct):
            cp.add_all_different([self.term(arg) for arg in node.args])
        elif node.name == "and":
            for arg in node.args:
                self.post(arg)
        else:
            cp.add_bool_or([self.literal(node)])

    def literal(self, node: CondNode) -> cp_model.BoolVarT:
        """A Boolean literal equivalent to the condition (both ways)."""
        cp = self.cp
        if not reads(node):
            return cp.new_constant(int(bool(evaluate(node, ()))))
        if isinstance(node, Logic) and node.name == "not":
            return ~self.literal(node.args[0])
        if isinstance(node, Logic):
            parts = [self.literal(arg) for arg in node.args]
            result = cp.new_bool_var(node.name)
            if node.name == "and":
                cp.add_bool_and(parts).only_enforce_if(result)
                cp.add_bool_or([~part for part in parts]).only_enforce_if(~result)
            else:
                cp.add_bool_or(parts).only_enforce_if(result)
                cp.add_bool_and([~part for part in parts]).only_enforce_if(~result)
            return result
        if isinstance(node, Distinct):  # pairwise: reified all_different is not native
            pairs = [
                Comparison("!=", a, b) for i, a in enumerate(node.args) for b in node.args[i + 1 :]
            ]
            return self.literal(Logic("and", tuple(pairs)))
        result = cp.new_bool_var("cmp")
        cp.add(self._compare(node.name, node)).only_enforce_if(result)
        cp.add(self._compare(NEGATED[node.name], node)).only_enforce_if(~result)
        return result

    def _compare(self, name: str, node: Comparison) -> cp_model.BoundedLinearExpression:
        # The difference is an expression even when one side is an int.
        difference = self.term(node.lhs) - self.term(node.rhs)
        if isinstance(difference, int):  # both sides constant after all (x - x is not)
            difference = cp_model.LinearExpr.constant(difference)
        return {
            "==": lambda d: d == 0,
            "!=": lambda d: d != 0,
            "<": lambda d: d < 0,
            "<=": lambda d: d <= 0,
            ">": lambda d: d > 0,
            ">=": lambda d: d >= 0,
        }[name](difference)


def add_symmetry_constraints(
    cp: cp_model.CpModel, q: list[list[cp_model.IntVar]], found: list[LexLeader | Invariant]
) -> None:
    """State ``LexLeader`` and ``Invariant`` over the images of q under board symmetries.

    Each colour's queens are a permutation, so an image is affine in q or in
    its inverse p (``vocabulary.geometry.AFFINE``). The lexicographic comparison
    uses one "equal so far" literal per position, fully determined by q, so
    every solution is enumerated exactly once.
    """
    n = len(q[0])
    inverse: list[list[cp_model.IntVar]] = []

    def images(name: str) -> list:
        reads_inverse, reverse, negate = AFFINE[name]
        if reads_inverse and not inverse:
            for colour, row_vars in enumerate(q):
                p = [cp.new_int_var(0, n - 1, f"p{colour}_{col}") for col in range(n)]
                cp.add_inverse(row_vars, p)
                inverse.append(p)
        result = []
        for colour in range(len(q)):
            x = inverse[colour] if reads_inverse else q[colour]
            for i in range(n):
                value = x[n - 1 - i if reverse else i]
                result.append(n - 1 - value if negate else value)
        return result

    flat = [var for row_vars in q for var in row_vars]
    for constraint in found:
        if isinstance(constraint, Invariant):
            for var, mapped in zip(flat, images(constraint.symmetry), strict=True):
                cp.add(var == mapped)
            continue
        for name in constraint.symmetries:
            mapped = images(name)
            # The literal "the positions before i are all equal"; none at i = 0.
            equal: cp_model.BoolVarT | None = None
            for i, (var, other) in enumerate(zip(flat, mapped, strict=True)):
                before = [equal] if equal is not None else []
                cp.add(var <= other).only_enforce_if(before)
                if i == len(flat) - 1:
                    break
                still = cp.new_bool_var(f"eq_{name}_{i}")
                if equal is not None:
                    cp.add_implication(still, equal)
                cp.add(var == other).only_enforce_if(still)
                cp.add(var != other).only_enforce_if([*before, ~still])
                equal = still
