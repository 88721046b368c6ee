"""One CP-SAT solve in a thread that Ctrl-C stops: the loop every CP-SAT module calls."""

from __future__ import annotations

import threading
from typing import Any


def run(solver: Any, cp: Any, callback: Any = None) -> int:
    """``solver.solve(cp, callback)`` in a thread; Ctrl-C stops the search, then re-raises.

    CP-SAT's own SIGINT handler is turned off: the main thread waits in short
    joins, so a ``KeyboardInterrupt`` (or any exception) reaches it at once;
    the search is then stopped and joined before the exception goes on. An
    exception raised inside the solve (a callback's) is raised here.
    """
    solver.parameters.catch_sigint_signal = False
    result: list[int] = []
    failed: list[BaseException] = []

    def solve() -> None:
        try:
            result.append(solver.solve(cp, callback))
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=solve, name="cpqueens-cpsat-solve", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
    except BaseException:
        while thread.is_alive():
            solver.stop_search()
            thread.join(0.05)
        raise
    if failed:
        raise failed[0]
    return result[0]
