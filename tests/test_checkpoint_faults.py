"""Checkpoint faults: CP-SAT's negative weights, damaged or edited files, odd paths, two counts.

Every test works like an operator: real files, the CLI in a subprocess run
from a temporary folder, real signals. Every total that a resumed count prints
is checked against the bitmask reference.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import cpqueens
from cpqueens.execution.checkpoint import MAX_BYTES, Checkpoint, content_digest
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
@pytest.mark.slow
def test_a_cpsat_checkpoint_of_a_symmetric_model_is_resumed(tmp_path, args, model):
    expected = model.count("bitmask")
    command = ["count", *args, "--backend", "cpsat", "--checkpoint", "c.json"]
    assert cli(tmp_path, *command) == (0, f"{expected}\n", "")
    assert min(finished(tmp_path / "c.json").values()) < 0  # the case that was refused
    assert cli(tmp_path, *command) == (0, f"{expected}\n", "")  # a finished checkpoint answers


# ``python -c SLOW_COUNT CHECKPOINT N BACKEND``: an API count on one thread, each task slowed
# (test-only, as in tests/checkpoint_job.py) so that a test can act while it runs.
SLOW_COUNT = """
import sys, time
from concurrent.futures import ThreadPoolExecutor
import cpqueens

path, n, backend = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def slowly(fn, *args):
    time.sleep(0.2)
    return fn(*args)

class Slow(ThreadPoolExecutor):
    def submit(self, fn, /, *args, **kwargs):
        return super().submit(slowly, fn, *args)

try:
    with Slow(1) as executor:
        total = cpqueens.model(n).count(backend, executor=executor, checkpoint=path, progress=False)
    print(total)
except cpqueens.CountInterrupted as stop:
    print(stop)
    sys.exit(130)
"""


def start_slow_count(path: Path, n: int, backend: str) -> subprocess.Popen:
    """Start ``SLOW_COUNT`` in its own process, in the checkpoint's folder."""
    return subprocess.Popen(
        [sys.executable, "-c", SLOW_COUNT, str(path), str(n), backend],
        cwd=path.parent,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_an_interrupted_cpsat_api_count_is_resumed(tmp_path):
    # Ctrl-C lands once a negative count is saved, before the last subproblem is counted.
    path = tmp_path / "q8.json"
    job = start_slow_count(path, 8, "cpsat")
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


# ---- 2. Nothing checked the counts: each of these edits of a correct file gave a wrong total

Q10 = ["count", "10", "--backend", "bitmask", "--checkpoint", "q.json"]
NOT_READABLE = "cpqueens: error: checkpoint 'q.json' is not a readable cpqueens checkpoint: "
TAMPERED = "its content does not match its sha256 digest (the file was damaged or edited)"


def written_n10(folder: Path) -> dict:
    """Count n=10 with a checkpoint ``q.json`` in ``folder``; return the file's content."""
    assert cli(folder, *Q10) == (0, "724\n", "")
    return json.loads((folder / "q.json").read_text())


def plus_1000(data: dict) -> None:
    data["done"][0][1] += 1000


def huge(data: dict) -> None:
    data["done"][0][1] = 10**30


def duplicated(data: dict) -> None:
    data["done"].append([0, data["done"][0][1] + 2])


def true(data: dict) -> None:
    data["done"][0][1] = True


def doubled(data: dict) -> None:
    data["done"] = [[index, 2 * value] for index, value in data["done"]]


def no_split(data: dict) -> None:
    data["split"], data["split_depth"] = None, 3


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (plus_1000, TAMPERED),
        (huge, TAMPERED),
        (duplicated, "subproblem 0 is recorded twice"),
        (true, "'done' holds [0, true], expected [index, count] (two ints)"),
        (doubled, TAMPERED),
        (no_split, "field 'split' is null, expected 64 lowercase hex digits"),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
@pytest.mark.slow
def test_an_edited_checkpoint_is_refused_in_one_line(tmp_path, edit: Callable, reason: str):
    data = written_n10(tmp_path)
    edit(data)
    path = tmp_path / "q.json"
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    assert cli(tmp_path, *Q10) == (1, "", NOT_READABLE + reason + "\n")
    assert path.read_bytes() == before  # left as it was, for the operator to look at
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.json"]  # the lock is gone too


def resealed(data: dict) -> str:
    """The file as a writer that seals whatever it is given would write it."""
    return json.dumps({**data, "sha256": content_digest(data)})


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (10**30, "subproblem 0 cannot have the weighted count 10**30 (its weight is 2)"),
        (9, "subproblem 0 cannot have the weighted count 9 (its weight is 2)"),
        (-8, "subproblem 0 cannot have the weighted count -8 (its weight is 2)"),
    ],
    ids=["beyond-the-permutations", "not-a-multiple-of-the-weight", "wrong-sign"],
)
@pytest.mark.slow
def test_a_sealed_count_its_subproblem_cannot_hold_is_refused(tmp_path, value: int, reason: str):
    data = written_n10(tmp_path)
    data["done"][0][1] = value
    (tmp_path / "q.json").write_text(resealed(data))
    reason = reason.replace("10**30", str(10**30))
    assert cli(tmp_path, *Q10) == (1, "", NOT_READABLE + reason + "\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.json"]  # refused at bind: unlocked


