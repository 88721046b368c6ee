"""The family's variants against OEIS: toroidal queens (A051906), superqueens (A051223/4)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from functools import cache
from itertools import permutations
from pathlib import Path

import pytest

import cpqueens
from cpqueens.vocabulary.constraints import BOARD_SYMMETRIES, KnightMoves, Toroidal
from cpqueens.vocabulary.geometry import image
from tests import internals, oracle
from tests.processes import OUTSIDE

#: A051906: toroidal n-queens solutions, n = 1..13.
TOROIDAL = {1: 1, 2: 0, 3: 0, 4: 0, 5: 10, 6: 0, 7: 28, 8: 0, 9: 0, 10: 0, 11: 88, 12: 0, 13: 4524}
#: A051223: superqueens (queen + knight moves), n = 10..14 (n = 1: 1, n = 2..9: 0).
SUPERQUEENS = {1: 1, **dict.fromkeys(range(2, 10), 0), 10: 4, 11: 44, 12: 156, 13: 1876, 14: 5180}
#: A051224: superqueens up to the 8 board symmetries, n = 10..13.
SUPERQUEENS_UNIQUE = {10: 1, 11: 6, 12: 22, 13: 239}


@pytest.mark.parametrize("n", sorted(TOROIDAL))
def test_toroidal_counts_match_oeis_on_bitmask(n):
    assert cpqueens.model(n, toroidal=True).count("bitmask") == TOROIDAL[n]


@pytest.mark.parametrize("n", sorted(SUPERQUEENS))
def test_superqueens_counts_match_oeis_on_bitmask(n):
    assert cpqueens.model(n, knight=True).count("bitmask") == SUPERQUEENS[n]


@pytest.mark.parametrize("n", sorted(SUPERQUEENS_UNIQUE))
def test_unique_superqueens_match_oeis(n):
    m = cpqueens.model(n, knight=True)
    assert m.symmetries() == BOARD_SYMMETRIES
    assert m.count("bitmask", unique=True) == SUPERQUEENS_UNIQUE[n]


@pytest.mark.slow
def test_small_variants_on_every_backend(backend):
    for n in range(1, 8):
        assert cpqueens.model(n, toroidal=True).count(backend) == TOROIDAL[n]
    for n in range(1, 11):
        assert cpqueens.model(n, knight=True).count(backend) == SUPERQUEENS[n]
    assert cpqueens.model(10, knight=True).count(backend, unique=True) == 1


def brute(n, keep, blocked=(), colours=1):
    return [s for s in oracle.solutions(n, blocked, colours=colours) if keep(s)]


def test_variant_solution_lists_match_brute_force(backend):
    toroidal = Toroidal(0)
    assert [s.by_colour for s in cpqueens.model(7, toroidal=True).solutions(backend)] == brute(
        7, lambda s: toroidal.holds(s, 7)
    )
    blocked = [(0, 0), (3, 4)]
    both = (Toroidal(0), Toroidal(1), KnightMoves(0), KnightMoves(1))
    m = cpqueens.model(5, blocked, colours=2, toroidal=True, knight=True)
    expected = brute(5, lambda s: all(c.holds(s, 5) for c in both), blocked, colours=2)
    assert [s.by_colour for s in m.solutions(backend)] == expected
    knight = cpqueens.model(6, knight=True, placed=[(0, 1)])
    k = KnightMoves(0)
    assert [s.by_colour for s in knight.solutions(backend)] == [
        s for s in brute(6, lambda s: k.holds(s, 6)) if s[0][0] == 1
    ]


def test_variants_with_conditions_on_every_backend(backend):
    m = cpqueens.model(7, toroidal=True)
    narrowed = m.where(m.q[0] + m.q[1] > 5)
    toroidal = Toroidal(0)
    expected = brute(7, lambda s: toroidal.holds(s, 7) and s[0][0] + s[0][1] > 5)
    assert [s.by_colour for s in narrowed.solutions(backend)] == expected
    assert narrowed.count(backend, unique=True) == len(expected)


@pytest.mark.slow
@pytest.mark.parametrize("constraint", [Toroidal(0), KnightMoves(0)])
def test_every_board_symmetry_keeps_the_variant(constraint):
    """Brute force: a placement meets the constraint exactly when each of its images does."""
    rng = random.Random(7)
    for n in (4, 5, 6, 7):
        for columns in permutations(range(n)):
            for name in BOARD_SYMMETRIES:
                mapped = image(name, (columns,), n)
                assert constraint.holds((columns,), n) == constraint.holds(mapped, n)
    for n in (10, 11, 12, 13):
        for _ in range(300):
            columns = tuple(rng.sample(range(n), n))
            for name in BOARD_SYMMETRIES:
                mapped = image(name, (columns,), n)
                assert constraint.holds((columns,), n) == constraint.holds(mapped, n)
    assert constraint.keeps == BOARD_SYMMETRIES


def test_a_variant_keeps_only_what_the_board_allows():
    assert cpqueens.model(7, [(0, 0)], toroidal=True).symmetries() == (
        "identity",
        "diagonal",
    )
    found = {s.by_colour for s in cpqueens.model(12, knight=True).solutions("bitmask")}
    for solution in found:
        for name in BOARD_SYMMETRIES:
            assert image(name, solution, 12) in found


def test_print_names_the_variants():
    text = str(cpqueens.model(5, toroidal=True, knight=True))
    assert "  Toroidal(q0[r] + r and q0[r] - r differ mod n across rows r)" in text
    assert (
        "  KnightMoves(no two q0 queens a knight's move apart, wrapping around the edges)" in text
    )


def test_variant_flags_must_be_bools():
    with pytest.raises(TypeError) as raised:
        cpqueens.model(5, toroidal=1)
    assert str(raised.value) == "toroidal must be True or False, got 1"
    with pytest.raises(TypeError, match="knight must be True or False, got 'yes'"):
        cpqueens.model(5, knight="yes")


def run_cli(*args):
    done = subprocess.run(
        [sys.executable, "-m", "cpqueens", *args], capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout.strip(), done.stderr.strip()


@pytest.mark.slow
def test_cli_states_the_variants():
    assert run_cli("count", "13", "--toroidal") == (0, "4524", "")
    assert run_cli("count", "12", "--knight", "--unique") == (0, "22", "")
    assert run_cli("count", "5", "--colours", "2", "--placed", "0,1,1") == (0, "8", "")
    code, _, err = run_cli("count", "5", "--placed", "0,1,1")
    assert (code, err) == (
        1,
        "cpqueens: error: placed queen (0, 1, 1): colour 1 is outside the model's colours 0..0",
    )


ROOT = Path(__file__).resolve().parent.parent


def run_example(name, *args):
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / f"{name}.py"), *args],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    return [tuple(int(x) for x in line.split()) for line in done.stdout.splitlines()]


@pytest.mark.slow
def test_the_variant_examples_print_their_oeis_tables():
    assert run_example("toroidal") == [(n, TOROIDAL[n]) for n in sorted(TOROIDAL)]
    assert run_example("superqueens") == [
        (n, SUPERQUEENS[n], SUPERQUEENS_UNIQUE[n]) for n in sorted(SUPERQUEENS_UNIQUE)
    ]


@cache
def long_diagonals_by_brute_force(n):
    found = [
        s for s in oracle.solutions(n) if all(c not in (r, n - 1 - r) for r, c in enumerate(s[0]))
    ]
    classes = {min(image(name, s, n) for name in BOARD_SYMMETRIES) for s in found}
    return len(found), len(classes)


@pytest.mark.slow
def test_the_long_diagonals_example_matches_brute_force():
    rows = run_example("long_diagonals")
    assert rows[:8] == [(n, *long_diagonals_by_brute_force(n)) for n in range(1, 9)]
    assert [n for n, *_ in rows] == list(range(1, 11))


@pytest.mark.slow
def test_the_long_diagonals_puzzle_on_every_backend(backend):
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from long_diagonals import no_long_diagonal
    finally:
        sys.path.remove(str(ROOT / "examples"))
    model = no_long_diagonal(8)
    expected = [
        s for s in oracle.solutions(8) if all(c not in (r, 7 - r) for r, c in enumerate(s[0]))
    ]
    assert [s.by_colour for s in model.solutions(backend)] == expected
    assert model.count(backend, unique=True) == long_diagonals_by_brute_force(8)[1]


def test_the_native_variant_kernel_agrees_with_the_python_dfs():
    """count_variant on random holes, each variant, against the Python DFS and brute force."""
    import numpy as np

    from cpqueens.kernels.variants import count_variant

    rng = random.Random(14)
    lines = frozenset({0, 1, -1})
    for _ in range(300):
        n = rng.randint(1, 9)
        full = (1 << n) - 1
        allowed = [full & ~rng.getrandbits(n) if rng.random() < 0.3 else full for _ in range(n)]
        toroidal, knight = rng.choice([(True, False), (False, True), (True, True), (False, False)])
        python = internals.count_placements(n, allowed, lines, toroidal=toroidal, knight=knight)
        native = count_variant(np.array(allowed, dtype=np.uint64), toroidal, knight)
        assert native == python, (n, allowed, toroidal, knight)
    blocked = [(0, 1), (3, 3), (5, 0)]
    for flags, keep in (
        ({"toroidal": True}, Toroidal(0)),
        ({"knight": True}, KnightMoves(0)),
    ):
        want = brute(7, lambda s, keep=keep: keep.holds(s, 7), blocked)
        assert cpqueens.model(7, blocked=blocked, **flags).count("bitmask") == len(want)


@pytest.mark.parametrize(("flags", "want"), [({"toroidal": True}, 4524), ({"knight": True}, 1876)])
@pytest.mark.slow
def test_variants_count_natively_in_workers_too(flags, want):
    """n = 13 goes through the split and the native kernel, in two worker processes."""
    assert cpqueens.model(13, **flags).count("bitmask", workers=2) == want
