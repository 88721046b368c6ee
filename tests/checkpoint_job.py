"""A count the checkpoint tests kill and resume: ``python -m tests.checkpoint_job CHECKPOINT LOG``.

It counts ``MODEL`` on two threads with a checkpoint. Each task is slowed by
``DELAY`` seconds (test-only: the library has no such knob) and, once its
count is done, appends the subproblem it counted to LOG, so a test can tell
which subproblems each run really counted.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import cpqueens

# more holes than strategies.hole_sums takes (n / 2): the count runs as weighted subproblems
MODEL = cpqueens.model(12, blocked=[(5, 7), (0, 3), (1, 8), (3, 1), (6, 10), (9, 4), (11, 6)])
BACKEND = "bitmask"
DELAY = 0.04


def label(subproblem) -> str:
    """A subproblem's identity in the log: its placed queens and extra constraints."""
    return f"{subproblem.model.placed!r} {subproblem.model.extra!r}"


def logged(log: str, fn, backend, subproblem):
    """Run ``fn(backend, subproblem)`` slowly, then log that it was counted."""
    time.sleep(DELAY)
    result = fn(backend, subproblem)
    with open(log, "a", encoding="utf-8") as file:
        file.write(label(subproblem) + "\n")
    return result


class LoggingExecutor(Executor):
    """Two threads running every task through ``logged``."""

    def __init__(self, log: str) -> None:
        self.log = log
        self.inner = ThreadPoolExecutor(2)

    def submit(self, fn, /, *args, **kwargs) -> Future:
        return self.inner.submit(logged, self.log, fn, *args)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)


if __name__ == "__main__":
    checkpoint, log = sys.argv[1:3]
    with LoggingExecutor(log) as executor:
        total = MODEL.count(BACKEND, executor=executor, checkpoint=checkpoint, progress=False)
    print(total)
