"""A newcomer's first calls, made as a user makes them: scripts and commands run from a folder
outside the repository, against the installed package, with real signals and a real terminal."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path

import pytest

import cpqueens
from tests.processes import alive, children, stop, tree_cpu_seconds, wait_for

PACKAGE = Path(cpqueens.__file__).resolve().parent


def user_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: no PYTHONPATH pointing into the repository."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def script(tmp_path: Path, text: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``text`` as a plain script file in ``tmp_path`` (no main guard), as ``python x.py``."""
    path = tmp_path / "user_script.py"
    path.write_text(textwrap.dedent(text))
    return subprocess.run(
        [sys.executable, str(path)],
        cwd=tmp_path,
        env=user_env(**env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``cpqueens ARGS`` as the console script, from ``tmp_path``."""
    command = Path(sys.executable).with_name("cpqueens")
    return subprocess.run(
        [str(command), *args], cwd=tmp_path, env=user_env(), capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


@pytest.mark.slow
def test_a_plain_script_counts_on_worker_processes_without_a_main_guard(tmp_path):
    result = script(
        tmp_path,
        """
        import cpqueens
        print("top level", flush=True)
        print(cpqueens.model(13).count())
        print(cpqueens.model(13).count(workers=2))
        print(cpqueens.model(16).count(backend="bitmask"))
        print(cpqueens.model(17).count(backend="bitmask", workers=2, unique=True))
        print(cpqueens.model(12, blocked=[(0, 0)]).count(backend="cpsat", workers=2))
        print(cpqueens.model(16, placed=[(3, 5)]).count(workers=2))
        """,
    )
    blocked_12 = cpqueens.model(12, blocked=[(0, 0)]).count("bitmask", workers=1)
    placed_16 = cpqueens.model(16, placed=[(3, 5)]).count("bitmask", workers=1)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "top level",  # once: the workers do not run the script again
        "73712",
        "73712",
        "14772512",
        "11977939",
        str(blocked_12),
        str(placed_16),
    ]


def test_the_console_script_works_from_any_folder(tmp_path):
    result = cli(tmp_path, "count", "8")
    assert (result.returncode, result.stdout, result.stderr) == (0, "92\n", "")


@pytest.mark.slow
def test_the_kernels_never_write_into_the_installed_package(tmp_path):
    before = set(PACKAGE.rglob("*.nb[ic]"))
    cache = tmp_path / "cache"
    result = script(
        tmp_path,
        """
        import cpqueens
        print(cpqueens.model(14).count(), cpqueens.model(13, placed=[(1, 1)]).count())
        """,
        XDG_CACHE_HOME=str(cache),
    )
    expected = cpqueens.model(13, placed=[(1, 1)]).count("bitmask", workers=1)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"365596 {expected}\n", "")
    assert set(PACKAGE.rglob("*.nb[ic]")) - before == set()
    written = {path.name.split("-")[0] for path in cache.rglob("*.nbi")}
    assert {"placements.count_placements_in", "classes._weighed_leaves"} <= written


def sigint_after_start(args: list[str], marker: str | None = None, wait: float = 1.0):
    """Start ``args``, wait for ``marker`` on stdout (else for a worker process), send SIGINT.

    The signal goes once the process and its workers have used ``wait`` more seconds of CPU
    time (the clock runs on while a busy machine runs other work).

    Return the exit code, stdout, stderr and the CPU seconds it used after the signal.
    """
    job = subprocess.Popen(
        args, env=user_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=Path("/tmp"),
    )  # fmt: skip
    if marker is not None:
        assert job.stdout is not None
        assert job.stdout.readline() == marker + "\n"
    else:
        assert wait_for(lambda: children(job.pid), timeout=120), "no worker process started"
    started = tree_cpu_seconds(job.pid)
    assert wait_for(lambda: tree_cpu_seconds(job.pid) >= started + wait, timeout=300)
    out, err, after = stop(job, signal.SIGINT)
    return job.returncode, out, err, after


NOTHING_SAVED = re.compile(
    r"interrupted after \d+ of (\d+) subproblems; nothing is saved "
    r"\(count with a checkpoint file to be able to resume\)"
)


@pytest.mark.parametrize(
    "call",
    [
        "cpqueens.model(19).count(backend='bitmask', workers=1)",  # the kernels, one worker
        "cpqueens.model(19, placed=[(0, 1)]).count(workers=1)",  # count_placements
        "cpqueens.model(19, blocked=[(0, 1)]).count(workers=1)",  # the hole sums
        "cpqueens.model(14).count(backend='cpsat', workers=1)",
    ],
)
@pytest.mark.slow
def test_ctrl_c_raises_count_interrupted_on_every_path(tmp_path, call):
    started = "progress=lambda done, total: done or print('go', flush=True))"
    code = f"import cpqueens\ntry:\n    {call[:-1]}, {started}\n" + (
        "except cpqueens.CountInterrupted as stop:\n    print(stop)\n"
    )
    returncode, out, err, after = sigint_after_start([sys.executable, "-c", code], "go", 1.5)
    assert (returncode, err) == (0, "")
    assert after < 1.5  # CPU seconds after the signal: it stopped, it did not count on
    assert NOTHING_SAVED.fullmatch(out.strip()), out


@pytest.mark.slow
def test_ctrl_c_stops_the_kernels_counting_in_this_process():
    # A short count runs here, piece by piece: the signal arrives (from this process, as
    # the count itself is over too soon to aim at from outside) once the first piece is in.
    code = (
        "import os, signal, cpqueens\n"
        "def progress(done, total):\n"
        "    if done == 1:\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "try:\n"
        "    cpqueens.model(15).count(workers=1, progress=progress)\n"
        "except cpqueens.CountInterrupted as stop:\n"
        "    print(stop.done, stop.total, stop)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], env=user_env(), capture_output=True, text=True, timeout=120
    )
    assert (result.returncode, result.stderr) == (0, "")
    done, total, message = result.stdout.strip().split(" ", 2)
    assert int(done) == 1 and int(total) > 1
    assert NOTHING_SAVED.fullmatch(message), message


@pytest.mark.slow
def test_ctrl_c_on_the_cli_exits_130_with_one_line():
    returncode, out, err, after = sigint_after_start(
        [str(Path(sys.executable).with_name("cpqueens")), "count", "19", "--workers", "1"]
    )
    assert (returncode, out) == (130, "")
    assert after < 1.5  # CPU seconds after the signal, the worker's too
    assert err.startswith("cpqueens: ") and err.count("\n") == 1
    assert NOTHING_SAVED.fullmatch(err.removeprefix("cpqueens: ").strip()), err


@pytest.mark.slow
def test_a_time_limit_ends_a_count_with_an_error_not_a_number(tmp_path):
    result = cli(tmp_path, "count", "19", "--time-limit", "0.5")
    assert (result.returncode, result.stdout) == (1, "")
    assert re.fullmatch(
        r"cpqueens: error: the time limit of 0\.5 s ended the count before it was complete "
        r"\(\d+ of \d+ subproblems counted\)\n",
        result.stderr,
    )
    with pytest.raises(cpqueens.IncompleteSearchError, match=r"time limit of 0\.2 s"):
        cpqueens.model(12).count("python-constraint", time_limit=0.2)
    assert cpqueens.model(10).count("cpsat", time_limit=60) == 724


@pytest.mark.parametrize("limit", [0, -1, float("inf"), float("nan")])
def test_a_bad_time_limit(limit):
    with pytest.raises(ValueError, match=r"^time_limit must be None or a number of seconds > 0"):
        cpqueens.model(6).count(time_limit=limit)
    with pytest.raises(TypeError, match=r"^time_limit must be None or a number of seconds > 0"):
        cpqueens.model(6).count(time_limit="1")


@pytest.mark.slow
def test_count_json(tmp_path):
    result = cli(tmp_path, "count", "8", "--json")
    assert result.returncode == 0 and result.stderr == ""
    report = json.loads(result.stdout)
    assert report.pop("seconds") >= 0
    assert report == {
        "count": 92,
        "unique": False,
        "n": 8,
        "colours": 1,
        "blocked": [],
        "placed": [],
        "backend": "bitmask",
        "requested_backend": "auto",
        "path": (
            "bitmask: subproblems, each by the Python DFS (a small board: over before numba loads)"
        ),
    }
    result = cli(tmp_path, "count", "6", "--colours", "2", "--backend", "cpsat", "--json")
    report = json.loads(result.stdout)
    assert (report["count"], report["backend"], report["colours"]) == (12, "cpsat", 2)


@pytest.mark.slow
def test_solve_json(tmp_path):
    result = cli(tmp_path, "solve", "6", "--format", "json")
    assert (result.returncode, result.stderr) == (0, "")
    expected = [list(s.by_colour) for s in cpqueens.model(6).solutions("bitmask")]
    assert json.loads(result.stdout) == [[list(c) for c in s] for s in expected]
    assert json.loads(result.stdout)[0] == [[1, 3, 5, 0, 2, 4]]
    result = cli(tmp_path, "solve", "4", "--colours", "2", "--format", "json", "--limit", "1")
    assert json.loads(result.stdout) == [[[1, 3, 0, 2], [2, 0, 3, 1]]]
    result = cli(tmp_path, "solve", "3", "--format", "json")
    assert (result.returncode, result.stdout) == (0, "[]\n")


def test_the_default_backend_is_the_fastest_exact_engine():
    assert cpqueens.model(8).engine() == "bitmask"
    assert cpqueens.model(8, colours=2, placed=[(0, 0)]).engine() == "bitmask"
    assert cpqueens.model(8).engine("cpsat") == "cpsat"
    assert cpqueens.model(9, blocked=[(0, 0)]).count() == cpqueens.model(9, blocked=[(0, 0)]).count(
        "cpsat"
    )


def read_terminal(master: int, job: subprocess.Popen, until: str, seconds: float = 300) -> str:
    """What ``job`` writes to its terminal until it writes ``until`` (or exits, or hangs).

    ``seconds`` only guards against a process that hangs: the reading ends on the event.
    """
    seen = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and until.encode() not in seen:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                seen += os.read(master, 4096)
            except OSError:
                break
        elif job.poll() is not None:
            break
    return seen.decode(errors="replace")


@pytest.mark.parametrize(
    "args",
    [
        ["count", "17", "--backend", "bitmask"],  # the symmetry kernels
        ["count", "14", "--backend", "cpsat", "--workers", "1"],  # long CP-SAT pieces
    ],
)
@pytest.mark.slow
def test_a_long_count_shows_a_bar_on_a_terminal(args):
    master, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    job = subprocess.Popen(
        [str(Path(sys.executable).with_name("cpqueens")), *args],
        env=user_env(), stdout=subprocess.PIPE, stderr=terminal, cwd=Path("/tmp"),
    )  # fmt: skip
    os.close(terminal)
    try:
        drawn = read_terminal(master, job, until="subproblem")
    finally:
        job.kill()
        job.communicate()
        os.close(master)
    assert "counting:" in drawn and "subproblem" in drawn, drawn


def test_help_of_model_says_what_a_newcomer_needs():
    text = cpqueens.model.__doc__ or ""
    for phrase in ("0-based", "(row, col)", "ordered placements", "of colour 0", "count()"):
        assert phrase in text


@pytest.mark.slow
def test_mypy_finds_the_types_of_the_installed_package(tmp_path):
    pytest.importorskip("mypy")
    # every engine name type-checks (an engine declared by entry point too); a count is an int
    (tmp_path / "user.py").write_text(
        "import cpqueens\nm = cpqueens.model(8)\nn: int = m.count()\n"
        'm.count(backend="toy")\ns: str = m.count()\n'
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "user.py"],
        cwd=tmp_path, env=user_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "import-not-found" not in result.stdout
    assert result.stdout.splitlines()[0] == (
        'user.py:5: error: Incompatible types in assignment (expression has type "int", '
        'variable has type "str")  [assignment]'
    )
    assert "Found 1 error" in result.stdout
    # a wrong name is refused when it is used, naming every choice
    typo = subprocess.run(
        [sys.executable, "-c", "import cpqueens; cpqueens.model(8).count(backend='bitmsk')"],
        cwd=tmp_path, env=user_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert typo.stderr.splitlines()[-1] == (
        "ValueError: unknown backend 'bitmsk': expected one of 'auto', 'cpsat', "
        "'python-constraint', 'bitmask'"
    )


def start_cli_count(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, list[int]]:
    """Start ``cpqueens count ARGS`` from ``tmp_path``; return it once its workers run."""
    job = subprocess.Popen(
        [str(Path(sys.executable).with_name("cpqueens")), "count", *args],
        cwd=tmp_path, env=user_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert wait_for(lambda: len(workers_of(job.pid)) >= 2, timeout=120), "no workers started"
    started = tree_cpu_seconds(job.pid)
    assert wait_for(lambda: tree_cpu_seconds(job.pid) >= started + 1.0, timeout=300)  # counting
    return job, workers_of(job.pid)


def workers_of(pid: int) -> list[int]:
    """The pool's worker processes of ``pid``: its children that run cpqueens' tasks."""
    found = []
    for child in children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in command:
            found.append(child)
    return found


@pytest.mark.slow
def test_a_killed_worker_is_replaced_and_the_count_stays_exact(tmp_path):
    job, workers = start_cli_count(tmp_path, "17", "--workers", "2", "--placed", "0,3")
    assert job.poll() is None, "the count ended before a worker could be killed"
    os.kill(workers[0], signal.SIGKILL)
    out, err = job.communicate(timeout=300)
    expected = cpqueens.model(17, placed=[(0, 3)]).count("bitmask", workers=2)
    assert (job.returncode, out, err) == (0, f"{expected}\n", "")


@pytest.mark.slow
def test_ctrl_c_with_a_stopped_worker_still_ends_at_once(tmp_path):
    job, workers = start_cli_count(tmp_path, "19", "--workers", "2")
    os.kill(workers[0], signal.SIGSTOP)
    job.send_signal(signal.SIGINT)
    out, err = job.communicate(timeout=60)
    assert (job.returncode, out) == (130, "")
    assert NOTHING_SAVED.fullmatch(err.removeprefix("cpqueens: ").strip()), err
    assert wait_for(lambda: not any(alive(pid) for pid in workers), timeout=10)


@pytest.mark.slow
def test_sigterm_stops_like_ctrl_c_and_leaves_no_warning(tmp_path):
    checkpoint = tmp_path / "q17.json"  # long enough to outlast the 1 s start_cli_count waits
    job, workers = start_cli_count(
        tmp_path, "17", "--placed", "7,3", "--workers", "2", "--checkpoint", str(checkpoint)
    )
    job.send_signal(signal.SIGTERM)
    out, err = job.communicate(timeout=60)
    assert (job.returncode, out) == (143, "")
    assert re.fullmatch(
        rf"cpqueens: interrupted: \d+ of \d+ subproblems are saved in {re.escape(str(checkpoint))}"
        r"; run the same command again to resume\n",
        err,
    ), err
    assert wait_for(lambda: not any(alive(pid) for pid in workers), timeout=10)
