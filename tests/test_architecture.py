"""The house: import contracts, no cycles, a small root, extension points that work from outside.

The contracts live in pyproject.toml ([tool.importlinter]); import-linter reads
every import statement, those inside functions too. The toy constraint kind
and the toy engine below are defined here, outside the package, and counted
without editing a library file: the recipes of docs/architecture.md.
"""

from __future__ import annotations

import ast
import itertools
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import grimp
import pytest

import cpqueens
from cpqueens.backends import Capabilities, Engine, known, register, unregister
from cpqueens.backends import get as get_engine
from cpqueens.expressions import Variables
from cpqueens.vocabulary import verify
from cpqueens.vocabulary.constraints import BOARD_SYMMETRIES, ConstraintKind, Where
from tests import oracle

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cpqueens"


def test_the_import_contracts_hold_with_imports_inside_functions_counted():
    lint = Path(sys.executable).parent / "lint-imports"
    command = [str(lint), "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 5 kept, 0 broken." in result.stdout


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.add(other)
                if other == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in graph:
        if module not in index:
            visit(module)
    return found


def test_no_module_of_cpqueens_is_in_an_import_cycle():
    graph = grimp.build_graph("cpqueens")  # module- and function-level imports alike
    modules = {m for m in graph.modules if m.startswith("cpqueens")}
    edges = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    assert _strongly_connected(edges) == []
    # and the check sees a cycle when there is one
    assert _strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [
        {"a", "b", "c"}
    ]


def test_the_package_root_holds_at_most_eight_modules_besides_its_subpackages():
    modules = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert len(modules) <= 8, modules
    layers = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    assert layers == [
        "backends",
        "cli",
        "drawing",
        "execution",
        "expressions",
        "kernels",
        "lowering",
        "model",
        "readers",
        "strategies",
        "tasks",
        "vocabulary",
    ]


MAX_MODULE_LINES = 600


def test_no_module_outside_the_kernels_is_over_600_lines():
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in PACKAGE.rglob("*.py")
        if path.parent.name != "kernels"
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_the_code_is_ruff_clean_functions_under_complexity_30_included():
    # [tool.ruff.lint] in pyproject.toml: the style rules and mccabe's complexity (C901,
    # at most 30 outside the compiled kernels).
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "cpqueens", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout.strip()) == (0, "All checks passed!"), result.stdout


def test_the_engines_are_three_packages_with_no_modules_beside_them():
    backends = PACKAGE / "backends"
    packages = sorted(p.name for p in backends.iterdir() if (p / "__init__.py").exists())
    assert packages == ["bitmask", "cpsat", "pyconstraint"]
    beside = sorted(p.name for p in backends.glob("*.py"))
    assert beside == ["__init__.py", "base.py", "outcome.py", "template.py", "translate.py"]
    engines = {get_engine(name) for name in ("bitmask", "cpsat", "python-constraint")}
    assert {type(engine).__module__ for engine in engines} == {
        f"cpqueens.backends.{package}" for package in packages
    }
    assert all(isinstance(engine, Engine) for engine in engines)


def test_no_module_is_imported_by_name_outside_the_registry():
    found = []
    for path in _library_files():
        for node in ast.walk(ast.parse(path.read_text())):
            named = isinstance(node, ast.Attribute) and node.attr == "import_module"
            dunder = isinstance(node, ast.Name) and node.id == "__import__"
            imported = isinstance(node, ast.ImportFrom) and node.module == "importlib"
            if named or dunder or (imported and any(a.name == "import_module" for a in node.names)):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_every_module_is_named_in_the_architecture_page():
    page = (ROOT / "docs" / "architecture.md").read_text()
    missing = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if f"`{path.relative_to(PACKAGE)}`" not in page
    ]
    assert missing == []


def _library_files() -> Iterator[Path]:
    yield from (p for p in PACKAGE.rglob("*.py") if p != PACKAGE / "backends" / "__init__.py")


