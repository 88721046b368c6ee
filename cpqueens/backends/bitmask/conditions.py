"""User conditions for the compiled DFS: pair tables and postfix programs, as plain arrays.

:func:`compile_conditions` reads a one-colour bitmask plan's conditions and
turns each one into what :mod:`cpqueens.kernels.conditions` runs:

- ``&`` of conditions and ``all_different`` are split into their parts
  (``all_different(a, b, c)`` into ``a != b``, ``a != c``, ``b != c``), so
  each part is checked as early as the rows it reads allow;
- a part on no row is decided now, a part on one row narrows that row's
  allowed columns, a part on two rows i < j becomes a table (row j's columns
  allowed for each column of row i: every comparison, ``abs``, ``%`` … costs a
  table lookup), and a part on three rows or more a postfix program checked
  at its last row.

The kernel is compiled once for every model (the conditions are data), so a
fresh model pays no numba compile time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cpqueens.expressions import (
    Comparison,
    CondNode,
    Distinct,
    Element,
    Logic,
    Node,
    Operator,
    Truth,
    Var,
    reads,
)
from cpqueens.lowering.tables import table

#: The kernel holds a row in a uint64.
MAX_N = 64
#: Placements per kernel call while listing solutions: the deadline is looked at between calls.
BUDGET = 1 << 22
#: Solutions per kernel call while listing.
CHUNK = 4096
#: Up to this many pair tables, every placement looks ahead at the rows they cut.
WATCH_MAX_PAIRS = 8

_QUEEN_LINES = frozenset({0, 1, -1})

_OPCODES = {
    "+": 2,
    "-": 3,
    "neg": 4,
    "*": 5,
    "abs": 6,
    "%": 7,
    "==": 8,
    "!=": 9,
    "<": 10,
    "<=": 11,
    ">": 12,
    ">=": 13,
}
_CONST, _VAR, _NOT, _AND, _OR, _DISTINCT, _ASSERT, _ELEMENT = 0, 1, 16, 14, 15, 17, 18, 19


def fits(plan: Any) -> bool:
    """Whether the compiled DFS answers ``plan``: one colour of queens on at most 64 columns.

    Toroidal and knight variants stay on the Python DFS.
    """
    return (
        len(plan.allowed) == 1
        and 1 <= plan.n <= MAX_N
        and plan.offsets[0] == _QUEEN_LINES
        and not plan.toroidal
        and not plan.knight
    )


def shifts(node: CondNode, n: int) -> dict[int, int] | None:
    """Row r's shift k_r - min k if ``node`` is ``all_different(q[r] + k_r, ...)`` on distinct rows.

    None if it is not, or if its values would not fit a uint64 set.

    >>> shifts(Distinct((Var(0, 0), Operator("+", (Var(0, 2), 3)))), 8)
    {0: 0, 2: 3}
    """
    if not isinstance(node, Distinct) or len(node.args) < 2:
        return None
    found: dict[int, int] = {}
    for arg in node.args:
        if isinstance(arg, Var):
            var, k = arg, 0
        elif isinstance(arg, Operator) and arg.name in "+-" and len(arg.args) == 2:
            a, b = arg.args
            if isinstance(a, Var) and isinstance(b, int):
                var, k = a, (b if arg.name == "+" else -b)
            elif isinstance(b, Var) and isinstance(a, int) and arg.name == "+":
                var, k = b, a
            else:
                return None
        else:
            return None
        if var.row in found:
            return None
        found[var.row] = k
    low = min(found.values())
    if n + max(found.values()) - low > 64:
        return None
    return {row: k - low for row, k in found.items()}


def parts(node: CondNode, n: int) -> list[CondNode]:
    """``node`` as conditions that all hold exactly when it does: ``&`` and ``all_different`` split.

    An ``all_different`` that is a shifted set (:func:`shifts`) stays whole.

    >>> [str(p) for p in parts(Distinct((Var(0, 0), Var(0, 1), 2)), 8)]
    ['q0[0] != q0[1]', 'q0[0] != 2', 'q0[1] != 2']
    """
    if isinstance(node, Logic) and node.name == "and":
        return [part for arg in node.args for part in parts(arg, n)]
    if isinstance(node, Distinct) and shifts(node, n) is None:
        args = node.args
        return [
            Comparison("!=", args[i], args[j])
            for i in range(len(args))
            for j in range(i + 1, len(args))
        ]
    return [node]


def program(node: Node, code: list[tuple[int, int]], constants: list[int]) -> int:
    """Append ``node``'s postfix code to ``code``; return the stack depth it needs.

    A table looked up (``Element``) appends its values to ``constants``.
    """
    if isinstance(node, int):
        code.append((_CONST, node))
        return 1
    if isinstance(node, Var):
        code.append((_VAR, node.row))
        return 1
    if isinstance(node, Element):
        depth = program(node.index, code, constants)
        code.append((_ELEMENT, len(constants)))
        constants.extend(node.values)
        return depth
    if isinstance(node, Truth):
        return program(node.condition, code, constants)  # a condition leaves its 0 or 1
    if isinstance(node, Comparison):
        args: tuple[Node, ...] = (node.lhs, node.rhs)
        op, arg = _OPCODES[node.name], 0
    elif isinstance(node, Operator):
        args, op, arg = node.args, _OPCODES[node.name], 0
    elif isinstance(node, Logic):
        args = node.args
        op, arg = {"and": (_AND, len(args)), "or": (_OR, len(args)), "not": (_NOT, 0)}[node.name]
    elif isinstance(node, Distinct):
        args, op, arg = node.args, _DISTINCT, len(node.args)
    else:
        raise TypeError(f"not an expression node: {node!r}")
    depth = 0
    for i, item in enumerate(args):
        depth = max(depth, i + program(item, code, constants))
    code.append((op, arg))
    return max(depth, 1)


@dataclass(frozen=True)
class Compiled:
    """A one-colour plan with its conditions as the kernel's arrays (see ``search`` there)."""

    n: int
    allowed: Any
    pair_source: Any
    pair_target: Any
    pair_start: Any
    forward: Any
    forward_start: Any
    tables: Any
    code: Any
    code_start: Any
    shift: Any
    constants: Any
    depth: int
    tail: bool = False
    watched: Any = None

    @property
    def programs(self) -> int:
        """How many postfix instructions run inside the search (0: tables and masks only)."""
        return int(self.code.shape[0])


