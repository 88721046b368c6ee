"""Shared fixtures: every test that takes ``backend`` runs once per installed backend.

The suite has two tiers: ``python -m pytest`` runs every test; ``python -m pytest -m
"not slow"`` leaves out the tests marked ``slow`` (over ~1 s each). A doctest cannot carry
a marker, so the slow ones are named in ``SLOW_DOCTESTS``. Both tiers run one test process
per core (pytest-xdist, ``addopts`` in pyproject.toml), so no test may rely on having the
machine to itself: "at once" is measured in CPU seconds, waits are for events.
"""

from __future__ import annotations

import os
import signal

import pytest

import cpqueens

# A suite started from a background shell (`cmd &`, nohup, some CI runners) inherits SIGINT
# ignored, and so would every process it starts: Python then installs no Ctrl-C handler and the
# tests' real SIGINTs would do nothing. Each test process (xdist's workers import this too) puts
# Python's own handler back, so the processes the tests start get SIGINT's default again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: Doctests over ~2 s, by their item name: proving 8x8 queens domination optimal takes CP-SAT
#: about 20 s.
SLOW_DOCTESTS = frozenset(
    {"cpqueens.model.shortcuts.domination", "cpqueens.model.facade.Model.minimize"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the doctests of ``SLOW_DOCTESTS`` slow."""
    for item in items:
        if isinstance(item, pytest.DoctestItem) and item.name in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(params=cpqueens.backends())
def backend(request: pytest.FixtureRequest) -> str:
    """The name of one installed backend."""
    return request.param


@pytest.fixture
def ctrl_c_in_process():
    """Python's own SIGINT handler and no cyclic garbage collection for the test.

    ``_thread.interrupt_main()`` acts only through Python's handler, and a process
    started in the background by a shell without job control (``pytest ... &`` in a
    script, nohup) inherits SIGINT ignored: Python then installs no handler, and the
    count ran to its end (the fast tier failed so, three times, run that way).

    The collector runs the callbacks in ``gc.callbacks`` (hypothesis registers one)
    as Python code, and a KeyboardInterrupt raised inside one is printed as
    "unraisable" and lost: the test's Ctrl-C never reached the code under test
    (CI, stop 57). With the collector off, it lands in the test's own code.
    """
    import gc

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    collecting = gc.isenabled()
    gc.disable()
    yield
    if collecting:
        gc.enable()
    signal.signal(signal.SIGINT, previous)


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test(monkeypatch: pytest.MonkeyPatch):
    """Kill what a test started and left running (with its workers) when the test ends.

    A test that fails before it stops its CLI process (an assertion while it
    waits on a busy machine) would otherwise leave a search running for hours,
    slowing every later test and its neighbours' on a shared machine.
    """
    import subprocess

    from tests.processes import children

    started: list[subprocess.Popen] = []
    plain = subprocess.Popen.__init__

    def tracked(self: subprocess.Popen, *args: object, **kwargs: object) -> None:
        plain(self, *args, **kwargs)  # type: ignore[arg-type]
        started.append(self)

    monkeypatch.setattr(subprocess.Popen, "__init__", tracked)
    yield
    for job in started:
        if job.poll() is None:
            tree, stack = [], [job.pid]
            while stack:
                pid = stack.pop()
                tree.append(pid)
                stack += children(pid)
            for pid in reversed(tree):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            job.wait()