def test_no_library_file_outside_the_registry_compares_against_a_backend_name():
    names = set(known())
    found = []
    for path in _library_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                for operand in operands:
                    collection = isinstance(operand, (ast.Tuple, ast.List, ast.Set))
                    values = operand.elts if collection else [operand]
                    if any(isinstance(v, ast.Constant) and v.value in names for v in values):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_no_private_name_is_imported_across_modules():
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cpqueens"):
                found += [
                    f"{path.relative_to(ROOT)}: {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
    assert found == []


# ---- the recipes, from outside the package ---------------------------------------------------


@dataclass(frozen=True)
class Corridor:
    """A toy constraint kind: colour 0's queen in row ``row`` stands in a column of ``columns``."""

    row: int
    columns: tuple[int, ...]

    def violation(self, by_colour: Sequence[Sequence[int]], n: int) -> str | None:
        """A sentence if the row's queen is outside the corridor; None if inside."""
        if by_colour[0][self.row] in self.columns:
            return None
        return f"{self} fails: row {self.row}'s queen stands in column {by_colour[0][self.row]}"

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The mirror keeps a corridor symmetric about the middle column; nothing else keeps it."""
        mirrored = {n - 1 - c for c in self.columns}
        return ("identity", "mirror") if mirrored == set(self.columns) else ("identity",)

    def __str__(self) -> str:
        return f"Corridor(q0[{self.row}] in {list(self.columns)})"

    def decompose(self, n: int, colours: int) -> tuple[Where, ...]:
        """Its lowering, for engines that do not know it: one condition over q[row]."""
        condition = Variables(n, colours)[self.row].isin(self.columns)
        return (Where(condition.node, self.kept_by(n)),)


@dataclass(frozen=True)
class SealedCorridor(Corridor):
    """The same kind without a lowering: only an engine that checks any kind states it."""

    decompose = None  # type: ignore[assignment]


class BruteForce(Engine):
    """A toy engine: every tuple of permutations, checked by each constraint's own check."""

    NAME = "brute-force"
    SUPPORTS = (ConstraintKind,)  # any kind that checks itself
    CAPABILITIES = Capabilities(short_below_free_rows=99, stops="chunks")

    def solutions(self, model, deadline=None) -> Iterator[tuple[tuple[int, ...], ...]]:
        """Every solution, lexicographically (permutations come in lexicographic order)."""
        one_colour = list(itertools.permutations(range(model.n)))
        for by_colour in itertools.product(one_colour, repeat=model.colours):
            if verify.violation(model, by_colour) is None:
                yield by_colour

    def count(self, model, deadline=None) -> int:
        """The number of solutions."""
        return sum(1 for _ in self.solutions(model))


@pytest.fixture
def toy_engine():
    register("brute-force", BruteForce())
    try:
        yield "brute-force"
    finally:
        unregister("brute-force")


@pytest.mark.slow
def test_a_toy_constraint_kind_and_a_toy_engine_count_without_editing_the_library(toy_engine):
    corridor = SealedCorridor(row=1, columns=(0, 1, 4, 5))
    model = cpqueens.model(6).with_constraints(corridor)
    expected = [s for s in oracle.solutions(6) if corridor.violation(s, 6) is None]
    assert len(expected) == 2
    assert model.engine() == toy_engine  # "auto": the only installed engine that states it
    assert model.count() == model.count(toy_engine, workers=2) == len(expected)
    assert [s.by_colour for s in model.solutions()] == expected
    assert model.first().by_colour == expected[0]
    assert model.symmetries() == ("identity", "mirror")
    mirrored = {min(s, (tuple(5 - c for c in s[0]),)) for s in expected}
    assert model.count(unique=True) == len(mirrored)
    assert "Corridor(q0[1] in [0, 1, 4, 5])" in str(model)


def test_a_kind_from_outside_that_lowers_itself_counts_on_every_engine():
    corridor = Corridor(row=1, columns=(0, 1, 4, 5))
    model = cpqueens.model(6).with_constraints(corridor)
    expected = [s for s in oracle.solutions(6) if corridor.violation(s, 6) is None]
    assert len(expected) == 2
    for engine in ("cpsat", "python-constraint", "bitmask"):
        assert model.count(engine) == len(expected), engine
        assert [s.by_colour for s in model.solutions(engine)] == expected, engine
    assert model.engine() == "bitmask"  # "auto": the first engine that states its lowering
    assert model.count() == len(expected)
    assert model.symmetries() == ("identity", "mirror")  # the kind's own, not its lowering's
    mirrored = {min(s, (tuple(5 - c for c in s[0]),)) for s in expected}
    assert model.count(unique=True) == model.count("cpsat", unique=True) == len(mirrored)
    assert "Corridor(q0[1] in [0, 1, 4, 5])" in str(model)


def test_without_the_toy_engine_no_engine_states_the_toy_kind():
    model = cpqueens.model(6).with_constraints(SealedCorridor(row=1, columns=(0, 5)))
    with pytest.raises(cpqueens.NotSupportedError, match="no installed engine states"):
        model.count()
    with pytest.raises(cpqueens.NotSupportedError, match="does not support the constraint"):
        model.count("cpsat")


@pytest.mark.slow
def test_the_toy_engine_counts_the_built_in_kinds_as_the_others_do(toy_engine):
    models = (
        cpqueens.model(6, blocked=[(0, 1)]),
        cpqueens.model(4, colours=2),  # 576 pairs of permutations: n = 5's 14,400 took 13 s
        cpqueens.model(6, placed=[(0, 2)]),
    )
    for m in models:
        assert m.count(toy_engine) == m.count("bitmask") == m.count("cpsat")


def test_a_toy_constraint_kind_names_its_symmetries_and_its_failures():
    assert set(Corridor(0, (0, 5)).kept_by(6)) <= set(BOARD_SYMMETRIES)
    model = cpqueens.model(6).with_constraints(Corridor(0, (2,)))
    assert verify.violation(model.columns(), ((1, 3, 5, 0, 2, 4),)) == (
        "Corridor(q0[0] in [2]) fails: row 0's queen stands in column 1"
    )


def test_a_registered_engine_name_is_checked():
    with pytest.raises(ValueError, match="an engine's name must be a new non-empty string"):
        register("auto", BruteForce())
    with pytest.raises(ValueError, match="the engine 'bitmask' is built in"):
        unregister("bitmask")


# ---- checkpoints written before the move resume unchanged ------------------------------------

#: Finished checkpoints written by cpqueens 0ccf078 (the flat layout) with
#: ``model(...).count(checkpoint=..., workers=2)``: name -> (model arguments, count options).
OLD_CHECKPOINTS = {
    "free13": ({"n": 13}, {}),
    "holes14": ({"n": 14, "blocked": [(0, 1), (3, 5)]}, {}),
    "two7": ({"n": 7, "colours": 2}, {}),
    "cpsat9": ({"n": 9}, {"backend": "cpsat"}),
    "placed12": ({"n": 12, "placed": [(0, 1)]}, {}),
    "mid13": ({"n": 13, "placed": [(6, 6)]}, {}),
    "unique13": ({"n": 13, "blocked": [(0, 0)]}, {"unique": True}),
}


@pytest.mark.parametrize("name", sorted(OLD_CHECKPOINTS))
def test_a_checkpoint_written_before_the_move_still_answers(name, tmp_path):
    arguments, options = OLD_CHECKPOINTS[name]
    arguments = dict(arguments)
    old = ROOT / "tests" / "data" / "checkpoints-before-layers" / f"{name}.json"
    copy = tmp_path / old.name
    copy.write_bytes(old.read_bytes())
    model = cpqueens.model(arguments.pop("n"), **arguments)
    resumed = model.count(checkpoint=copy, workers=2, **options)
    assert resumed == model.count(**options)  # counted afresh, without the checkpoint
    assert copy.read_bytes() == old.read_bytes()  # accepted as it is: nothing left to count
    if name in ("free13", "cpsat9"):
        assert resumed == {13: 73712, 9: 352}[model.n]  # OEIS A000170
