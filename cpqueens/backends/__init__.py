"""The engine registry: backend name -> engine, imported only when asked for.

An engine is a module (or any object) with the :class:`Engine` interface:

- ``NAME``, and ``SUPPORTS``: the constraint kinds it translates;
- ``CAPABILITIES``: what it declares about itself (:class:`Capabilities`);
  the planner and the tasks read these, never the engine's name;
- ``count(model) -> int``: the exact number of solutions;
- ``solutions(model, time_limit=None)``: lazily, in lexicographic order, each
  solution as one column tuple per colour;
- with ``decides``: ``decides(model) -> bool`` and ``first(model, clock,
  lexicographic)``, a compiled decision search; with ``free_search``:
  ``exists(model, clock) -> bool``, a decision solve with the solver's own
  search.

Engines read only ``model.n``, ``model.colours`` and ``model.constraints``. The
registry lists them fastest first: "auto" takes the first installed one that
supports every constraint of a model. :func:`register` adds one (a name, the
module that implements it, and the import it needs); a template is
``docs/architecture.md``'s recipe.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from cpqueens.errors import BackendUnavailableError

#: What every verb's ``backend`` takes: "auto" or a built-in engine's name.
BackendName = Literal["auto", "cpsat", "python-constraint", "bitmask"]


@dataclass(frozen=True)
class Capabilities:
    """What an engine declares about itself, for the planner and the tasks.

    - ``kernels``: it counts with the compiled kernels, so the kernels' own
      strategies (symmetry classes, hole sums, Burnside's unique counts) may
      answer for it;
    - ``lex_leader_split``: a model with symmetries is split into lex-leader
      classes (weights |G|, -|G|/2, -|G|/4) rather than by the mirror row;
    - ``short_below_free_rows``: a search with fewer free rows is over in well
      under a second, so it runs in this process (longer ones run in worker
      processes, which Ctrl-C and time limits stop at once);
    - ``decides``: it has a compiled decision search (``decides``, ``first``);
    - ``free_search``: it decides with its own unordered search (``exists``),
      and ``find()`` may race it;
    - ``stops``: how a search of it in this process is stopped: "chunks"
      (it returns to Python between chunks and looks at the clock and
      Ctrl-C), "solver" (the solver's own time limit and stop call);
    - ``regions``: the module that states and searches region puzzles (the
      Queens game, Star Battle: ``cpqueens.tasks.puzzles``) for this engine,
      with ``count(puzzle, limit)``, ``solutions(puzzle, limit)`` and
      ``search(puzzle, limit, keep)``; empty if it has none;
    - ``cells``: the module that counts cell problems (any number of pieces:
      ``cpqueens.tasks.optimise``) for this engine, with ``supports(problem,
      size, unique)`` and ``count(problem, size, unique=, time_limit=)``;
      empty if it has none.
    - ``whole``: it says model by model (``counts_whole(model)``) when one
      search of the whole model counts it faster than any split (the
      planner's ``whole.Whole`` strategy).
    """

    kernels: bool = False
    lex_leader_split: bool = False
    short_below_free_rows: int = 13
    decides: bool = False
    free_search: bool = False
    stops: str = "chunks"
    regions: str = ""
    cells: str = ""
    whole: bool = False


class Engine(Protocol):
    """The interface every engine offers (a module satisfies it)."""

    NAME: str
    SUPPORTS: tuple[type, ...]
    CAPABILITIES: Capabilities

    def count(self, model: Any) -> int:
        """The exact number of solutions of ``model``."""
        ...

    def solutions(
        self, model: Any, time_limit: float | None = None
    ) -> Iterator[tuple[tuple[int, ...], ...]]:
        """Every solution of ``model`` in lexicographic order, lazily."""
        ...


#: name -> (module implementing it, the import that must be installed, pip distribution).
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
    """Add the engine ``name`` after the others: a module's import path, or the engine itself.

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


def _importable(module: str) -> bool:
    """Whether ``module`` is on the path, without importing it."""
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


def get(name: str) -> Any:
    """The engine (a module, or a registered object) implementing backend ``name``."""
    engine, requirement, dist = _BACKENDS[check_name(name)]
    if not _importable(requirement):
        raise BackendUnavailableError(
            f"backend {name!r} needs the {dist!r} package: pip install {dist}"
        )
    return importlib.import_module(engine) if isinstance(engine, str) else engine


def portable(name: str) -> str | Engine:
    """What a worker process needs to find the engine ``name``: the name, or a registered object.

    A worker imports cpqueens afresh: it knows the built-in engines and those
    registered by module path, by name; an engine registered as an object
    travels to it pickled.
    """
    engine = _BACKENDS[check_name(name)][0]
    return name if isinstance(engine, str) else engine


def part(name: str, kind: str) -> Any | None:
    """The engine ``name``'s module for ``kind`` ("cells" or "regions"), or None if it has none.

    The engine declares the module's path in its ``Capabilities``; the registry
    is the one place that imports modules by name.
    """
    if kind not in ("cells", "regions"):
        raise ValueError(f"kind must be 'cells' or 'regions', got {kind!r}")
    path = getattr(capabilities(name), kind)
    return importlib.import_module(path) if path else None


def capabilities(name: str) -> Capabilities:
    """What the engine ``name`` declares about itself (its module is imported)."""
    found = getattr(get(name), "CAPABILITIES", None)
    return found if isinstance(found, Capabilities) else Capabilities()


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
