"""Counting a model: split it into subproblems and count them, in parallel when it pays."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from cpqueens.backends import get as get_backend
from cpqueens.model import Model
from cpqueens.split import Subproblem
from cpqueens.symmetry import native_total, subproblems

# Below this many free rows a search is over before a process pool has started
# (a backend may say otherwise with its own PARALLEL_MIN_FREE_ROWS).
PARALLEL_MIN_FREE_ROWS = 13


def check_workers(workers: object) -> int | None:
    """Return ``workers`` if it is None or an int >= 1, else raise."""
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be None or an int >= 1, got {workers!r}")
    return workers


def default_workers(model: Model, backend: str | None = None) -> int:
    """Every core for a search big enough (for ``backend``) to pay for a process pool, else 1."""
    free_rows = model.n - len(model.placed)
    least = PARALLEL_MIN_FREE_ROWS
    if backend is not None:
        least = getattr(get_backend(backend), "PARALLEL_MIN_FREE_ROWS", least)
    return (os.cpu_count() or 1) if free_rows >= least else 1


def split_depth(model: Model, workers: int) -> int:
    """How many rows to split on: two for one colour, one (already C(n, k) parts) for k colours.

    Measured (benchmarks/): two rows make CP-SAT's one-colour enumeration faster even
    on one worker (smaller searches) and cost the other backends nothing; for
    several colours a second row only repeats the later colours' work.
    """
    return 1 if model.colours > 1 else 2


def count_subproblem(backend: str, subproblem: Subproblem) -> int:
    """One subproblem's weighted count (a top-level function, so a process pool can run it)."""
    return subproblem.weight * get_backend(backend).count(subproblem.model)


def count(model: Model, backend: str, *, workers: int | None = None) -> int:
    """The exact number of solutions of ``model``, split and counted by ``backend``."""
    get_backend(backend)  # an unknown or missing backend fails here, not in a worker
    total = native_total(model, backend, check_workers(workers))  # free board: numba kernels
    if total is not None:
        return total
    workers = check_workers(workers) or default_workers(model, backend)
    parts = subproblems(model, backend, split_depth(model, workers))
    if workers == 1 or len(parts) == 1:
        return sum(count_subproblem(backend, part) for part in parts)
    context = multiprocessing.get_context("spawn")  # no fork of a process running solver threads
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return sum(pool.map(count_subproblem, [backend] * len(parts), parts))
