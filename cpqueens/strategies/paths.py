"""Which path answers a count: the engine and, on bitmask, the kernel or the Python DFS.

``Model.engine(path=True)`` and the CLI's ``--json`` (``"path"``) say it, so
that nothing a user writes falls back to pure Python without saying so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpqueens.backends import bitmask
from cpqueens.backends.conditions import fits
from cpqueens.strategies.planner import (
    placed_as_holes,
    takes_placed_as_holes,
    uses_class_kernels,
    uses_hole_sums,
)

if TYPE_CHECKING:
    from cpqueens.model import Model


def path(model: Model, engine: str) -> str:
    """How ``engine`` (a backend name, not "auto") counts ``model``, in a few words.

    >>> from cpqueens import model
    >>> path(model(5), "cpsat")
    'cpsat'
    >>> m = model(16)
    >>> path(m.where(m.q[0] < m.q[15]), "bitmask")
    'bitmask: compiled conditions kernel (2-row tables, shifted sets, programs)'
    """
    if engine != "bitmask":
        return engine
    if takes_placed_as_holes(model, engine):
        model = placed_as_holes(model)
    if uses_class_kernels(model, engine):
        return "bitmask: symmetry kernels"
    if uses_hole_sums(model, engine):
        return "bitmask: hole sums on the symmetry kernels"
    plan = bitmask.compile_plan(model)
    if plan.checks:
        if bitmask.compiled_conditions(plan):
            return "bitmask: compiled conditions kernel (2-row tables, shifted sets, programs)"
        if fits(plan):
            return "bitmask: Python DFS (a small board: over before numba loads)"
        return (
            "bitmask: Python DFS (conditions on two rows or more of a model the compiled "
            "kernel does not take: several colours, a variant or more than 64 columns)"
        )
    if plan.symmetric:
        return "bitmask: Python DFS (each solution checked against its images)"
    if bitmask._wants_native(plan):
        return "bitmask: native kernels" if plan.plain else "bitmask: variant kernel"
    return "bitmask: Python DFS (a small board: over before numba loads)"
