"""Running independent tasks on any ``concurrent.futures.Executor``, collecting them as they finish.

The runner knows nothing of queens: it submits ``fn(*args)`` for every task,
hands each batch of finished results to ``record`` as soon as it arrives (in
completion order, not submission order) and, if anything goes wrong or Ctrl-C
arrives, cancels every task still pending before it lets the exception through.

Any executor works: a ``ProcessPoolExecutor``, a ``ThreadPoolExecutor``, or
dask.distributed's ``Client.get_executor()``, whose futures are
``concurrent.futures.Future`` objects and whose ``cancel`` cancels the task on
the cluster. Tasks get positional arguments only (a Dask ``ClientExecutor``
reads ``submit``'s keyword arguments as its own options).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from concurrent.futures import CancelledError, Executor, Future
from typing import Any, TypeVar

#: How often ``run`` calls its ``idle`` check while no task finishes (seconds).
IDLE_SECONDS = 2.0

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
) -> None:
    """Run ``fn(*args)`` for every ``key -> args`` of ``tasks`` on ``executor``.

    ``record({key: result, ...})`` is called with each batch of tasks found
    finished together. If a task raises, the results that arrived with it are
    recorded first, the rest is cancelled and its exception is raised. If
    ``deadline`` (a ``time.monotonic()`` instant) passes first, the rest is
    cancelled and ``TimeoutError`` is raised. ``idle()`` is called every
    ``IDLE_SECONDS`` that pass without a result (it may raise to give up).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> found = {}
    >>> with ThreadPoolExecutor(2) as pool:
    ...     run(pool, pow, {"a": (2, 3), "b": (3, 2)}, found.update)
    >>> sorted(found.items())
    [('a', 8), ('b', 9)]
    """
    # Finished futures come through a queue their done callbacks feed: waiting on it is
    # safe to interrupt. concurrent.futures.wait is not: it takes every pending future's
    # lock in a Python loop, and Ctrl-C landing there kept some, on which the thread
    # finishing the futures (Dask's event loop) then hung.
    finished: queue.SimpleQueue[Future[R]] = queue.SimpleQueue()
    keys: dict[Future[R], K] = {}
    try:
        for key, args in tasks.items():
            future = executor.submit(fn, *args)
            keys[future] = key
            future.add_done_callback(finished.put)
        for batch in _batches(finished, len(keys), deadline, idle):
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
    finally:
        for future in keys:
            future.cancel()  # a no-op for the finished ones
        # A raised exception keeps this frame alive: drop the futures, so that a Dask
        # scheduler may forget their tasks.
        keys.clear()


def _batches(
    finished: queue.SimpleQueue[T],
    count: int,
    deadline: float | None,
    idle: Callable[[], None] | None,
) -> Iterator[list[T]]:
    """The ``count`` items of ``finished`` as they arrive, in batches of those found together."""
    while count:
        try:
            batch = [_next(finished, deadline, idle)]
        except queue.Empty:
            raise TimeoutError("the deadline passed before every task had finished") from None
        while True:
            try:
                batch.append(finished.get_nowait())
            except queue.Empty:
                break
        count -= len(batch)
        yield batch


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


def _left(deadline: float | None) -> float | None:
    """The seconds until ``deadline`` (None: no deadline), never negative."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())
