"""Where a count runs: a short search in this process whatever the workers asked (issue 34).

Starting the loky pool costs about a second (processes, imports, kernels
loaded in each); a search shorter than that runs here, so ``--workers 2`` is
never slower than ``--workers 1`` (``benchmarks/RESULTS-workers.md``).
"""

from __future__ import annotations

import os

import pytest

import cpqueens
import cpqueens.execution.pool as pool
from cpqueens.strategies.planner import processes


@pytest.mark.parametrize("n", range(1, 17))
def test_a_short_kernel_count_stays_here_whatever_the_workers(n):
    for workers in (None, 1, 2, 8):
        assert processes(cpqueens.model(n), "bitmask", workers, kernels=True) == 0


def test_a_long_kernel_count_takes_the_workers_asked():
    model = cpqueens.model(17)
    assert [processes(model, "bitmask", w, kernels=True) for w in (1, 2)] == [1, 2]
    assert processes(model, "bitmask", None, kernels=True) == (os.cpu_count() or 1)


def test_cp_sat_counts_stay_here_below_13_free_rows():
    assert processes(cpqueens.model(12), "cpsat", 2, kernels=False) == 0
    assert processes(cpqueens.model(14, placed=[(0, 0)]), "cpsat", 2, kernels=False) == 2


@pytest.mark.slow  # a 15-queens count: a second or two
def test_count_15_with_two_workers_starts_no_pool(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a pool was started for a short count")

    monkeypatch.setattr(pool, "local_pool", refuse)  # the count imports it when it wants one
    assert cpqueens.model(15).count(workers=2) == 2279184  # A000170(15)
    assert cpqueens.model(12, blocked=[(0, 1)]).count(workers=2) == cpqueens.model(
        12, blocked=[(0, 1)]
    ).count(workers=1)
