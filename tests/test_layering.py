"""The seam: module-level imports in cpqueens flow one way, from the model down to the kernels."""

from __future__ import annotations

import ast
from pathlib import Path

import cpqueens

PACKAGE = Path(cpqueens.__file__).parent
#: Modules that must not import (at module level) the layers above them.
LOWER_LAYERS = {
    "cpqueens.backends.bitmask",
    "cpqueens.backends.cpsat",
    "cpqueens.backends.pyconstraint",
    "cpqueens.kernels.placements",
    "cpqueens.kernels.classes",
    "cpqueens.kernels.variants",
    "cpqueens.strategies.class_count",
    "cpqueens.execution.runner",
    "cpqueens.execution.pool",
    "cpqueens.vocabulary.constraints",
    "cpqueens.vocabulary.expressions",
    "cpqueens.vocabulary.cells",
    "cpqueens.backends.cells_cpsat",
    "cpqueens.backends.cells_bitmask",
    "cpqueens.kernels.cells",
}
UPPER_LAYERS = {
    "cpqueens",
    "cpqueens.model",
    "cpqueens.tasks.count",
    "cpqueens.tasks.optimise",
    "cpqueens.strategies.planner",
    "cpqueens.cli",
}


def eager_nodes(body: list[ast.stmt]):
    """The statements that run at import time: not function bodies, not TYPE_CHECKING blocks."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            yield from eager_nodes(node.orelse)
            continue
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            yield from eager_nodes(getattr(node, field, []))


def module_imports() -> dict[str, set[str]]:
    """Each cpqueens module's module-level imports of other cpqueens modules."""
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in names.items():
        found: set[str] = set()
        for node in eager_nodes(ast.parse(path.read_text()).body):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    found.add(target if target in names else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {target for target in found if target in names and target != name}
    return graph


def test_no_module_level_import_cycles():
    graph = module_imports()
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                raise AssertionError(" -> ".join([*path, target]))
            if target not in state:
                visit(target, [*path, target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_backends_and_kernels_do_not_import_the_layers_above():
    graph = module_imports()
    assert LOWER_LAYERS <= graph.keys()
    for name in LOWER_LAYERS:
        assert not graph[name] & UPPER_LAYERS, (name, graph[name] & UPPER_LAYERS)
