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


def kernel(**options: Any) -> Callable[[F], F]:
    """``numba.njit(**options)``, cached on disk in :func:`cache_folder` (if there is one)."""
    from numba import njit
    from numba.core import config

    def decorate(fn: F) -> F:
        folder = cache_folder()
        if folder is None:
            return njit(**options)(fn)  # type: ignore[no-any-return]
        before = config.CACHE_DIR
        config.CACHE_DIR = os.fspath(folder)  # read once, while the dispatcher is made
        try:
            return njit(cache=True, **options)(fn)  # type: ignore[no-any-return]
        finally:
            config.CACHE_DIR = before

    return decorate
