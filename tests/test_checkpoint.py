"""Checkpoints: every finished subproblem recorded, resumed after SIGKILL or Ctrl-C, never twice."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path

import pytest

import cpqueens
from cpqueens.execution.checkpoint import content_digest, describe
from cpqueens.strategies.symmetry import count_subproblem, subproblems
from tests import checkpoint_job, oracle
from tests.processes import OUTSIDE, children, environment, finished, wait_for, wait_gone

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cpqueens"]


class CountingExecutor(Executor):
    """A thread pool that remembers the subproblems it was asked to count."""

    def __init__(self) -> None:
        self.inner = ThreadPoolExecutor(2)
        self.submitted: list = []
        self.lock = threading.Lock()

    def submit(self, fn, /, *args, **kwargs):
        with self.lock:
            self.submitted.append(args[1])
        return self.inner.submit(fn, *args)

    def shutdown(self, wait=True, *, cancel_futures=False):
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def save_sealed(path: Path, data: dict) -> None:
    """Write ``data`` as a checkpoint, sealed as cpqueens seals it (an edit it cannot detect)."""
    path.write_text(json.dumps({**data, "sha256": content_digest(data)}))


def reference(data: dict, model) -> dict[int, int]:
    """Each subproblem's weighted count by the bitmask reference, for the split the file records."""
    parts = subproblems(model.columns(), data["backend"], data["split_depth"])
    assert len(parts) == data["subproblems"]
    return {i: count_subproblem("bitmask", part) for i, part in enumerate(parts)}


@pytest.mark.slow
def test_a_checkpoint_records_every_finished_subproblem(tmp_path):
    path = tmp_path / "count.json"
    blocked = [(0, 2), (3, 3), (4, 0)]
    model = cpqueens.model(7, blocked, colours=2)
    expected = len(oracle.solutions(7, blocked, (), 2))
    assert model.count("cpsat", workers=1, checkpoint=path) == expected
    data = load(path)
    assert data["format"] == "cpqueens-checkpoint"
    assert data["model"] == "n=7 colours=2 blocked=[(0, 2), (3, 3), (4, 0)] placed=[]"
    assert data["backend"] == "cpsat"
    done = finished(path)
    assert done == reference(data, model)
    assert sum(done.values()) == expected
    assert not list(tmp_path.glob(".count.json.*"))  # no temporary file left behind

    # A finished checkpoint answers at once: nothing is counted again.
    again = CountingExecutor()
    assert model.count("cpsat", executor=again, checkpoint=path) == expected
    assert again.submitted == []


@pytest.mark.slow
def test_a_partial_checkpoint_resumes_with_the_rest_only(tmp_path):
    path = tmp_path / "count.json"
    model = cpqueens.model(9, placed=[(0, 4)])
    expected = len(oracle.solutions(9, placed=[(0, 4)]))
    assert model.count("bitmask", workers=1, checkpoint=path) == expected
    data = load(path)
    kept = data["done"][::2]  # as if the count had died halfway
    data["done"] = kept
    save_sealed(path, data)
    parts = subproblems(model.columns(), "bitmask", data["split_depth"])

    resumed = CountingExecutor()
    assert model.count("bitmask", executor=resumed, checkpoint=path) == expected
    kept_keys = {key for key, _ in kept}
    assert sorted(map(parts.index, resumed.submitted)) == sorted(set(range(len(parts))) - kept_keys)
    assert set(finished(path)) == set(range(len(parts)))


def test_another_model_is_refused(tmp_path):
    path = tmp_path / "q8.json"
    cpqueens.model(8).count("bitmask", workers=1, checkpoint=path)
    before = path.read_bytes()
    expected = (
        f"checkpoint {str(path)!r} was written for another count: its model is "
        "n=8 colours=1 blocked=[] placed=[], this count's is "
        "n=8 colours=1 blocked=[(0, 0)] placed=[]; resume it with the command that wrote it, "
        "or pass another checkpoint file"
    )
    with pytest.raises(cpqueens.CheckpointError) as refused:
        cpqueens.model(8, blocked=[(0, 0)]).count("bitmask", checkpoint=path)
    assert str(refused.value) == expected
    with pytest.raises(
        cpqueens.CheckpointError, match=r"its backend is 'bitmask', this count's is 'cpsat'"
    ):
        cpqueens.model(8).count("cpsat", checkpoint=path)
    assert path.read_bytes() == before  # a refused checkpoint is left as it was