@pytest.mark.slow
def test_a_sealed_file_of_another_split_depth_is_refused(tmp_path):
    data = written_n10(tmp_path)
    data["split_depth"] = 3
    (tmp_path / "q.json").write_text(resealed(data))
    code, out, err = cli(tmp_path, *Q10)
    assert (code, out) == (1, "")
    assert err.startswith(
        "cpqueens: error: checkpoint 'q.json' was written for another count: its split is "
        "36 subproblems at depth 3 (digest "
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"format": "cpqueens-checkpoint", "format": "x"}', "field 'format' appears twice"),
        ("[]", "no 'cpqueens-checkpoint' format tag"),
    ],
)
def test_a_malformed_file_is_refused(tmp_path, text: str, reason: str):
    (tmp_path / "q.json").write_text(text)
    assert cli(tmp_path, *Q10) == (1, "", NOT_READABLE + reason + "\n")


@pytest.mark.slow
def test_a_sealed_model_of_two_lines_is_refused_in_one_line(tmp_path):
    data = written_n10(tmp_path)
    data["model"] += "\nsecond line"
    (tmp_path / "q.json").write_text(resealed(data))
    reason = f"field 'model' is {json.dumps(data['model'])[:37]}..., expected one line of text"
    assert cli(tmp_path, *Q10) == (1, "", NOT_READABLE + reason + "\n")


@pytest.mark.slow
def test_an_unknown_field_is_refused(tmp_path):
    data = written_n10(tmp_path)
    data["total"] = 724
    (tmp_path / "q.json").write_text(resealed(data))
    assert cli(tmp_path, *Q10) == (1, "", NOT_READABLE + "unknown field 'total'\n")


@pytest.mark.slow
def test_a_partial_checkpoint_resumes_to_the_reference(tmp_path):
    data = written_n10(tmp_path)
    data["done"] = data["done"][1::3]  # what a count killed a third of the way leaves
    (tmp_path / "q.json").write_text(resealed(data))
    assert cli(tmp_path, *Q10) == (0, "724\n", "")
    assert len(finished(tmp_path / "q.json")) == data["subproblems"]


# ---- 3. Checkpoint paths: stale temporaries, what is not a file, symlinks, two counts at once


@pytest.mark.slow
def test_the_temporaries_a_killed_count_left_are_removed(tmp_path):
    data = written_n10(tmp_path)
    data["done"] = data["done"][::2]
    (tmp_path / "q.json").write_text(resealed(data))
    # What a driver killed between mkstemp and rename leaves: a torn copy, named by mkstemp.
    stale = [tmp_path / ".q.json.k3_x9q2z.tmp", tmp_path / ".q.json.abcdefgh.tmp"]
    for path in stale:
        path.write_text(resealed(data)[:100])
    # Not this checkpoint's: another checkpoint's temporary, and a file of the operator's.
    kept = [tmp_path / ".q.json.b.abcdefgh.tmp", tmp_path / ".q.json.notes.tmp"]
    for path in kept:
        path.write_text("keep me")
    assert cli(tmp_path, *Q10) == (0, "724\n", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["q.json", *(path.name for path in kept)]
    )


