"""Limits that hold (issue 26): every verb ends near its time limit at any size, in bounded memory.

The time limits are measured from outside, as a user's script or the command
line meets them: each call runs in its own process, all of them at once, and
the bound is generous for a loaded machine (the limit plus 3 s, numba's load
included). The faults the reliability probe found each end in the right
answer or one clear line.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cpqueens
from cpqueens.execution.checkpoint import content_digest
from cpqueens.vocabulary.limits import MAX_N
from tests.processes import alive, children, environment, tree_cpu_seconds, wait_for

CLI = [sys.executable, "-m", "cpqueens"]
#: The time limit of every timed call (seconds), and what may pass beyond it, measured outside.
LIMIT = 1.0
SLACK = 3.0
#: A process that loads numba and find()'s cached kernels, and the seconds it takes here
#: (2 cores, other jobs on them): numba's floor, which every compiled path pays once.
FLOOR_CALL = "cpqueens.model(20, [(0, 0), (1, 2)]).find()"
NUMBA_FLOOR = 2.0
#: Memory cap of each child process (bytes of address space): bounded memory, checked.
MEMORY = 2 * 2**30


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def start(argv: list[str], folder: Path, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    """Start ``argv`` in ``folder`` (outside the repository) under the memory cap."""
    return subprocess.Popen(
        argv,
        cwd=folder,
        env=environment(),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_cap_memory,
    )


def cli(folder: Path, *args: str, timeout: float = 60) -> tuple[int, str, str]:
    """Run ``cpqueens ARGS`` in ``folder``; its exit code, stdout and stderr."""
    job = start([*CLI, *args], folder)
    out, err = job.communicate(timeout=timeout)
    return job.returncode, out, err


#: One call per verb and path, each in its own process: (name, code, expected outcome).
API_CALLS = [
    ("first n=20", f"cpqueens.model(20).first(time_limit={LIMIT})", None),
    ("first n=10**6", f"cpqueens.model(10**6).first(time_limit={LIMIT})", "limit"),
    ("count n=100000", f"cpqueens.model(100000).count(time_limit={LIMIT})", "limit"),
    ("solutions n=10**6", f"list(cpqueens.model(10**6).solutions(time_limit={LIMIT}))", "limit"),
    ("exists n=10**6", f"cpqueens.model(10**6).exists(time_limit={LIMIT})", "answer"),
    ("find n=10**6", f"cpqueens.model(10**6).find(time_limit={LIMIT})", "answer"),
    (
        "exists placed n=10**6",
        f"cpqueens.model(10**6, placed=[(5, 7)]).exists(time_limit={LIMIT})",
        None,
    ),
    (
        "find blocked n=10**6",
        f"cpqueens.model(10**6, [(r, 0) for r in range(2000)]).find(time_limit={LIMIT})",
        "limit",
    ),
    (
        "find blocked n=100000",
        f"cpqueens.model(100000, [(0, 0), (1, 2)]).find(time_limit={LIMIT})",
        None,
    ),
]
CHILD = """
import time, json, sys
import cpqueens
start = time.perf_counter()
try:
    {call}
    outcome = "answer"
except cpqueens.IncompleteSearchError:
    outcome = "limit"
