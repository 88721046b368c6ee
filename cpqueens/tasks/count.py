"""Counting a model exactly: in pieces, on this process, a local pool or any executor.

The unit of work is either a piece of the symmetry kernels (a one-colour board
on the bitmask backend, free or with holes all 8 symmetries keep:
``class_count.pieces``) or a subproblem of
``symmetry.subproblems`` (symmetry-aware, so no solution is counted twice).
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
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import BrokenExecutor, CancelledError, Executor
from contextlib import nullcontext
from typing import Any, TypeVar

from cpqueens.backends import get as get_backend
from cpqueens.errors import CountInterrupted, IncompleteSearchError, WorkerLostError
from cpqueens.execution.checkpoint import Checkpoint
from cpqueens.execution.pool import local_pool
from cpqueens.execution.progress import Progress, ProgressOption, check_progress
from cpqueens.execution.runner import run, run_serially
from cpqueens.model import Model
from cpqueens.strategies import burnside, class_count, hole_sums
from cpqueens.strategies.class_count import Piece
from cpqueens.strategies.planner import (
    AUTO,
    placed_as_holes,
    processes,
    resolve,
    takes_placed_as_holes,
    uses_class_kernels,
    uses_hole_sums,
)
from cpqueens.strategies.split import Subproblem
from cpqueens.strategies.symmetry import group, leader, subproblems

P = TypeVar("P")

#: The split aims at this many subproblems per worker, so that no worker idles at the end.
SUBPROBLEMS_PER_WORKER = 16
#: The split never lists more subproblems than this (each one row deeper is up to n times more).
MAX_SUBPROBLEMS = 100_000
#: How often a count starts a fresh local pool after a worker process died.
POOL_RESTARTS = 2
#: A cluster without a worker for this long gives up (seconds).
NO_WORKERS_SECONDS = 10.0


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


def check_time_limit(time_limit: object) -> float | None:
    """Return ``time_limit`` (seconds) if it is None or a positive number, else raise."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise TypeError(f"time_limit must be None or a number of seconds > 0, got {time_limit!r}")
    if not 0 < time_limit < float("inf"):
        raise ValueError(f"time_limit must be None or a number of seconds > 0, got {time_limit!r}")
    return float(time_limit)


def check_flag(value: object, name: str) -> bool:
    """Return ``value`` if it is a bool, else raise a TypeError naming the option."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return value


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
    if model.n > MAX_SUBPROBLEMS:  # a board this wide is counted whole (memory stays flat)
        return 0, subproblems(model, backend, 0)
    depth = 1
    parts = subproblems(model, backend, depth)
    while depth < most and len(parts) < target and len(parts) * model.n <= MAX_SUBPROBLEMS:
        depth += 1
        parts = subproblems(model, backend, depth)
    return depth, parts


def count_subproblem(backend: str, subproblem: Subproblem) -> int:
    """One subproblem's weighted count (a top-level function, so a process pool can run it)."""
    return subproblem.weight * get_backend(backend).count(subproblem.model)


def count(
    model: Model,
    backend: str = AUTO,
    *,
    unique: bool = False,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: ProgressOption = None,
    checkpoint: str | os.PathLike[str] | None = None,
    time_limit: float | None = None,
) -> int:
    """The exact number of solutions of ``model`` (with ``unique``, of classes), by ``backend``.

    See ``Model.count`` for the options. Ctrl-C cancels the pending work, stops
    the local pool's workers and raises ``CountInterrupted``, with every
    finished subproblem saved in the checkpoint if there is one; a time limit
    does the same and raises ``IncompleteSearchError``.
    """
    engine = resolve(model, backend)
    unique = check_flag(unique, "unique")
    workers = check_workers(workers)
    executor = check_executor(executor)
    check_progress(progress)
    limit = check_time_limit(time_limit)
    if executor is not None and workers is not None:
        raise ValueError(
            f"pass workers or executor, not both: got workers={workers!r} and {executor!r}"
        )
    job = _Job(progress, limit, checkpoint)
    if takes_placed_as_holes(model, engine):
        model = placed_as_holes(model)  # the same solutions and symmetries: the kernels count it
    if uses_class_kernels(model, engine):
        two, four, eight = _count_classes(model, workers, executor, job)
        return two + four + eight if unique else 2 * two + 4 * four + 8 * eight
    names = group(model)
    if unique and len(names) > 1:
        if burnside.fits(model, engine):
            return burnside.classes(
                model, names, _count_total(model, engine, workers, executor, job)
            )
        model = model.with_constraints(leader(model))
    return _count_total(model, engine, workers, executor, job)


def _count_total(
    model: Model, engine: str, workers: int | None, executor: Executor | None, job: _Job
) -> int:
    """Every solution of ``model``: by the hole sums where they pay, else by subproblems."""
    if uses_hole_sums(model, engine):
        return _count_hole_sums(model, workers, executor, job)
    return _count_subproblems(model, engine, workers, executor, job)


