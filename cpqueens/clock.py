"""The clock of a search: one deadline per command, passed down to every engine that searches.

A verb starts one :class:`Deadline` from its ``time_limit`` (:func:`start`)
and hands the same object to every step (reading, planning, each engine's
search), so the limit bounds the whole call, never one step of it.
"""

from __future__ import annotations

import time

from cpqueens.errors import IncompleteSearchError


class Deadline:
    """A search's time limit: ``check()`` raises ``IncompleteSearchError`` once it has passed."""

    def __init__(self, time_limit: float) -> None:
        """Start the clock now."""
        self.time_limit = time_limit
        self.at = time.monotonic() + time_limit

    def left(self) -> float:
        """The seconds left, at least 0."""
        return max(0.0, self.at - time.monotonic())

    def passed(self) -> bool:
        """Whether the limit has passed."""
        return time.monotonic() > self.at

    def check(self) -> None:
        """Raise ``IncompleteSearchError`` naming the limit if it has passed."""
        if self.passed():
            raise self.error()

    def error(self) -> IncompleteSearchError:
        """The error that names the limit."""
        return IncompleteSearchError(
            f"the time limit of {self.time_limit:g} s ended the search before it was complete"
        )


def start(time_limit: float | None) -> Deadline | None:
    """The deadline ``time_limit`` seconds from now (a checked limit), or None without one."""
    return None if time_limit is None else Deadline(time_limit)


def seconds_left(deadline: Deadline | None) -> float | None:
    """The seconds ``deadline`` leaves, for a search that takes a number (None: no limit).

    A deadline already passed raises its ``IncompleteSearchError``: no
    search starts with no time.
    """
    if deadline is None:
        return None
    deadline.check()
    return max(deadline.left(), 1e-3)
