"""A local process pool for counting whose workers leave no orphan behind.

The workers are spawned (no fork of a process running solver threads), ignore
Ctrl-C (the driver alone decides how to stop) and exit on their own if the
driver dies, even by SIGKILL. Leaving the pool on an exception or Ctrl-C
terminates the workers at once instead of waiting for their running tasks. A
worker leaves without the interpreter's teardown, so a pool closes in
milliseconds rather than a fifth of a second.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

#: How often a worker checks that the driver that started it is still alive (seconds).
PARENT_POLL_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)  # the driver is gone: nobody will read this worker's results


def _leave_now() -> None:
    """End a worker at interpreter exit without the teardown (0.2 s once numba is loaded).

    multiprocessing has run its own clean-up by then, and the exit handlers of
    modules imported after the initializer (numba's) run before this one; the
    exit status is 0, as a worker's failures travel with its tasks' results.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _init_worker(parent: int) -> None:
    """Run in each worker before any task: ignore Ctrl-C, die with the driver."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    atexit.register(_leave_now)


def stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the pool's queued tasks and terminate its workers now, then wait for them to exit."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    terminate = getattr(pool, "terminate_workers", None)  # Python >= 3.14
    if terminate is not None:
        terminate()
    else:
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
    for process in processes:
        process.join()


@contextmanager
def local_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A spawn process pool of ``workers`` processes, stopped at once if the block raises."""
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise
    pool.shutdown(wait=True)
