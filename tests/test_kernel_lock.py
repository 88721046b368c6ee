"""The kernel cache's lock: a kernel whose compilation fails gives its lock file back.

A process that misses a kernel in the cache compiles it under a lock file, and
other processes that miss it wait for that lock (tests/test_cold_start.py
shows that a kernel is then compiled once). A compilation that fails saves
nothing, so the lock must be given back at once: another process asking for
the same kernel fails as quickly, instead of waiting for the first process
to exit.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: A kernel numba cannot type (an int has no such attribute); the process stays alive after.
BROKEN = """
import sys

import pytest
from cpqueens.kernels.jit import kernel

@kernel()
def broken(x):
    return x.no_such_attribute

try:
    broken(3)
except Exception as error:
    print(type(error).__name__, flush=True)
sys.stdin.read()  # alive, as a notebook or a worker would be, until the test closes stdin
"""


@pytest.mark.slow
def test_a_failed_compilation_gives_its_lock_back_while_its_process_lives(tmp_path):
    (tmp_path / "broken.py").write_text(BROKEN)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "kernels")}
    command = [sys.executable, "broken.py"]
    first = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert first.stdout is not None
        assert first.stdout.readline() == "TypingError\n"  # failed, and still running
        second = subprocess.run(
            command, cwd=tmp_path, env=env, input="", capture_output=True, text=True, timeout=300
        )
        assert (second.returncode, second.stdout) == (0, "TypingError\n"), second.stderr
    finally:
        first.communicate(input="", timeout=60)
    assert first.returncode == 0