def compile_conditions(plan: Any) -> Compiled:
    """The kernel's arrays for ``plan`` (which :func:`fits`): masks, pair tables and programs."""
    import numpy as np

    n = plan.n
    allowed = list(plan.allowed[0])
    pairs: list[tuple[int, int, int]] = []  # (target, source, mask per source column)
    tables: list[list[int]] = []
    by_row: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    groups: list[dict[int, int]] = []
    constants: list[int] = []
    depth = 1
    for _, condition in plan.checks:
        split = []
        for part in parts(condition, n):
            group = shifts(part, n)
            if group is not None:
                groups.append(group)
            else:
                split.append(part)
        for part in split:
            rows = tuple(row for _, row in reads(part))
            if not rows:
                if not bool(table(part, n, ())):
                    allowed = [0] * n
            elif len(rows) == 1:
                values = np.broadcast_to(table(part, n, rows), (n,))
                allowed[rows[0]] &= sum(1 << c for c in range(n) if values[c])
            elif len(rows) == 2:
                values = np.broadcast_to(table(part, n, rows), (n, n))
                weights = np.left_shift(np.uint64(1), np.arange(n, dtype=np.uint64))
                masks = np.where(values, weights[None, :], np.uint64(0)).sum(
                    axis=1, dtype=np.uint64
                )
                pairs.append((rows[1], rows[0], len(tables)))
                tables.append([int(mask) for mask in masks])
            else:
                code: list[tuple[int, int]] = []
                depth = max(depth, program(part, code, constants))
                code.append((_ASSERT, 0))
                by_row[rows[-1]].extend(code)
    pairs.sort()
    pair_target = np.array([target for target, _, _ in pairs], dtype=np.int64)
    pair_source = np.array([source for _, source, _ in pairs], dtype=np.int64)
    table_array = np.zeros((max(len(pairs), 1), n), dtype=np.uint64)
    for p, (_, _, index) in enumerate(pairs):
        table_array[p] = np.array(tables[index], dtype=np.uint64)
    pair_start = np.searchsorted(pair_target, np.arange(n + 1)).astype(np.int64)
    order = np.argsort(pair_source, kind="stable")
    forward_start = np.searchsorted(pair_source[order], np.arange(n + 1)).astype(np.int64)
    flat = [step for row in by_row for step in row]
    code_start = np.cumsum([0] + [len(row) for row in by_row]).astype(np.int64)
    shift = np.full((len(groups), n), -1, dtype=np.int64)
    for g, group in enumerate(groups):
        for row, k in group.items():
            shift[g, row] = k
    # The last seven rows are counted unrolled when no condition reads them but pair
    # tables cutting the last row from rows above them (and row n - 7's own cuts).
    start = n - 7
    tail = (
        n >= 8
        and not (shift[:, start:] >= 0).any()
        and code_start[n] == code_start[start]
        and pair_start[n - 1] == pair_start[start + 1]
        and all(source < start for source in pair_source[pair_start[n - 1] :])
        and forward_start[n] == forward_start[start]
    )
    # Few pairs: every placement looks ahead at the rows they cut (they hold a cell).
    targets = sorted(set(pair_target.tolist())) if len(pairs) <= WATCH_MAX_PAIRS else []
    watched = np.array(targets, dtype=np.int64)
    return Compiled(
        n,
        np.array(allowed, dtype=np.uint64),
        pair_source,
        pair_target,
        pair_start,
        order.astype(np.int64),
        forward_start,
        table_array,
        np.array(flat, dtype=np.int64).reshape(len(flat), 2),
        code_start,
        shift,
        np.array(constants or [0], dtype=np.int64),
        depth,
        bool(tail),
        watched,
    )