print(json.dumps([outcome, time.perf_counter() - start]))
"""
#: One command per CLI path: (arguments, expected exit code).
CLI_CALLS = [
    (["solve", "20", "--time-limit", str(LIMIT), "--format", "columns"], 1),
    (["solve", "100000", "--limit", "1", "--time-limit", str(LIMIT)], 1),
    (["solve", "1000000", "--any", "--time-limit", str(LIMIT), "--format", "columns"], 0),
    (["exists", "1000000", "--time-limit", str(LIMIT)], 0),
    (["count", "100000", "--time-limit", str(LIMIT)], 1),
]


def _warm_kernels() -> None:
    """Compile (or load) every kernel the timed calls use, so that their disk cache is warm.

    A kernel compiled for the first time takes seconds: a one-time cost of a
    fresh installation, not of a time limit.
    """
    cpqueens.model(20).first()
    cpqueens.model(20).exists()
    cpqueens.model(20, [(0, 0), (1, 2)]).find()


def _timed(tmp_path: Path) -> list[tuple[str, object, subprocess.Popen, float]]:
    """Run every call and command, two at a time (the machine's cores): name, expected, job, s."""
    calls = [
        (name, outcome, [sys.executable, "-c", CHILD.format(call=call)])
        for name, call, outcome in API_CALLS
    ]
    calls += [(" ".join(args), code, [*CLI, *args]) for args, code in CLI_CALLS]
    done: list[tuple[str, object, subprocess.Popen, float]] = []
    running: list[tuple[str, object, subprocess.Popen, float, list[str]]] = []
    while calls or running:
        while calls and len(running) < 2:
            name, expected, argv = calls.pop(0)
            running.append((name, expected, start(argv, tmp_path), time.monotonic(), []))
        for entry in list(running):
            name, expected, job, began, output = entry
            try:
                output.extend(job.communicate(timeout=0.02))
            except subprocess.TimeoutExpired:
                if time.monotonic() - began > LIMIT + SLACK + 60:
                    job.kill()
                continue
            running.remove(entry)
            job.output = output  # type: ignore[attr-defined]
            done.append((name, expected, job, time.monotonic() - began))
    return done


def _floor(tmp_path: Path) -> float:
    """Seconds a process takes here to load cpqueens, numba and find()'s kernels: the pace now."""
    began = time.monotonic()
    argv = [sys.executable, "-c", f"import cpqueens; {FLOOR_CALL}"]
    jobs = [start(argv, tmp_path) for _ in range(2)]
    for job in jobs:  # two at once, as the timed calls run
        job.communicate(timeout=120)
    return time.monotonic() - began


@pytest.mark.slow
def test_every_verb_ends_within_its_time_limit_at_every_size(tmp_path):
    """Each verb and path timed from outside: at most the limit plus the slack.

    The slack is 3 s on a machine that loads numba and a few cached kernels
    in its usual 2 s; a machine slower than that now (other jobs on its
    cores) gets the difference on top, so that the test measures cpqueens,
    not its neighbours.
    """
    _warm_kernels()
    before = _floor(tmp_path)
    timed = _timed(tmp_path)
    floor = max(before, _floor(tmp_path))
    bound = LIMIT + SLACK + max(0.0, floor - NUMBA_FLOOR)
    api = {name for name, _, _ in API_CALLS}
    late = []
    for name, expected, job, seconds in timed:
        out, err = job.output
        if seconds > bound:
            late.append(f"{name}: {seconds:.1f} s")
        if name in api:
            assert job.returncode == 0, (name, err[-500:])
            outcome, _ = json.loads(out.strip().splitlines()[-1])
            if expected is not None:
                assert outcome == expected, name
        else:
            assert job.returncode == expected, (name, err[-500:])
            if job.returncode == 1:  # one line naming the limit, no traceback
                assert err.count("\n") == 1 and "time limit of 1 s" in err, (name, err)
    assert late == [], (bound, late)


@pytest.mark.slow
def test_cli_solve_prints_what_it_found_then_one_line(tmp_path):
    code, out, err = cli(tmp_path, "solve", "20", "--time-limit", "0.5", "--format", "columns")
    assert code == 1
    assert err == (
        "cpqueens: error: the time limit of 0.5 s ended the search before it was complete\n"
    )
    lines = out.splitlines()
    found = [tuple(int(c) - 1 for c in line.split()) for line in lines]
    assert found and found[0] == cpqueens.model(20).first().columns
    assert found == sorted(set(found))  # lexicographic, no repeat
    for columns in found:  # each a solution: n queens, no two attacking
        assert sorted(columns) == list(range(20))
        assert len({c + r for r, c in enumerate(columns)}) == 20
        assert len({c - r for r, c in enumerate(columns)}) == 20


@pytest.mark.slow
def test_cli_solve_json_stays_one_list_when_the_limit_ends_it(tmp_path):
    code, out, err = cli(tmp_path, "solve", "20", "--time-limit", "0.5", "--format", "json")
    assert code == 1 and "time limit" in err
    assert len(json.loads(out)) >= 1


# ---- 1. the CLI's exists takes the API's path -------------------------------------------------


@pytest.mark.slow
def test_cli_exists_on_a_big_board_answers_as_the_api_does(tmp_path):
    assert cpqueens.model(100).exists() is True
    began = time.monotonic()
    assert cli(tmp_path, "exists", "100", "--time-limit", "5") == (0, "yes\n", "")
    assert cli(tmp_path, "exists", "100000") == (0, "yes\n", "")
    assert time.monotonic() - began < 15


# ---- 2. absurd sizes: refused in one line before anything is allocated -------------------------


@pytest.mark.parametrize("n", [MAX_N + 1, 10**7, 10**9, 10**23])
def test_a_board_too_wide_to_prepare_is_refused_at_once(n):
    for verb in ("count", "exists", "first", "find"):
        with pytest.raises(
            ValueError, match=f"board size n must be at most 1,000,000: .* got {n:,}"
        ):
            getattr(cpqueens.model(n), verb)(time_limit=0.5)


def test_a_board_of_a_million_columns_is_allowed():
    assert cpqueens.model(MAX_N).n == MAX_N


@pytest.mark.slow
def test_the_cli_refuses_an_absurd_size_in_one_line(tmp_path):
    for args in (
        ["count", str(10**23)],
        ["exists", str(10**7)],
        ["solve", str(10**9), "--limit", "1"],
    ):
        code, out, err = cli(tmp_path, *args, "--time-limit", "0.5", timeout=20)
        assert (code, out) == (1, ""), args
        assert err.startswith("cpqueens: error: board size n must be at most 1,000,000")
        assert err.count("\n") == 1


def test_too_many_queens_are_refused_naming_them():
    with pytest.raises(ValueError, match=r"colours=1,000 on a 1,000x1,000 board: expected n x"):
        cpqueens.model(1000, colours=1000)  # a billion checks of one queen against another
    assert cpqueens.model(1000, colours=100).colours == 100  # n x colours² = 10**7: fine


@pytest.mark.parametrize(("backend", "widest"), [("cpsat", 1000), ("python-constraint", 300)])
def test_a_backend_refuses_a_board_it_cannot_build_within_a_limit(backend, widest):
    assert cpqueens.model(widest).engine(backend) == backend
    for verb in ("first", "exists", "count"):
        with pytest.raises(ValueError, match=f"backend '{backend}' takes boards of at most"):
            getattr(cpqueens.model(widest + 1), verb)(backend, time_limit=1)
    with pytest.raises(ValueError, match="use backend 'auto'"):
        cpqueens.model(widest + 1).solutions(backend)
    if backend == "cpsat":
        with pytest.raises(ValueError, match="backend 'cpsat' takes boards of at most 1,000"):
            cpqueens.model(1001).find("cpsat")


@pytest.mark.slow
def test_a_wide_board_with_many_blocked_rows_is_refused_by_the_masks_not_allocated():
    m = cpqueens.model(10**6, blocked=[(r, 0) for r in range(2000)])
    began = time.monotonic()
    with pytest.raises(ValueError, match=r"2,000 rows of 1,000,000-bit masks .*\(238 MiB"):
        m.first(time_limit=1)
    with pytest.raises(ValueError, match="at most 128 MiB"):
        list(m.solutions(time_limit=1))
    assert time.monotonic() - began < 1  # refused before a mask is built
    with pytest.raises(ValueError, match="at most 128 MiB"):
        m.count()  # in the process that counts the board whole: a worker's error, as raised


# ---- 3. more colours than columns: no solution, known at once ---------------------------------


def test_more_colours_than_columns_answer_at_once(tmp_path):
    began = time.monotonic()
    huge = cpqueens.model(8, colours=10**6)
    assert huge.find(time_limit=0.5) is None
    assert huge.exists() is False and huge.first() is None
    assert huge.count() == 0 and huge.count(unique=True) == 0
    assert list(huge.solutions()) == []
    assert cpqueens.model(3, colours=4).count("cpsat") == 0
    assert time.monotonic() - began < 2
    assert (
        cpqueens.model(8, colours=9).count()
        == 0
        == cpqueens.model(8, colours=9).count("python-constraint")
    )
    assert cpqueens.model(8, colours=9, toroidal=True).count() == 0
    with pytest.raises(ValueError, match="colours must be at most 10,000 with toroidal or knight"):
        cpqueens.model(8, colours=10**8, knight=True)
    assert cli(tmp_path, "count", "8", "--colours", "99999999", "--time-limit", "0.5") == (
        0,
        "0\n",
        "",
    )


# ---- 4. board files from devices and endless streams ------------------------------------------


def test_a_board_file_that_is_a_device_is_refused_without_reading_it(tmp_path):
    code, out, err = cli(tmp_path, "count", "--board", "/dev/zero", timeout=20)
    assert (code, out) == (1, "")
    assert err == (
        "cpqueens: error: cannot read board file '/dev/zero': it is not a regular file but a "
        "character device (a board file is a regular file or stdin of at most 16777216 bytes)\n"
    )


def test_an_endless_stdin_board_is_cut_at_the_cap(tmp_path):
    with open("/dev/zero", "rb") as zero:
        job = start([*CLI, "count", "--board", "-"], tmp_path, stdin=zero)
        out, err = job.communicate(timeout=30)
    assert (job.returncode, out) == (1, "")
    assert err.startswith("cpqueens: error: cannot read board file <stdin>: it holds more than")


@pytest.mark.slow
def test_a_board_file_still_reads(tmp_path):
    (tmp_path / "b.txt").write_text("1011\n1111\n1111\n1111\n")
    assert cli(tmp_path, "count", "--board", "b.txt", "--colours", "2") == (0, "0\n", "")


# ---- 5. conditions with constants no engine holds are refused in where() ----------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda m: m.q[0] * 2**62 > m.q[1] * 2**62,
        lambda m: m.q[0] % 10**30 == 3,
        lambda m: abs(m.q[0] - 10**19) > 0,
    ],
    ids=["product", "modulus", "abs"],
)
def test_a_constant_beyond_the_engines_is_refused_naming_it(build):
    m = cpqueens.model(8)
    with pytest.raises(ValueError, match=r"reaches [\d,]+ in .*within ±9,007,199,254,740,992"):
        m.where(build(m))


