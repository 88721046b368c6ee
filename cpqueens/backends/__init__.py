"""The engine registry: backend name -> engine, imported only when asked for.

An engine is an instance of :class:`~cpqueens.backends.base.Engine` (the
contract, every capability named; ``backends/TEMPLATE.py`` is the template to
copy). The registry names each engine's module (whose ``ENGINE`` is the
instance) or holds a registered instance, with the import its solver needs;
it lists them fastest first, and "auto" takes the first installed one that
answers a statement (``cpqueens.strategies.planner``). :func:`register` adds
one. Nothing outside this module imports an engine by name.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, Any, Literal

from cpqueens.errors import BackendUnavailableError

if TYPE_CHECKING:  # the contract loads with the first engine (import cpqueens stays light)
    from cpqueens.backends.base import Capabilities, Engine

__all__ = ["BackendName", "Capabilities", "Engine", "backends", "get", "register", "unregister"]

#: What every verb's ``backend`` takes: "auto" or a built-in engine's name.
BackendName = Literal["auto", "cpsat", "python-constraint", "bitmask"]


#: name -> (the module whose ENGINE implements it, or the engine itself; the import that must
#: be installed; the pip distribution).
_BACKENDS: dict[str, tuple[str | Engine, str, str]] = {
    "cpsat": ("cpqueens.backends.cpsat", "ortools", "ortools"),
    "python-constraint": ("cpqueens.backends.pyconstraint", "constraint", "python-constraint2"),
    "bitmask": ("cpqueens.backends.bitmask", "cpqueens", "cpqueens"),
}
#: The engines in the order "auto" tries them, fastest first.
_PREFERENCE = ["bitmask", "cpsat", "python-constraint"]
#: The engines that come with cpqueens.
_BUILT_IN = tuple(_BACKENDS)


def register(
    name: str, engine: str | Engine, requirement: str = "cpqueens", dist: str = "cpqueens"
) -> None:
    """Add the engine ``name`` after the others: an engine, or a module whose ``ENGINE`` it is.

    ``requirement`` is the import its solver needs and ``dist`` the pip
    distribution that provides it. "auto" tries it last.
    """
    if not isinstance(name, str) or not name or name == "auto" or name in _BUILT_IN:
        raise ValueError(
            f"an engine's name must be a new non-empty string other than 'auto', got {name!r}"
        )
    _BACKENDS[name] = (engine, requirement, dist)
    if name not in _PREFERENCE:
        _PREFERENCE.append(name)


def unregister(name: str) -> None:
    """Remove the engine ``name`` that :func:`register` added."""
    if name in _BUILT_IN:
        raise ValueError(f"the engine {name!r} is built in and cannot be removed")
    del _BACKENDS[check_name(name)]
    _PREFERENCE.remove(name)


def known() -> tuple[str, ...]:
    """Every backend name, installed or not."""
    return tuple(_BACKENDS)


def preference() -> tuple[str, ...]:
    """Every backend name in the order "auto" tries them, fastest first."""
    return tuple(_PREFERENCE)


@functools.cache
def _importable(module: str) -> bool:
    """Whether ``module`` is on the path, without importing it (looked up once a process).

    Each verb asks the planner, which asks this of each engine it tries: a
    look-up walks the path (a dozen ``stat`` calls), 0.3 ms a verb uncached.
    """
    from importlib.util import find_spec  # loaded when an engine is first looked for

    return find_spec(module) is not None


def is_installed(name: str) -> bool:
    """Whether the solver package behind backend ``name`` can be imported."""
    return _importable(_BACKENDS[check_name(name)][1])


def backends() -> tuple[str, ...]:
    """The names of the installed backends.

    >>> "bitmask" in backends()
    True
    """
    return tuple(name for name in known() if is_installed(name))


def distribution(name: str) -> str:
    """The pip distribution that provides backend ``name``'s solver."""
    return _BACKENDS[check_name(name)][2]


def __getattr__(name: str) -> Any:
    """``Capabilities`` and ``Engine``, the contract, loaded on first use (PEP 562)."""
    if name in ("Capabilities", "Engine"):
        from cpqueens.backends import base

        return getattr(base, name)
    raise AttributeError(f"module 'cpqueens.backends' has no attribute {name!r}")


def get(name: str) -> Engine:
    """The engine implementing backend ``name`` (its module is imported on first use)."""
    from cpqueens.backends.base import Engine

    engine, requirement, dist = _BACKENDS[check_name(name)]
    if not _importable(requirement):
        raise BackendUnavailableError(
            f"backend {name!r} needs the {dist!r} package: pip install {dist}"
        )
    if isinstance(engine, str):
        found = importlib.import_module(engine).ENGINE
        if not isinstance(found, Engine):
            raise TypeError(f"{engine}.ENGINE must be a cpqueens Engine, got {found!r}")
        return found
    return engine


def portable(name: str) -> str | Engine:
    """What a worker process needs to find the engine ``name``: the name, or a registered object.

    A worker imports cpqueens afresh: it knows the built-in engines and those
    registered by module path, by name; an engine registered as an object
    travels to it pickled.
    """
    engine = _BACKENDS[check_name(name)][0]
    return name if isinstance(engine, str) else engine


def capabilities(name: str) -> Capabilities:
    """What the engine ``name`` declares about itself (its module is imported)."""
    return get(name).CAPABILITIES


def choices() -> tuple[str, ...]:
    """Every name a user may pass: "auto" (the planner resolves it) and the backends."""
    return ("auto", *known())


def check_name(name: object, allowed: tuple[str, ...] | None = None) -> str:
    """Return ``name`` if it is one of ``allowed`` (the backends), else raise a ValueError.

    The message lists every choice a user has.
    """
    if allowed is None:
        allowed = tuple(_BACKENDS)
    if not isinstance(name, str) or name not in allowed:
        expected = ", ".join(repr(n) for n in choices())
        raise ValueError(f"unknown backend {name!r}: expected one of {expected}")
    return name
