"""Counting a model: split it into subproblems and count them, in parallel when it pays."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from cpqueens.backends import get as get_backend
from cpqueens.model import Model
from cpqueens.split import Subproblem
from cpqueens.symmetry import native_total, subproblems

# Below this many free rows a search is over before a process pool has started.
PARALLEL_MIN_FREE_ROWS = 13


def check_workers(workers: object) -> int | None:
    """Return ``workers`` if it is None or an int >= 1, else raise."""
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be None or an int >= 1, got {workers!r}")
    return workers


def default_workers(model: Model) -> int:
    """Every core for a search big enough to pay for a process pool, else 1."""
    free_rows = model.n - len(model.placed)
    return (os.cpu_count() or 1) if free_rows >= PARALLEL_MIN_FREE_ROWS else 1


def split_depth(model: Model, workers: int) -> int:
    """How many rows to split on: one (the mirror row) alone, two to balance several workers."""
    return 1 if workers == 1 else 2


def count_subproblem(backend: str, subproblem: Subproblem) -> int:
    """One subproblem's weighted count (a top-level function, so a process pool can run it)."""
    return subproblem.weight * get_backend(backend).count(subproblem.model)


def count(model: Model, backend: str, *, workers: int | None = None) -> int:
    """The exact number of solutions of ``model``, split and counted by ``backend``."""
    get_backend(backend)  # an unknown or missing backend fails here, not in a worker
    total = native_total(model, backend, check_workers(workers))  # free board: numba kernels
    if total is not None:
        return total
    workers = check_workers(workers) or default_workers(model)
    parts = subproblems(model, backend, split_depth(model, workers))
    if workers == 1 or len(parts) == 1:
        return sum(count_subproblem(backend, part) for part in parts)
    context = multiprocessing.get_context("spawn")  # no fork of a process running solver threads
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return sum(pool.map(count_subproblem, [backend] * len(parts), parts))
