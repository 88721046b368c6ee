"""The flat DFS for huge boards: the same placements, in the same order, as the mask DFS."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpqueens
from tests import internals, oracle
from tests.processes import children, environment

QUEEN_LINES = frozenset({0, 1, -1})


@st.composite
def plans(draw):
    """A board of 1..8 columns with random holes, line offsets and variants."""
    n = draw(st.integers(1, 8))
    full = (1 << n) - 1
    allowed = [
        full & ~draw(st.integers(0, full)) if draw(st.booleans()) else full for _ in range(n)
    ]
    offsets = draw(st.sampled_from([QUEEN_LINES, frozenset({0}), frozenset({0, 1})]))
    return n, allowed, offsets, draw(st.booleans()), draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(plans())
@pytest.mark.slow
def test_the_flat_dfs_lists_what_the_mask_dfs_lists(plan):
    n, allowed, offsets, toroidal, knight = plan
    masks = list(internals.placements(n, allowed, offsets, toroidal=toroidal, knight=knight))
    flat = list(internals.flat_placements(n, allowed, offsets, toroidal=toroidal, knight=knight))
    assert flat == masks


def test_the_flat_dfs_agrees_with_the_oracle_on_blocked_boards():
    for n in range(4, 9):
        blocked = {(r, (3 * r + 1) % n) for r in range(0, n, 2)}
        full = (1 << n) - 1
        allowed = [full & ~sum(1 << c for rr, c in blocked if rr == r) for r in range(n)]
        flat = sum(1 for _ in internals.flat_placements(n, allowed, QUEEN_LINES))
        assert flat == len(oracle.placements(n, blocked))


def test_the_flat_dfs_checks_conditions_as_rows_are_placed():
    model = cpqueens.model(6)
    checks = internals.plan(model.where(model.q[1] == model.q[0] + 2)).row_checks(0)
    full = (1 << 6) - 1
    want = [p for p in internals.placements(6, [full] * 6, QUEEN_LINES) if p[1] == p[0] + 2]
    got = list(internals.flat_placements(6, [full] * 6, QUEEN_LINES, checks=checks))
    assert got == want and len(want) > 0


def _rss(pid: int) -> int:
    """The resident set of a process in bytes, 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _tree(pid: int) -> list[int]:
    found = [pid]
    for child in children(pid):
        found += _tree(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads memory from /proc")
@pytest.mark.slow
def test_a_huge_board_counts_in_flat_memory(tmp_path):
    """`cpqueens count 200000` stays small (the per-row masks took 1.6 GB in 6 s)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cpqueens", "count", "200000", "--time-limit", "5"],
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_rss(pid) for pid in _tree(proc.pid)))
        time.sleep(0.05)
    stdout, stderr = proc.communicate()
    assert proc.returncode == 1 and stdout == ""
    assert stderr.startswith("cpqueens: error: the time limit of 5 s ended the count"), stderr
    assert peak < 500 * 2**20, f"peak {peak / 2**20:.0f} MB"
