"""Counting a model: split it into subproblems and count them on an executor, resumably.

The unit of work is a subproblem of ``split.subproblems`` (symmetry-aware, so
no solution is counted twice). Where they run is the caller's choice: in this
process, on a local process pool (``workers=``) or on any
``concurrent.futures.Executor`` (``executor=``), such as a Dask cluster's
``Client(address).get_executor()``. The split depth grows with the number of
workers so that each one gets many small subproblems and the load balances.
"""

from __future__ import annotations

import os
from concurrent.futures import Executor
from contextlib import nullcontext

from cpqueens.backends import get as get_backend
from cpqueens.checkpoint import Checkpoint
from cpqueens.errors import CountInterrupted
from cpqueens.model import Model
from cpqueens.pool import local_pool
from cpqueens.progress import Progress, ProgressOption, check_progress
from cpqueens.runner import run, run_serially
from cpqueens.split import Subproblem
from cpqueens.symmetry import native_total, subproblems

# Below this many free rows a search is over before a process pool has started
# (a backend may say otherwise with its own PARALLEL_MIN_FREE_ROWS).
PARALLEL_MIN_FREE_ROWS = 13

#: The split aims at this many subproblems per worker, so that no worker idles at the end.
SUBPROBLEMS_PER_WORKER = 16


def check_workers(workers: object) -> int | None:
    """Return ``workers`` if it is None or an int >= 1, else raise."""
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be None or an int >= 1, got {workers!r}")
    return workers


def check_executor(executor: object) -> Executor | None:
    """Return ``executor`` if it is None or a ``concurrent.futures.Executor``, else raise."""
    if executor is None or isinstance(executor, Executor):
        return executor
    raise TypeError(f"executor must be a concurrent.futures.Executor, got {executor!r}")


def default_workers(model: Model, backend: str | None = None) -> int:
    """Every core for a search big enough (for ``backend``) to pay for a process pool, else 1."""
    free_rows = model.n - len(model.placed)
    least = PARALLEL_MIN_FREE_ROWS
    if backend is not None:
        least = getattr(get_backend(backend), "PARALLEL_MIN_FREE_ROWS", least)
    return (os.cpu_count() or 1) if free_rows >= least else 1


def executor_workers(executor: Executor) -> int:
    """How many tasks ``executor`` runs at once, as far as it tells; else this machine's cores.

    A Dask ``ClientExecutor`` is asked for its cluster's threads, a process or
    thread pool for its ``max_workers``.
    """
    client = getattr(executor, "_client", None)  # distributed.cfexecutor.ClientExecutor
    if client is not None and hasattr(client, "nthreads"):
        try:
            threads = sum(client.nthreads().values())
        except Exception:  # a scheduler that cannot answer: fall through to a guess
            threads = 0
        if threads > 0:
            return threads
    max_workers = getattr(executor, "_max_workers", None)  # ProcessPool / ThreadPool executors
    if isinstance(max_workers, int) and max_workers >= 1:
        return max_workers
    return os.cpu_count() or 1


def split_depth(model: Model, workers: int, backend: str = "bitmask") -> int:
    """The fewest rows to split on that give each of ``workers`` many subproblems.

    At least one row (the mirror row), and at most half the free rows, so that
    each subproblem keeps a real search. The split is ``backend``'s
    (``symmetry.subproblems``).

    >>> from cpqueens import model
    >>> split_depth(model(12), 1), split_depth(model(12), 2), split_depth(model(12), 64)
    (2, 2, 4)
    """
    return split_for(model, workers, backend)[0]


def split_for(model: Model, workers: int, backend: str) -> tuple[int, tuple[Subproblem, ...]]:
    """The depth ``split_depth`` chooses, with the subproblems it found at that depth."""
    free_rows = model.n - len(model.placed)
    most = max(1, free_rows // 2)
    target = SUBPROBLEMS_PER_WORKER * workers
    depth = 1
    parts = subproblems(model, backend, depth)
    while depth < most and len(parts) < target:
        depth += 1
        parts = subproblems(model, backend, depth)
    return depth, parts


def splits(
    executor: Executor | None = None,
    progress: ProgressOption = None,
    checkpoint: object | None = None,
) -> bool:
    """Whether a count must run as subproblems: on an executor, reporting them, or resumable.

    Otherwise a free board may go to the symmetry kernels, which count it in one go.
    """
    return executor is not None or checkpoint is not None or progress not in (None, False)


def count_subproblem(backend: str, subproblem: Subproblem) -> int:
    """One subproblem's weighted count (a top-level function, so a process pool can run it)."""
    return subproblem.weight * get_backend(backend).count(subproblem.model)


def count(
    model: Model,
    backend: str,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: ProgressOption = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> int:
    """The exact number of solutions of ``model``, split and counted by ``backend``.

    See ``Model.count`` for the options. Ctrl-C cancels the pending work, stops
    the local pool's workers and raises ``CountInterrupted``, with every
    finished subproblem saved in the checkpoint if there is one.
    """
    get_backend(backend)  # an unknown or missing backend fails here, not in a worker
    workers = check_workers(workers)
    executor = check_executor(executor)
    check_progress(progress)
    if executor is not None and workers is not None:
        raise ValueError(
            f"pass workers or executor, not both: got workers={workers!r} and {executor!r}"
        )
    if not splits(executor, progress, checkpoint):
        total = native_total(model, backend, workers)  # free board: numba symmetry kernels
        if total is not None:
            return total
    if executor is None:
        workers = workers or default_workers(model, backend)
    journal = None if checkpoint is None else Checkpoint(checkpoint, model, backend)
    with journal or nullcontext():  # holds the checkpoint's lock until the count ends
        if journal is not None and journal.split_depth is not None:
            depth = journal.split_depth  # resume the recorded split, whatever the workers now
            parts = subproblems(model, backend, depth)
        else:
            parallel = workers or executor_workers(executor)  # type: ignore[arg-type]
            depth, parts = split_for(model, parallel, backend)
        done = {} if journal is None else journal.bind(depth, parts)
        tasks = {i: (backend, part) for i, part in enumerate(parts) if i not in done}

        with Progress(progress, len(parts), len(done)) as reporter:

            def record(results: dict[int, int]) -> None:
                if journal is not None:
                    journal.record(results)
                done.update(results)
                reporter.advance(len(results))

            try:
                if executor is not None:
                    run(executor, count_subproblem, tasks, record)
                elif workers == 1 or len(tasks) <= 1:
                    run_serially(count_subproblem, tasks, record)
                else:
                    with local_pool(min(workers, len(tasks))) as pool:  # type: ignore[type-var]
                        run(pool, count_subproblem, tasks, record)
            except KeyboardInterrupt as stop:
                if isinstance(stop, CountInterrupted):
                    raise
                saved = None if journal is None else str(journal.path)
                finished = len(done) if journal is None else journal.saved()
                raise CountInterrupted(finished, len(parts), saved) from stop
        return sum(done.values())
