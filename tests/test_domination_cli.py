"""``cpqueens optimize domination`` as a user runs it: proofs in parts, checkpoints, signals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.oracle_cells import Board
from tests.processes import OUTSIDE, cpu_seconds, finished, stop, wait_for

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cpqueens", "optimize", "domination"]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``cpqueens optimize domination ARGS`` in ``folder``, on this worktree's package."""
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, cwd=folder, env=env(), timeout=300
    )


@pytest.mark.slow
def test_a_proof_with_a_checkpoint_records_its_parts_and_a_second_run_reads_them(tmp_path):
    first = run(tmp_path, "8", "--checkpoint", "d8.json", "--json")
    assert first.returncode == 0, first.stderr
    answer = json.loads(first.stdout)
    assert (answer["value"], answer["status"], answer["bound"]) == (5, "optimal", 5)  # A075458
    assert Board(8, 8).dominating([tuple(q) for q in answer["queens"]])
    saved = json.loads((tmp_path / "d8.json").read_text())
    assert saved["backend"] == "bitmask: 4 queens dominating the board, searched by lines"
    assert saved["subproblems"] == len(saved["done"]) and {v for _, v in saved["done"]} == {0}
    again = run(tmp_path, "8", "--checkpoint", "d8.json", "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["value"] == 5
    assert json.loads((tmp_path / "d8.json").read_text()) == saved


@pytest.mark.slow
def test_ctrl_c_stops_a_long_proof_with_its_parts_saved(tmp_path):
    path = tmp_path / "d15.json"
    process = subprocess.Popen(
        [*CLI, "15", "--checkpoint", str(path), "--workers", "1"],
        cwd=tmp_path,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # no 8 queens cover 15 x 15: a minute of parts, each saved as it ends. Stop once one is:
    # before, the search's kernel may still be compiling (a first run, an empty cache), and
    # LLVM's compiler, native code, hears Ctrl-C only when it returns. After, the search
    # hears it between two kernel calls (domination.CHUNK_BY_LEVEL: some 0.1 s each)
    assert wait_for(lambda: finished(path), timeout=300)
    out, err, after = stop(process, signal.SIGINT)
    assert after < 1.5  # CPU seconds after the signal: it stopped, it did not search on
    saved = finished(path)
    assert process.returncode == 130 and out == ""
    assert err == (
        f"cpqueens: interrupted: {len(saved)} of 36 subproblems are saved in {path}; "
        "run the same command again to resume\n"
    )
    assert set(saved.values()) <= {0}  # no part holds 8 covering queens


@pytest.mark.slow
def test_ctrl_c_stops_the_search_for_a_set_at_the_bound(tmp_path):
    process = subprocess.Popen(
        [*CLI, "20"], cwd=tmp_path, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    # 11 queens at once, then seconds of local search for 10 (there are none: A075458(20) = 11)
    assert wait_for(lambda: cpu_seconds(process.pid) >= 2.5, timeout=300)
    out, err, after = stop(process, signal.SIGINT)
    assert after < 1.5
    assert (process.returncode, out, err) == (130, b"", b"cpqueens: interrupted\n")


@pytest.mark.slow
def test_a_proof_runs_on_a_dask_cluster_from_the_command_line():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        result = run(OUTSIDE, "8", "--scheduler", cluster.scheduler_address, "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert (answer["value"], answer["status"]) == (5, "optimal")  # no 4 cover 8 x 8
    assert Board(8, 8).dominating([tuple(q) for q in answer["queens"]])


@pytest.mark.slow
def test_ctrl_c_stops_a_count_with_its_parts_saved_and_the_same_command_resumes_it(tmp_path):
    """The count of the optimal sets is resumable in small parts, in a checkpoint of its own."""
    command = [
        sys.executable, "-m", "cpqueens", "optimize", "independent-domination", "13", "--count",
        "--workers", "1", "--checkpoint", "i13.json", "--json",
    ]  # fmt: skip
    counted = tmp_path / "i13.count.json"  # 7 queens are at the bound: no proof, the count at once
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )

    def a_third_done() -> bool:
        if not counted.exists():
            return False
        total = json.loads(counted.read_text())["subproblems"]
        return len(finished(counted)) >= total // 3

    assert wait_for(a_third_done, timeout=300)
    out, err, after = stop(process, signal.SIGINT)
    assert after < 1.5
    saved = finished(counted)
    total = json.loads(counted.read_text())["subproblems"]
    assert process.returncode == 130 and out == ""
    assert err == (
        f"cpqueens: interrupted: {len(saved)} of {total} subproblems are saved in {counted.name}; "
        "run the same command again to resume\n"
    )
    assert total // 3 <= len(saved) < total
    again = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env())
    assert again.returncode == 0, again.stderr
    answer = json.loads(again.stdout)
    assert (answer["value"], answer["status"], answer["count"]) == (7, "optimal", 24)  # A002568
    board = Board(13, 13)
    queens = [tuple(q) for q in answer["queens"]]
    assert board.dominating(queens) and board.independent(queens) and len(queens) == 7
    resumed = finished(counted)
    assert len(resumed) == total and all(resumed[i] == value for i, value in saved.items())
