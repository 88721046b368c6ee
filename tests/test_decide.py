"""Deciding models: exists() and first() against the oracle, time limits, the CLI."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens.backends.bitmask import search as bitmask_search
from tests import internals, oracle
from tests.processes import cpu_seconds, environment, wait_for

LIMIT_REACHED = r"^the time limit of {} s ended the search before it was complete$"


def pigeonhole(n: int = 30, k: int = 20) -> cpqueens.Model:
    """Rows 0..k may only use columns 0..k-1: no solution, but a long search to prove it."""
    return cpqueens.model(n, [(r, c) for r in range(k + 1) for c in range(k, n)])


@st.composite
def plain_models(draw, colours: int = 3):
    n = draw(st.integers(1, 8))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(cells, max_size=2 * n))
    placed_rows = draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    placed = [(row, draw(st.integers(0, n - 1))) for row in placed_rows]
    count = draw(st.integers(1, colours if n <= 6 else 1))
    return n, blocked, placed, count


SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(plain_models(), st.sampled_from([1, 3, 1 << 16]))
@pytest.mark.slow
def test_the_kernels_find_the_enumerations_first_solution_and_decide_as_the_oracle(drawn, chunk):
    n, blocked, placed, colours = drawn
    expected = oracle.solutions(n, blocked, placed, colours)
    plan = internals.plan(cpqueens.model(n, blocked, colours=colours, placed=placed))
    old, bitmask_search.CHUNK = (
        bitmask_search.CHUNK,
        chunk,
    )  # tiny chunks: every search pauses and resumes
    try:
        first = bitmask_search.search(plan, None, lexicographic=True)
        found = bitmask_search.search(plan, None, lexicographic=False)
    finally:
        bitmask_search.CHUNK = old
    assert first == (expected[0] if expected else None)
    assert (found is not None) == bool(expected)
    assert found is None or found in expected


@SETTINGS
@given(st.integers(1, 8), st.data())
@pytest.mark.slow
def test_the_any_order_search_lists_every_placement_once(n, data):
    blocked = data.draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
    masks = np.array(
        [sum(1 << c for c in range(n) if (r, c) not in blocked) for r in range(n)], np.uint64
    )
    listed = list(bitmask_search.any_placements(masks))
    assert sorted(listed) == oracle.placements(n, blocked)
    assert list(bitmask_search.placements(masks)) == oracle.placements(n, blocked)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plain_models(colours=2))
def test_every_backend_decides_and_finds_the_first_solution_as_the_oracle(backend, drawn):
    n, blocked, placed, colours = drawn
    expected = oracle.solutions(n, blocked, placed, colours)
    model = cpqueens.model(n, blocked, colours=colours, placed=placed)
    assert model.exists(backend) == bool(expected)
    first = model.first(backend, time_limit=60)
    assert (first.by_colour if first else None) == (expected[0] if expected else None)


@pytest.mark.parametrize(
    "options",
    [{"toroidal": True}, {"knight": True}, {"colours": 2, "placed": [(0, 1, 1)]}],
    ids=["toroidal", "knight", "colour-1-placed"],
)
@pytest.mark.parametrize("n", [5, 6, 8, 10])
def test_variants_decide_as_their_enumeration(backend, options, n):
    if n == 10 and backend == "python-constraint":
        n = 7  # its enumeration of the 10-board takes seconds
    model = cpqueens.model(n, **options)
    listed = list(model.solutions("bitmask", limit=1))
    assert model.exists(backend) == bool(listed)
    first = model.first(backend)
    assert (first.by_colour if first else None) == (listed[0].by_colour if listed else None)


@pytest.mark.slow
def test_first_is_the_lexicographic_first_solution_on_larger_boards():
    # The lexicographically first 30-queens solution, as the plain C DFS finds it.
    expected = (0, 2, 4, 1, 3, 8, 10, 12, 14, 6, 22, 25, 27, 24, 21, 23, 29, 26, 28, 15,
                11, 9, 7, 5, 17, 19, 16, 13, 20, 18)  # fmt: skip
    assert cpqueens.model(30).first().columns == expected
    model = cpqueens.model(14, [(0, 0), (1, 2), (5, 5)], placed=[(3, 3)])
    assert model.first().by_colour == next(internals.solutions("bitmask", model))
    model = cpqueens.model(9, [(0, 0), (1, 2), (5, 5)], placed=[(3, 3)])
    assert model.first().by_colour == oracle.solutions(9, [(0, 0), (1, 2), (5, 5)], [(3, 3)])[0]


def test_exists_on_boards_up_to_64_columns():
    assert cpqueens.model(64).exists()
    assert cpqueens.model(40, colours=2).exists()
    assert not cpqueens.model(24, [(r, c) for r in range(15) for c in range(14, 24)]).exists()
    assert not pigeonhole(12, 5).exists("cpsat")


def test_exists_beyond_64_columns_asks_find():
    assert cpqueens.model(80, placed=[(0, 5), (1, 20)]).exists(time_limit=120)
    assert not cpqueens.model(70, [(5, c) for c in range(70)]).exists()
    assert cpqueens.model(500).exists()


def test_a_time_limit_ends_exists_and_first_with_an_error(backend):
    model = pigeonhole()
    if backend == "cpsat":  # CP-SAT's AllDifferent sees the pigeonhole at once: a hard instance
        from tests.excluded_diagonals import published

        model = cpqueens.model(19, published(19)[686].blocked(16))
    with pytest.raises(cpqueens.IncompleteSearchError, match=LIMIT_REACHED.format(r"0\.01")):
        model.exists(backend, time_limit=0.01)
    with pytest.raises(cpqueens.IncompleteSearchError, match=LIMIT_REACHED.format(r"0\.01")):
        model.first(backend, time_limit=0.01)


def test_a_time_limit_ends_solutions_after_the_ones_found(backend):
    model = cpqueens.model(16 if backend == "python-constraint" else 20)
    found = []
    with pytest.raises(cpqueens.IncompleteSearchError, match=LIMIT_REACHED.format(r"0\.3")):
        for solution in model.solutions(backend, time_limit=0.3):
            found.append(solution.columns)
    assert found == [s.columns for s in model.solutions("bitmask", limit=len(found))]


def test_a_generous_time_limit_changes_nothing(backend):
    model = cpqueens.model(6, [(0, 1)])
    assert [s.by_colour for s in model.solutions(backend, time_limit=60)] == oracle.solutions(
        6, [(0, 1)]
    )
    assert model.exists(backend, time_limit=60) is True
    assert model.first(backend, time_limit=60).columns == oracle.solutions(6, [(0, 1)])[0][0]


@pytest.mark.parametrize("method", ["exists", "first", "solutions"])
def test_bad_arguments_are_refused_at_the_call(method):
    call = getattr(cpqueens.model(6), method)
    message = r"^time_limit must be None or a number of seconds > 0, got "
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=message):
            call(time_limit=bad)
    with pytest.raises(TypeError, match=message + "'1'$"):
        call(time_limit="1")
    with pytest.raises(ValueError, match=r"^unknown backend 'fast': expected one of 'auto', "):
        call("fast")
    if method == "solutions":
        with pytest.raises(ValueError, match=r"^limit must be None or an int >= 0, got -1$"):
            call(limit=-1)
        with pytest.raises(TypeError, match=r"^unique must be True or False, got 1$"):
            call(unique=1)


# The command line, as a user runs it: the console script, from a folder outside the repository.


def cli(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).with_name("cpqueens")
    return subprocess.run(
        [str(command), *args], cwd=tmp_path, env=environment(), input=stdin,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def grid(model: cpqueens.Model) -> str:
    blocked = set(model.board.blocked)
    n = model.n
    return "".join(
        "".join("0" if (r, c) in blocked else "1" for c in range(n)) + "\n" for r in range(n)
    )


@pytest.mark.slow
def test_cli_exists_says_yes_or_no(tmp_path):
    assert cli(tmp_path, "exists", "8").stdout == "yes\n"
    result = cli(tmp_path, "exists", "3")
    assert (result.returncode, result.stdout, result.stderr) == (0, "no\n", "")
    result = cli(tmp_path, "exists", "8", "--placed", "0,0", "1,2")  # (1, 2) attacks (0, 0)'s...
    expected = "yes\n" if oracle.solutions(8, placed=[(0, 0), (1, 2)]) else "no\n"
    assert (result.returncode, result.stdout) == (0, expected)
    board = grid(pigeonhole(12, 5))
    result = cli(tmp_path, "exists", "--board", "-", stdin=board)
    assert (result.returncode, result.stdout, result.stderr) == (0, "no\n", "")
    result = cli(tmp_path, "exists", "5", "--colours", "2", "--backend", "cpsat")
    assert (result.returncode, result.stdout) == (0, "yes\n")


@pytest.mark.slow
def test_cli_exists_bad_input_is_one_line(tmp_path):
    cases = [
        (("exists", "0"), 1, "cpqueens: error: board size n must be an int >= 1, got 0\n"),
        (("exists", "8", "--time-limit", "0"), 2, "cpqueens exists: error: argument --time-limit: "
         "expected a number of seconds > 0, got '0'\n"),
        (("exists", "8", "--unique"), 2, "cpqueens: error: unrecognized arguments: --unique\n"),
        (("exists",), 2, "cpqueens: error: give the board size N or a board file with --board\n"),
    ]  # fmt: skip
    for args, code, message in cases:
        result = cli(tmp_path, *args)
        assert (result.returncode, result.stdout, result.stderr) == (code, "", message), args


@pytest.mark.slow
def test_cli_exists_time_limit_is_one_line_and_exit_1(tmp_path):
    result = cli(tmp_path, "exists", "--board", "-", "--time-limit", "0.5",
                 stdin=grid(pigeonhole()))  # fmt: skip
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "cpqueens: error: the time limit of 0.5 s ended the search before it was complete\n"
    )


@pytest.mark.slow
def test_ctrl_c_stops_a_long_exists_at_once(tmp_path):
    board = tmp_path / "pigeonhole.txt"
    board.write_text(grid(pigeonhole()))
    command = Path(sys.executable).with_name("cpqueens")
    job = subprocess.Popen(
        [str(command), "exists", "--board", str(board)], cwd=tmp_path, env=environment(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # Imported, and deep in the search (the whole search takes far longer): by the CPU time
    # it has used, not by the clock, which runs on while a busy machine runs other work.
    assert wait_for(lambda: cpu_seconds(job.pid) >= 3, timeout=300)
    assert job.poll() is None
    os.kill(job.pid, signal.SIGINT)
    out, err = job.communicate(timeout=30)
    assert (job.returncode, out, err) == (130, "", "cpqueens: interrupted\n")
