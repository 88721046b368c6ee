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

Processes that meet the same kernel on a cold cache at the same time (a
pool's workers, a script and its workers, a test suite's processes) would
each compile it. The cache compiles a kernel under a lock file beside its
index instead: the first process compiles and saves it, the others wait for
the lock and load what it saved.
"""

from __future__ import annotations

import functools
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

#: The longest a process waits for another to compile a kernel before it compiles it too
#: (seconds): the largest kernel compiles in some 20 s of CPU, so this is a stuck process.
COMPILE_WAIT = 600.0
#: The lock files this process holds, by path: a kernel's lock is taken when its cache misses
#: and given back once its compiled code is saved.
_held: dict[str, int] = {}


def lock_file(path: str) -> int | None:
    """Take the lock file ``path`` (waiting for another process that holds it); its descriptor.

    Closing the descriptor gives the lock back. None if it cannot be had (no lock
    files here, or held past :data:`COMPILE_WAIT`): the caller then goes on
    without it, as numba does.
    """
    try:
        import fcntl
    except ImportError:  # Windows: no flock, so each process compiles what it misses
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    deadline = time.monotonic() + COMPILE_WAIT
    delay = 0.01
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                break
            time.sleep(delay)  # another process compiles this kernel: wait for its file
            delay = min(delay * 2, 0.2)
        except OSError:
            break
    os.close(fd)
    return None


def _unlock(path: str) -> None:
    """Give back the lock file ``path`` if this process holds it."""
    fd = _held.pop(path, None)
    if fd is not None:
        os.close(fd)  # closing the descriptor releases its flock


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
    from numba.core import event
    from numba.core.caching import FunctionCache
    from numba.core.runtime import rtsys

    if not callable(getattr(FunctionCache, "_load_overload", None)):
        return None

    class QuickLoad(FunctionCache):  # type: ignore[misc]
        """A FunctionCache whose load initialises numba's runtime, not every registry.

        A miss takes the kernel's lock file and looks again, as another process
        may have saved the kernel while this one waited; a second miss keeps the
        lock while numba compiles, and the save gives it back.
        """

        def load_overload(self, sig: Any, target_context: Any) -> Any:
            """The cached compiled kernel for ``sig``, or None (numba then compiles it)."""
            rtsys.initialize(target_context)  # what a cached kernel links to
            found = self._load(sig, target_context)
            if found is not None or not self._enabled:
                return found
            path = self.lock_path()
            if path in _held:  # this process compiles it already (a recursive kernel)
                return None
            try:
                self._impl.locator.ensure_cache_path()
            except OSError:
                return None
            fd = lock_file(path)
            if fd is None:
                return None
            found = self._load(sig, target_context)
            if found is not None:
                os.close(fd)
                return found
            _held[path] = fd  # numba compiles it now, then saves it: save_overload unlocks
            return None

        def _load(self, sig: Any, target_context: Any) -> Any:
            """The cached kernel, or None; on Windows a file another process holds is a miss."""
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
            return None  # the guard swallowed a spurious error (Windows only)

        def save_overload(self, sig: Any, data: Any) -> None:
            """Save the compiled kernel for ``sig``, then give back its lock file."""
            try:
                self._save_overload(sig, data)
            finally:
                _unlock(self.lock_path())

        def lock_path(self) -> str:
            """The kernel's lock file, beside its cache index."""
            return f"{self._cache_file._index_path}.lock"

    class GiveBackOnError(event.Listener):  # type: ignore[misc]
        """Gives back a kernel's lock file when its compilation fails (no save will)."""

        def on_start(self, started: Any) -> None:
            """Nothing at the start of a compilation."""

        def on_end(self, ended: Any) -> None:
            """The failed kernel's lock file, given back: other processes stop waiting."""
            cache = getattr(ended.data.get("dispatcher"), "_cache", None)
            # its exception, read directly: numba 0.68's Event.is_failed says the opposite
            if ended._exc_details is not None and isinstance(cache, QuickLoad):
                _unlock(cache.lock_path())

    event.register("numba:compile", GiveBackOnError())
    return QuickLoad


def kernel(**options: Any) -> Callable[[F], F]:
    """``numba.njit(**options)``, cached on disk in :func:`cache_folder` (if there is one)."""
    from numba import njit
    from numba.core import config
    from numba.core.caching import FunctionCache

    def decorate(fn: F) -> F:
        folder = cache_folder()
        if folder is None:
            return _plain_calls(njit(**options)(fn))
        before = config.CACHE_DIR
        config.CACHE_DIR = os.fspath(folder)  # read once, while the dispatcher is made
        try:
            dispatcher = njit(cache=True, **options)(fn)
        finally:
            config.CACHE_DIR = before
        quick = quick_load()
        if quick is not None and type(dispatcher._cache) is FunctionCache:
            dispatcher._cache.__class__ = quick
        return _plain_calls(dispatcher)

    return decorate


def _plain_calls(dispatcher: Any) -> Any:
    """The kernel, compiled for the plain types of a calling kernel's constants, not their values.

    A kernel calling another with a constant (``0``, ``False``, ``-1``) would
    have numba compile the callee once more for that literal value: 22 extra
    compilations of 15 kernels, each as long as the first. The callee is
    compiled once for ``int64`` or ``bool`` instead, whatever the caller passes.
    """
    from numba.core import types

    typed = dispatcher.get_call_template

    def get_call_template(args: Any, kws: Any) -> Any:
        plain = tuple(types.unliteral(a) for a in args)
        return typed(plain, {name: types.unliteral(t) for name, t in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher
