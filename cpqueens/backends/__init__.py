"""The engine registry: backend name -> engine, imported only when asked for.

An engine is an instance of :class:`~cpqueens.backends.base.Engine` (the
contract, every capability named; ``cpqueens/backends/template.py`` is the
template to copy, a complete engine). The registry names each engine's module
(whose ``ENGINE`` is the instance) or holds a registered instance, with the
import its solver needs; it lists them fastest first, and "auto" takes the
first installed one that answers a statement (``cpqueens.strategies.planner``).

Engines from other distributions are found by entry point, as networkx finds
its backends: a distribution that declares

.. code-block:: toml

    [project.entry-points."cpqueens.engines"]
    toy = "toy_engine:Exhaustive"

is found by name (``count(backend="toy")``) with no call to :func:`register`.
The entry point names an ``Engine`` subclass (made with no arguments), an
instance, or a module whose ``ENGINE`` is one. Discovery is lazy: the
installed distributions' metadata is read only when a name is not a built-in
or registered one, when every engine is listed (:func:`backends`), or when no
built-in engine answers a statement "auto" was asked for; ``import cpqueens``
and a built-in engine's count never read it. :func:`register` adds one by
hand. Nothing outside this module imports an engine by name.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from cpqueens.errors import BackendUnavailableError

if TYPE_CHECKING:  # the contract loads with the first engine (import cpqueens stays light)
    from importlib.metadata import EntryPoint

    from cpqueens.backends.base import Capabilities, Engine

__all__ = [
    "ENTRY_POINTS",
    "BackendName",
    "Capabilities",
    "Engine",
    "backends",
    "check_backend",
    "discover",
    "get",
    "register",
    "unregister",
]

#: What every verb's ``backend`` takes: "auto", a built-in engine's name, or any other engine's
#: (registered, or found by entry point): a type checker accepts every string.
BackendName: TypeAlias = Literal["auto", "cpsat", "python-constraint", "bitmask"] | str
#: The entry point group other distributions declare their engines under.
ENTRY_POINTS = "cpqueens.engines"


#: name -> (the module whose ENGINE implements it, the engine itself, or an entry point naming
#: it; the import that must be installed; the pip distribution).
_BACKENDS: dict[str, tuple[str | Engine | EntryPoint, str, str]] = {
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


@functools.cache
def discover() -> tuple[str, ...]:
    """Add the engines other distributions declare under :data:`ENTRY_POINTS`; their names.

    Read once a process. A name already taken (a built-in engine, or one
    registered by hand) keeps its engine; "auto" tries the others last.
    """
    from importlib.metadata import entry_points  # the metadata is read only here

    found = []
    for point in entry_points(group=ENTRY_POINTS):
        if point.name in _BACKENDS or point.name == "auto" or not point.name:
            continue
        dist = point.dist.name if point.dist is not None else point.module
        _BACKENDS[point.name] = (point, point.module, dist)
        _PREFERENCE.append(point.name)
        found.append(point.name)
    return tuple(found)


def known(every: bool = False) -> tuple[str, ...]:
    """The backend names, installed or not; ``every`` reads the entry points first."""
    if every:
        discover()
    return tuple(_BACKENDS)


def preference(every: bool = False) -> tuple[str, ...]:
    """The backend names in the order "auto" tries them, fastest first.

    ``every`` also reads the engines declared by entry point (:func:`discover`);
    without it, those found so far.
    """
    if every:
        discover()
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
    return tuple(name for name in known(every=True) if is_installed(name))


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
    if isinstance(engine, Engine):
        return engine
    return _loaded(name, engine)


@functools.cache
def _loaded(name: str, point: EntryPoint) -> Engine:
    """The engine an entry point names: an ``Engine`` subclass, an instance, a module's ENGINE."""
    from cpqueens.backends.base import Engine

    found = point.load()
    if isinstance(found, type) and issubclass(found, Engine):
        found = found()
    elif not isinstance(found, Engine):
        found = getattr(found, "ENGINE", found)
    if not isinstance(found, Engine):
        raise TypeError(
            f"the entry point {point.value!r} of engine {name!r} ({ENTRY_POINTS}) must name a "
            f"cpqueens Engine subclass, an instance, or a module with ENGINE; got {found!r}"
        )
    return found


def portable(name: str) -> str | Engine:
    """What a worker process needs to find the engine ``name``: the name, or a registered object.

    A worker imports cpqueens afresh: it knows the built-in engines, those
    registered by module path and those declared by entry point, by name; an
    engine registered as an object travels to it pickled.
    """
    engine = _BACKENDS[check_name(name)][0]
    from cpqueens.backends.base import Engine

    return engine if isinstance(engine, Engine) else name


def capabilities(name: str) -> Capabilities:
    """What the engine ``name`` declares about itself (its module is imported)."""
    return get(name).CAPABILITIES


def choices(every: bool = False) -> tuple[str, ...]:
    """The names a user may pass: "auto" (the planner resolves it) and the backends.

    ``every`` lists the engines declared by entry point too (reading them).
    """
    return ("auto", *known(every))


def check_backend(name: object) -> str:
    """Return ``name`` if it is "auto" or an engine's name (looked for by entry point if new)."""
    return "auto" if name == "auto" else check_name(name)


def check_name(name: object, allowed: tuple[str, ...] | None = None) -> str:
    """Return ``name`` if it is one of ``allowed`` (the backends), else raise a ValueError.

    The message lists every choice a user has.
    """
    if isinstance(name, str) and name not in _BACKENDS and name != "auto":
        discover()  # an engine another distribution declares, found by its name
    if allowed is None:
        allowed = tuple(_BACKENDS)
    elif isinstance(name, str) and name in _BACKENDS and name not in allowed:
        allowed = (*allowed, name)  # discovered after ``allowed`` was listed
    if not isinstance(name, str) or name not in allowed:
        expected = ", ".join(repr(n) for n in choices(every=True))
        raise ValueError(f"unknown backend {name!r}: expected one of {expected}")
    return name


class _CallableModule(types.ModuleType):
    """The registry's module, callable as :func:`backends`: ``cpqueens.backends()`` lists them.

    ``cpqueens.backends`` is then this package (``import cpqueens.backends.base``
    works) and the function users call, at once.
    """

    def __call__(self) -> tuple[str, ...]:
        """The names of the installed backends (:func:`backends`)."""
        return backends()


sys.modules[__name__].__class__ = _CallableModule
