"""Conditions in the compiled DFS (issue 22): against the oracle, CP-SAT and published counts."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens.backends.bitmask import conditions
from tests import internals, oracle
from tests.test_expressions import build, condition_trees

pytest.importorskip("numba")
import cpqueens.kernels.conditions  # loaded: bitmask takes the kernel at any size


@st.composite
def one_colour_models(draw):
    n = draw(st.integers(1, 7))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(cells, max_size=2))
    placed = draw(st.lists(cells, max_size=1))
    trees = draw(st.lists(condition_trees(n, 1), min_size=1, max_size=3))
    return n, blocked, placed, trees


@settings(max_examples=80, deadline=None)
@given(one_colour_models())
@pytest.mark.slow
def test_the_kernel_agrees_with_the_oracle_on_random_conditions(drawn):
    n, blocked, placed, trees = drawn
    base = cpqueens.model(n, blocked, placed=placed)
    m = base.where(*(build(tree, lambda c, r: base.q[r], True) for tree in trees))
    expected = [
        s[0]
        for s in oracle.solutions(n, blocked, placed)
        if all(build(tree, lambda c, r, s=s: s[c][r], False) for tree in trees)
    ]
    plan = internals.plan(m)
    assert conditions.fits(plan)
    assert conditions.count(plan) == len(expected)
    assert list(conditions.solutions(plan)) == expected
    if plan.checks:
        assert internals.compiled_conditions(plan)
    assert m.count("bitmask") == len(expected)
    first = m.first("bitmask")
    assert (first.columns if first else None) == (expected[0] if expected else None)


@functools.cache
def free_board(n):
    return [s[0] for s in oracle.solutions(n)]


@settings(max_examples=30, deadline=None)
@given(st.integers(8, 9).flatmap(lambda n: st.tuples(st.just(n), condition_trees(n, 1))))
@pytest.mark.slow
def test_the_kernel_agrees_with_the_oracle_on_larger_boards(drawn):
    # n >= 8: the unrolled last seven rows, when the conditions leave them alone
    n, tree = drawn
    m = cpqueens.model(n)
    narrowed = m.where(build(tree, lambda c, r: m.q[r], True))
    expected = [s for s in free_board(n) if build(tree, lambda c, r, s=s: s[r], False)]
    plan = internals.plan(narrowed)
    assert conditions.count(plan) == len(expected)
    assert list(conditions.solutions(plan)) == expected


@pytest.mark.parametrize("seed", range(3))
def test_the_kernel_agrees_with_cpsat_on_random_three_row_conditions(seed):
    import random

    rng = random.Random(seed)
    n = 9
    m = cpqueens.model(n)
    q = m.q
    a, b, c = rng.sample(range(n), 3)
    k = rng.randint(2, 5)
    narrowed = m.where((q[a] + 2 * q[b] - q[c]) % k == rng.randrange(k), abs(q[a] - q[c]) > 1)
    plan = internals.plan(narrowed)
    assert conditions.compile_conditions(plan).programs > 0  # a postfix program, not a table
    assert narrowed.count("bitmask") == narrowed.count("cpsat")


# The issue's table at n = 13 (CP-SAT counted the first, 36,856, too).
@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda q, n: q[0] < q[n - 1], 36_856),
        (lambda q, n: abs(q[0] - q[1]) > 2, 60_468),
        (lambda q, n: cpqueens.all_different(q[r] + 2 * r for r in range(n)), 4_209),
        (lambda q, n: (q[3] + q[4]) % 3 == 0, 23_862),
    ],
)
def test_the_issues_conditions_at_13_on_the_kernel(make, expected):
    m = cpqueens.model(13)
    narrowed = m.where(make(m.q, 13))
    plan = internals.plan(narrowed)
    assert internals.compiled_conditions(plan)
    compiled = conditions.compile_conditions(plan)
    assert compiled.programs == 0  # pair tables and shifted sets only
    assert compiled.tail == (compiled.shift.shape[0] == 0)  # all_different reads every row
    assert internals.count("bitmask", narrowed) == expected


def test_half_the_solutions_have_the_first_queen_left_of_the_last():
    # q[0] == q[n-1] is impossible and the mirror swaps < and >: exactly half of A000170(12).
    m = cpqueens.model(12)
    assert internals.count("bitmask", m.where(m.q[0] < m.q[11])) == 14_200 // 2


def test_solutions_come_in_order_across_chunks(monkeypatch):
    monkeypatch.setattr(conditions, "CHUNK", 3)
    monkeypatch.setattr(conditions, "BUDGET", 5)
    m = cpqueens.model(8)
    narrowed = m.where(abs(m.q[0] - m.q[7]) != 3, (m.q[1] + m.q[2] + m.q[3]) % 2 == 0)
    expected = [
        s[0]
        for s in oracle.solutions(8)
        if abs(s[0][0] - s[0][7]) != 3 and (s[0][1] + s[0][2] + s[0][3]) % 2 == 0
    ]
    assert list(conditions.solutions(internals.plan(narrowed))) == expected


def test_a_passed_deadline_ends_the_listing():
    from cpqueens.errors import IncompleteSearchError

    m = cpqueens.model(12)
    narrowed = m.where(m.q[0] < m.q[11])
    with pytest.raises(IncompleteSearchError, match="time limit"):
        list(narrowed.solutions("bitmask", time_limit=1e-9))


@pytest.mark.slow
def test_parallel_count_of_subproblems_uses_the_kernel():
    m = cpqueens.model(12)
    narrowed = m.where((m.q[2] + m.q[5] + m.q[9]) % 3 == 1)
    expected = narrowed.count("cpsat")
    assert narrowed.count("bitmask", workers=2) == expected


def test_a_false_keeps_declaration_raises_with_a_counterexample():
    from cpqueens.vocabulary.geometry import image

    m = cpqueens.model(13)
    narrowed = m.where(m.q[0] < m.q[12], keeps=("flip",))
    with pytest.raises(ValueError, match=r"not kept by flip .*keeps=\('flip',\)") as caught:
        narrowed.count(unique=True)
    columns = eval(str(caught.value).split("the solution ")[1].split(" meets")[0])
    assert columns in set(oracle_like(m.where(m.q[0] < m.q[12])))
    assert not image("flip", (columns,), 13)[0][0] < image("flip", (columns,), 13)[0][12]
    with pytest.raises(ValueError, match="not kept by flip"):
        narrowed.count()  # the split would use the flip too
    with pytest.raises(ValueError, match="not kept by rot90"):
        list(m.where(m.q[0] < m.q[12], keeps=("rot90",)).solutions(unique=True))


def oracle_like(model):
    return [s.columns for s in model.solutions("bitmask")]


def classes(solutions, names, n):
    from cpqueens.vocabulary.geometry import canonical

    return {canonical((s,), names, n) for s in solutions}


@pytest.mark.parametrize("n", [8, 9])
@pytest.mark.slow
def test_a_true_rot180_declaration_gives_exact_counts(n):
    m = cpqueens.model(n)
    narrowed = m.where(m.q[0] < m.q[n - 1], keeps=("rot180",))
    expected = [s[0] for s in oracle.solutions(n) if s[0][0] < s[0][n - 1]]
    assert narrowed.count() == len(expected)
    assert narrowed.count("cpsat") == len(expected)
    assert narrowed.count(unique=True) == len(classes(expected, ("rot180",), n))


def test_a_true_declaration_no_proof_reaches_is_checked_on_the_solutions():
    # Every solution has its queens on distinct anti-diagonals, so all four turns keep this.
    n = 8
    m = cpqueens.model(n)
    narrowed = m.where(cpqueens.all_different(m.q[r] + r for r in range(n)), keeps=("rot90",))
    turns = ("rot90", "rot180", "rot270")
    expected = [s[0] for s in oracle.solutions(n)]
    assert narrowed.count(unique=True) == len(classes(expected, turns, n))


def test_the_engine_names_the_path_that_answers():
    m = cpqueens.model(16)
    assert m.where(m.q[0] < m.q[15]).engine(path=True) == (
        "bitmask: subproblems, each by the compiled conditions kernel"
    )
    assert m.where(m.q[0] < m.q[15]).engine() == "bitmask"
    two = cpqueens.model(14, colours=2)
    assert "Python DFS" in two.where(two.q[0, 0] < two.q[1, 3]).engine(path=True)
    assert m.engine("cpsat", path=True) == "cpsat: subproblems"


@pytest.mark.slow
def test_cli_json_names_the_path(tmp_path):
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(cpqueens.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-m", "cpqueens", "count", "12", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=True,
    )
    report = json.loads(done.stdout)
    assert report["count"] == 14_200
    assert report["path"] == "bitmask: classes"


# --- the richer language: lookups, membership, counting conditions ---------------------------


@st.composite
def language_models(draw):
    n = draw(st.integers(4, 7))
    regions = draw(
        st.lists(st.lists(st.integers(0, n - 1), min_size=n, max_size=n), min_size=n, max_size=n)
    )
    rows = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
    members = draw(st.sets(st.integers(-1, n), max_size=n))
    member_row = draw(st.integers(0, n - 1))
    target = draw(st.integers(0, 3))
    return n, regions, rows, members, member_row, target


@settings(max_examples=25, deadline=None)
@given(language_models())
def test_lookups_membership_and_counts_agree_with_the_oracle_on_every_backend(drawn):
    n, regions, rows, members, member_row, target = drawn
    m = cpqueens.model(n)
    q = m.q
    narrowed = m.where(
        cpqueens.all_different(cpqueens.table(regions[r])[q[r]] for r in rows),
        q[member_row].isin(members) | (cpqueens.count_true(q[r] == r for r in range(n)) == target),
    )

    def holds(s):
        return len({regions[r][s[r]] for r in rows}) == len(rows) and (
            s[member_row] in members or sum(s[r] == r for r in range(n)) == target
        )

    expected = [s[0] for s in oracle.solutions(n) if holds(s[0])]
    for backend in cpqueens.backends():
        assert [s.columns for s in narrowed.solutions(backend)] == expected, backend
    assert conditions.count(internals.plan(narrowed)) == len(expected)


def test_one_queen_per_region_is_one_line():
    # A grid of n coloured regions: non-attacking queens, one per region, stated in one line.
    regions = [
        [0, 0, 1, 1, 1],
        [0, 2, 2, 1, 1],
        [3, 2, 2, 2, 1],
        [3, 3, 4, 4, 4],
        [3, 3, 4, 4, 4],
    ]
    n = 5
    m = cpqueens.model(n)
    narrowed = m.where(cpqueens.all_different(cpqueens.table(regions[r])[m.q[r]] for r in range(n)))
    expected = [
        s[0] for s in oracle.solutions(n) if len({regions[r][c] for r, c in enumerate(s[0])}) == n
    ]
    assert expected == [(0, 2, 4, 1, 3), (1, 4, 2, 0, 3), (2, 0, 3, 1, 4), (3, 0, 2, 4, 1)]
    for backend in cpqueens.backends():
        assert [s.columns for s in narrowed.solutions(backend)] == expected
    assert narrowed.count() == len(expected)


def test_conditions_count_as_0_or_1_in_sums():
    m = cpqueens.model(6)
    q = m.q
    in_corner_columns = cpqueens.count_true((q[r] == 0) | (q[r] == 5) for r in range(6))
    narrowed = m.where(in_corner_columns == 2, (q[0] > 2).as_int() + q[1] >= 3)
    expected = [
        s[0]
        for s in oracle.solutions(6)
        if sum(c in (0, 5) for c in s[0]) == 2 and (s[0][0] > 2) + s[0][1] >= 3
    ]
    assert expected
    assert narrowed.count("cpsat") == narrowed.count("bitmask") == len(expected)


def test_bad_lookups_and_memberships_are_refused():
    m = cpqueens.model(6)
    with pytest.raises(IndexError, match=r"takes values 0\.\.5, the table has entries 0\.\.2"):
        cpqueens.table([1, 2, 3])[m.q[0]]
    with pytest.raises(TypeError, match=r"expected ints, got 1\.5"):
        cpqueens.table([1, 1.5])
    with pytest.raises(ValueError, match="at least one value"):
        cpqueens.table([])
    with pytest.raises(TypeError, match=r"isin\(\) takes an iterable of ints"):
        m.q[0].isin(3)
    with pytest.raises(TypeError, match="count_true takes conditions, got 3"):
        cpqueens.count_true([m.q[0] == 1, 3])


def test_where_takes_any_iterable_of_conditions():
    m = cpqueens.model(8)
    narrowed = m.where(m.q[r] != r for r in range(8))
    expected = [s for s in oracle.solutions(8) if all(s[0][r] != r for r in range(8))]
    assert narrowed.count() == len(expected)


# --- exports ---------------------------------------------------------------------------------


def solve_cpsat_export(m):
    from ortools.sat.python import cp_model

    cp, q = m.to_cpsat()
    found = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            found.add(tuple(tuple(self.value(v) for v in row) for row in q))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.solve(cp, Collect())
    return found


def solve_cpmpy_export(m):
    cpm, q = m.to_cpmpy()
    found = set()
    cpm.solveAll(display=lambda: found.add(tuple(tuple(int(v) for v in row) for row in q.value())))
    return found


@settings(max_examples=12, deadline=None)
@given(one_colour_models(), st.booleans())
def test_exports_solve_to_the_same_solutions_in_their_tools(drawn, toroidal):
    pytest.importorskip("cpmpy")
    n, blocked, placed, trees = drawn
    base = cpqueens.model(n, blocked, placed=placed, toroidal=toroidal and not placed)
    m = base.where(*(build(tree, lambda c, r: base.q[r], True) for tree in trees))
    expected = {s.by_colour for s in m.solutions("bitmask")}
    assert solve_cpsat_export(m) == expected
    assert solve_cpmpy_export(m) == expected


@pytest.mark.slow
def test_exports_of_two_colours_knights_and_lookups():
    pytest.importorskip("cpmpy")
    m = cpqueens.model(5, colours=2)
    narrowed = m.where(cpqueens.table([0, 1, 1, 0, 2])[m.q[0, 1]] == m.q[1, 0] % 3)
    expected = {s.by_colour for s in narrowed.solutions("bitmask")}
    assert len(expected) == narrowed.count("cpsat")
    assert solve_cpsat_export(narrowed) == expected == solve_cpmpy_export(narrowed)
    knights = cpqueens.model(10, knight=True)  # superqueens: 4 (OEIS A051223)
    assert len(solve_cpmpy_export(knights)) == knights.count() == 4
    torus = cpqueens.model(7, toroidal=True)  # 28 (OEIS A051906)
    assert len(solve_cpmpy_export(torus)) == len(solve_cpsat_export(torus)) == 28


def test_find_builds_toroidal_queens_for_n_coprime_to_6():
    n = 199
    found = cpqueens.model(n, toroidal=True, colours=2).find(time_limit=30)
    assert found is not None
    for columns in found.by_colour:
        assert sorted(columns) == list(range(n))
        for sign in (1, -1):
            assert len({(c + sign * r) % n for r, c in enumerate(columns)}) == n
    assert all(a != b for a, b in zip(*found.by_colour, strict=True))


@pytest.mark.slow
def test_unique_counts_with_conditions_by_burnside_match_the_lex_leader():
    from cpqueens.strategies import burnside

    n = 9
    m = cpqueens.model(n)
    # no queen in a corner, which every turn keeps (a two-row part: a pair table)
    corners = ~((m.q[0] == 0) | (m.q[0] == n - 1) | (m.q[n - 1] == 0) | (m.q[n - 1] == n - 1))
    narrowed = m.where(corners, keeps=("rot90",))
    assert narrowed.symmetries() == ("identity", "rot90", "rot180", "rot270")
    assert burnside.fits(narrowed.columns(), "bitmask")
    expected = [s for s in free_board(n) if not {s[0], s[n - 1]} & {0, n - 1}]
    turns = ("rot90", "rot180", "rot270")
    assert narrowed.count(unique=True) == len(classes(expected, turns, n))
    # the lex-leader path on CP-SAT, an independent count of the same classes
    assert narrowed.count("cpsat", unique=True) == len(classes(expected, turns, n))


def test_first_looks_ahead_at_the_rows_a_pair_cuts():
    # q[29] < q[0] leaves the last row one column per first-row queen; without the look-ahead
    # the lexicographic DFS searched for minutes before meeting it at row 29.
    m = cpqueens.model(30)
    narrowed = m.where(m.q[0] > m.q[29], abs(m.q[1] - m.q[2]) > 3)
    plan = internals.plan(narrowed)
    assert conditions.compile_conditions(plan).watched.tolist() == [2, 29]
    found = narrowed.first(time_limit=60)
    assert found.columns[0] > found.columns[29] and abs(found.columns[1] - found.columns[2]) > 3
    assert [s.columns for s in narrowed.solutions(limit=1)] == [found.columns]
