"""A first call in a fresh process: what ``import cpqueens`` and small questions load.

Each test starts a fresh interpreter from a folder outside the repository and
reads its ``sys.modules``: the slimming of the import and the plain-Python
paths of small problems cannot regress unseen. Times are not asserted here
(they are measured side by side in ``benchmarks/bench_cold_start.py``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: Never loaded by ``import cpqueens``: solvers, numba and its kernels, pools, the puzzle,
#: cell and optimisation tasks, checkpoints, progress bars.
HEAVY = (
    "numba",
    "llvmlite",
    "numpy",
    "ortools",
    "constraint",
    "dask",
    "distributed",
    "loky",
    "tqdm",
    "platformdirs",
    "concurrent.futures",
    "hashlib",
    "tempfile",
    "cpqueens.kernels.",
    "cpqueens.tasks.",
    "cpqueens.strategies.",
    "cpqueens.execution.",
    "cpqueens.backends.",
    "cpqueens.vocabulary.regions",
    "cpqueens.vocabulary.cells",
    "cpqueens.expressions",  # the condition language: loaded when first used
)


def loaded(tmp_path: Path, code: str) -> set[str]:
    """The modules a fresh interpreter holds after ``code`` that a bare one does not."""
    show = "import json, sys; print(json.dumps(sorted(sys.modules)))"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    runs = []
    for text in ("", code):
        done = subprocess.run(
            [sys.executable, "-c", f"{text}\n{show}"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(set(json.loads(done.stdout.splitlines()[-1])))
    bare, after = runs
    return after - bare - {"json", "json.decoder", "json.encoder", "json.scanner", "_json"}


def heavy(modules: set[str]) -> list[str]:
    """The modules of ``HEAVY`` (a name, or a package's prefix) among ``modules``."""
    return sorted(
        m
        for m in modules
        for h in HEAVY
        if m == h or m.startswith(h if h.endswith(".") else h + ".")
    )


def test_import_cpqueens_loads_nothing_heavy(tmp_path):
    modules = loaded(tmp_path, "import cpqueens")
    assert heavy(modules) == []
    assert "cpqueens.model" in modules and "cpqueens.vocabulary.constraints" in modules


def test_the_lazy_names_load_their_modules_when_read(tmp_path):
    modules = loaded(tmp_path, "import cpqueens; cpqueens.Puzzle; cpqueens.Optimum")
    assert {"cpqueens.model.puzzle", "cpqueens.tasks.puzzles", "cpqueens.tasks.optimise"} <= modules
    assert not [m for m in modules if m.split(".")[0] in ("numba", "ortools", "constraint")]


def test_a_small_count_loads_no_kernel_solver_or_pool(tmp_path):
    code = "import cpqueens; assert cpqueens.model(8).count() == 92"
    modules = loaded(tmp_path, code)
    wanted = {"numba", "numpy", "ortools", "constraint", "loky", "tqdm", "hashlib", "tempfile"}
    assert sorted(wanted & {m.split(".")[0] for m in modules}) == []
    assert "cpqueens.execution.checkpoint" not in modules
    assert "cpqueens.tasks.puzzles" not in modules


def test_the_count_command_loads_no_puzzle_task(tmp_path):
    code = "from cpqueens.cli import main; main(['count', '8'])"
    modules = loaded(tmp_path, code)
    assert "cpqueens.tasks.puzzles" not in modules and "cpqueens.tasks.optimise" not in modules
    assert "numba" not in modules and "cpqueens.execution.checkpoint" not in modules


#: ``cpqueens warm ARGS`` that starts compiling once the file ``go`` exists, having made the
#: file named by its first argument when it is ready (numba imported).
WARM_ON_GO = """
import pathlib, sys, time
from cpqueens.cli import main
import numba
pathlib.Path(sys.argv[1]).touch()
while not pathlib.Path("go").exists():
    time.sleep(0.01)
sys.argv[1:2] = []
sys.exit(main())
"""


@pytest.mark.slow
def test_warm_fills_an_empty_kernel_cache_so_later_processes_compile_nothing(tmp_path):
    cache = tmp_path / "kernels"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["NUMBA_CACHE_DIR"] = str(cache)
    # Two warm processes start compiling together into one empty cache: each kernel is
    # compiled and saved once, by one of them; the other waits and loads it.
    warming = [
        subprocess.Popen(
            [sys.executable, "-c", WARM_ON_GO, f"ready{i}", "warm", "--only", "classes", "holes"],
            cwd=tmp_path,
            env={**env, "NUMBA_DEBUG_CACHE": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in (0, 1)
    ]
    ready = [tmp_path / f"ready{i}" for i in (0, 1)]
    while not all(path.exists() for path in ready):  # both loaded numba (or one failed)
        if any(job.poll() is not None for job in warming):
            break
        time.sleep(0.01)
    (tmp_path / "go").touch()
    outputs = [job.communicate(timeout=900) for job in warming]
    assert [job.returncode for job in warming] == [0, 0], [err for _, err in outputs]
    saved = [line for out, _ in outputs for line in out.splitlines() if "data saved" in line]
    loaded = [line for out, _ in outputs for line in out.splitlines() if "data loaded" in line]
    assert saved and len(saved) == len(set(saved)), saved  # none compiled twice
    assert loaded, outputs  # the process that waited loaded what the other saved
    for out, _ in outputs:
        lines = re.sub(r"\[cache\][^\n]*\n?", "", out).splitlines()  # numba's lines out
        assert [line.split("  ")[0] for line in lines[:2]] == [
            "symmetry classes",
            "hole sums and completions",
        ]
        assert lines[2].startswith("2 of 14 families compiled") and f"cache: {cache}" in lines[2]
    written = {path.name.rsplit("-", 1)[0] for path in cache.rglob("*.nbi")}
    for name in ("classes._weighed_leaves", "placements.count_placements_in"):
        assert name in written
    before = sorted(cache.rglob("*"))
    questions = (
        "import sys, cpqueens\n"
        "print(cpqueens.model(13).count(), cpqueens.model(14, blocked=[(0, 0), (3, 5)]).count())\n"
        "print('numba.np.arrayobj' in sys.modules)\n"
        "print(sorted(m for m in ('numba.np.linalg', 'numba.typed.typeddict') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", questions], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.stdout.split() == ["73712", "329662", "False", "[]"], done.stderr
    assert sorted(cache.rglob("*")) == before  # every kernel loaded from the cache, none compiled
    # ... and loaded quickly: numba's registries (linear algebra, typed dicts) never imported,
    # nor by the counts its array implementation, which compiling imports (the kernels of
    # these counts take their scratch arrays from Python).


#: Asks the domination, independent-domination, peaceable and local searches small questions,
#: then prints every compiled signature of the loaded kernels that holds a constant's value.
CONSTANTS = """
import sys

import numba
from numba.core import types

import cpqueens
from cpqueens.backends.bitmask.covering import warm_local

assert cpqueens.domination(6).value == 3  # A075458
assert cpqueens.domination(6, independent=True).value == 4  # A075324
assert cpqueens.peaceable(6).value == 5  # A250000
warm_local()
kernels = 0
for name, module in list(sys.modules.items()):
    if name.startswith("cpqueens.kernels."):
        for attribute, value in vars(module).items():
            if isinstance(value, numba.core.dispatcher.Dispatcher):
                kernels += 1
                for signature in value.signatures:
                    if any(isinstance(t, (types.Literal, types.Omitted)) for t in signature):
                        print(f"{name}.{attribute}{signature}")
print(kernels, "kernels")
"""


@pytest.mark.slow
def test_no_kernel_is_compiled_for_a_constant_value(tmp_path):
    # A kernel calling another with a constant (0, False, -1) compiles the callee for the
    # constant's plain type, once: numba alone compiles it again for each literal value.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", CONSTANTS], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    *literal, last = done.stdout.splitlines()
    assert literal == [] and int(last.split()[0]) > 40, done.stdout
