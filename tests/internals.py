"""White-box access to the engines' internals for the tests: each takes a model or a form.

The engines read lowered forms (``cpqueens.lowering``); a test states a model
and reaches an engine's internal function through these, which lower it first.
"""

from __future__ import annotations

from typing import Any

from cpqueens import Model
from cpqueens.backends import get
from cpqueens.backends.bitmask import columns as bitmask_columns
from cpqueens.backends.bitmask import dfs as bitmask_dfs
from cpqueens.backends.bitmask import plan as bitmask_plan
from cpqueens.clock import Deadline


def form(model: Any) -> Any:
    """The column form of a model (a form passes as it is)."""
    return model.columns() if isinstance(model, Model) else model


def plan(model: Any) -> Any:
    """The bitmask engine's plan of a model."""
    return bitmask_plan.compile_plan(form(model))


def count(engine: str, model: Any, time_limit: float | None = None) -> int:
    """An engine's count of a model's column form (within ``time_limit`` seconds)."""
    deadline = None if time_limit is None else Deadline(time_limit)
    return get(engine).count(form(model), deadline)


def solutions(engine: str, model: Any, time_limit: float | None = None) -> Any:
    """An engine's lexicographic solutions of a model's column form."""
    deadline = None if time_limit is None else Deadline(time_limit)
    return get(engine).solutions(form(model), deadline)


def first(engine: str, model: Any, deadline: Any, lexicographic: bool) -> Any:
    """An engine's compiled decision search on a model's column form."""
    return get(engine).first(form(model), deadline, lexicographic)


def decides(engine: str, model: Any) -> bool:
    """Whether an engine's compiled decision search holds a model's column form."""
    return get(engine).decides(form(model))


native_count = bitmask_columns._native_count
python_count = bitmask_columns._python_count
regions_grid = bitmask_plan.regions_grid
compiled_conditions = bitmask_plan.compiled_conditions
placements = bitmask_dfs.placements
flat_placements = bitmask_dfs._flat_placements
count_placements = bitmask_dfs.count_placements


def on_columns(function: Any) -> Any:
    """``function`` with a model as its first argument read as the model's column form."""

    def wrapped(model: Any, *args: Any, **options: Any) -> Any:
        return function(form(model), *args, **options)

    wrapped.__name__ = getattr(function, "__name__", "wrapped")
    return wrapped


class ColumnsOf:
    """A module whose functions take a model's column form: each call lowers a model first."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._module, name)
        if callable(found) and not isinstance(found, type):
            return on_columns(found)
        return found
