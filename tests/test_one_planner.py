"""One planner, one door (issue 48 item 3): read off the code and off the calls a user makes."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import cpqueens
from cpqueens.strategies import planner
from cpqueens.tasks import verbs

PACKAGE = Path(cpqueens.__file__).parent
ENGINE_NAMES = {"bitmask", "cpsat", "python-constraint"}


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings: (line, value)."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip


def test_no_task_resolves_an_engine_again_nor_picks_one_by_name():
    resolving, naming = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(("strategies/", "backends/", "cli/", "kernels/")):
            continue  # the planner, the engines themselves, the CLI's help text
        source = path.read_text()
        if "resolve(" in source:
            resolving.append(relative)
        naming += [f"{relative}:{line} {value!r}" for line, value in _code_strings(path)
                   if value in ENGINE_NAMES]  # fmt: skip
    assert resolving == []
    assert naming == []


def test_cross_check_routes_once_per_engine(monkeypatch):
    routes: list[str] = []
    plain = planner.route

    def counted_route(*args, **kwargs):
        routes.append(args[2] if len(args) > 2 else kwargs.get("backend", "auto"))
        return plain(*args, **kwargs)

    monkeypatch.setattr(verbs, "route", counted_route)
    assert cpqueens.model(6).cross_check() == 4
    assert sorted(routes) == sorted(cpqueens.backends())
    routes.clear()
    assert cpqueens.model(6).cross_check(("bitmask", "cpsat")) == 4
    assert routes == ["bitmask", "cpsat"]


def test_cross_check_takes_the_same_first_parameter_on_a_model_and_a_puzzle():
    model_first = list(inspect.signature(cpqueens.Model.cross_check).parameters)[1]
    puzzle_first = list(inspect.signature(cpqueens.Puzzle.cross_check).parameters)[1]
    assert model_first == puzzle_first == "backends"
    puzzle = cpqueens.Puzzle.parse("AAACC\nBAACC\nAACCC\nADCCE\nDDDDE")
    assert puzzle.cross_check(("bitmask", "cpsat")) == 1
    assert cpqueens.model(puzzle).cross_check(("bitmask", "cpsat")) == 1


def test_the_door_states_its_keywords_once():
    # model()'s signature is the one statement of its keywords; the door reads them by name
    keywords = list(inspect.signature(cpqueens.model).parameters)
    assert len(keywords) == 17 and keywords[:2] == ["n", "blocked"]
    door = (PACKAGE / "model" / "door.py").read_text()
    for name in keywords:
        assert f"a.{name}" in door, name  # read from model()'s arguments
    for module in ("door", "facade"):  # cells() is a shortcut of its own, other defaults
        tree = ast.parse((PACKAGE / "model" / f"{module}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name != "model":
                named = {a.arg for a in (*node.args.args, *node.args.kwonlyargs)}
                assert len(named & set(keywords)) < 12, f"{module}.{node.name}"


def _engine_imports(path: Path) -> list[str]:
    """The engine packages (backends.bitmask, .cpsat, .pyconstraint) a module imports."""
    engines = (
        "cpqueens.backends.bitmask",
        "cpqueens.backends.cpsat",
        "cpqueens.backends.pyconstraint",
    )
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [name for name in names if name.startswith(engines)]
    return found


def test_no_task_strategy_or_model_imports_an_engine_by_its_package():
    # tasks/generate.py imported the bitmask region search by name (it asks the planner for
    # the region engine now) and strategies/declared.py the bitmask's truth tables (now in
    # lowering/tables.py). The one exception: to_cpsat()/to_cpmpy() export CP-SAT's model.
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(("backends/", "cli/", "kernels/")):
            continue
        found += [f"{relative}: {name}" for name in _engine_imports(path)]
    assert found == [
        "model/facade.py: cpqueens.backends.cpsat.export",
        "model/facade.py: cpqueens.backends.cpsat.export.to_cpsat",
        "model/facade.py: cpqueens.backends.cpsat.export",
        "model/facade.py: cpqueens.backends.cpsat.export.to_cpmpy",
    ]


def test_a_puzzle_counts_lists_and_solves_through_the_verbs_door(monkeypatch):
    # Puzzle lives beside Model (model/puzzle.py) and its verbs go through tasks/verbs.py
    from cpqueens.model import puzzle as puzzle_module

    assert cpqueens.Puzzle is puzzle_module.Puzzle
    assert cpqueens.Puzzle.__module__ == "cpqueens.model.puzzle"
    calls: list[str] = []
    for verb in ("count", "solutions", "cross_check"):
        plain = getattr(verbs, verb)

        def spy(*args, _verb=verb, _plain=plain, **kwargs):
            calls.append(_verb)
            return _plain(*args, **kwargs)

        monkeypatch.setattr(verbs, verb, spy)
    puzzle = cpqueens.Puzzle.parse("AAACC\nBAACC\nAACCC\nADCCE\nDDDDE")
    assert puzzle.count() == 1 and calls == ["count"]
    assert puzzle.solve() == ((0, 2), (1, 0), (2, 3), (3, 1), (4, 4))
    assert puzzle.is_unique() and puzzle.cross_check(("bitmask", "cpsat")) == 1
    assert calls == ["count", "solutions", "count", "cross_check"]
    # a brute force of its own: every placement of one star per row, checked by the rules
    from itertools import permutations

    brute = [
        tuple((r, c) for r, c in enumerate(cols))
        for cols in permutations(range(5))
        if not puzzle.violations([(r, c) for r, c in enumerate(cols)])
    ]
    assert puzzle.solutions() == brute and puzzle.count(limit=2) == len(brute) == 1


def test_generate_asks_the_planner_for_the_region_engine(monkeypatch):
    asked = []
    plain = planner.region_engine

    def spy(puzzle):
        asked.append(puzzle.n)
        return plain(puzzle)

    monkeypatch.setattr("cpqueens.tasks.generate.region_engine", spy)
    puzzle, solution = cpqueens.Puzzle.generate(6, seed=3)
    assert asked == [6] and puzzle.count(limit=2) == 1 and puzzle.solve() == solution
