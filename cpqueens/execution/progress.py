"""Progress of a count: a tqdm bar on stderr for long counts, or a callback the caller passes.

``progress`` is what ``Model.count`` accepts:

- None (the default): a bar on stderr if stderr is a terminal, shown only once
  the count has run for ``BAR_DELAY`` seconds;
- True: a bar on stderr at once, however short the count, even if stderr is
  not a terminal (where its last state stays, a line of the log); False: nothing;
- a callable ``progress(done, total)``: called with the number of finished
  subproblems and their total, once at the start (``done`` counts the
  subproblems a checkpoint already holds) and after every batch that finishes.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from cpqueens.vocabulary.checks import ProgressOption, check_progress

ProgressCallback = Callable[[int, int], None]
T = TypeVar("T")

#: A count shorter than this many seconds shows no bar.
BAR_DELAY = 1.0
#: How often the bar is redrawn while no piece finishes (its clock and rate move on).
REFRESH_SECONDS = 0.5


def counted(progress: ProgressOption, work: Callable[[], T]) -> T:
    """``work()`` reported as one piece: a count searched in one go (a region or cell search).

    The bar (or the callback's (0, 1) then (1, 1)) is shown as for a count in parts.
    """
    with Progress(progress, 1) as reporter:
        result = work()
        reporter.advance(1)
    return result


def _stderr_is_terminal() -> bool:
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


class Progress:
    """Reports ``done`` of ``total`` subproblems to a bar or a callback; a context manager."""

    def __init__(self, progress: ProgressOption, total: int, done: int = 0) -> None:
        """Start reporting: draw nothing yet (the bar waits), call the callback once."""
        self.done = done
        self.total = total
        self._callback: ProgressCallback | None = None
        self._bar: Any = None
        self._stopped = threading.Event()
        self._ticker: threading.Thread | None = None
        progress = check_progress(progress)
        if callable(progress) and not isinstance(progress, bool):
            self._callback = progress
            progress(done, total)
        elif progress or (progress is None and _stderr_is_terminal()):
            from tqdm import tqdm

            terminal = _stderr_is_terminal()
            self._bar = tqdm(
                total=total,
                initial=done,
                desc="counting",
                unit="subproblem",
                file=sys.stderr,
                delay=0 if progress is True else BAR_DELAY,
                leave=not terminal,  # a log keeps the bar's last state; a terminal, its lines
                dynamic_ncols=True,
            )
            if terminal:  # a log gets a line per piece done, not one per tick of the clock
                self._ticker = threading.Thread(
                    target=self._tick, name="cpqueens-progress", daemon=True
                )
                self._ticker.start()

    def _tick(self) -> None:
        """Redraw the bar from ``BAR_DELAY`` on, so a count whose pieces are long shows it too."""
        start = time.monotonic()
        while not self._stopped.wait(REFRESH_SECONDS):
            bar = self._bar
            if bar is not None and time.monotonic() - start >= BAR_DELAY:
                bar.refresh()

    def advance(self, finished: int) -> None:
        """``finished`` more subproblems are done."""
        self.done += finished
        if self._bar is not None:
            self._bar.update(finished)
        if self._callback is not None:
            self._callback(self.done, self.total)

    def close(self) -> None:
        """Remove the bar, if one was drawn."""
        if self._bar is not None:
            self._stopped.set()
            if self._ticker is not None:
                self._ticker.join()
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