class _Search:
    """One resumable run of the kernel over a compiled plan."""

    def __init__(self, compiled: Compiled) -> None:
        import numpy as np

        n = compiled.n
        self.compiled = compiled
        self.stack = np.zeros(compiled.depth + 1, dtype=np.int64)
        self.free = np.zeros(n, dtype=np.uint64)
        self.cols = np.zeros(n, dtype=np.uint64)
        self.ld = np.zeros(n, dtype=np.uint64)
        self.rd = np.zeros(n, dtype=np.uint64)
        self.queen = np.zeros(n, dtype=np.int64)
        self.used = np.zeros((n, compiled.shift.shape[0]), dtype=np.uint64)
        self.meta = np.zeros(2, dtype=np.int64)

    @property
    def over(self) -> bool:
        """Whether the search has visited every placement."""
        return bool(self.meta[1] and self.meta[0] < 0)

    def step(self, out: Any, limit: int, budget: int) -> int:
        """Run the kernel on until ``limit`` solutions into ``out`` or ``budget`` placements."""
        from cpqueens.kernels.conditions import search

        c = self.compiled
        return int(
            search(
                c.allowed,
                c.pair_source,
                c.pair_target,
                c.pair_start,
                c.forward,
                c.forward_start,
                c.tables,
                c.code,
                c.code_start,
                c.shift,
                c.constants,
                self.stack,
                self.free,
                self.cols,
                self.ld,
                self.rd,
                self.queen,
                self.used,
                self.meta,
                out,
                limit,
                budget,
                c.tail,
                c.watched,
            )
        )


def count(plan: Any) -> int:
    """The number of placements of ``plan`` (which :func:`fits`) meeting its conditions."""
    import numpy as np

    compiled = compile_conditions(plan)
    run = _Search(compiled)
    empty = np.zeros((0, compiled.n), dtype=np.int64)
    total = 0
    while not run.over:
        total += run.step(empty, 0, 1 << 62)
    return total


def solutions(plan: Any, deadline: Any = None) -> Iterator[tuple[int, ...]]:
    """Yield ``plan``'s placements in lexicographic order; a passed ``deadline`` raises."""
    import numpy as np

    compiled = compile_conditions(plan)
    run = _Search(compiled)
    out = np.zeros((CHUNK, compiled.n), dtype=np.int64)
    limit = 1
    while not run.over:
        found = run.step(out, limit, BUDGET)
        for i in range(found):
            yield tuple(int(col) for col in out[i])
        if deadline is not None:
            deadline.check()
        limit = min(CHUNK, limit * 4)  # the first solution at once, then larger chunks
