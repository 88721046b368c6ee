"""Running independent tasks on any ``concurrent.futures.Executor``, collecting them as they finish.

The runner knows nothing of queens: it submits ``fn(*args)`` for every task
(at most :data:`MOST_AHEAD` unfinished at a time), hands each batch of
finished results to ``record`` as soon as it arrives (in completion order,
not submission order) and, if anything goes wrong or Ctrl-C
arrives, cancels every task still pending before it lets the exception through.

Any executor works: a ``ProcessPoolExecutor``, a ``ThreadPoolExecutor``, or
dask.distributed's ``Client.get_executor()``, whose futures are
``concurrent.futures.Future`` objects and whose ``cancel`` cancels the task on
the cluster. Tasks get positional arguments only (a Dask ``ClientExecutor``
reads ``submit``'s keyword arguments as its own options).
"""

from __future__ import annotations

import itertools
import queue
import time
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import CancelledError, Executor, Future
from typing import Any, TypeVar

#: How often ``run`` calls its ``idle`` check while no task finishes (seconds).
IDLE_SECONDS = 2.0

#: The most tasks ``run`` keeps submitted and unfinished: enough to keep some hundreds of
#: workers busy. A Dask job of 16,384 parts submitted at once flooded a starved scheduler
#: until its connection timed out (A250000(18) at load 10), and then Dask's reconnection
#: raced the submitting thread.
MOST_AHEAD = 1024

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
T = TypeVar("T")


def run(
    executor: Executor,
    fn: Callable[..., R],
    tasks: Mapping[K, tuple[Any, ...]],
    record: Callable[[dict[K, R]], None],
    deadline: float | None = None,
    idle: Callable[[], None] | None = None,
    ahead: int = MOST_AHEAD,
) -> None:
    """Run ``fn(*args)`` for every ``key -> args`` of ``tasks`` on ``executor``.

    ``record({key: result, ...})`` is called with each batch of tasks found
    finished together. If a task raises, the results that arrived with it are
    recorded first, the rest is cancelled and its exception is raised. If
    ``deadline`` (a ``time.monotonic()`` instant) passes first, the rest is
    cancelled and ``TimeoutError`` is raised. ``idle()`` is called every
    ``IDLE_SECONDS`` that pass without a result (it may raise to give up).
    At most ``ahead`` tasks are submitted and unfinished at a time: each
    result lets the next task in.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> found = {}
    >>> with ThreadPoolExecutor(2) as pool:
    ...     run(pool, pow, {"a": (2, 3), "b": (3, 2), "c": (2, 2)}, found.update, ahead=1)
    >>> sorted(found.items())
    [('a', 8), ('b', 9), ('c', 4)]
    """
    if ahead < 1:
        raise ValueError(f"ahead must be at least 1, not {ahead!r}")
    # Finished futures come through a queue their done callbacks feed: waiting on it is
    # safe to interrupt. concurrent.futures.wait is not: it takes every pending future's
    # lock in a Python loop, and Ctrl-C landing there kept some, on which the thread
    # finishing the futures (Dask's event loop) then hung.
    finished: queue.SimpleQueue[Future[R]] = queue.SimpleQueue()
    keys: dict[Future[R], K] = {}
    waiting = iter(tasks.items())
    running = 0

    def submit(most: int) -> None:
        """Submit up to ``most`` more tasks."""
        nonlocal running
        for key, args in itertools.islice(waiting, most):
            if deadline is not None and not len(keys) & 63 and _left(deadline) == 0:
                raise TimeoutError("the deadline passed while the tasks were being submitted")
            future = executor.submit(fn, *args)
            keys[future] = key
            running += 1
            future.add_done_callback(finished.put)

    try:
        submit(ahead)
        while running:
            batch = _batch(finished, deadline, idle)
            running -= len(batch)
            results: dict[K, R] = {}
            error: BaseException | None = None
            for future in batch:
                if future.cancelled():
                    error = error or CancelledError(f"task {keys[future]!r} was cancelled")
                elif future.exception() is not None:
                    error = error or future.exception()
                else:
                    results[keys[future]] = future.result()
            if results:
                record(results)
            if error is not None:
                raise error
            submit(len(batch))
    finally:
        for future in keys:
            future.cancel()  # a no-op for the finished ones
        # A raised exception keeps this frame alive: drop the futures, so that a Dask
        # scheduler may forget their tasks.
        keys.clear()


def _batch(
    finished: queue.SimpleQueue[T], deadline: float | None, idle: Callable[[], None] | None
) -> list[T]:
    """The next items of ``finished``: the first to arrive and those found with it."""
    try:
        batch = [_next(finished, deadline, idle)]
    except queue.Empty:
        raise TimeoutError("the deadline passed before every task had finished") from None
    while True:
        try:
            batch.append(finished.get_nowait())
        except queue.Empty:
            return batch


def _next(
    finished: queue.SimpleQueue[T], deadline: float | None, idle: Callable[[], None] | None
) -> T:
    """The next finished item; ``queue.Empty`` once ``deadline`` has passed."""
    while True:
        left = _left(deadline)
        nap = idle is not None and (left is None or left > IDLE_SECONDS)
        try:
            return finished.get(timeout=IDLE_SECONDS if nap else left)
        except queue.Empty:
            if not nap:
                raise
            idle()  # type: ignore[misc]


def run_serially(
    fn: Callable[..., R],
    tasks: Mapping[K, tuple[Any, ...]],
    record: Callable[[dict[K, R]], None],
    deadline: float | None = None,
) -> None:
    """Run every task in this process, one after the other, recording each as it finishes.

    ``deadline`` is checked between tasks: ``TimeoutError`` once it has passed.
    """
    for key, args in tasks.items():
        if _left(deadline) == 0:
            raise TimeoutError("the deadline passed before every task had finished")
        record({key: fn(*args)})


def scheduler_lost(executor: Executor | None, error: BaseException) -> ConnectionError | None:
    """If ``executor`` is a Dask cluster's whose client has lost its scheduler, the error to raise.

    Dask reports a lost connection in many ways (a cancelled future, an
    ``OSError``, or whatever its reconnection raised, such as a
    ``RuntimeError`` from a race with the thread submitting tasks): the
    client's status tells them apart from a task's own error.
    """
    client = getattr(executor, "_client", None)  # distributed.cfexecutor.ClientExecutor
    status = getattr(client, "status", "running")
    if not isinstance(status, str) or status == "running":
        return None
    return _lost_connection(error)


def lost_connection(executor: Executor | None, error: BaseException) -> BaseException:
    """What to report of ``error``, a sign of a lost cluster: for a Dask executor, the connection.

    Any other executor's error is reported as it is.
    """
    if getattr(executor, "_client", None) is None:
        return error
    return _lost_connection(error)


def _lost_connection(error: BaseException) -> ConnectionError:
    """The error of a count whose Dask scheduler went away, with what Dask said of it."""
    detail = " ".join(f"{type(error).__name__}: {error}".split())
    return ConnectionError(f"the connection to the Dask scheduler was lost ({detail})")


def _left(deadline: float | None) -> float | None:
    """The seconds until ``deadline`` (None: no deadline), never negative."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())
