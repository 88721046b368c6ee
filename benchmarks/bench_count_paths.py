"""One count per process, for ``alternate.py`` to time whole processes side by side (issue 40).

Each case prints its answer (checked by the caller) and nothing else:

    python benchmarks/bench_count_paths.py cond N [REPEATS] [WORKERS]
        model(N).where(q[0] < q[N-1]).count() REPEATS times in one process
    python benchmarks/bench_count_paths.py free N [WORKERS] [POOL]
        model(N).count(); POOL=1 forces the local pool (the planner's is_long says yes),
        POOL=-1 this process (it says no)
    python benchmarks/bench_count_paths.py dask N [REPEATS] [CONDITION]
        a LocalCluster of 2 worker processes (1 thread each, loopback), then
        model(N, blocked=[(0, 1), (3, 5), (9, 2)]).count() on it REPEATS times;
        CONDITION=1: model(N).where(q[0] < q[N-1]) instead
    python benchmarks/bench_count_paths.py calibrate
        the constants of strategies/work.py, timed in one fresh process: the plain-Python
        count of n = 11, 12 with a condition, numba's load, then the compiled plain search,
        the symmetry kernels and the compiled conditions at n = 13..15 (best of 3)

To time the code before a change, run the same file with that commit's tree
first on ``PYTHONPATH`` (``git archive BASE | tar -x -C /tmp/base``, then
``PYTHONPATH=/tmp/base python benchmarks/bench_count_paths.py ...``).

Two cases side by side, A B A B ..., the ratio pair by pair:

    python benchmarks/alternate.py --pairs 7 \
        "python benchmarks/bench_count_paths.py cond 12 3" \
        "python benchmarks/bench_count_paths.py cond 13 3"

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
    """The free board (``pool`` 1: on the local pool, -1: here, whatever the planner says)."""
    if pool:
        from cpqueens.strategies import planner

        planner.is_long = lambda *args: pool > 0
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


def calibrate() -> None:
    """The times the estimate's constants stand on, each the best of 3 (seconds)."""
    import time

    from cpqueens.strategies.work import weighted_nodes

    def best(fn) -> float:  # type: ignore[no-untyped-def]
        times = []
        for _ in range(3):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return min(times)

    from cpqueens.tasks import count as counting

    pays = counting.kernels_pay
    counting.kernels_pay = lambda *args, **kwargs: False  # the parts choose, as before
    for n in (11, 12):  # numba not loaded yet: every part in plain Python
        m = cpqueens.model(n)
        conditioned = m.where(m.q[0] < m.q[n - 1])
        seconds = best(conditioned.count)
        nodes = weighted_nodes(conditioned.columns(), kernels=False)
        print(
            f"python n={n} cond: {seconds:.3f} s, {nodes:.3g} weighted nodes, "
            f"{nodes / seconds:.3g}/s"
        )
    counting.kernels_pay = pays
    start = time.perf_counter()
    import numpy as np

    from cpqueens.kernels import conditions  # noqa: F401
    from cpqueens.kernels.placements import count_placements
    from cpqueens.strategies.class_count import classes

    count_placements(np.full(8, 255, np.uint64))
    print(f"numba, the conditions and placements kernels: {time.perf_counter() - start:.3f} s")
    classes(8)
    for n in (13, 14, 15):
        full = np.full(n, (1 << n) - 1, np.uint64)
        plain = best(lambda: count_placements(full))  # noqa: B023
        kernels = best(lambda: classes(n, 1))  # noqa: B023
        m = cpqueens.model(n)
        conditioned = m.where(m.q[0] < m.q[n - 1])
        conditioned.count()
        cond = best(conditioned.count)
        print(
            f"n={n}: plain {plain:.3f} s, kernels/plain {kernels / plain:.2f}, "
            f"cond/plain {cond / plain:.2f}"
        )


def main(argv: list[str]) -> None:
    """Run the case the command line names."""
    case, *numbers = argv
    values = [int(v) for v in numbers]
    cases = {"cond": cond, "free": free, "dask": dask, "calibrate": calibrate}
    cases[case](*values)


if __name__ == "__main__":
    main(sys.argv[1:])