def test_big_constants_within_the_bound_answer_on_every_backend():
    m = cpqueens.model(6)
    narrowed = m.where(m.q[0] * 2**40 < m.q[5] * 2**40 + 2**40 - 1)
    assert narrowed.count() == 2 == narrowed.count("cpsat") == narrowed.count("python-constraint")
    found = narrowed.find()
    assert found is not None and found.columns[0] < found.columns[5]


# ---- 6. damaged checkpoints end in one line ---------------------------------------------------


def test_a_deeply_nested_checkpoint_is_a_checkpoint_error(tmp_path):
    path = tmp_path / "q.json"
    path.write_text("[" * 5000 + "]" * 5000)
    with pytest.raises(cpqueens.CheckpointError, match="nested too deeply"):
        cpqueens.model(8).count(checkpoint=path)
    code, out, err = cli(tmp_path, "count", "8", "--checkpoint", "q.json")
    assert (code, out, err.count("\n")) == (1, "", 1)
    assert "is not a readable cpqueens checkpoint: its JSON is nested too deeply" in err


@pytest.mark.slow
def test_a_resealed_checkpoint_whose_counts_do_not_fit_is_refused(tmp_path):
    path = tmp_path / "q.json"
    assert cli(tmp_path, "count", "12", "--workers", "1", "--checkpoint", "q.json")[:2] == (
        0,
        "14200\n",
    )
    data = json.loads(path.read_text())
    data["done"][0][1] += 1  # a piece still within its bounds, but the sums no longer fit
    path.write_text(json.dumps({**data, "sha256": content_digest(data)}))
    code, out, err = cli(tmp_path, "count", "12", "--workers", "1", "--checkpoint", "q.json")
    assert (code, out, err.count("\n")) == (1, "", 1), err
    assert "holds counts that are inconsistent with each other" in err


