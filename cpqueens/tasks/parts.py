"""An engine's exhaustive search in parts: here, on the local pool or any executor, resumable.

An engine whose proof is long (the queens' domination search of
:mod:`cpqueens.backends.bitmask.domination`, the peaceable armies of
:mod:`cpqueens.backends.bitmask.pairs`) splits it into parts and hands
them to a :class:`Runner`, which this task layer builds from the verb's
options: ``workers`` (local processes, :func:`cpqueens.execution.pool.local_pool`),
``executor`` (any ``concurrent.futures.Executor``: a Dask cluster's
``Client(address).get_executor()``), ``checkpoint`` (a file that records each
finished part, :class:`cpqueens.execution.checkpoint.Checkpoint`, so that the
same call resumes) and a time limit. The long counts run the same way
(:mod:`cpqueens.tasks.count`): the same runner, pool and checkpoint files.

A part's value is an int (the checkpoint records it, the part's ``admits``
checks it on reading). A value for which ``stop`` holds ends the search at
once (the rest is cancelled): a set found ends a proof that there is none.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import BrokenExecutor, CancelledError, Executor
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cpqueens.clock import Deadline, seconds_left
from cpqueens.errors import (
    CountInterrupted,
    IncompleteSearchError,
    NotSupportedError,
    WorkerLostError,
)
from cpqueens.execution.checkpoint import Part
from cpqueens.execution.progress import Progress
from cpqueens.execution.runner import lost_connection, run, run_serially, scheduler_lost
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.checks import check_executor, check_workers
from cpqueens.vocabulary.problem import Problem

if TYPE_CHECKING:
    from cpqueens.backends.base import Engine
    from cpqueens.execution.checkpoint import Checkpoint

#: The split's depth on an executor: a cluster's many workers want many small parts.
EXECUTOR_DEPTH = 2


class _Stopped(Exception):  # noqa: N818 - a signal between two functions, not an error
    """A part's value ended the search: the rest is not needed."""


@dataclass(frozen=True)
class Runner:
    """Runs an engine's parts with the verb's options: pool or executor, checkpoint, deadline.

    ``n`` is the board's size (the checkpoint records the n x n board and
    what is searched on it); ``deadline`` a ``time.monotonic()`` instant.
    """

    n: int
    workers: int | None = None
    executor: Executor | None = None
    checkpoint: str | os.PathLike[str] | None = None
    deadline: float | None = None
    progress: bool | None = None
    #: The split's depth for a new search (1: one part per orbit of the first queen).
    depth: int = 1

    def __post_init__(self) -> None:
        """Check the options: workers and executor exclude each other."""
        check_workers(self.workers)
        check_executor(self.executor)
        if self.executor is not None and self.workers is not None:
            raise ValueError(
                f"pass workers or executor, not both: got workers={self.workers!r} and "
                f"{self.executor!r}"
            )
        if self.checkpoint is not None and not isinstance(self.checkpoint, (str, os.PathLike)):
            raise TypeError(
                "checkpoint must be None or a file path (a str or os.PathLike), "
                f"got {self.checkpoint!r}"
            )

    def __call__(
        self,
        what: str,
        plan: Callable[[int], Sequence[Part]],
        fn: Callable[..., int],
        arguments: Callable[[Part], tuple[Any, ...]],
        stop: Callable[[int], bool],
        pays: bool = True,
    ) -> tuple[Sequence[Part], dict[int, int]]:
        """The parts and each finished part's value (index -> value); ``stop(value)`` ends the rest.

        ``plan(depth)`` splits the search at ``depth``: the checkpoint's
        recorded depth when it resumes one, else :attr:`depth` (deeper on an
        executor: many more, smaller parts). ``pays``: the engine's word that
        the search is long enough for a local pool (an executor is used
        whenever there is one). ``what`` names the search (the
        checkpoint refuses a file written for another). Raises
        ``IncompleteSearchError`` when the deadline passes and
        ``CountInterrupted`` on Ctrl-C, the finished parts saved in the
        checkpoint if there is one.
        """
        from cpqueens.execution.checkpoint import Checkpoint

        journal = (
            None
            if self.checkpoint is None
            else Checkpoint(self.checkpoint, Problem(Board(self.n)), what)
        )
        with journal or nullcontext():
            depth = self.depth
            if journal is not None and journal.split_depth is not None:
                depth = journal.split_depth  # resume the recorded split
            parts = plan(depth)
            done = {} if journal is None else journal.bind(depth, parts)
            if any(stop(value) for value in done.values()):
                return parts, done
            tasks = {i: arguments(part) for i, part in enumerate(parts) if i not in done}
            with Progress(self.progress, len(parts), len(done)) as bar:

                def record(results: dict[int, int]) -> None:
                    if journal is not None:
                        journal.record(results)
                    done.update(results)
                    bar.advance(len(results))
                    if any(stop(value) for value in results.values()):
                        raise _Stopped()

                try:
                    self._run(fn, tasks, record, pays)
                except _Stopped:
                    pass
                except TimeoutError:
                    where = "" if journal is None else f"; they are saved in {journal.path}"
                    raise IncompleteSearchError(
                        f"the time limit ended the search with {len(done)} of {len(parts)} "
                        f"parts done{where}"
                    ) from None
                except KeyboardInterrupt as error:
                    if isinstance(error, CountInterrupted):
                        raise
                    saved = None if journal is None else str(journal.path)
                    # Ctrl-C may land after a save's rename, before ``done`` took note of it
                    finished = len(done) if journal is None else journal.saved()
                    raise CountInterrupted(finished, len(parts), saved) from error
                except (BrokenExecutor, CancelledError, OSError) as error:
                    if self.executor is None and not isinstance(error, BrokenExecutor):
                        raise
                    lost = lost_connection(self.executor, error)
                    raise _lost(lost, len(done), len(parts), journal) from error
                except Exception as error:
                    gone = scheduler_lost(self.executor, error)
                    if gone is None and type(error).__name__ != "KilledWorker":
                        raise  # a task's own error (KilledWorker: Dask gave up on a task)
                    raise _lost(gone or error, len(done), len(parts), journal) from error
        return parts, done

    def unsaved(self) -> Runner:
        """The same runner without its checkpoint: for searches not worth resuming (quick steps)."""
        return replace(self, checkpoint=None)

    def section(self, tag: str) -> Runner:
        """The runner of another search of the same call: its checkpoint in a file beside this one.

        ``d14.json`` and ``count`` give ``d14.count.json``: each search of a
        call (the proof, the count of the optimal sets) resumes from its own file.

        >>> Runner(8, checkpoint="runs/d8.json").section("count").checkpoint
        'runs/d8.count.json'
        """
        if self.checkpoint is None:
            return self
        path = os.fspath(self.checkpoint)
        stem, suffix = os.path.splitext(path)
        return replace(self, checkpoint=f"{stem}.{tag}{suffix}")

    def _run(
        self,
        fn: Callable[..., int],
        tasks: Mapping[int, tuple[Any, ...]],
        record: Callable[[dict[int, int]], None],
        pays: bool,
    ) -> None:
        """Run the tasks once: on the executor, on a fresh local pool, or here."""
        if self.executor is not None:
            run(self.executor, fn, tasks, record, self.deadline)
        elif pays and (self.workers or 1) > 1 and len(tasks) > 1:
            from cpqueens.execution.pool import local_pool  # loky, when a pool is wanted

            with local_pool(min(self.workers or 1, len(tasks))) as pool:
                run(pool, fn, tasks, record, self.deadline)
        else:
            run_serially(fn, tasks, record, self.deadline)


