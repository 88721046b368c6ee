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
from cpqueens.strategies.planner import kernels_pay, processes
from tests.processes import run_python


@pytest.mark.parametrize("n", range(1, 17))
def test_a_short_kernel_count_stays_here_whatever_the_workers(n):
    for workers in (None, 1, 2, 8):
        assert processes(cpqueens.model(n).columns(), "bitmask", workers, kernels=True) == 0


def test_a_long_kernel_count_takes_the_workers_asked():
    model = cpqueens.model(17).columns()
    assert [processes(model, "bitmask", w, kernels=True) for w in (1, 2)] == [1, 2]
    assert processes(model, "bitmask", None, kernels=True) == (os.cpu_count() or 1)


def test_cp_sat_counts_stay_here_below_13_free_rows():
    assert processes(cpqueens.model(12).columns(), "cpsat", 2, kernels=False) == 0
    assert processes(cpqueens.model(14).columns(), "cpsat", 2, kernels=False) == 2


def test_the_work_not_the_size_decides():
    # An 18-board is long, unless its holes leave a small search: then it is counted here.
    assert processes(cpqueens.model(18).columns(), "bitmask", 2, kernels=False) == 2
    narrow = [(r, c) for r in range(18) for c in range(18) if abs(r - c) > 3]
    assert processes(cpqueens.model(18, blocked=narrow).columns(), "bitmask", 2, False) == 0
    # Placed queens shrink the search too: two of them make an 18-board short.
    placed = cpqueens.model(18, placed=[(0, 0), (1, 2)]).columns()
    assert processes(placed, "bitmask", 2, kernels=False) == 0
    # Conditions make each node dearer: n = 16 with one is long, n = 15 short.
    for n, expected in ((15, 0), (16, 2)):
        m = cpqueens.model(n)
        conditioned = m.where(m.q[0] < m.q[n - 1]).columns()
        assert processes(conditioned, "bitmask", 2, kernels=False) == expected


def test_the_kernels_pay_for_a_whole_count_not_for_each_part():
    for n, expected in ((8, False), (11, False), (12, True), (13, True)):
        m = cpqueens.model(n)
        conditioned = m.where(m.q[0] < m.q[n - 1]).columns()
        assert kernels_pay(conditioned, "bitmask", kernels=False) is expected
    assert kernels_pay(cpqueens.model(12).columns(), "bitmask", kernels=True)
    assert not kernels_pay(cpqueens.model(14).columns(), "cpsat", kernels=False)  # no kernels


# A fresh process counts a condition on 11 rows in plain Python (numba never loads), then one
# on 12 rows with the compiled conditions kernel, loaded before its first part: every part,
# though each of its 10 free rows is over in Python before numba would load, runs compiled.
SMALL_THEN_BIG = """
import sys
import cpqueens
from cpqueens.backends.bitmask import columns

m = cpqueens.model(11)
print(m.where(m.q[0] < m.q[10]).count(), "numba" in sys.modules)
seen = []
original = columns.count
def spy(problem):
    seen.append("cpqueens.kernels.conditions" in sys.modules)
    return original(problem)
columns.count = spy
m = cpqueens.model(12)
print(m.where(m.q[0] < m.q[11]).count(), len(seen) > 1 and all(seen))
"""


@pytest.mark.slow  # a fresh process that loads numba: a second or two
def test_a_split_count_of_a_big_model_counts_every_part_in_the_kernel():
    run = run_python(SMALL_THEN_BIG)
    assert run.returncode == 0, run.stderr
    # Half the solutions of 11 and 12 queens (A000170): the flip r -> n-1-r swaps q[0], q[n-1].
    assert run.stdout.split("\n")[:2] == ["1340 False", "7100 True"]


@pytest.mark.slow  # a 15-queens count: a second or two
def test_count_15_with_two_workers_starts_no_pool(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a pool was started for a short count")

    monkeypatch.setattr(pool, "local_pool", refuse)  # the count imports it when it wants one
    assert cpqueens.model(15).count(workers=2) == 2279184  # A000170(15)
    assert cpqueens.model(12, blocked=[(0, 1)]).count(workers=2) == cpqueens.model(
        12, blocked=[(0, 1)]
    ).count(workers=1)


#: What a task asks in a worker (eval: a builtin, so the worker imports no test module).
COLORSYS_LOADED = "'colorsys' in __import__('sys').modules"


def test_each_pool_worker_prepares_before_its_first_task():
    from functools import partial

    # colorsys: a module nothing here imports, so only the preparation can have loaded it. The
    # preparation then fails, and the worker works on: its tasks would meet their own errors.
    prepare = partial(exec, "import colorsys\nraise RuntimeError('a preparation that fails')")
    with pool.local_pool(2, prepare=prepare) as workers:
        assert list(workers.map(eval, [COLORSYS_LOADED] * 4)) == [True] * 4


#: A child that leaves loky's resource tracker a semaphore that is gone, as a worker killed
#: while the pool stops can: the tracker, which outlives the driver, then reports it.
LEAVES_A_MISSING_SEMAPHORE = """
from loky.backend import resource_tracker
import cpqueens.execution.pool as pool
with pool.local_pool(1) as workers:
    assert workers.submit(abs, -3).result() == 3
resource_tracker.register("/cpqueens-missing-semaphore", "semlock")
print("done")
"""


@pytest.mark.slow  # a pool started in a fresh process: a second or two
def test_the_resource_trackers_reports_never_reach_the_drivers_stderr(tmp_path):
    # The CLI's errors are one line on stderr: under load, the tracker's report of a semaphore
    # a killed worker left (already unlinked) used to follow it. run_python reads both pipes to
    # their end, when the tracker too has closed them: no sleep, no race.
    done = run_python(LEAVES_A_MISSING_SEMAPHORE, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "done\n", "")
