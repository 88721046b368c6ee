"""The backend registry: solver name -> module, imported only when asked for.

Every backend module names the constraint classes it translates in
``SUPPORTS`` and offers the same two functions, reading only ``model.n``,
``model.colours`` and ``model.constraints``:

- ``count(model) -> int``: the exact number of solutions;
- ``solutions(model) -> Iterator[tuple[tuple[int, ...], ...]]``: lazily, in
  lexicographic order, each solution as one column tuple per colour.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from cpqueens.errors import BackendUnavailableError

#: name -> (module implementing it, the import that must be installed, pip distribution)
_BACKENDS: dict[str, tuple[str, str, str]] = {
    "cpsat": ("cpqueens.backends.cpsat", "ortools", "ortools"),
    "python-constraint": ("cpqueens.backends.pyconstraint", "constraint", "python-constraint2"),
    "bitmask": ("cpqueens.backends.bitmask", "cpqueens", "cpqueens"),
}


def known() -> tuple[str, ...]:
    """Every backend name, installed or not."""
    return tuple(_BACKENDS)


def is_installed(name: str) -> bool:
    """Whether the solver package behind backend ``name`` can be imported."""
    return importlib.util.find_spec(_BACKENDS[check_name(name)][1]) is not None


def backends() -> tuple[str, ...]:
    """The names of the installed backends.

    >>> "bitmask" in backends()
    True
    """
    return tuple(name for name in _BACKENDS if is_installed(name))


def distribution(name: str) -> str:
    """The pip distribution that provides backend ``name``'s solver."""
    return _BACKENDS[check_name(name)][2]


def get(name: str) -> ModuleType:
    """The module implementing backend ``name``."""
    module_name, requirement, dist = _BACKENDS[check_name(name)]
    if importlib.util.find_spec(requirement) is None:
        raise BackendUnavailableError(
            f"backend {name!r} needs the {dist!r} package: pip install {dist}"
        )
    return importlib.import_module(module_name)


#: Every name a user may pass: "auto" (the planner resolves it) and the backends.
CHOICES = ("auto", *_BACKENDS)


def check_name(name: object, choices: tuple[str, ...] = tuple(_BACKENDS)) -> str:
    """Return ``name`` if it is one of ``choices``, else raise a ValueError listing every choice."""
    if not isinstance(name, str) or name not in choices:
        expected = ", ".join(repr(n) for n in CHOICES)
        raise ValueError(f"unknown backend {name!r}: expected one of {expected}")
    return name
