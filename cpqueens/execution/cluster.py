"""Warming a Dask cluster's workers: a worker plugin that loads a count's kernels once per worker.

A Dask worker that starts fresh has loaded nothing: its first task of a count
would import numba and load the kernels (a second or two) while it holds the
task, and a task small enough to be over in plain Python would not load them
at all, so that every part of a small count ran in Python. The count hands
the cluster a preparation (``strategies.warm.Warm``: picklable, it loads the
kernels the count's parts take) as a worker plugin: the scheduler runs it on
every worker before :func:`warm_cluster` returns, and on each worker that
joins later, before that worker's first task. This module imports
``distributed``: it is loaded only for a count on a Dask executor.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from distributed import WorkerPlugin

#: The plugin's name on the cluster: a count's preparation replaces the one before.
PLUGIN_NAME = "cpqueens-kernels"


class WarmWorkers(WorkerPlugin):  # type: ignore[misc]
    """Runs ``prepare()`` once on each worker, in a thread: the worker's event loop stays free.

    A preparation that fails is noted (``error``) and the worker carries on:
    the tasks load what they need themselves, and raise their own errors.
    """

    name = PLUGIN_NAME

    def __init__(self, prepare: Callable[[], None]) -> None:
        """Hold what to run on each worker."""
        self.prepare = prepare
        self.error: str | None = None
        self.done = False

    async def setup(self, worker: Any) -> None:
        """Run the preparation on ``worker`` before it takes a task."""
        try:
            await asyncio.get_running_loop().run_in_executor(None, self.prepare)
        except Exception as error:  # the tasks will meet it again, and report it
            self.error = f"{type(error).__name__}: {error}"
        self.done = True


def warm_cluster(client: Any, prepare: Callable[[], None], timeout: float | None) -> None:
    """Register ``prepare`` with ``client``'s cluster and wait until every worker has run it.

    Raises ``TimeoutError`` if ``timeout`` seconds pass first (None: no limit);
    the registration goes on in the background then. Errors of the scheduler
    (``OSError``, ``CancelledError``) are raised as they come.
    """
    finished: Future[None] = Future()

    def register() -> None:
        try:
            client.register_plugin(WarmWorkers(prepare), name=PLUGIN_NAME)
        except BaseException as error:  # handed to the waiting thread
            finished.set_exception(error)
        else:
            finished.set_result(None)

    threading.Thread(target=register, name="cpqueens-warm-cluster", daemon=True).start()
    finished.result(timeout=timeout)
