"""Short kernel counts shared among threads of this process (issue 45, goal 2).

The symmetry kernels release the GIL (``nogil``), so a count too short for a
process pool (whose start eats the gain) still uses every core asked for: its
pieces run on threads. Counts stay exact: each is checked against OEIS A000170
and against the same count on one thread.
"""

from __future__ import annotations

import threading

import pytest

import cpqueens
from cpqueens.kernels import classes
from cpqueens.strategies.class_count import ClassKernels
from cpqueens.strategies.hole_sums import HoleSums
from cpqueens.strategies.planner import strategies, threads

#: OEIS A000170.
A000170 = {12: 14200, 13: 73712, 14: 365596}


@pytest.fixture
def two_cores(monkeypatch):
    """A machine of two cores, whatever this one has."""
    monkeypatch.setattr("os.cpu_count", lambda: 2)


def test_the_symmetry_kernels_release_the_gil():
    for search in (classes._weighed_leaves, classes._weighed_hits, classes._turn_fixed):
        assert search.targetoptions.get("nogil") is True, search


def test_only_the_kernel_strategies_run_on_threads():
    assert {s.name: s.threads for s in strategies()} == {
        "classes": True,
        "hole sums": True,
        "one search": False,
        "subproblems": False,
    }


def test_a_short_kernel_count_takes_a_thread_per_core_asked(two_cores):
    model = cpqueens.model(16).columns()
    assert [threads(model, "bitmask", w, nogil=True) for w in (1, 2, 8, None)] == [1, 2, 2, 2]
    assert threads(model, "bitmask", 2, nogil=False) == 1  # parts that hold the GIL
    assert threads(model, "cpsat", 2, nogil=False) == 1


def test_a_long_count_takes_processes_not_threads(two_cores):
    assert threads(cpqueens.model(17).columns(), "bitmask", 2, nogil=True) == 1


@pytest.mark.parametrize("n", sorted(A000170))
def test_counts_on_threads_are_exact(n, two_cores, monkeypatch):
    seen: set[str] = set()
    for way in (ClassKernels, HoleSums):
        original = way.count_part

        def spy(*args, original=original):
            seen.add(threading.current_thread().name)
            return original(*args)

        monkeypatch.setattr(way, "count_part", staticmethod(spy))
    assert cpqueens.model(n).count(workers=2) == A000170[n]
    assert any(name.startswith("cpqueens-count") for name in seen), seen
    seen.clear()
    holes = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)]  # all 8 symmetries keep them
    assert cpqueens.model(n, blocked=holes).count(workers=2) == cpqueens.model(
        n, blocked=holes
    ).count(workers=1)
    one_hole = cpqueens.model(n, blocked=[(0, 1)])  # the hole sums
    assert one_hole.count(workers=2) == one_hole.count(workers=1)
    assert len(seen) >= 2
