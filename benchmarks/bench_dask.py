"""Side by side: counting on a 2-worker Dask LocalCluster against the local process pool.

Both sides count ``model(n)`` with the bitmask backend as the same pieces of
the symmetry kernels (the split for 2 workers) on 2 worker processes that are
already running:

- local: ``count(executor=pool)``, ``pool`` the loky process pool that
  ``count(workers=2)`` makes (``cpqueens.execution.pool.local_pool(2)``);
- dask: ``count(executor=client.get_executor())`` on
  ``LocalCluster(n_workers=2, threads_per_worker=1, processes=True)`` on 127.0.0.1.

Repeats are interleaved A/B and the best of each is kept (the machine is
shared). Writes benchmarks/RESULTS-dask.md. ``bench_long.py`` compares whole
CLI processes instead (``--scheduler`` against ``--workers 2``).

    python benchmarks/bench_dask.py [--n 17] [--repeats 3]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

from distributed import Client, LocalCluster
from oeis import A000170

import cpqueens
from cpqueens.execution.pool import local_pool
from cpqueens.strategies.base import SUBPROBLEMS_PER_WORKER
from cpqueens.strategies.class_count import depth_for, pieces

GOAL = 1.2


def timed(count) -> tuple[int, float]:
    """Run ``count()``; return its result and the seconds it took."""
    start = time.perf_counter()
    result = count()
    return result, time.perf_counter() - start


def main() -> None:
    """Run the comparison and write RESULTS-dask.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=17)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    model = cpqueens.model(args.n)
    parts = len(pieces(args.n, depth_for(args.n, 2, SUBPROBLEMS_PER_WORKER)))
    times: dict[str, list[float]] = {"local": [], "dask": []}
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
        local_pool(2) as pool,
    ):
        sides = {"local": pool, "dask": client.get_executor()}
        for repeat in range(args.repeats):
            order = ("local", "dask") if repeat % 2 == 0 else ("dask", "local")
            for side in order:
                executor = sides[side]
                total, seconds = timed(
                    lambda executor=executor: model.count(
                        "bitmask", executor=executor, progress=False
                    )
                )
                assert total == A000170[args.n], (side, total)
                times[side].append(seconds)
                print(f"repeat {repeat + 1} {side}: {seconds:.2f} s", flush=True)
    local, dask = min(times["local"]), min(times["dask"])
    ratio = dask / local
    verdict = "within" if ratio <= GOAL else "OVER"
    command = "python benchmarks/bench_dask.py " + " ".join(sys.argv[1:])
    lines = [
        "# Dask LocalCluster against the local process pool",
        "",
        f"Command: `{command.strip()}`",
        "",
        f"count({args.n}), bitmask backend, {parts} pieces of the symmetry kernels "
        "(the split for 2 workers), "
        f"2 worker processes on each side, best of {args.repeats} interleaved repeats.",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        "2 cores shared with other jobs (noisy).",
        "",
        "| side | best (s) | all runs (s) |",
        "| --- | --- | --- |",
        f"| local process pool | {local:.2f} | {', '.join(f'{t:.2f}' for t in times['local'])} |",
        f"| Dask LocalCluster | {dask:.2f} | {', '.join(f'{t:.2f}' for t in times['dask'])} |",
        "",
        f"Dask / local = **{ratio:.3f}x** ({verdict} the {GOAL}x goal).",
        "",
    ]
    out = Path(__file__).with_name("RESULTS-dask.md")
    out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
