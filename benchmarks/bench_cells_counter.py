"""The compiled cell counter in chunks against the one-call kernels it replaced, side by side.

The baseline is ``cpqueens/kernels/cells.py`` at a git commit (default
a4e838b, before the counter became resumable), loaded from ``git show`` into a
module of its own; both count the same masks (made by
``cpqueens.backends.bitmask.cells``) in one process, alternating, best of
``--repeat`` runs each (more for short ones) after a warm-up that compiles
them. Both are timed on masks made beforehand: the kernels and the chunk
loop, not the Python that makes the masks.

    python benchmarks/bench_cells_counter.py [--baseline COMMIT] [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cpqueens
from cpqueens.backends.bitmask import cells as cells_bitmask
from cpqueens.kernels import cells as kernels

ROOT = Path(__file__).resolve().parent.parent


def baseline(commit: str):  # type: ignore[no-untyped-def]
    """The kernels module as it was at ``commit``."""
    text = subprocess.run(
        ["git", "show", f"{commit}:cpqueens/kernels/cells.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # a fixed path per commit, so that numba's disk cache of it is reused, not grown, run to run
    folder = Path(tempfile.gettempdir()) / f"cpqueens-bench-cells-{commit}"
    folder.mkdir(exist_ok=True)
    path = folder / "cells_baseline.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("cells_baseline", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["cells_baseline"] = module  # numba's cache finds the module by name
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


#: name -> (model, number of queens)
WORKLOADS = {
    "8x8, 8 queens (92)": (cpqueens.cells(8), 8),
    "10x10, 10 queens (724)": (cpqueens.cells(10), 10),
    "11x11, 7 queens": (cpqueens.cells(11), 7),
    "12x12, 12 queens (14200)": (cpqueens.cells(12), 12),
    "8x8 domination, 5 queens (4860)": (cpqueens.cells(8, independent=False, dominating=True), 5),
    "9x9 domination, 5 queens (114)": (cpqueens.cells(9, independent=False, dominating=True), 5),
}


def old_count(old, problem, m, size: int) -> int:  # type: ignore[no-untyped-def]
    """The one-call kernel's count (no placed pieces), on the masks ``m``."""
    if problem.dominating:
        return int(
            old.dominating_count(
                m["closed"], m["attack"], m["avail"], m["covered"], m["target"], size, False
            )
        )
    return int(old.independent_counts(m["attack"], m["avail"], size)[size])


def new_count(problem, m, size: int) -> int:  # type: ignore[no-untyped-def]
    """The chunked kernel's count on the masks ``m``, driven as ``cells_bitmask.count`` does."""
    if problem.dominating:
        left, cover, counters = kernels.dominating_state(m["avail"], m["covered"], size)
        cells_bitmask._run(
            lambda budget: kernels.dominating_count(
                m["closed"], m["attack"], m["target"], left, cover, counters, size, False, budget
            ),
            None,
        )
        return int(counters[1])
    stack, found, counters = kernels.independent_state(m["avail"], size)
    cells_bitmask._run(
        lambda budget: kernels.independent_counts(m["attack"], stack, found, counters, budget),
        None,
    )
    return int(found[size])


def side_by_side(old, new, repeat: int) -> tuple[float, float, int, int]:  # type: ignore[no-untyped-def]
    """The fastest of ``old()`` and of ``new()``, run alternately, and their values.

    At least ``repeat`` runs each, and more for short workloads (until a
    second each has passed), so that a loaded machine's noise averages out.
    """
    times: tuple[list[float], list[float]] = ([], [])
    values = [0, 0]
    while len(times[0]) < repeat or (sum(times[0]) < 1 and len(times[0]) < 200):
        for side, fn in enumerate((old, new)):
            start = time.perf_counter()
            values[side] = fn()
            times[side].append(time.perf_counter() - start)
    return min(times[0]), min(times[1]), values[0], values[1]


def main() -> None:
    """Print the table as Markdown."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", default="a4e838b")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    old = baseline(args.baseline)
    for model in (cpqueens.cells(4), cpqueens.cells(4, independent=False, dominating=True)):
        m = cells_bitmask._masks(model.problem)
        old_count(old, model.problem, m, 2), new_count(model.problem, m, 2)  # compile both
    print(f"Python {sys.version.split()[0]}, chunk {cells_bitmask.CHUNK} nodes")
    print("| workload | count | one call (best) | chunked (best) | chunked / one call |")
    print("| --- | --- | --- | --- | --- |")
    for name, (model, size) in WORKLOADS.items():
        problem = model.problem
        m = cells_bitmask._masks(problem)
        t_old, t_new, v_old, v_new = side_by_side(
            lambda p=problem, m=m, k=size: old_count(old, p, m, k),
            lambda p=problem, m=m, k=size: new_count(p, m, k),
            args.repeat,
        )
        assert v_old == v_new, (name, v_old, v_new)
        print(f"| {name} | {v_new} | {t_old:.3f} s | {t_new:.3f} s | {t_new / t_old:.3f} |")


if __name__ == "__main__":
    main()