def test_another_split_is_refused(tmp_path):
    path = tmp_path / "q8.json"
    cpqueens.model(8).count("bitmask", workers=1, checkpoint=path)
    data = load(path)
    data["split"] = "0" * 64  # what an older splitter would have recorded
    save_sealed(path, data)
    with pytest.raises(cpqueens.CheckpointError, match=r"its split is \d+ subproblems at depth"):
        cpqueens.model(8).count("bitmask", checkpoint=path)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "Expecting value"),
        ('{"format": "something else"}', "no 'cpqueens-checkpoint' format tag"),
        ('{"format": "cpqueens-checkpoint", "version": 99}', "version 99, expected 2"),
        (
            '{"format": "cpqueens-checkpoint", "version": 1}',
            "version 1, expected 2 (written by an older cpqueens; count again with a new file)",
        ),
    ],
)
def test_an_unreadable_checkpoint_is_refused(tmp_path, text, reason):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(cpqueens.CheckpointError) as refused:
        cpqueens.model(6).count("bitmask", checkpoint=path)
    assert str(refused.value).startswith(
        f"checkpoint {str(path)!r} is not a readable cpqueens checkpoint: {reason}"
    )


def test_the_cli_refuses_another_models_checkpoint_in_one_line(tmp_path):
    path = tmp_path / "q6.json"
    cpqueens.model(6).count("bitmask", checkpoint=path)
    run = subprocess.run(
        [*CLI, "count", "7", "--backend", "bitmask", "--checkpoint", str(path)],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        timeout=60,
    )
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr == (
        f"cpqueens: error: checkpoint {str(path)!r} was written for another count: its model is "
        f"{describe(cpqueens.model(6))}, this count's is {describe(cpqueens.model(7))}; "
        "resume it with the command that wrote it, or pass another checkpoint file\n"
    )


@pytest.mark.slow
def test_sigkill_then_resume_counts_no_finished_subproblem_twice(tmp_path):
    path, log1, log2 = tmp_path / "job.json", tmp_path / "run1.log", tmp_path / "run2.log"
    command = [sys.executable, "-m", "tests.checkpoint_job", str(path)]
    job = subprocess.Popen([*command, str(log1)], cwd=OUTSIDE, env=environment())
    try:
        assert wait_for(lambda: len(finished(path)) >= 6, timeout=60)
    finally:
        job.kill()
        job.wait()
    snapshot = finished(path)
    data = load(path)
    assert 6 <= len(snapshot) < data["subproblems"], "the job ended before it could be killed"

    resumed = subprocess.run(
        [*command, str(log2)], cwd=OUTSIDE, env=environment(), capture_output=True, text=True
    )
    assert resumed.returncode == 0, resumed.stderr
    model = checkpoint_job.MODEL
    expected = model.count("bitmask", workers=1, progress=False)  # the reference, uninterrupted
    assert int(resumed.stdout) == expected

    labels = [
        checkpoint_job.label(p)
        for p in subproblems(model.columns(), "bitmask", data["split_depth"])
    ]
    recounted = log2.read_text().splitlines()
    assert len(recounted) == len(set(recounted))
    assert not {labels[key] for key in snapshot} & set(recounted)  # nothing saved is redone
    assert {labels[key] for key in snapshot} | set(recounted) == set(labels)
    done = finished(path)
    assert {key: done[key] for key in snapshot} == snapshot
    assert done == reference(data, model)


def cli_count(path: Path) -> list[str]:
    # CP-SAT is slow enough here to be stopped midway whatever the bitmask engine's speed.
    problem = ["14", "--placed", "7,3", "--backend", "cpsat", "--workers", "2"]
    return [*CLI, "count", *problem, "--checkpoint", str(path)]


