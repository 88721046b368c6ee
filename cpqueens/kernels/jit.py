"""numba's ``njit`` with its on-disk cache in a per-user folder, never inside the package.

numba's ``cache=True`` writes next to the source file by default: in an
installed package that is ``site-packages/cpqueens/__pycache__/``, outside
pip's RECORD, where the files outlive an uninstall and later shadow the
project as an empty namespace package. :func:`kernel` compiles with the cache
in ``platformdirs.user_cache_dir("cpqueens")/numba`` instead (or in
``NUMBA_CACHE_DIR`` when the user set it), and without a disk cache at all
if that folder cannot be written. The folder is chosen for cpqueens' own
kernels only, while each is decorated: numba's setting for the user's other
functions is left as it was.

Loading a kernel from that cache skips one step of numba's: before its first
load in a process, numba imports and registers every typing and lowering
implementation it has (arrays, lists, dicts, random, linear algebra...), some
0.2 s, although a cached kernel is finished machine code that needs none of
them: it links only to numba's runtime (NRT) and the C library (numba's
developer notes on caching). :func:`quick_load` initialises the runtime and
loads; a kernel that is not in the cache compiles as before, numba's
registries loaded then.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@functools.cache
def cache_folder() -> Path | None:
    """The writable folder for the compiled kernels, or None if there is none."""
    from numba.core import config

    if config.CACHE_DIR:
        return Path(config.CACHE_DIR)  # the user's NUMBA_CACHE_DIR
    from platformdirs import user_cache_dir

    folder = Path(user_cache_dir("cpqueens", appauthor=False)) / "numba"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        return None
    return folder


@functools.cache
def quick_load() -> type | None:
    """The class of numba's disk cache that loads a kernel without registries it does not need.

    None if this numba's cache is not shaped as expected (``load_overload``
    calling ``_load_overload``): then its own loading is kept.
    """
    from numba.core.caching import FunctionCache
    from numba.core.runtime import rtsys

    if not callable(getattr(FunctionCache, "_load_overload", None)):
        return None

    class QuickLoad(FunctionCache):  # type: ignore[misc]
        """A FunctionCache whose load initialises numba's runtime, not every registry."""

        def load_overload(self, sig: Any, target_context: Any) -> Any:
            """The cached compiled kernel for ``sig``, or None (numba then compiles it)."""
            rtsys.initialize(target_context)  # what a cached kernel links to
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)

    return QuickLoad


def kernel(**options: Any) -> Callable[[F], F]:
    """``numba.njit(**options)``, cached on disk in :func:`cache_folder` (if there is one)."""
    from numba import njit
    from numba.core import config
    from numba.core.caching import FunctionCache

    def decorate(fn: F) -> F:
        folder = cache_folder()
        if folder is None:
            return njit(**options)(fn)  # type: ignore[no-any-return]
        before = config.CACHE_DIR
        config.CACHE_DIR = os.fspath(folder)  # read once, while the dispatcher is made
        try:
            dispatcher = njit(cache=True, **options)(fn)
        finally:
            config.CACHE_DIR = before
        quick = quick_load()
        if quick is not None and type(dispatcher._cache) is FunctionCache:
            dispatcher._cache.__class__ = quick
        return dispatcher  # type: ignore[no-any-return]

    return decorate