def _count_classes(
    model: Model, workers: int | None, executor: Executor | None, job: _Job
) -> tuple[int, int, int]:
    """The classes by size of a board all 8 symmetries keep, from the symmetry kernels' pieces."""
    n = model.n
    rows = class_count.symmetric_rows(n, model.board.blocked) if model.board.blocked else None

    def plan(parallel: int) -> tuple[int, Sequence[Piece]]:
        depth = class_count.depth_for(n, parallel, SUBPROBLEMS_PER_WORKER)
        return depth, class_count.pieces(n, depth)

    parts, counts = _count_parts(
        model,
        "bitmask",
        plan,
        lambda depth: class_count.pieces(n, depth),
        class_count.count_piece,
        lambda piece: (n, piece) if rows is None else (n, piece, rows),
        job,
        executor,
        processes(model, "bitmask", workers, kernels=True),
    )
    return class_count.combine(n, parts, counts)


def _count_hole_sums(
    model: Model, workers: int | None, executor: Executor | None, job: _Job
) -> int:
    """A board with a few holes: the free board less the completions with queens on the holes."""
    n = model.n

    def plan(parallel: int) -> tuple[int, Sequence[hole_sums.Part]]:
        depth = class_count.depth_for(n, parallel, SUBPROBLEMS_PER_WORKER)
        return depth, hole_sums.parts(model, depth)

    parts, counts = _count_parts(
        model,
        "bitmask",
        plan,
        lambda depth: hole_sums.parts(model, depth),
        hole_sums.count_part,
        lambda part: ("bitmask", n, part, model.board.blocked),
        job,
        executor,
        # as long as the free board's count: the kernels' pass dominates
        processes(model, "bitmask", workers, kernels=True),
    )
    return hole_sums.total(n, parts, counts)


def _count_subproblems(
    model: Model, backend: str, workers: int | None, executor: Executor | None, job: _Job
) -> int:
    """The model's count as the sum of its weighted subproblems' counts."""
    _, counts = _count_parts(
        model,
        backend,
        lambda parallel: split_for(model, parallel, backend),
        lambda depth: subproblems(model, backend, depth),
        count_subproblem,
        lambda part: (backend, part),
        job,
        executor,
        processes(model, backend, workers, kernels=False),
    )
    return sum(counts)


def _count_parts(
    model: Model,
    backend: str,
    plan: Callable[[int], tuple[int, Sequence[P]]],
    split: Callable[[int], Sequence[P]],
    fn: Callable[..., int],
    arguments: Callable[[P], tuple[Any, ...]],
    job: _Job,
    executor: Executor | None,
    local: int,
) -> tuple[Sequence[P], list[int]]:
    """Count every part of a split of ``model``, resumably; return the parts and their counts.

    ``plan(parallel)`` chooses a split depth for that many workers and lists its
    parts, ``split(depth)`` lists the parts of a recorded depth (a resumed
    checkpoint), ``fn(*arguments(part))`` counts one part.
    ``local`` worker processes count (0: this process), unless ``executor``.
    """
    if executor is not None:
        local = 0
    journal = job.open_checkpoint(model, backend)
    with journal or nullcontext():  # the checkpoint's lock is held until the count ends
        if journal is not None and journal.split_depth is not None:
            depth = journal.split_depth  # resume the recorded split, whatever the workers now
            parts = split(depth)
        else:
            parallel = executor_workers(executor) if executor is not None else max(local, 1)
            depth, parts = plan(parallel)
        done = {} if journal is None else journal.bind(depth, parts)
        tasks = {i: arguments(part) for i, part in enumerate(parts) if i not in done}

        def record(results: dict[int, int]) -> None:
            if journal is not None:
                journal.record(results)
            done.update(results)

        job.execute(fn, tasks, record, processes=local, executor=executor, already=len(done))
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

    def open_checkpoint(self, model: Model, backend: str) -> Checkpoint | None:
        """The checkpoint of this count (read if it exists), or None if none was asked for."""
        if self.checkpoint is not None:
            self.journal = Checkpoint(self.checkpoint, model, backend)
        return self.journal

    def execute(
        self,
        fn: Callable[..., Any],
        tasks: Mapping[int, tuple[Any, ...]],
        record: Callable[[dict[int, Any]], None],
        *,
        processes: int,
        executor: Executor | None = None,
        already: int = 0,
    ) -> None:
        """Run ``fn(*args)`` for every task, recording results, reporting progress.

        ``processes`` 0 runs them here, else on a local pool of that many
        workers (at most one per task); ``executor`` runs them there instead.
        ``already`` subproblems were done before (a resumed checkpoint).
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
                    self._run(fn, left, note, processes, executor)
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
                    raise self._lost(error, already + len(seen), total) from error
                except Exception as error:
                    if type(error).__name__ != "KilledWorker":  # Dask gave up on a task
                        raise
                    raise self._lost(error, already + len(seen), total) from error

    def _run(
        self,
        fn: Callable[..., Any],
        tasks: Mapping[int, tuple[Any, ...]],
        note: Callable[[dict[int, Any]], None],
        processes: int,
        executor: Executor | None,
    ) -> None:
        """Run the tasks once: on ``executor``, here, or on a fresh local pool."""
        if executor is not None:
            run(executor, fn, tasks, note, self.deadline, _watch_cluster(executor))
        elif processes == 0 or not tasks:
            run_serially(fn, tasks, note, self.deadline)
        else:
            with local_pool(min(processes, len(tasks))) as pool:
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
