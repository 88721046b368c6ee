"""A local process pool for counting whose workers need no main guard and leave no orphan.

The pool is loky's ``ProcessPoolExecutor`` (joblib's process executor):
unlike ``multiprocessing``'s spawn and forkserver pools it starts its workers
without re-running the user's ``__main__`` module, so a plain script with no
``if __name__ == "__main__":`` guard counts in parallel, on Linux and macOS
alike, and its top level runs once. A worker killed from outside is reported
as loky's ``TerminatedWorkerError`` instead of hanging the pool.

The workers ignore Ctrl-C (the driver alone decides how to stop) and exit on
their own if the driver dies, even by SIGKILL. Leaving the pool on an
exception or Ctrl-C kills the workers at once instead of waiting for their
running tasks. A worker leaves without the interpreter's teardown, so a pool
closes in milliseconds rather than a fifth of a second. loky's resource tracker,
which outlives the driver, writes to the null device rather than the driver's
stderr (:func:`_quiet_resource_tracker`).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

#: Linux's prctl option that sends a signal to a process when its parent dies.
PR_SET_PDEATHSIG = 1
#: How often a worker checks that the driver that started it is still alive (seconds).
PARENT_POLL_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)  # the driver is gone: nobody will read this worker's results


def _leave_now() -> None:
    """End a worker at interpreter exit without the teardown (0.2 s once numba is loaded).

    The pool's own clean-up has run by then, and the exit handlers of modules
    imported after the initializer (numba's) run before this one; the exit
    status is 0, as a worker's failures travel with its tasks' results.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _die_with_parent() -> None:
    """On Linux, ask the kernel to SIGKILL this worker the moment its driver dies.

    The watching thread alone cannot: a compiled kernel holds the GIL for as
    long as its piece takes (seconds), so the thread only looks between pieces.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def _init_worker(parent: int, prepare: Callable[[], None] | None = None) -> None:
    """Run in each worker before any task: ignore Ctrl-C, die with the driver, then ``prepare()``.

    ``prepare`` loads what the tasks take (a count's kernels); if it fails, the
    worker carries on: the tasks load what they need themselves, and raise their own errors.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    if os.getppid() != parent:  # the driver died before the kernel could be asked
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    atexit.register(_leave_now)
    if prepare is not None:
        with contextlib.suppress(Exception):
            prepare()


def stop(pool: Executor) -> None:
    """Kill the pool's workers now, then close the pool and wait for the workers to exit.

    The workers are killed first, so that the pool finds itself broken and
    fails its pending tasks (loky's ``shutdown(kill_workers=True)`` instead
    fails them one by one and stumbles on those the runner has cancelled).
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGKILL)
    pool.shutdown(wait=True)
    for process in processes:
        process.join()


def _quiet_resource_tracker() -> None:
    """Start loky's resource tracker (if it is not running) with its stderr on the null device.

    The tracker is a process of its own that outlives the driver: it unlinks the semaphores
    that killed workers leave registered. Under load a worker killed as the pool stops can leave
    one that is already unlinked, and the tracker then reports it as leaked and missing, four
    lines on the driver's stderr after the CLI's one-line error. Its reports are about loky's
    internals and its clean-up goes on without them, so it gets the null device as stderr.
    """
    from loky.backend import resource_tracker

    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no stderr to keep it from
        resource_tracker.ensure_running()
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


@contextmanager
def local_pool(workers: int, prepare: Callable[[], None] | None = None) -> Iterator[Executor]:
    """A pool of ``workers`` processes, stopped at once if the block raises.

    Each worker runs ``prepare()`` (picklable) as it starts, before its first task.
    """
    from loky import ProcessPoolExecutor

    _quiet_resource_tracker()
    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=_init_worker, initargs=(os.getpid(), prepare)
    )
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise
    pool.shutdown(wait=True)