# ---- 7. small messages, and workers that outlive their driver ---------------------------------


def test_a_long_01_line_is_a_grid_row_not_a_digit_limit():
    with pytest.raises(
        ValueError, match=r"line 2, column 2: row 2 has 1 cells, expected 5000 like the first row"
    ):
        cpqueens.Board.parse("1" * 5000 + "\n1\n")
    with pytest.raises(ValueError, match=r"line 1, column 1: the size line has 5000 digits"):
        cpqueens.Board.parse("2" * 5000 + "\n11\n11\n")


def test_keeps_that_is_no_list_of_names_is_named():
    m = cpqueens.model(8)
    with pytest.raises(TypeError, match=r"keeps must be symmetry names such as .*got 5 \(int\)"):
        m.where(m.q[0] < m.q[7], keeps=5)


def test_a_checkpoint_that_is_no_path_is_named():
    with pytest.raises(TypeError, match=r"checkpoint must be None or a file path .* got 123"):
        cpqueens.model(8).count(checkpoint=123)


DRIVER = """
import cpqueens
cpqueens.model(19).count(workers=2, progress=False)  # pieces of seconds each, compiled
"""


@pytest.mark.slow
def test_workers_die_within_a_second_of_their_driver(tmp_path):
    job = start([sys.executable, "-c", DRIVER], tmp_path)
    try:
        assert wait_for(lambda: len(children(job.pid)) >= 2, timeout=60), job.pid
        started = tree_cpu_seconds(job.pid)  # then the workers are inside their kernels:
        assert wait_for(lambda: tree_cpu_seconds(job.pid) >= started + 1.0, timeout=300)
        workers = children(job.pid)
        os.kill(job.pid, signal.SIGKILL)
        job.communicate()
        killed = time.monotonic()
        assert wait_for(lambda: not any(alive(pid) for pid in workers), timeout=10)
        assert time.monotonic() - killed < 1.5
    finally:
        if job.poll() is None:
            job.kill()
