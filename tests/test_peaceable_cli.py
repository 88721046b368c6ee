"""``cpqueens optimize peaceable`` as a user runs it: proofs in parts, Ctrl-C, resume, a cluster."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.oracle_cells import Board
from tests.processes import OUTSIDE, finished, stop, wait_for

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cpqueens", "optimize", "peaceable"]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``cpqueens optimize peaceable ARGS`` in ``folder``, on this worktree's package."""
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, cwd=folder, env=env(), timeout=600
    )


def armies(n: int, answer: dict) -> tuple[list, list]:
    """The answer's armies, checked by the oracle's own attack relation."""
    white = [tuple(q[:2]) for q in answer["queens"] if q[2] == 0]
    black = [tuple(q[:2]) for q in answer["queens"] if q[2] == 1]
    oracle = Board(n, n)
    assert len(white) == len(black) == answer["value"]
    assert not any(b in oracle.hit[w] or b == w for w in white for b in black)
    return white, black


@pytest.mark.slow
def test_ctrl_c_saves_the_finished_parts_and_the_same_command_finishes_the_rest(tmp_path):
    path = tmp_path / "p13.json"
    command = [*CLI, "13", "--workers", "2", "--checkpoint", str(path), "--json"]
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    # the annealing's 24, then the proof that no 25 exist: 256 parts of some 20 ms each
    assert wait_for(lambda: len(finished(path)) >= 8, timeout=600)
    out, err, _ = stop(process, signal.SIGINT)
    saved = finished(path)
    assert process.returncode == 130 and out == ""
    assert err == (
        f"cpqueens: interrupted: {len(saved)} of 256 subproblems are saved in {path}; "
        "run the same command again to resume\n"
    )
    assert 8 <= len(saved) < 256 and set(saved.values()) == {0}  # no part holds armies of 25
    again = subprocess.run(command, cwd=tmp_path, env=env(), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    answer = json.loads(again.stdout)
    assert (answer["value"], answer["status"], answer["bound"]) == (24, "optimal", 24)
    armies(13, answer)
    resumed = finished(path)
    assert len(resumed) == 256 and all(resumed[i] == v for i, v in saved.items())


@pytest.mark.slow
def test_a_time_limit_reports_armies_and_a_bound_from_the_ladder():
    result = run(OUTSIDE, "13", "--time-limit", "2", "--json")
    answer = json.loads(result.stdout)
    armies(13, answer)
    assert answer["value"] <= 24 <= answer["bound"] <= 42  # the rows and columns' bound
    if answer["status"] == "feasible":
        assert result.returncode == 1
        assert f"the optimum is at most {answer['bound']}" in result.stderr


@pytest.mark.slow
def test_a_proof_runs_on_a_dask_cluster_from_the_command_line():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        result = run(OUTSIDE, "10", "--scheduler", cluster.scheduler_address, "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert (answer["value"], answer["status"]) == (14, "optimal")  # A250000(10)
    armies(10, answer)


@pytest.mark.slow
def test_the_checkpoint_of_another_proof_is_refused_in_one_line(tmp_path):
    first = run(tmp_path, "7", "--checkpoint", "p.json")
    assert first.returncode == 0, first.stderr
    other = run(tmp_path, "8", "--checkpoint", "p.json")
    assert other.returncode != 0 and other.stdout == ""
    assert other.stderr.startswith(
        "cpqueens: error: checkpoint 'p.json' was written for another count: its model is n=7"
    )
    assert len(other.stderr.splitlines()) == 1