def test_dev_zero_is_refused_without_reading_it(tmp_path):
    command = ["count", "8", "--backend", "bitmask", "--checkpoint", "/dev/zero"]
    assert cli(tmp_path, *command) == (
        1,
        "",
        "cpqueens: error: checkpoint '/dev/zero' is not a regular file but a character device; "
        "pass the path of a checkpoint file\n",
    )
    assert not Path("/dev/.zero.lock").exists()


def test_a_fifo_is_refused_without_hanging(tmp_path):
    os.mkfifo(tmp_path / "fifo.json")
    command = ["count", "8", "--backend", "bitmask", "--checkpoint", "fifo.json"]
    assert cli(tmp_path, *command) == (
        1,
        "",
        "cpqueens: error: checkpoint 'fifo.json' is not a regular file but a FIFO; "
        "pass the path of a checkpoint file\n",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.json"]


def test_a_directory_is_refused(tmp_path):
    (tmp_path / "q.json").mkdir()
    assert cli(tmp_path, *Q10) == (
        1,
        "",
        "cpqueens: error: checkpoint 'q.json' is not a regular file but a directory; "
        "pass the path of a checkpoint file\n",
    )


def test_a_file_larger_than_any_checkpoint_is_refused_unread(tmp_path):
    with open(tmp_path / "q.json", "wb") as file:
        file.truncate(MAX_BYTES + 1)  # sparse: 16 MiB of zeros that take no disk
    assert cli(tmp_path, *Q10) == (
        1,
        "",
        f"cpqueens: error: checkpoint 'q.json' is {MAX_BYTES + 1} bytes, more than a checkpoint "
        f"can be ({MAX_BYTES} bytes); pass another checkpoint file\n",
    )


@pytest.mark.slow
def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    (tmp_path / "store").mkdir()
    target = tmp_path / "store" / "real.json"
    link = tmp_path / "q.json"
    link.symlink_to(Path("store") / "real.json")  # dangling until the count writes its target
    assert cli(tmp_path, *Q10) == (0, "724\n", "")
    assert link.is_symlink() and len(finished(target)) == 36

    data = json.loads(target.read_text())
    data["done"] = data["done"][:5]
    target.write_text(resealed(data))
    assert cli(tmp_path, *Q10) == (0, "724\n", "")  # resumed through the link
    assert link.is_symlink() and os.readlink(link) == str(Path("store") / "real.json")
    assert len(finished(target)) == 36
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.json", "store"]
    assert sorted(p.name for p in target.parent.iterdir()) == ["real.json"]


@pytest.mark.slow
def test_a_second_count_on_a_checkpoint_in_use_is_refused_at_once(tmp_path):
    path = tmp_path / "q.json"
    first = start_slow_count(path, 10, "bitmask")
    try:
        assert wait_for(lambda: len(finished(path)) >= 2, timeout=120)  # counting, locked
        live = tmp_path / ".q.json.abcdefgh.tmp"  # as if the first count were mid-write
        live.write_text("{")
        lock = os.path.join(os.path.realpath(tmp_path), ".q.json.lock")
        assert cli(tmp_path, *Q10) == (
            1,
            "",
            f"cpqueens: error: checkpoint 'q.json' is in use by another count, which holds "
            f"{lock!r}; wait for it to end or pass another checkpoint file\n",
        )
        assert live.exists()  # the refused count touched nothing of the live one
        live.unlink()
        assert len(finished(path)) < 36, "the first count ended before the second started"
    finally:
        first.send_signal(signal.SIGINT)
        out, err = first.communicate(timeout=60)
    assert (first.returncode, out.startswith("interrupted: ")) == (130, True), err
    assert cli(tmp_path, *Q10) == (0, "724\n", "")  # the lock went with the first count
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.json"]


def test_the_api_locks_until_close(tmp_path):
    path, model = tmp_path / "q.json", cpqueens.model(6)
    with Checkpoint(path, model, "bitmask") as held:
        assert held.split_depth is None and held.done == {}
        with pytest.raises(cpqueens.CheckpointError, match=r"is in use by another count"):
            Checkpoint(path, model, "bitmask")
        with pytest.raises(cpqueens.CheckpointError, match=r"is in use by another count"):
            model.count("bitmask", checkpoint=path)
    assert model.count("bitmask", checkpoint=path) == 4
    again = Checkpoint(path, model, "bitmask")
    again.close()
    again.close()  # closing twice is harmless
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.json"]
