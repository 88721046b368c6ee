"""Symmetry: groups, canonical forms, unique counts against a brute-force orbit count."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens.vocabulary.constraints import Invariant, LexLeader
from tests import internals, oracle

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]
# classes of 2 (fixed by a quarter turn) and of 8 (asymmetric), n = 1..14
A260318 = [1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 4, 4, 0]
A260320 = [0, 0, 0, 0, 1, 0, 4, 11, 42, 89, 329, 1765, 9197, 45647]
UNIQUE_LIMIT = {"bitmask": 12, "cpsat": 9, "python-constraint": 9}

# The board symmetries, written here independently of cpqueens.strategies.symmetry.
CELL_MAPS = {
    "identity": lambda r, c, n: (r, c),
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror": lambda r, c, n: (r, n - 1 - c),
    "flip": lambda r, c, n: (n - 1 - r, c),
    "diagonal": lambda r, c, n: (c, r),
    "antidiagonal": lambda r, c, n: (n - 1 - c, n - 1 - r),
}
GENERATED = {
    "none": ("identity",),
    "mirror": ("identity", "mirror"),
    "diagonal": ("identity", "diagonal"),
    "rot180": ("identity", "rot180"),
    "rot90": ("identity", "rot90", "rot180", "rot270"),
    "all": tuple(CELL_MAPS),
}


def map_solution(name, by_colour, n):
    """Every queen of every colour moved by ``name``, read back row by row."""
    result = []
    for columns in by_colour:
        moved = dict(CELL_MAPS[name](r, c, n) for r, c in enumerate(columns))
        result.append(tuple(moved[r] for r in range(n)))
    return tuple(result)


def invariant_names(n, blocked, placed):
    return {
        name
        for name, f in CELL_MAPS.items()
        if {f(r, c, n) for r, c in blocked} == set(blocked)
        and {f(r, c, n) for r, c in placed} == set(placed)
    }


def brute_force_classes(solutions, names, n):
    return {frozenset(map_solution(name, s, n) for name in names) for s in solutions}


@pytest.mark.parametrize(
    ("name", "n"),
    [(b, n) for b in cpqueens.backends() for n in range(1, UNIQUE_LIMIT.get(b, 9) + 1)],
)
def test_a002562(name, n):
    assert cpqueens.model(n).count(backend=name, unique=True) == A002562[n - 1]


@pytest.mark.slow
def test_native_kernels_by_class_size():
    from cpqueens.strategies.class_count import classes

    for n in range(5, 15):
        two, four, eight = classes(n)
        assert (two, eight) == (A260318[n - 1], A260320[n - 1])
        assert two + four + eight == A002562[n - 1]
        assert 2 * two + 4 * four + 8 * eight == A000170[n - 1]
    assert classes(10, workers=2) == classes(10)
    assert classes(11, workers=2) == classes(11)  # odd: the middle piece split by row 1
    with pytest.raises(ValueError, match=r"^the symmetry kernels need 5 <= n <= 31, got n=4$"):
        classes(4)


@pytest.mark.parametrize("n", range(5, 14))
def test_every_split_depth_of_the_kernels_adds_up_to_the_same_classes(n):
    from cpqueens.strategies.class_count import combine, count_piece, pieces

    for depth in (0, 1, 2):
        parts = pieces(n, depth)
        two, four, eight = combine(n, parts, [count_piece(n, piece) for piece in parts])
        assert (two, two + four + eight) == (A260318[n - 1], A002562[n - 1])
        assert 2 * two + 4 * four + 8 * eight == A000170[n - 1]
    assert len(pieces(n, 2)) > len(pieces(n, 1)) > len(pieces(n, 0))
    with pytest.raises(ValueError, match=r"^depth must be 0, 1 or 2, got 3$"):
        pieces(n, 3)


@pytest.mark.slow
def test_a_driver_with_workers_leaves_numba_to_them():
    # The pool's processes start while the driver loads nothing heavy.
    code = (
        "import sys\nfrom cpqueens.strategies.class_count import classes\n"
        "print(classes(9, workers=2), 'numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[0] == "(0, 4, 42) False"


@st.composite
def symmetric_boards(draw):
    n = draw(st.integers(1, 7))
    kind = draw(st.sampled_from(sorted(GENERATED)))
    names = GENERATED[kind]
    seeds = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    blocked = {CELL_MAPS[name](r, c, n) for r, c in seeds for name in names}
    placed = []
    if draw(st.booleans()):
        cell = (draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)))
        orbit = {CELL_MAPS[name](*cell, n) for name in names}
        if len({r for r, _ in orbit}) == len(orbit) and not orbit & blocked:
            placed = sorted(orbit)
    colours = draw(st.integers(1, 2)) if n <= 6 else 1
    return n, sorted(blocked), placed, colours


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(symmetric_boards())
@pytest.mark.slow
def test_unique_counts_match_a_brute_force_orbit_count(backend, drawn):
    n, blocked, placed, colours = drawn
    expected = oracle.solutions(n, blocked, placed, colours)
    names = invariant_names(n, blocked, placed)
    classes = brute_force_classes(expected, names, n)
    model = cpqueens.model(n, blocked, colours=colours, placed=placed)

    assert set(model.symmetries()) == names
    assert model.count(backend=backend) == len(expected)
    assert model.count(backend=backend, unique=True) == len(classes)
    representatives = list(model.solutions(backend=backend, unique=True))
    assert [s.by_colour for s in representatives] == sorted(min(c) for c in classes)
    assert sum(len(s.orbit()) for s in representatives) == len(expected)
    for s in representatives:
        assert s.canonical() == s
        assert {o.by_colour for o in s.orbit()} in classes


@pytest.mark.parametrize(("n", "colours"), [(6, 1), (8, 1), (5, 2)])
def test_each_symmetry_constraint_alone(backend, n, colours):
    # Checks every backend's translation of each symmetry against the test's own maps.
    expected = oracle.solutions(n, colours=colours)
    base = cpqueens.model(n, colours=colours)
    for name in CELL_MAPS:
        leaders = [s for s in expected if s <= map_solution(name, s, n)]
        fixed = [s for s in expected if s == map_solution(name, s, n)]
        lead = base.with_constraints(LexLeader((name,)))
        assert [s.by_colour for s in lead.solutions(backend=backend)] == leaders, name
        assert base.with_constraints(Invariant(name)).count(backend=backend) == len(fixed), name


def test_canonical_and_orbit_of_eight_queens():
    first = cpqueens.model(8).first(backend="bitmask")
    assert first.columns == (0, 4, 7, 5, 2, 6, 1, 3)
    assert len(first.orbit()) == 8
    assert first.canonical() == first
    turned = cpqueens.Solution(map_solution("rot90", first.by_colour, 8), first.board)
    assert turned.canonical().by_colour == first.by_colour
    # The one 8-queens class fixed by the half turn has 4 members.
    sizes = sorted(len(s.orbit()) for s in cpqueens.model(8).solutions("bitmask", unique=True))
    assert sizes == [4] + [8] * 11


def test_group_detection():
    assert cpqueens.model(5).symmetries() == tuple(CELL_MAPS)
    assert cpqueens.model(5, blocked=[(0, 0)]).symmetries() == ("identity", "diagonal")
    assert cpqueens.model(5, blocked=[(0, 1)]).symmetries() == ("identity",)
    assert cpqueens.model(5, placed=[(2, 2)]).symmetries() == tuple(CELL_MAPS)
    # Constraints the module cannot map leave the identity alone.
    lead = cpqueens.model(5).with_constraints(LexLeader(("mirror",)))
    assert lead.symmetries() == ("identity",)
    assert lead.count(backend="bitmask", unique=True) == lead.count(backend="bitmask") == 5


def test_unknown_symmetry_name():
    expected = (
        "unknown board symmetry 'spin': expected one of 'identity', 'rot90', 'rot180', "
        "'rot270', 'mirror', 'flip', 'diagonal', 'antidiagonal'"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        LexLeader(("spin",))
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        Invariant("spin")


@pytest.mark.slow
def test_workers_give_the_same_unique_count():
    m = cpqueens.model(8, blocked=[(0, 0), (7, 7)])
    assert m.count(backend="cpsat", unique=True, workers=2) == m.count(
        backend="bitmask", unique=True, workers=1
    )


@pytest.mark.slow
def test_cpsat_counts_representatives_weighted_by_class_size():
    from cpqueens.strategies.symmetry import subproblems

    parts = subproblems(cpqueens.model(8).columns(), "cpsat", 1)
    assert [p.weight for p in parts] == [8, -4, -2]
    assert [internals.count("cpsat", p.model) for p in parts] == [12, 1, 0]
    # Other backends keep the mirror split.
    assert [p.weight for p in subproblems(cpqueens.model(8).columns(), "bitmask", 1)] == [
        2,
        2,
        2,
        2,
    ]


def test_the_plain_python_turn_search_agrees_with_the_kernel():
    # class_count.turn_fixed searches in Python up to TURN_PYTHON_MAX_N, in the kernel beyond:
    # both on free boards and on boards whose holes the quarter turn keeps.
    import random

    from cpqueens.kernels.classes import turn_fixed as kernel_turn_fixed
    from cpqueens.strategies import class_count

    for n in range(1, 16):
        rows = ((1 << n) - 1,) * n
        assert class_count._turn_fixed(n, rows) == kernel_turn_fixed(n, rows), n
    assert class_count._turn_fixed(12, ((1 << 12) - 1,) * 12) == (80, 8)
    rng = random.Random(32)
    for _ in range(60):
        n = rng.randint(4, 12)
        rows = [(1 << n) - 1] * n
        for _ in range(rng.randint(1, 3)):
            r, c = rng.randrange(n), rng.randrange(n)
            for rr, cc in ((r, c), (c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)):
                rows[rr] &= ~(1 << cc)
        assert class_count._turn_fixed(n, tuple(rows)) == kernel_turn_fixed(n, tuple(rows))
