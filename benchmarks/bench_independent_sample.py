"""A sampled projection of the independent lattice search, one core, in-process, side by side.

    python benchmarks/bench_independent_sample.py 19 11 --every 200
    python benchmarks/bench_independent_sample.py 19 11 --every 200 --versus /tmp/old_lattice.py

Runs ``kernels/independent_lattice.search`` (the count, ``first=False``)
over every ``--every``-th set of empty rows ER of ``empty_row_masks(n, k)``
and projects the whole count's CPU seconds (the sample's times ``--every``).
``--versus FILE...``: other versions of ``independent_lattice.py`` (copies of
an older checkout's file), each loaded as its own module and run on the same
ER in turn with this one, ER by ER, so that both see the same load; their sets
must agree. Each kernel is compiled (or loaded) and warmed on a small board
before the clock starts. Prints one Markdown row per version: the pairs
(ER, EC) tried, the lattice nodes, the sets of the sample, CPU seconds
(``time.process_time``) and the projection.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def load(path: Path, name: str) -> ModuleType:
    """The module in ``path``, under ``name`` (its numba kernels cached by their file)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cached kernels import their module by name
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("n", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("--every", type=int, default=200)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--versus", type=Path, nargs="*", default=[])
    args = parser.parse_args()
    from cpqueens.kernels import independent_lattice as this

    versions = [("this", this)]
    for path in args.versus:
        versions.append((path.name, load(path, "versus_" + path.stem)))
    n, k = args.n, args.k
    masks = this.empty_row_masks(n, k)[args.offset :: args.every]
    totals = {}
    for name, module in versions:
        warm = np.zeros(module.COUNTERS, dtype=np.int64)
        found = np.zeros(8, dtype=np.int64)
        for mask in module.empty_row_masks(9, 5):
            module.search(9, 5, np.uint64(mask), False, found, warm)
        assert warm[module.SETS] == 92, (name, warm)
        totals[name] = [np.zeros(module.COUNTERS, dtype=np.int64), 0.0]
    found = np.zeros(k + 1, dtype=np.int64)
    for mask in masks:
        for name, module in versions:
            counters, _ = totals[name]
            start = time.process_time()
            module.search(n, k, np.uint64(mask), False, found, counters)
            totals[name][1] += time.process_time() - start
    sets = {int(t[0][this.SETS]) for t in totals.values()}
    assert len(sets) == 1, totals
    print(f"n = {n}, k = {k}: every {args.every}th ER from {args.offset}, "
          f"{len(masks)} of {len(this.empty_row_masks(n, k))}")  # fmt: skip
    print("| version | pairs tried | lattice nodes | sets | CPU s | projected CPU s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, (counters, cpu) in totals.items():
        print(f"| {name} | {counters[this.PAIRS]:,} | {counters[this.NODES]:,} | "
              f"{counters[this.SETS]} | {cpu:.1f} | {cpu * args.every:,.0f} |")  # fmt: skip


if __name__ == "__main__":
    main()
