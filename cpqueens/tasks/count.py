"""Counting a model exactly: in pieces, on this process, a local pool or any executor.

The planner chooses the way to count (a strategy of ``planner.strategies()``:
the symmetry kernels' pieces, the hole sums' parts, or weighted subproblems,
symmetry-aware so that no solution is counted twice); this module runs its
parts and puts their counts together.
Where they run is the planner's choice or the caller's: in this process, on
a local process pool (``workers=``) or on any ``concurrent.futures.Executor``
(``executor=``), such as a Dask cluster's ``Client(address).get_executor()``.
The split depth grows with the number of workers so that each one gets many
small subproblems and the load balances. Either way the pieces report
progress, Ctrl-C stops them (``CountInterrupted``) and a time limit ends them
(``IncompleteSearchError``): no partial count is ever returned.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import BrokenExecutor, CancelledError, Executor
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, TypeVar

from cpqueens.errors import (
    CheckpointError,
    CountInterrupted,
    IncompleteSearchError,
    WorkerLostError,
)
from cpqueens.execution.progress import Progress, counted
from cpqueens.execution.runner import lost_connection, run, run_serially, scheduler_lost
from cpqueens.strategies import burnside
from cpqueens.strategies.base import Strategy
from cpqueens.strategies.declared import check_declared
from cpqueens.strategies.planner import (
    kernels_pay,
    placed_as_holes,
    processes,
    strategy,
    takes_placed_as_holes,
    threads,
)
from cpqueens.strategies.symmetry import group, leader
from cpqueens.strategies.warm import Warm
from cpqueens.vocabulary.checks import (
    ProgressOption,
    check_executor,
    check_flag,
    check_progress,
    check_time_limit,
    check_workers,
)
from cpqueens.vocabulary.limits import no_room
from cpqueens.vocabulary.problem import Problem

if TYPE_CHECKING:  # loaded when a count asks for a checkpoint (hashlib, json, tempfile)
    from cpqueens.execution.checkpoint import Checkpoint

P = TypeVar("P")

#: How often a count starts a fresh local pool after a worker process died.
POOL_RESTARTS = 2
#: A cluster without a worker for this long gives up (seconds).
NO_WORKERS_SECONDS = 10.0


def cluster_threads(executor: Executor) -> int | None:
    """The threads of the Dask cluster behind ``executor``; None if it is no Dask executor.

    A scheduler that cannot answer has 0.
    """
    client = getattr(executor, "_client", None)  # distributed.cfexecutor.ClientExecutor
    if client is None or not hasattr(client, "nthreads"):
        return None
    try:
        return sum(client.nthreads().values())
    except Exception:  # a lost scheduler
        return 0


def executor_workers(executor: Executor) -> int:
    """How many tasks ``executor`` runs at once, as far as it tells; else this machine's cores.

    A Dask ``ClientExecutor`` is asked for its cluster's threads, a process or
    thread pool for its ``max_workers``.
    """
    threads = cluster_threads(executor)
    if threads:
        return threads
    max_workers = getattr(executor, "_max_workers", None)  # ProcessPool / ThreadPool executors
    if isinstance(max_workers, int) and max_workers >= 1:
        return max_workers
    return os.cpu_count() or 1


def count(
    model: Problem,
    engine: str,
    *,
    unique: bool = False,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: ProgressOption = None,
    checkpoint: str | os.PathLike[str] | None = None,
    time_limit: float | None = None,
) -> int:
    """The exact number of solutions of ``model`` (with ``unique``, of classes), by ``engine``.

    ``engine`` is the one the planner's ``route`` chose for the column form.
    See ``Model.count`` for the options. Ctrl-C cancels the pending work, stops
    the local pool's workers and raises ``CountInterrupted``, with every
    finished subproblem saved in the checkpoint if there is one; a time limit
    does the same and raises ``IncompleteSearchError``.
    """
    unique = check_flag(unique, "unique")
    workers = check_workers(workers)
    executor = check_executor(executor)
    check_progress(progress)
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(
            f"checkpoint must be None or a file path (a str or os.PathLike), got {checkpoint!r}"
        )
    limit = check_time_limit(time_limit)
    if executor is not None and workers is not None:
        raise ValueError(
            f"pass workers or executor, not both: got workers={workers!r} and {executor!r}"
        )
    if no_room(model.n, model.colours):  # more colours than columns: no solution, known at once
        return counted(progress, lambda: 0)
    job = _Job(progress, limit, checkpoint)
    if takes_placed_as_holes(model, engine):
        model = placed_as_holes(model)  # the same solutions and symmetries: the kernels count it
    way = strategy(model, engine)
    if way.counts_classes:
        parts, counts = _count_parts(model, engine, way, workers, executor, job)
        with _consistent(job):
            return (way.classes if unique else way.total)(model, parts, counts)
    names = group(model)
    check_declared(model, names)  # a false keeps= raises, naming a counterexample
    if unique and len(names) > 1:
        if burnside.fits(model, engine):
            parts, counts = _count_parts(model, engine, way, workers, executor, job)
            with _consistent(job):
                return burnside.classes(model, names, way.total(model, parts, counts))
        model = model.with_constraints(leader(model))
        way = strategy(model, engine)
    parts, counts = _count_parts(model, engine, way, workers, executor, job)
    with _consistent(job):
        return way.total(model, parts, counts)


@contextmanager
def _consistent(job: _Job) -> Iterator[None]:
    """Turn pieces that do not fit together (``ArithmeticError``) into a refused checkpoint.

    A count whose seal was recomputed after an edit passes every check of one
    piece; only the sum shows it. Without a checkpoint it is a bug: raised as is.
    """
    try:
        yield
    except ArithmeticError as error:
        if job.journal is None:
            raise
        raise CheckpointError(
            f"checkpoint {str(job.journal.path)!r} holds counts that are inconsistent "
            f"with each other ({error}): it was edited or damaged; remove it to count afresh"
        ) from None


def _count_parts(
    model: Problem,
    engine: str,
    way: Strategy,
    workers: int | None,
    executor: Executor | None,
    job: _Job,
) -> tuple[Sequence[Any], list[int]]:
    """Count every part of ``way``'s split of ``model``, resumably; return the parts and counts.

    The split's depth is the strategy's choice for the workers at hand, or the
    one a resumed checkpoint recorded; ``way.count_part`` counts one part, in
    local worker processes when the planner says so (0: this process), else
    on ``executor``. Where the whole count pays for the engine's compiled
    kernels, each process that counts loads them before its first part.
    """
    local = processes(model, engine, workers, kernels=way.kernels)
    if executor is not None:
        local = 0
    shared = 1 if local or executor is not None else threads(model, engine, workers, way.threads)
    pays = kernels_pay(model, engine, kernels=way.kernels)
    prepare = Warm.of(engine, model, way.loads) if pays else None
    journal = job.open_checkpoint(model, engine)
    with journal or nullcontext():  # the checkpoint's lock is held until the count ends
        if journal is not None and journal.split_depth is not None:
            depth = journal.split_depth  # resume the recorded split, whatever the workers now
            parts = way.parts(model, engine, depth)
        else:
            parallel = executor_workers(executor) if executor is not None else max(local, shared)
            depth, parts = way.plan(model, engine, parallel)
        done = {} if journal is None else journal.bind(depth, parts)
        tasks = {
            i: way.arguments(model, engine, part) for i, part in enumerate(parts) if i not in done
        }

        def record(results: dict[int, int]) -> None:
            if journal is not None:
                journal.record(results)
            done.update(results)

        job.execute(
            way.count_part,
            tasks,
            record,
            processes=local,
            threads=shared,
            executor=executor,
            already=len(done),
            prepare=prepare,
        )
    return parts, [done[i] for i in range(len(parts))]


class _Job:
    """One count's options for running its pieces: progress, time limit, checkpoint."""

    def __init__(
        self,
        progress: ProgressOption,
        limit: float | None,
        checkpoint: str | os.PathLike[str] | None,
    ) -> None:
        """Note the options; the time limit's clock starts now."""
        self.progress = progress
        self.limit = limit
        self.deadline = None if limit is None else time.monotonic() + limit
        self.checkpoint = checkpoint
        self.journal: Checkpoint | None = None

    def open_checkpoint(self, model: Problem, backend: str) -> Checkpoint | None:
        """The checkpoint of this count (read if it exists), or None if none was asked for."""
        if self.checkpoint is not None:
            from cpqueens.execution.checkpoint import Checkpoint

            self.journal = Checkpoint(self.checkpoint, model, backend)
        return self.journal

    def execute(
        self,
        fn: Callable[..., Any],
        tasks: Mapping[int, tuple[Any, ...]],
        record: Callable[[dict[int, Any]], None],
        *,
        processes: int,
        threads: int = 1,
        executor: Executor | None = None,
        already: int = 0,
        prepare: Callable[[], None] | None = None,
    ) -> None:
        """Run ``fn(*args)`` for every task, recording results, reporting progress.

        ``processes`` 0 runs them here (on ``threads`` threads, when more than
        one), else on a local pool of that many workers (at most one per task);
        ``executor`` runs them there instead.
        ``already`` subproblems were done before (a resumed checkpoint).
        ``prepare()`` runs first in each process that runs tasks: here, in
        each pool worker, on each worker of a Dask cluster (a worker plugin).
        """
        total = already + len(tasks)
        seen: set[int] = set()
        with Progress(self.progress, total, already) as reporter:

            def note(results: dict[int, Any]) -> None:
                record(results)
                seen.update(results)
                reporter.advance(len(results))

            restarts = 0
            while True:
                left = {key: args for key, args in tasks.items() if key not in seen}
                try:
                    self._run(fn, left, note, processes, executor, prepare, threads)
                    return
                except KeyboardInterrupt as stop:
                    if isinstance(stop, CountInterrupted):
                        raise
                    saved = None if self.journal is None else str(self.journal.path)
                    done = already + len(seen) if self.journal is None else self.journal.saved()
                    raise CountInterrupted(done, total, saved) from stop
                except TimeoutError:
                    message = self._timeout_message(already + len(seen), total)
                    raise IncompleteSearchError(message) from None
                except BrokenExecutor as error:  # a local worker died: start a fresh pool
                    if executor is None and restarts < POOL_RESTARTS:
                        restarts += 1
                        continue
                    raise self._lost(error, already + len(seen), total) from error
                except (CancelledError, OSError) as error:  # a cluster's scheduler went away
                    if executor is None:
                        raise
                    lost = lost_connection(executor, error)
                    raise self._lost(lost, already + len(seen), total) from error
                except Exception as error:
                    gone = scheduler_lost(executor, error)
                    if gone is None and type(error).__name__ != "KilledWorker":
                        raise  # a task's own error (KilledWorker: Dask gave up on a task)
                    raise self._lost(gone or error, already + len(seen), total) from error

    def _run(
        self,
        fn: Callable[..., Any],
        tasks: Mapping[int, tuple[Any, ...]],
        note: Callable[[dict[int, Any]], None],
        processes: int,
        executor: Executor | None,
        prepare: Callable[[], None] | None = None,
        threads: int = 1,
    ) -> None:
        """Run the tasks once: on ``executor``, here (on threads), or on a fresh local pool."""
        if not tasks:
            return
        if executor is not None:
            client = getattr(executor, "_client", None)  # distributed.cfexecutor.ClientExecutor
            if prepare is not None and cluster_threads(executor) is not None:
                from cpqueens.execution.cluster import warm_cluster  # distributed, loaded here

                warm_cluster(client, prepare, _left(self.deadline))
            run(executor, fn, tasks, note, self.deadline, _watch_cluster(executor))
        elif processes == 0:
            if prepare is not None:
                prepare()  # once: the threads share this process's kernels
            if threads > 1 and len(tasks) > 1:
                _run_threads(fn, tasks, note, min(threads, len(tasks)), self.deadline)
            else:
                run_serially(fn, tasks, note, self.deadline)
        else:
            from cpqueens.execution.pool import local_pool  # loky, when a pool is wanted

            with local_pool(min(processes, len(tasks)), prepare) as pool:
                run(pool, fn, tasks, note, self.deadline)

    def _lost(self, error: BaseException, finished: int, total: int) -> WorkerLostError:
        """The error of a count whose workers were lost: what happened, how far, how to go on."""
        reason = " ".join(str(error).split()) or type(error).__name__
        if isinstance(error, BrokenExecutor):
            reason = "a worker process died (killed, or out of memory)"
        text = f"{reason}; {finished} of {total} subproblems were counted"
        if self.journal is not None:
            text += f" and are saved in {self.journal.path}: run the same command to resume"
        else:
            text += " (count with a checkpoint file to be able to resume)"
        return WorkerLostError(text)

    def _timeout_message(self, finished: int, total: int) -> str:
        """What a count ended by its time limit says: the limit, how far it got, how to go on."""
        text = (
            f"the time limit of {self.limit:g} s ended the count before it was complete "
            f"({finished} of {total} subproblems counted)"
        )
        if self.journal is not None:
            text += f"; they are saved in {self.journal.path}: run again to resume"
        return text


def _run_threads(
    fn: Callable[..., Any],
    tasks: Mapping[int, tuple[Any, ...]],
    note: Callable[[dict[int, Any]], None],
    threads: int,
    deadline: float | None,
) -> None:
    """Run the tasks on ``threads`` threads of this process (kernels that release the GIL).

    On an error, Ctrl-C or the deadline, the tasks not started are cancelled and
    the threads finish the piece each is counting (a short count's pieces take
    milliseconds) before the exception goes on.
    """
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(threads, thread_name_prefix="cpqueens-count")
    try:
        run(pool, fn, tasks, note, deadline)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _left(deadline: float | None) -> float | None:
    """The seconds until ``deadline`` (None: no deadline), never negative."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def _watch_cluster(executor: Executor) -> Callable[[], None] | None:
    """For a Dask executor, a check that gives up once the cluster has had no worker a while."""
    if cluster_threads(executor) is None:
        return None
    since: list[float] = []

    def check() -> None:
        if cluster_threads(executor):
            since.clear()
            return
        since.append(time.monotonic())
        if since[-1] - since[0] >= NO_WORKERS_SECONDS:
            raise WorkerLostError(
                f"the Dask cluster has had no worker for {NO_WORKERS_SECONDS:g} s"
            )

    return check
