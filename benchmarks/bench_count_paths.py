"""One count per process, for ``farm-bench`` to time whole processes side by side (issue 40).

Each case prints its answer (checked by the caller) and nothing else:

    python benchmarks/bench_count_paths.py cond N [REPEATS] [WORKERS]
        model(N).where(q[0] < q[N-1]).count() REPEATS times in one process
    python benchmarks/bench_count_paths.py free N [WORKERS] [POOL]
        model(N).count(); POOL=1 forces the local pool (the planner's is_long says yes)
    python benchmarks/bench_count_paths.py dask N [REPEATS] [CONDITION]
        a LocalCluster of 2 worker processes (1 thread each, loopback), then
        model(N, blocked=[(0, 1), (3, 5), (9, 2)]).count() on it REPEATS times;
        CONDITION=1: model(N).where(q[0] < q[N-1]) instead

To time the code before a change, run the same file with that commit's tree
first on ``PYTHONPATH`` (``git archive BASE | tar -x -C /tmp/base``, then
``PYTHONPATH=/tmp/base python benchmarks/bench_count_paths.py ...``).
Results: ``benchmarks/RESULTS-count-paths.md``.
"""

from __future__ import annotations

import sys

import cpqueens

#: The holes of the Dask case (issue 40: "a 14x14 board with 3 holes").
HOLES = [(0, 1), (3, 5), (9, 2)]


def cond(n: int, repeats: int = 1, workers: int | None = None) -> None:
    """A condition on rows 0 and n - 1, counted ``repeats`` times."""
    m = cpqueens.model(n)
    conditioned = m.where(m.q[0] < m.q[n - 1])
    print(*(conditioned.count(workers=workers) for _ in range(repeats)))


def free(n: int, workers: int | None = None, pool: int = 0) -> None:
    """The free board (``pool``: on the local pool, whatever the planner says)."""
    if pool:
        from cpqueens.strategies import planner

        planner.is_long = lambda *args: True
    print(cpqueens.model(n).count(workers=workers))


def dask(n: int, repeats: int = 1, condition: int = 0) -> None:
    """A board with 3 holes (or a condition) on a LocalCluster of 2 worker processes."""
    import distributed

    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor()
        model = cpqueens.model(n, blocked=HOLES)
        if condition:
            m = cpqueens.model(n)
            model = m.where(m.q[0] < m.q[n - 1])
        print(*(model.count(executor=executor) for _ in range(repeats)))


def main(argv: list[str]) -> None:
    """Run the case the command line names."""
    case, *numbers = argv
    values = [int(v) for v in numbers]
    {"cond": cond, "free": free, "dask": dask}[case](*values)


if __name__ == "__main__":
    main(sys.argv[1:])
