"""Checks of the options every verb takes, and the clock of a time limit.

Each check returns the value if it is well formed and raises a ``TypeError``
or ``ValueError`` naming the option, the bad value and what was expected.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

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


def check_limit(limit: object, least: int = 1) -> int | None:
    """Return ``limit`` if it is None or an int >= ``least``, else raise."""
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, int) or limit < least
    ):
        raise ValueError(f"limit must be None or an int >= {least}, got {limit!r}")
    return limit


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


def check_regions(
    grid: object, rows: int, cols: int, count: int | None = None
) -> tuple[tuple[int, ...], ...]:
    """``grid`` as ``rows`` tuples of ``cols`` region numbers 0..R-1, every one used; else an error.

    ``count`` fixes R (a puzzle or the Queens game: n regions on an n x n
    board); None takes every number up to the largest. The one check of a
    region grid: the errors name the bad value and what was expected.

    >>> check_regions([[0, 1], [1, 1]], 2, 2, count=2)
    ((0, 1), (1, 1))
    """
    shape = f"{rows} rows of {cols} region numbers"
    if isinstance(grid, (str, bytes)) or not isinstance(grid, Iterable):
        raise TypeError(f"regions must be a grid: {shape} (ints), got {grid!r}")
    found = []
    for r, row in enumerate(grid):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise TypeError(f"regions row {r} must be {cols} region numbers (ints), got {row!r}")
        row = tuple(row)
        for c, value in enumerate(row):
            if type(value) is not int and (  # a plain int passes at once (bool is not one)
                isinstance(value, bool) or not isinstance(value, numbers.Integral)
            ):
                raise TypeError(f"regions[{r}][{c}] must be an int region number, got {value!r}")
            if count is not None and not 0 <= value < count:  # type: ignore[operator]  # Integral
                raise ValueError(
                    f"regions[{r}][{c}] is {value}: expected a region number 0 to {count - 1} "
                    f"({count} regions)"
                )
            if value < 0:
                raise ValueError(f"regions[{r}][{c}] is {value}: region numbers are ints >= 0")
        if len(row) != cols and r < rows:
            raise ValueError(f"regions must be {shape}: row {r} has {len(row)}")
        found.append(tuple(int(v) for v in row))
    if len(found) != rows:
        raise ValueError(f"regions must be {shape}, got {len(found)} rows")
    used = {value for row in found for value in row}
    top = (count if count is not None else max(used, default=-1) + 1) - 1
    if top + 1 != len(used):  # some number up to ``top`` is unused: name the first ten
        gaps = (value for value in range(top + 1) if value not in used)
        shown = [next(gaps) for _ in range(min(10, top + 1 - len(used)))]
        missing = f"{str(shown)[:-1]}, ...]" if top + 1 - len(used) > 10 else str(shown)
        if count is not None:
            raise ValueError(
                f"the regions grid has {len(used)} regions, expected {count}: "
                f"region number(s) {missing} have no cell"
            )
        raise ValueError(
            f"regions must be numbered 0 to {top} with every number used: "
            f"region(s) {missing} have no cell"
        )
    return tuple(found)
