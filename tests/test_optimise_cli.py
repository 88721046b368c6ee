"""``cpqueens optimize``, run as a user does: a subprocess in a folder outside the repository."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.oracle_cells import Board
from tests.processes import cpu_seconds, stop, wait_for

ROOT = Path(__file__).resolve().parent.parent


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m cpqueens optimize ARGS`` from ``tmp_path``, on this worktree's package."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "cpqueens", "optimize", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )


@pytest.mark.slow
def test_domination_json_has_the_exact_shape(tmp_path):
    result = run(tmp_path, "domination", "6", "--json", "--count")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert set(answer) == {"value", "status", "bound", "queens", "seconds", "count"}
    assert (answer["value"], answer["status"], answer["bound"], answer["count"]) == (
        3,
        "optimal",
        3,
        4,
    )  # A075458(6) = 3, A002564(6) = 4
    assert Board(6, 6).dominating([tuple(q) for q in answer["queens"]])
    assert all(len(q) == 2 for q in answer["queens"])


@pytest.mark.slow
def test_independent_domination_and_its_classes(tmp_path):
    result = run(tmp_path, "independent-domination", "4", "--json", "--count", "--unique")
    answer = json.loads(result.stdout)
    oracle = Board(4, 4)
    sets = oracle.sets(3, independent=True, dominating=True)
    assert (answer["value"], answer["count"], answer["classes"]) == (
        3,
        len(sets),
        oracle.classes(sets),
    )


@pytest.mark.slow
def test_peaceable_queens_carry_their_army(tmp_path):
    answer = json.loads(run(tmp_path, "peaceable", "5", "--json").stdout)
    assert (answer["value"], answer["status"]) == (4, "optimal")  # A250000(5)
    assert sorted(q[2] for q in answer["queens"]) == [0] * 4 + [1] * 4


@pytest.mark.slow
def test_independence_on_a_board_file_with_holes(tmp_path):
    (tmp_path / "grid.txt").write_text(".#..\n....\n..#.\n....\n")
    result = run(tmp_path, "independence", "--board", "grid.txt", "--count")
    oracle = Board(4, 4, [(0, 1), (2, 2)])
    best = max(k for k in range(5) if oracle.sets(k))
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{best} (optimal")
    assert lines[1] == f"count: {len(oracle.sets(best))}"
    assert lines[2:] == [row for row in lines[2:] if len(row.split()) == 4] and len(lines) == 6
    assert "#" in lines[2]


@pytest.mark.slow
def test_toroidal_domination(tmp_path):
    answer = json.loads(run(tmp_path, "domination", "5", "--toroidal", "--json").stdout)
    oracle = Board(5, 5, toroidal=True)
    assert answer["value"] == next(k for k in range(1, 9) if oracle.sets(k, False, True))


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (("domination", "8", "--time-limit", "-1"), 2, "-1"),
        (("dominion", "8"), 2, "dominion"),
        (("domination",), 2, "give the board size N"),
        (("domination", "0"), 1, "got 0"),
        (("independence", "--board", "missing.txt"), 1, "missing.txt"),
    ],
)
def test_errors_are_one_line(tmp_path, args, code, words):
    result = run(tmp_path, *args)
    assert result.returncode == code
    assert len(result.stderr.splitlines()) == 1 and words in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("example", "last", "lines"),
    [
        ("domination", "6", [" 6      3     4"]),  # A075458(6) = 3, A002564(6) = 4
        ("peaceable", "5", [" 5   4"]),  # A250000(5) = 4
    ],
)
@pytest.mark.slow
def test_examples_print_their_oeis_tables(tmp_path, example, last, lines):
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / f"{example}.py"), last],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert (result.returncode, result.stderr) == (0, "")
    rows = result.stdout.splitlines()
    assert len(rows) >= int(last) + 1
    for line in lines:
        assert any(row.startswith(line) for row in rows), result.stdout


@pytest.mark.slow
def test_ctrl_c_stops_the_search_at_once(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        # 13 x 14: CP-SAT's search (a free square board is the compiled search's, at once)
        [sys.executable, "-m", "cpqueens", "optimize", "domination", "13", "--columns", "14"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert wait_for(lambda: cpu_seconds(process.pid) >= 3, timeout=300)  # searching
    out, err, after = stop(process, signal.SIGINT)
    assert after < 1.5  # CPU seconds after the signal: it stopped, it did not search on
    assert (process.returncode, out, err) == (130, "", "cpqueens: interrupted\n")


@pytest.mark.slow
def test_a_time_limit_ends_the_count_too_with_one_line(tmp_path):
    # 13 queens on 13 x 13: proved in well under a second, counted (73,712) in minutes
    # (run's own timeout, 120 s, ends the test if the limit is ignored)
    result = run(tmp_path, "independence", "13", "--count", "--time-limit", "5", "--json")
    assert (result.returncode, result.stdout) == (1, "")
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("cpqueens: error: the time limit of 5 s ended the count")
    assert "the optimum 13 is proved" in result.stderr


@pytest.mark.parametrize(("sent", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.slow
def test_ctrl_c_stops_the_count_of_the_optimal_solutions(tmp_path, sent, code):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "cpqueens", "optimize", "independence", "13", "--count"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # The optimum is proved in well under a second of CPU time: the count is running.
    assert wait_for(lambda: cpu_seconds(process.pid) >= 6, timeout=300)
    assert process.poll() is None
    out, err, after = stop(process, sent)
    assert after < 1.5  # CPU seconds after the signal: it stopped, it did not count on
    assert (process.returncode, out) == (code, "")
    assert err.startswith("cpqueens: interrupted: the compiled count stopped after "), err
    assert err.endswith("nothing is saved, and there is no count\n") and err.count("\n") == 1
