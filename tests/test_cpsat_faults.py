"""CP-SAT enumeration faults: an open search at exit, Ctrl-C in a long dry spell, time limits."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
from itertools import islice
from pathlib import Path

import pytest

import cpqueens
from tests import internals

from . import processes

ROOT = Path(__file__).resolve().parent.parent

# Generous bound meant to catch a hang, not to time anything.
HANG = 20


def environment() -> dict[str, str]:
    """The environment of a child that imports this worktree's cpqueens, unbuffered."""
    return {**processes.environment(), "PYTHONPATH": str(ROOT)}


def start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """Start ``python ARGS`` in ``tmp_path`` (outside the repository), pipes for both outputs."""
    return subprocess.Popen(
        [sys.executable, *args],
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_an_open_solutions_generator_at_exit_exits_normally(tmp_path):
    # The solver thread was still searching when the interpreter finalized: abort, exit 134.
    script = "import cpqueens; g = cpqueens.model(12).solutions(backend='cpsat'); next(g)"
    proc = start(tmp_path, "-c", script)
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out, err) == (0, "", "")


@pytest.mark.slow
def test_open_generators_in_a_cycle_and_a_traceback_at_exit_exit_normally(tmp_path):
    # Neither is closed before the interpreter finalizes: a cycle waits for the collector,
    # and an uncaught error's traceback holds the frame that holds the generator.
    script = textwrap.dedent(
        """
        import cpqueens

        class Holder:
            pass

        holder = Holder()
        holder.me = holder
        holder.solutions = cpqueens.model(14).solutions(backend="cpsat")
        next(holder.solutions)
        del holder

        def fail():
            solutions = cpqueens.model(13).solutions(backend="cpsat")
            next(solutions)
            raise SystemExit(3)

        fail()
        """
    )
    proc = start(tmp_path, "-c", script)
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out, err) == (3, "", "")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.slow
def test_solve_to_a_full_device_does_not_abort(tmp_path):
    # Writing fails after the first solution, with the search still open. The CLI's own
    # message for it is another matter: here only that the process ends without an abort.
    proc = start(tmp_path, "-m", "cpqueens", "solve", "10", "--backend", "cpsat", "--out",
                 "/dev/full")  # fmt: skip
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1
    assert "terminate called" not in err


@pytest.mark.slow
def test_ctrl_c_stops_a_cli_search_that_finds_nothing_for_long(tmp_path):
    # The first solution of n=200 in lexicographic order takes CP-SAT minutes: the CLI
    # waits for it with no output, and one Ctrl-C must end the search.
    proc = start(tmp_path, "-m", "cpqueens", "solve", "200", "--limit", "1", "--backend",
                 "cpsat")  # fmt: skip
    try:
        # Importing takes about a second of CPU; three seconds of it means a search under way.
        assert processes.wait_for(lambda: processes.cpu_seconds(proc.pid) >= 3, timeout=120)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=HANG)
    finally:
        proc.kill()
        proc.wait()
    assert (proc.returncode, out, err) == (130, "", "cpqueens: interrupted\n")


@pytest.mark.slow
def test_ctrl_c_in_next_stops_the_solver_thread(tmp_path):
    # As a library user sees it: the KeyboardInterrupt arrives, and no search is left behind.
    script = textwrap.dedent(
        """
        import threading
        import time

        import cpqueens

        solutions = cpqueens.model(200).solutions(backend="cpsat")
        print("searching", flush=True)
        try:
            next(solutions)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        time.sleep(0.5)  # the solver thread has been joined already; give it no excuse
        print(sorted(t.name for t in threading.enumerate()))
        """
    )
    proc = start(tmp_path, "-c", script)
    try:
        assert proc.stdout.readline() == "searching\n"
        assert processes.wait_for(lambda: processes.cpu_seconds(proc.pid) >= 3, timeout=120)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=HANG)
    finally:
        proc.kill()
        proc.wait()
    assert (proc.returncode, out, err) == (0, "interrupted\n['MainThread']\n", "")


@pytest.mark.slow
def test_closing_a_search_stops_its_thread(tmp_path):
    # The solver thread, run ahead until the queue is full, ends when the consumer closes.
    script = textwrap.dedent(
        """
        import threading

        import cpqueens
        from cpqueens.backends import get

        found = get("cpsat").solutions(cpqueens.model(20).columns())
        next(found)  # the solver thread is started and searching on
        found.close()
        print(sorted(t.name for t in threading.enumerate()))
        """
    )
    proc = start(tmp_path, "-c", script)
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out, err) == (0, "['MainThread']\n", "")


def test_a_tiny_time_limit_ends_enumeration_with_the_limit_named():
    message = r"^the time limit of 0\.001 s ended the search before it was complete$"
    with pytest.raises(cpqueens.IncompleteSearchError, match=message):
        list(internals.solutions("cpsat", cpqueens.model(12), time_limit=0.001))
    with pytest.raises(cpqueens.IncompleteSearchError, match=message):
        internals.count("cpsat", cpqueens.model(12), time_limit=0.001)


def test_solutions_found_before_the_time_limit_stay_yielded():
    # n=14 has 365,596 solutions: far more than seconds find (some 300 in 0.5 s at load 10).
    # The first takes 0.5-1 CPU-s, which a loaded machine may not give in 0.5 s: a limit that
    # ends the search before any solution is tried again, longer, until some come first.
    model = cpqueens.model(14)
    for limit in (0.5, 1, 2, 4, 8, 16):
        yielded = []
        with pytest.raises(cpqueens.IncompleteSearchError, match=rf"time limit of {limit:g} s"):
            for solution in internals.solutions("cpsat", model, time_limit=limit):
                yielded.append(solution)
        if yielded:
            break
    assert 0 < len(yielded) < 365_596
    assert yielded == list(islice(internals.solutions("bitmask", model), len(yielded)))


def test_a_generous_time_limit_gives_the_exact_answer():
    model = cpqueens.model(10, blocked=[(0, 0)])
    assert internals.count("cpsat", model, time_limit=60) == internals.count("bitmask", model)
    assert internals.count("cpsat", model, time_limit=60.0) == model.count(backend="bitmask")
    listed = list(internals.solutions("cpsat", model, time_limit=60))
    assert listed == list(internals.solutions("bitmask", model))


@pytest.mark.parametrize("bad", [0, -1, 0.0, math.nan, True, "2", [2]])
def test_a_time_limit_that_is_not_positive_seconds_is_refused_at_once(bad):
    expected = r"^time_limit must be None or a number of seconds > 0, got "
    with pytest.raises((ValueError, TypeError), match=expected):
        cpqueens.model(8).solutions("cpsat", time_limit=bad)  # not iterated: refused on the call
    with pytest.raises((ValueError, TypeError), match=expected):
        cpqueens.model(8).count("cpsat", time_limit=bad)
