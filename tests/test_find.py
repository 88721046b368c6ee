"""Model.find: any valid solution or a proven None, at any size, within limits, and its CLI."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens.backends import get
from cpqueens.errors import IncompleteSearchError, InvalidSolutionError
from cpqueens.strategies import construct
from cpqueens.tasks import find as find_module
from cpqueens.vocabulary import verify

from . import oracle
from .processes import cpu_seconds, stop, wait_for


def valid(n, by_colour, blocked=(), placed=()):
    """An independent check: one queen per row, none attacking, none blocked, placed kept."""
    blocked = set(blocked)
    for columns in by_colour:
        assert len(columns) == n
        for values in (
            columns,
            [c + r for r, c in enumerate(columns)],
            [c - r for r, c in enumerate(columns)],
        ):
            assert len(set(values)) == n
        assert all(0 <= c < n and (r, c) not in blocked for r, c in enumerate(columns))
    assert all(len({cols[r] for cols in by_colour}) == len(by_colour) for r in range(n))
    assert all(by_colour[k][r] == c for r, c, k in placed)
    return True


def completion(n, fraction, seed):
    """Queens dropped at random on an n-board, none attacking another: (row, col) pairs."""
    rng = random.Random(seed)
    placed, cols, up, down = {}, set(), set(), set()
    while len(placed) < int(fraction * n):
        r, c = rng.randrange(n), rng.randrange(n)
        if r in placed or c in cols or r + c in up or c - r in down:
            continue
        placed[r] = c
        cols.add(c), up.add(r + c), down.add(c - r)
    return sorted(placed.items())


@st.composite
def small_models(draw):
    """A small random model: blocked cells, colour-0 placed queens, one or two colours."""
    colours = draw(st.integers(1, 2))
    n = draw(st.integers(1, 6 if colours == 2 else 7))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(cells, max_size=n * n // 3, unique=True))
    placed = draw(st.lists(cells, max_size=2, unique_by=lambda cell: cell[0]))
    return n, blocked, placed, colours


@settings(max_examples=150, deadline=None)
@given(case=small_models())
@pytest.mark.slow
def test_find_agrees_with_the_oracle_on_small_boards(case):
    n, blocked, placed, colours = case
    expected = oracle.solutions(n, blocked, placed, colours)
    found = cpqueens.model(n, blocked, colours=colours, placed=placed).find()
    if not expected:
        assert found is None
    else:
        assert found is not None and found.by_colour in expected


@settings(max_examples=60, deadline=None)
@given(case=small_models())
def test_the_race_agrees_with_the_oracle_on_small_boards(case):
    # small boards skip the race (exists()'s search answers them); race them here anyway
    from cpqueens.tasks import find as find_task

    n, blocked, placed, colours = case
    expected = oracle.solutions(n, blocked, placed, colours)
    saved, find_task.SMALL_QUEENS = find_task.SMALL_QUEENS, 0
    try:
        found = cpqueens.model(n, blocked, colours=colours, placed=placed).find()
    finally:
        find_task.SMALL_QUEENS = saved
    assert (found is None) == (not expected)
    assert found is None or found.by_colour in expected


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(case=small_models())
def test_find_with_cpsat_alone_agrees_with_the_oracle(case):
    n, blocked, placed, colours = case
    expected = oracle.solutions(n, blocked, placed, colours)
    found = cpqueens.model(n, blocked, colours=colours, placed=placed).find("cpsat")
    assert (found is None) == (not expected)
    assert found is None or found.by_colour in expected


@pytest.mark.parametrize("colours", [1, 2, 3])
def test_find_on_free_boards_is_none_exactly_when_there_is_no_solution(colours):
    # One colour: none for n = 2, 3; two colours (DESIGN: 0, 0, 0, 2, 40, ...): none below 4.
    for n in range(1, 13):
        found = cpqueens.model(n, colours=colours).find()
        if colours == 3 and n <= 6:
            assert (found is None) == (len(oracle.solutions(n, colours=3)) == 0), n
            continue
        none = n in (2, 3) if colours == 1 else n < 4
        assert (found is None) == none, n
        if found is not None:
            assert valid(n, found.by_colour)


@pytest.mark.parametrize(("n", "colours"), [(1000, 1), (1000, 2), (1001, 5), (100_000, 1)])
def test_large_free_boards_are_solved_and_valid(n, colours):
    found = cpqueens.model(n, colours=colours).find()
    assert valid(n, found.by_colour)
    assert verify.violation(cpqueens.model(n, colours=colours), found.by_colour) is None


@pytest.mark.parametrize("seed", range(3))
def test_completion_instances_of_200_are_completed(seed):
    placed = completion(200, 0.1 + 0.1 * seed, seed)
    found = cpqueens.model(200, placed=placed).find()
    assert valid(200, found.by_colour, placed=[(r, c, 0) for r, c in placed])


def test_large_boards_with_blocked_cells_and_colours():
    rng = random.Random(7)
    n = 300
    blocked = {(rng.randrange(n), rng.randrange(n)) for _ in range(3 * n)}
    placed = [(0, 5), (1, 9, 1)]
    found = cpqueens.model(n, sorted(blocked), colours=2, placed=placed).find()
    assert valid(n, found.by_colour, blocked, [(0, 5, 0), (1, 9, 1)])


def test_constraints_the_local_search_does_not_know_go_to_cpsat():
    m = cpqueens.model(10, knight=True)
    found = m.find()
    assert valid(10, found.by_colour) and found.by_colour in {s.by_colour for s in m.solutions()}
    assert cpqueens.model(8, toroidal=True).find() is None  # A051906: none for n = 8
    m = cpqueens.model(5, toroidal=True)
    assert m.find().by_colour in {s.by_colour for s in m.solutions()}
    m = cpqueens.model(8)
    found = m.where(m.q[0] == 7, m.q[1] > m.q[2]).find()
    assert (
        found.columns[0] == 7 and found.columns[1] > found.columns[2] and valid(8, found.by_colour)
    )


def test_the_cpsat_backend_searches_alone():
    assert valid(30, cpqueens.model(30).find("cpsat").by_colour)
    assert cpqueens.model(6, blocked=[(0, c) for c in range(1, 5)]).find("cpsat") is None


def test_contradictions_are_none_at_once():
    assert cpqueens.model(4, colours=5).find() is None  # more colours than columns
    assert cpqueens.model(8, placed=[(0, 0), (1, 1)]).find() is None  # placed queens attack
    assert cpqueens.model(8, blocked=[(0, 0)], placed=[(0, 0)]).find() is None
    assert cpqueens.model(5000, blocked=[(r, 3) for r in range(5000)]).find() is None  # column


def trap(n):
    """An n-board with no solution that neither the quick checks nor a local search can see."""
    return cpqueens.model(n, blocked=[(r, c) for c in (0, 1) for r in range(1, n)])


def test_a_time_limit_ends_the_search_with_an_error_never_none():
    with pytest.raises(IncompleteSearchError) as error:
        trap(2100).find(time_limit=0.5)
    assert str(error.value) == (
        "the time limit of 0.5 s ended the search before it found a solution "
        "or proved there is none"
    )
    assert trap(40).find(time_limit=60) is None  # small enough for CP-SAT's proof


def test_every_engine_finds_with_its_own_search_and_bad_input_is_named():
    m = cpqueens.model(8)
    for backend in ("bitmask", "python-constraint", "cpsat"):
        found = m.find(backend)
        assert found is not None and verify.violation(m.columns(), found.by_colour) is None
    assert cpqueens.model(3).find("bitmask") is None
    with pytest.raises(ValueError, match=r"^unknown backend 'fast': expected one of 'auto', "):
        m.find("fast")
    with pytest.raises(ValueError) as error:
        m.find(time_limit=0)
    assert str(error.value) == "time_limit must be None or a number of seconds > 0, got 0"
    with pytest.raises(TypeError) as error:
        m.find(time_limit="5")
    assert str(error.value) == "time_limit must be None or a number of seconds > 0, got '5'"


def test_verify_names_the_broken_constraint():
    m = cpqueens.model(4, blocked=[(0, 1)], colours=2)
    assert verify.violation(m.columns(), ((1, 3, 0, 2), (2, 0, 3, 1))) == (
        "colour 0's queen stands on blocked cell (0, 1)"
    )
    assert verify.violation(m.columns(), ((2, 0, 3, 1), (2, 0, 3, 1))) == (
        "Disjoint(colours 0, 1: no shared cell) fails: two colours share a cell in row 0"
    )
    assert verify.violation(m.columns(), ((2, 0, 3, 1),)) == "1 colour of queens, expected 2"
    assert verify.violation(m.columns(), ((2, 0, 3, 4), (1, 3, 0, 2))) == (
        "colour 0, row 3: column 4 is not in 0..3"
    )
    assert verify.violation(cpqueens.model(4, colours=2), ((2, 0, 3, 1), (1, 3, 0, 2))) is None


def test_a_wrong_solution_never_leaves(monkeypatch):
    monkeypatch.setattr(construct, "free_board", lambda n, colours: ((0,) * n,))
    assert valid(8, cpqueens.model(8).find().by_colour)  # a wrong construction is not used
    monkeypatch.setattr(find_module, "_search", lambda *args: ((0, 2, 4, 6, 1, 3, 5, 7),))
    with pytest.raises(InvalidSolutionError) as error:
        cpqueens.model(8).find()
    assert str(error.value) == (
        "a search returned a solution that breaks the model (a bug in cpqueens): "
        "AllDifferent(q0[r] - r for every row r) fails: rows 0 and 7 share 0"
    )


def cli(tmp_path, *args, stdin=""):
    """``cpqueens ARGS`` as the installed console script, run from ``tmp_path``."""
    command = Path(sys.executable).with_name("cpqueens")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [str(command), *args], cwd=tmp_path, env=env, input=stdin, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_cli_solve_any(tmp_path):
    result = cli(tmp_path, "solve", "8", "--any", "--format", "columns")
    columns = [int(c) - 1 for c in result.stdout.split()]
    assert (result.returncode, result.stderr) == (0, "") and valid(8, [columns])
    result = cli(tmp_path, "solve", "5", "--any", "--colours", "2", "--placed", "0,0")
    rows = result.stdout.split("\n")
    assert result.returncode == 0 and rows[5:] == ["", ""] and rows[0][0] == "Q"
    result = cli(tmp_path, "solve", "20000", "--any", "--format", "json", "--out", "s.json")
    import json

    assert result.returncode == 0 and valid(20000, json.loads((tmp_path / "s.json").read_text())[0])
    result = cli(tmp_path, "solve", "3", "--any")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", "cpqueens: no solution\n")
    result = cli(tmp_path, "solve", "3", "--any", "--format", "json")
    assert (result.returncode, result.stdout) == (0, "[]\n")
    result = cli(tmp_path, "solve", "8", "--any", "--unique")
    assert (result.returncode, result.stderr) == (
        1, "cpqueens: error: --any prints one solution of the model: it takes no --unique\n"
    )  # fmt: skip


@pytest.mark.slow
def test_cli_solve_any_time_limit(tmp_path):
    n = 2100
    grid = "\n".join(
        "".join("#" if c in (0, 1) and r > 0 else "." for c in range(n)) for r in range(n)
    )
    result = cli(tmp_path, "solve", "--board", "-", "--any", "--time-limit", "0.5", stdin=grid)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "cpqueens: error: the time limit of 0.5 s ended the search before it found a solution "
        "or proved there is none\n"
    )


@pytest.mark.slow
def test_ctrl_c_stops_a_long_find_at_once(tmp_path):
    code = """
        import cpqueens
        m = cpqueens.model(3000, blocked=[(r, c) for c in (0, 1) for r in range(1, 3000)])
        print("searching", flush=True)
        m.find()
    """
    path = tmp_path / "find_forever.py"
    path.write_text(textwrap.dedent(code))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    job = subprocess.Popen(
        [sys.executable, str(path)], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert job.stdout.readline() == "searching\n"
    searching = cpu_seconds(job.pid)
    assert wait_for(lambda: cpu_seconds(job.pid) >= searching + 1.5, timeout=300)  # deep in it
    _, err, after = stop(job, signal.SIGINT)
    assert job.returncode != 0 and err.rstrip().endswith("KeyboardInterrupt")
    assert after < 1.5  # CPU seconds after the signal: it stopped, it did not search on


def dfs_answer(n, blocked, placed, colours, budget=None):
    """Run the restarting DFS alone to its end: its solution, or None when it saw every branch."""
    from cpqueens.kernels import mrv_search

    fixed = [{} for _ in range(colours)]
    for r, c in placed:
        fixed[0][r] = c
    search = mrv_search.Search(n, mrv_search.allowed_masks(n, colours, blocked, fixed))
    if budget is not None:
        search.budget = budget
    while True:
        status = search.step()
        if status == mrv_search.FOUND:
            return search.solution()
        if status == mrv_search.EXHAUSTED:
            return None


@settings(max_examples=100, deadline=None)
@given(case=small_models(), budget=st.sampled_from([None, 1, 5]))
def test_the_dfs_alone_agrees_with_the_oracle(case, budget):
    # A tiny restart budget restarts the run many times: each run is still complete.
    n, blocked, placed, colours = case
    expected = oracle.solutions(n, blocked, placed, colours)
    found = dfs_answer(n, blocked, placed, colours, budget)
    assert (found is None) == (not expected)
    assert found is None or found in expected


def test_the_dfs_solves_small_hard_boards():
    # No construction applies to nine queens of three colours; the DFS finds some.
    assert valid(9, dfs_answer(9, (), (), 3))
    assert valid(12, dfs_answer(12, (), (), 6))
    blocked = [(0, c) for c in range(1, 64)]
    found = dfs_answer(64, blocked, [(1, 5)], 1)
    assert valid(64, found, blocked, [(1, 5, 0)]) and found[0][0] == 0


@settings(max_examples=100, deadline=None)
@given(case=small_models())
def test_the_exists_search_member_alone_agrees_with_the_oracle(case):
    # find()'s third member: exists()'s fewest-free-row search, one colour only.
    n, blocked, placed, colours = case
    model = cpqueens.model(n, blocked, colours=colours, placed=placed)
    search = get("bitmask").line_search(model.columns())
    if colours != 1:
        assert search is None
        return
    found = None
    while found is None:
        found = search.step()
    expected = oracle.solutions(n, blocked, placed, colours)
    assert found == bool(expected)
    assert not found or (search.columns(),) in expected


@pytest.mark.slow
def test_the_exists_search_proves_a_hard_board_empty_within_the_limit():
    # A generated Excluded Diagonals board of 40 on which find() without this member
    # (construction, local search, the DFS, CP-SAT) ran past 60 s: it has no solution.
    from tests.excluded_diagonals import generate

    model = cpqueens.model(40, generate(40, 0).blocked(72))
    assert model.find(time_limit=300) is None