def _lost(
    error: BaseException, finished: int, total: int, journal: Checkpoint | None
) -> WorkerLostError:
    """The error of a search whose workers were lost: what happened, how far, how to go on."""
    reason = " ".join(str(error).split()) or type(error).__name__
    if isinstance(error, BrokenExecutor):
        reason = "a worker process died (killed, or out of memory)"
    text = f"{reason}; {finished} of {total} parts were searched"
    if journal is not None:
        text += f" and are saved in {journal.path}: run the same command to resume"
    else:
        text += " (search with a checkpoint file to be able to resume)"
    return WorkerLostError(text)


def runner(
    n: int,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    time_limit: float | None = None,
    progress: bool | None = None,
) -> Runner:
    """The runner of a verb's options; its deadline is ``time_limit`` seconds from now.

    A part running when the deadline passes stops at its own next check: the
    engine passes the wall-clock instant to each part.
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit
    depth = EXECUTOR_DEPTH if executor is not None else 1
    return Runner(n, workers, executor, checkpoint, deadline, progress, depth)


def engine_options(
    engine: Engine,
    problem: object,
    sense: str,
    *,
    workers: int | None,
    executor: Executor | None,
    checkpoint: str | os.PathLike[str] | None,
    deadline: Deadline | None,
) -> dict[str, Runner]:
    """``{"run": runner}`` for an engine whose search of ``problem`` runs in parts, else ``{}``.

    The engine says so with ``runs_parts(problem, sense)``. A checkpoint or an
    executor asked of any other raises ``NotSupportedError``. With an
    executor, ``workers`` (the verb's default for CP-SAT's threads) is not used.
    """
    if engine.runs_parts(problem, sense):  # type: ignore[arg-type]
        n = getattr(getattr(problem, "board", None), "rows", 0)
        return {
            "run": runner(
                n,
                workers=None if executor is not None else workers,
                executor=executor,
                checkpoint=checkpoint,
                time_limit=seconds_left(deadline),
            )
        }
    for name, value in (("checkpoint", checkpoint), ("executor", executor)):
        if value is not None:
            raise NotSupportedError(
                f"{name} is for a search that runs in parts (queens dominating a free square "
                "board, or two peaceable armies of queens on one, by the bitmask engine); this "
                f"optimisation is one search, got {value!r}"
            )
    return {}