# No symmetry (so the bitmask reference is fast on its subproblems), ~114 subproblems.
SLOW = cpqueens.model(14, placed=[(7, 3)])


def start_and_wait_for_progress(path: Path) -> tuple[subprocess.Popen, list[int]]:
    """Start the CLI count, wait until a few subproblems are saved; return it and its children."""
    job = subprocess.Popen(
        cli_count(path),
        cwd=OUTSIDE,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if not wait_for(lambda: len(finished(path)) >= 3, timeout=120):
        job.kill()
        pytest.fail(f"no progress: {job.communicate()}")
    return job, children(job.pid)


@pytest.mark.slow
def test_the_cli_resumes_after_sigkill_and_its_workers_exit(tmp_path):
    path = tmp_path / "q14.json"
    job, workers = start_and_wait_for_progress(path)
    job.send_signal(signal.SIGKILL)
    job.communicate()
    snapshot = finished(path)
    data = load(path)
    assert len(snapshot) < data["subproblems"], "the count ended before it could be killed"
    assert len(workers) >= 2
    assert wait_gone(workers) == []  # the pool's workers notice the driver died

    resumed = subprocess.run(
        cli_count(path), cwd=OUTSIDE, env=environment(), capture_output=True, text=True
    )
    expected = SLOW.count("bitmask", workers=1)
    assert (resumed.returncode, resumed.stdout, resumed.stderr) == (0, f"{expected}\n", "")
    done = finished(path)
    assert {key: done[key] for key in snapshot} == snapshot
    assert done == reference(data, SLOW)


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_says_how_to_resume(tmp_path):
    path = tmp_path / "q14.json"
    job, workers = start_and_wait_for_progress(path)
    job.send_signal(signal.SIGINT)
    out, err = job.communicate(timeout=60)
    assert (job.returncode, out) == (130, ""), err
    saved = finished(path)
    data = load(path)
    assert err == (
        f"cpqueens: interrupted: {len(saved)} of {data['subproblems']} subproblems are saved "
        f"in {path}; run the same command again to resume\n"
    )
    assert 3 <= len(saved) < data["subproblems"]
    assert saved == {key: value for key, value in reference(data, SLOW).items() if key in saved}
    assert len(workers) >= 2
    assert wait_gone(workers, timeout=5) == []  # no orphan: every worker (and helper) has exited


def test_an_unwritable_checkpoint_is_an_error(tmp_path):
    path = tmp_path / "missing" / "q6.json"
    with pytest.raises(cpqueens.CheckpointError) as refused:
        cpqueens.model(6).count("bitmask", checkpoint=path)
    assert str(refused.value) == f"cannot write checkpoint {str(path)!r}: No such file or directory"


@pytest.mark.slow
def test_a_killed_kernel_count_resumes_to_the_oeis_total(tmp_path):
    path = tmp_path / "q16.json"
    command = [*CLI, "count", "16", "--workers", "2", "--checkpoint", str(path)]
    job = subprocess.Popen(
        command, cwd=tmp_path, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    if not wait_for(lambda: len(finished(path)) >= 5, timeout=120):
        job.kill()
        pytest.fail(f"no progress: {job.communicate()}")
    job.send_signal(signal.SIGKILL)
    job.communicate()
    snapshot = finished(path)
    data = load(path)
    assert 5 <= len(snapshot) < data["subproblems"], "the count ended before it was killed"

    resumed = subprocess.run(
        [*CLI, "count", "16", "--workers", "2", "--checkpoint", str(path)],
        cwd=tmp_path, env=environment(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert (resumed.returncode, resumed.stdout, resumed.stderr) == (0, "14772512\n", "")
    done = finished(path)
    assert {key: done[key] for key in snapshot} == snapshot  # nothing saved was counted again
    assert len(done) == data["subproblems"]
    unique = subprocess.run(
        [*CLI, "count", "16", "--unique", "--checkpoint", str(path)],
        cwd=tmp_path, env=environment(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert (unique.returncode, unique.stdout) == (0, "1846955\n")
