"""Process helpers for the tests that start a CLI: children, liveness, waiting (Linux /proc)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Where the CLI and example processes start: outside the repository, as a user's would, so
#: that the package is imported as installed (or from PYTHONPATH), never from the folder.
OUTSIDE = Path(tempfile.gettempdir())


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # "pid (comm) state ppid ...": comm may hold spaces, so split after its closing ')'.
    return text[text.rindex(")") + 2 :].split()


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def cpu_seconds(pid: int) -> float:
    """The user plus system CPU time ``pid`` has used so far (0 if it is gone).

    A test that must let a process get deep into its work waits for this, not for a
    number of seconds on the clock: on a busy machine the clock runs while the work does not.
    """
    fields = _stat(pid)
    if fields is None:
        return 0.0
    # After "pid (comm) ": fields[11] and [12] are utime and stime, in clock ticks.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """The CPU time of ``pid`` and of its children (its worker processes) so far."""
    return cpu_seconds(pid) + sum(cpu_seconds(child) for child in children(pid))


def _cpu_with_reaped(pid: int) -> float:
    """The CPU time of ``pid`` plus that of the children it has waited for (0 if it is gone)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    # fields[13] and [14] are cutime and cstime: the waited-for children's, in clock ticks.
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")


def _reaped_children_cpu() -> float:
    """The CPU time of this process's children that have exited and been waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def stop(
    job: subprocess.Popen, sent: signal.Signals = signal.SIGINT, timeout: float = 120
) -> tuple[str, str, float]:
    """Send ``sent`` to ``job``, wait for its end: its stdout, its stderr, and the CPU after.

    The third value is the CPU time (user plus system) ``job`` and the workers it waited
    for used between the signal and their exit: how much work the process did after it
    was told to stop. Unlike seconds on the clock, it does not grow when other jobs load
    the machine, so a test can demand "at once" by it. ``timeout`` only guards against a
    process that never ends.
    """
    before = _reaped_children_cpu()
    used = _cpu_with_reaped(job.pid) + sum(_cpu_with_reaped(c) for c in children(job.pid))
    job.send_signal(sent)
    out, err = job.communicate(timeout=timeout)
    return out, err, _reaped_children_cpu() - before - used


def wait_gone(pids: list[int], timeout: float = 10.0) -> list[int]:
    """Wait until no pid of ``pids`` is alive; return those still alive after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        left = [pid for pid in pids if alive(pid)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def finished(checkpoint: Path) -> dict[int, int]:
    """The finished subproblems a checkpoint file records (empty if it does not exist yet)."""
    try:
        data = json.loads(checkpoint.read_text())
    except (FileNotFoundError, ValueError):
        return {}
    return {int(key): int(value) for key, value in data["done"]}


def wait_for(condition, timeout: float, interval: float = 0.01) -> bool:
    """Poll ``condition()`` until it is true or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)
    return True


def environment() -> dict[str, str]:
    """The environment for a CLI subprocess: this one, unbuffered."""
    return {**os.environ, "PYTHONUNBUFFERED": "1"}


def run_python(
    code: str, folder: Path = OUTSIDE, timeout: float = 120
) -> subprocess.CompletedProcess:
    """Run ``python -c code`` in ``folder`` to its end (both pipes read to EOF), as text."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=folder,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
