"""Checks of the options every verb takes, and the clock of a time limit.

Each check returns the value if it is well formed and raises a ``TypeError``
or ``ValueError`` naming the option, the bad value and what was expected.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from cpqueens.errors import IncompleteSearchError

if TYPE_CHECKING:
    from concurrent.futures import Executor

#: A progress option: None (a bar on a terminal), a bool, or ``callback(done, total)``.
ProgressOption = bool | Callable[[int, int], None] | None


def check_workers(workers: object) -> int | None:
    """Return ``workers`` if it is None or an int >= 1, else raise."""
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be None or an int >= 1, got {workers!r}")
    return workers


def check_executor(executor: object) -> Executor | None:
    """Return ``executor`` if it is None or a ``concurrent.futures.Executor``, else raise."""
    if executor is None:
        return None
    from concurrent.futures import Executor  # only when one is passed: a count never loads it

    if isinstance(executor, Executor):
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


def check_progress(progress: object) -> ProgressOption:
    """Return ``progress`` if it is None, a bool or a callable, else raise ``TypeError``."""
    if progress is None or isinstance(progress, bool) or callable(progress):
        return progress  # type: ignore[return-value]
    raise TypeError(f"progress must be None, a bool or a callable(done, total), got {progress!r}")


class Deadline:
    """A search's time limit: ``check()`` raises ``IncompleteSearchError`` once it has passed."""

    def __init__(self, time_limit: float) -> None:
        """Start the clock now."""
        self.time_limit = time_limit
        self.at = time.monotonic() + time_limit

    def left(self) -> float:
        """The seconds left, at least 0."""
        return max(0.0, self.at - time.monotonic())

    def check(self) -> None:
        """Raise ``IncompleteSearchError`` naming the limit if it has passed."""
        if time.monotonic() > self.at:
            raise self.error()

    def error(self) -> IncompleteSearchError:
        """The error that names the limit."""
        return IncompleteSearchError(
            f"the time limit of {self.time_limit:g} s ended the search before it was complete"
        )
