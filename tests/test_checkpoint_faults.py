"""Checkpoint faults: CP-SAT's negative weights, damaged or edited files, odd paths, two counts.

Every test works like an operator: real files, the CLI in a subprocess run
from a temporary folder, real signals. Every total that a resumed count prints
is checked against the bitmask reference.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

import cpqueens
from tests.processes import environment, finished, wait_for

CLI = [sys.executable, "-m", "cpqueens"]


def cli(folder: Path, *args: str) -> tuple[int, str, str]:
    """Run ``cpqueens ARGS`` in ``folder``; return its exit code, stdout and stderr."""
    run = subprocess.run(
        [*CLI, *args],
        cwd=folder,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    return run.returncode, run.stdout, run.stderr


# ---- 1. CP-SAT's lex-leader split has negative weights, so a checkpoint holds negative counts


@pytest.mark.parametrize(
    ("args", "model"),
    [
        (["8"], cpqueens.model(8)),
        (["6", "--colours", "2"], cpqueens.model(6, colours=2)),
        (["9", "--placed", "4,4"], cpqueens.model(9, placed=[(4, 4)])),
    ],
    ids=["n8", "n6-colours2", "n9-placed"],
)
def test_a_cpsat_checkpoint_of_a_symmetric_model_is_resumed(tmp_path, args, model):
    expected = model.count("bitmask")
    command = ["count", *args, "--backend", "cpsat", "--checkpoint", "c.json"]
    assert cli(tmp_path, *command) == (0, f"{expected}\n", "")
    assert min(finished(tmp_path / "c.json").values()) < 0  # the case that was refused
    assert cli(tmp_path, *command) == (0, f"{expected}\n", "")  # a finished checkpoint answers


# One thread, each task slowed (test-only, as in tests/checkpoint_job.py) so that Ctrl-C
# lands after a negative count is saved and before the last subproblem is counted.
INTERRUPTED_COUNT = """
import sys, time
from concurrent.futures import ThreadPoolExecutor
import cpqueens

def slowly(fn, *args):
    time.sleep(0.2)
    return fn(*args)

class Slow(ThreadPoolExecutor):
    def submit(self, fn, /, *args, **kwargs):
        return super().submit(slowly, fn, *args)

try:
    with Slow(1) as executor:
        cpqueens.model(8).count("cpsat", executor=executor, checkpoint=sys.argv[1], progress=False)
except cpqueens.CountInterrupted as stop:
    print(stop)
    sys.exit(130)
"""


def test_an_interrupted_cpsat_api_count_is_resumed(tmp_path):
    path = tmp_path / "q8.json"
    job = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_COUNT, str(path)],
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert wait_for(lambda: min(finished(path).values(), default=0) < 0, timeout=120)
    finally:
        job.send_signal(signal.SIGINT)
        out, err = job.communicate(timeout=60)
    saved = finished(path)
    assert job.returncode == 130, err
    assert out.startswith(f"interrupted: {len(saved)} of 24 subproblems are saved in {path};")
    assert min(saved.values()) < 0 and len(saved) < 24
    assert cpqueens.model(8).count("cpsat", workers=1, checkpoint=path) == 92
    assert len(finished(path)) == 24
