"""The planner: which engine answers a model, and where its search runs.

- ``backend="auto"`` (the default) is the fastest exact engine that supports
  every constraint of the model: the ``bitmask`` engine for everything its
  kernels handle, else ``cpsat`` (which states any constraint), else
  ``python-constraint``. A named backend is used as named.
- A one-colour board on ``bitmask``, free or with holes all 8 symmetries
  keep, counts with the symmetry kernels (``cpqueens.strategies.class_count``), and so
  does one whose placed queens they keep too (the queen in the middle of an
  odd board), with the queens' lines as holes (:func:`placed_as_holes`); one
  with a few other holes as the free board less the completions with queens
  on them (``cpqueens.strategies.hole_sums``); anything else as weighted subproblems
  (``cpqueens.strategies.symmetry.subproblems``).
- A search runs in this process when it is short, else in worker processes,
  even for one worker: a worker can be stopped at once on Ctrl-C or at a time
  limit, where a compiled kernel running in this process could not.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
from typing import TYPE_CHECKING, Literal

from cpqueens.backends import get, is_installed
from cpqueens.strategies.class_count import symmetric_rows
from cpqueens.vocabulary.board import Board

if TYPE_CHECKING:
    from cpqueens.model import Model

#: A backend name as users pass it: a solver, or "auto" for the fastest that fits.
BackendName = Literal["auto", "cpsat", "python-constraint", "bitmask"]
AUTO = "auto"

#: The engines "auto" tries, fastest first.
PREFERENCE = ("bitmask", "cpsat", "python-constraint")

#: Below this many rows with a choice a search is over in well under a second
#: (a backend may say otherwise with its own PARALLEL_MIN_FREE_ROWS).
PARALLEL_MIN_FREE_ROWS = 13

#: A local pool has at most this many worker processes per core.
MAX_WORKERS_PER_CORE = 4

#: The symmetry kernels' board sizes (``cpqueens.strategies.class_count`` holds the limits).
KERNEL_MIN_N, KERNEL_MAX_N = 5, 31
#: Below this size pure Python has counted the board before numba has loaded
#: (the choice never depends on what is loaded, so a count's split is reproducible).
KERNEL_WORTH_N = 12
#: From this size on the symmetry kernels run for seconds: in worker processes.
KERNEL_PARALLEL_MIN_N = 17


def supports(backend: str, model: Model) -> bool:
    """Whether ``backend`` can translate every constraint of ``model``."""
    accepted = get(backend).SUPPORTS
    return all(isinstance(constraint, accepted) for constraint in model.constraints)


def resolve(model: Model, backend: str = AUTO) -> str:
    """The backend that answers ``model``: ``backend`` itself, or the one "auto" picks.

    >>> from cpqueens import model
    >>> resolve(model(8)), resolve(model(8), "cpsat")
    ('bitmask', 'cpsat')
    """
    if backend != AUTO:
        get(backend)  # an unknown name lists the choices, a missing solver says what to install
        return backend
    for name in PREFERENCE:
        if is_installed(name) and supports(name, model):
            return name
    raise ValueError(f"no installed backend supports every constraint of {model}")


def uses_class_kernels(model: Model, backend: str) -> bool:
    """Whether the symmetry kernels count ``model``.

    A one-colour board on bitmask, free or with holes that all 8 symmetries keep
    (the 4 corners, say), with no placed queen and no other constraint.
    """
    return (
        backend == "bitmask"
        and model.colours == 1
        and not model.placed
        and not model.extra
        and KERNEL_MIN_N <= model.n <= KERNEL_MAX_N
        and model.n >= KERNEL_WORTH_N
        and symmetric_rows(model.n, model.board.blocked) is not None
        and importlib.util.find_spec("numba") is not None
    )


def placed_as_holes(model: Model) -> Model:
    """The same one-colour problem with the placed queens' lines blocked instead of the queens.

    Each placed queen's row keeps only its cell, and its column and diagonals
    lose every other cell: the solutions are exactly the model's, so are the
    board symmetries that keep it when all 8 keep the model. Raises ValueError
    for a model with more colours or extra constraints (the holes would bind them all).

    >>> from cpqueens import model
    >>> placed_as_holes(model(3, placed=[(1, 1)])).board.blocked
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))
    """
    if model.colours != 1 or model.extra:
        raise ValueError(f"placed queens become holes on a one-colour model only, got {model}")
    n = model.n
    lines = {
        (r, c)
        for qr, qc in model.placed
        for r in range(n)
        for c in range(n)
        if (r, c) != (qr, qc) and (r == qr or c == qc or abs(r - qr) == abs(c - qc))
    }
    holes = tuple(sorted(lines | set(model.board.blocked)))
    return dataclasses.replace(model, board=Board(n, holes), placed=())


def takes_placed_as_holes(model: Model, backend: str) -> bool:
    """Whether ``model`` counts as :func:`placed_as_holes`: placed queens all 8 symmetries keep.

    Then the symmetry kernels count it (a one-colour board on bitmask, no other constraint).
    """
    from cpqueens.strategies.symmetry import group  # it reads models: imported when asked

    return (
        backend == "bitmask"
        and bool(model.placed)
        and model.colours == 1
        and not model.extra
        and len(group(model)) == 8
    )


def uses_hole_sums(model: Model, backend: str) -> bool:
    """Whether ``model`` counts as the free board less completions on its holes.

    A one-colour board on bitmask with a few holes (``hole_sums.worth``) that
    not all 8 symmetries keep, no placed queen, no other constraint
    (``cpqueens.strategies.hole_sums``).
    """
    from cpqueens.strategies.hole_sums import worth  # it reads models: imported when asked

    return (
        backend == "bitmask"
        and model.colours == 1
        and not model.placed
        and not model.extra
        and KERNEL_MIN_N <= model.n <= KERNEL_MAX_N
        and model.n >= KERNEL_WORTH_N
        and worth(model.n, model.board.blocked)
        and symmetric_rows(model.n, model.board.blocked) is None
        and importlib.util.find_spec("numba") is not None
    )


def is_long(model: Model, backend: str, kernels: bool) -> bool:
    """Whether the search may run for more than about a second on one core."""
    if kernels:
        return model.n >= KERNEL_PARALLEL_MIN_N
    free_rows = model.n - len(model.placed)
    least = getattr(get(backend), "PARALLEL_MIN_FREE_ROWS", PARALLEL_MIN_FREE_ROWS)
    return free_rows >= least


def processes(model: Model, backend: str, workers: int | None, kernels: bool) -> int:
    """How many worker processes count ``model``; 0 means this process.

    ``workers`` None: every core for a long search, else this process. A long
    search runs in workers even when one is asked for, so that Ctrl-C and
    time limits stop it at once. At most ``MAX_WORKERS_PER_CORE`` per core:
    the search is pure CPU, more processes only cost memory.
    """
    long = is_long(model, backend, kernels)
    cores = os.cpu_count() or 1
    if workers is None:
        return cores if long else 0
    return min(workers, MAX_WORKERS_PER_CORE * cores) if long or workers > 1 else 0
