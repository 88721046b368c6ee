"""Queens dominating a free board: the compiled searches against OEIS, a brute force and CP-SAT."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

import cpqueens
from cpqueens.backends.bitmask import covering, domination
from cpqueens.errors import CheckpointError, CountInterrupted, IncompleteSearchError
from cpqueens.tasks.parts import Runner
from tests.oracle_cells import Board

# OEIS, n = 1, 2, ...: the domination numbers, and the minimum dominating sets
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13]
A002564 = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8]
# found on the lattices at once (ceil(n/2), optimal by the bound), and their proofs' cost
FOUND_AT_THE_BOUND = [12, 13, 17, 18, 19, 21, 23, 25]


def dominating(n, k):
    """The model whose minimize() and count(queens=k) the domination search answers."""
    return cpqueens.cells(n, independent=False, dominating=True)


def cells_of(queens, n):
    return sorted(r * n + c for r, c in queens)


def classes(n, sets):
    """The number of classes of ``sets`` under the 8 symmetries, computed here from scratch."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    return len({min(tuple(sorted(f(*cell) for cell in s)) for f in maps) for s in sets})


@pytest.mark.parametrize("n", range(1, 7))
def test_counts_of_every_size_match_the_brute_force(n):
    board = Board(n, n)
    model = dominating(n, 0)
    for k in range(1, A075458[n - 1] + (2 if n <= 5 else 1)):
        sets = board.sets(k, independent=False, dominating=True)
        assert model.count(queens=k, backend="bitmask") == len(sets), (n, k)
        assert model.count(queens=k, unique=True, backend="bitmask") == classes(n, sets), (n, k)


def test_the_domination_numbers_match_a075458_each_set_checked_by_the_oracle():
    for n in range(1, 14):
        result = cpqueens.domination(n)
        expected = A075458[n - 1]
        assert (result.value, result.status, result.bound) == (expected, "optimal", expected)
        assert len(result.queens) == expected and Board(n, n).dominating(result.queens)


def test_boards_whose_bound_is_met_are_found_and_proved_by_the_bound():
    for n in (17, 18, 19, 21):
        result = cpqueens.domination(n)
        assert (result.value, result.status) == ((n + 1) // 2, "optimal")
        assert len(set(result.queens)) == result.value and Board(n, n).dominating(result.queens)


@pytest.mark.slow
def test_the_largest_boards_at_the_bound_are_found_too():
    for n in (23, 25):
        result = cpqueens.domination(n)
        assert (result.value, result.status) == (A075458[n - 1], "optimal")
        assert Board(n, n).dominating(result.queens)


def test_minimum_dominating_sets_match_a002564():
    for n, expected in enumerate(A002564, start=1):
        result = cpqueens.domination(n, count=True)
        assert (result.value, result.count) == (A075458[n - 1], expected)


def test_an_impossible_size_is_proved_by_the_search_and_by_cpsat():
    for n in range(4, 7):
        k = A075458[n - 1] - 1
        assert domination.decide(n, k, domination._here(None)) is None
        assert dominating(n, k).count(queens=k, backend="cpsat") == 0
        assert cpqueens.domination(n, backend="cpsat").value == A075458[n - 1]
    assert domination.decide(8, 4, domination._here(None)) is None  # A075458(8) = 5
    found = domination.decide(8, 5, domination._here(None))
    assert found is not None and Board(8, 8).dominating([divmod(c, 8) for c in found])


@pytest.mark.parametrize(
    ("n", "k", "depths"), [(6, 3, 3), (7, 4, 3), (8, 5, 2), (9, 5, 2), (7, 5, 2)]
)
def test_every_split_of_the_search_counts_the_same_sets_as_one_whole_search(n, k, depths):
    whole, _, _ = domination._search(n, k, -1, (), False, None)  # no symmetry used
    for depth in range(1, depths + 1):
        parts = domination.plan(n, k, depth, first=False)
        assert len({part.label() for part in parts}) == len(parts)
        values = [domination.search_part(p.n, p.k, p.q0, p.path, False) for p in parts]
        assert sum(values) == whole, (n, k, depth)


def test_a_set_is_encoded_as_one_int_and_a_part_admits_only_covering_sets():
    part = domination.Part(4, 2, 5)
    assert domination.decode(domination.encode([5, 15], 4), 4, 2) == (5, 15)
    assert part.admits(0, 4) and part.admits(domination.encode([5, 15], 4), 4)
    assert not part.admits(domination.encode([0, 15], 4), 4)  # leaves cells uncovered
    assert not part.admits(domination.encode([6, 10], 4), 4)  # covers, but not with q0 = 5
    assert not part.admits(domination.encode([5, 15, 6], 4), 4)  # three cells, not two
    assert not part.admits(-1, 4)
    assert part.expects(4) == "0 or a set of 2 queens covering the board, holding cell 5"
    counting = domination.Part(4, 2, 5, (1, 0), first=False)
    assert counting.admits(12, 4) and not counting.admits(-3, 4)
    assert counting.label() == "count 2 queens, (1, 1), path [1, 0]"


def test_the_lattices_hold_the_bound_on_the_boards_the_issue_names():
    for n in FOUND_AT_THE_BOUND[:-2]:  # 23 and 25: test_the_largest_boards_at_the_bound...
        found = covering.find(n, (n + 1) // 2, local=False)
        assert found is not None and len(set(found)) == (n + 1) // 2
        assert Board(n, n).dominating([divmod(cell, n) for cell in found])


def test_the_local_search_finds_covering_queens_on_its_own():
    for n, k in ((8, 5), (10, 5), (12, 6)):
        found = covering._local(n, k, None, float("inf"))
        assert found is not None and Board(n, n).dominating([divmod(c, n) for c in found])


@pytest.mark.slow
def test_a_time_limit_gives_the_best_set_found_with_the_true_bound():
    # the lattices find 11 (A075458(20)) in a fraction of a CPU second, which a loaded machine
    # may not give in 0.5 s: a longer limit then, until they do (the proof takes an hour)
    for limit in (0.5, 1, 2, 4, 8):
        result = cpqueens.domination(20, time_limit=limit)
        assert (result.status, result.bound) == ("feasible", 10)
        assert Board(20, 20).dominating(result.queens) and len(result.queens) == result.value
        if result.value == 11:
            break
    assert result.value == 11
    with pytest.raises(IncompleteSearchError, match=r"time limit of 0\.2 s"):
        dominating(14, 8).count(queens=8, backend="bitmask", time_limit=0.2)  # 4,632 sets


def proof(n, k, runner):
    return domination.decide(n, k, runner)


def test_a_proof_runs_on_any_executor_and_in_finer_parts_there():
    with ThreadPoolExecutor(2) as pool:
        runner = Runner(12, executor=pool, depth=2)
        assert proof(12, 5, runner) is None
        found = proof(12, 6, runner)
    assert found is not None and Board(12, 12).dominating([divmod(c, 12) for c in found])


def test_a_checkpoint_records_every_part_and_a_second_run_resumes_from_it(tmp_path):
    path = tmp_path / "proof.json"
    assert proof(12, 5, Runner(12, checkpoint=path)) is None
    saved = json.loads(path.read_text())
    parts = domination.plan(12, 5)
    assert saved["subproblems"] == len(parts) == len(saved["done"])
    assert all(value == 0 for _, value in saved["done"])
    assert saved["backend"] == "bitmask: 5 queens dominating the board, searched by lines"
    calls = []
    runner = Runner(12, checkpoint=path)
    called = runner(
        saved["backend"],
        lambda depth: domination.plan(12, 5, depth),
        lambda *args: calls.append(args) or 0,
        lambda part: (part.n,),
        lambda value: value > 0,
    )
    assert calls == [] and len(called[1]) == len(parts)  # every part read back, none searched
    with pytest.raises(CheckpointError, match="written for another count"):
        proof(12, 6, Runner(12, checkpoint=path))


def test_an_interrupted_proof_saves_its_parts_and_resumes_where_it_stopped(tmp_path):
    path = tmp_path / "proof.json"
    parts = domination.plan(9, 4)
    what = "bitmask: 4 queens dominating the board, searched by lines"
    seen = []

    def interrupted(*args):
        if len(seen) == 3:
            raise KeyboardInterrupt
        seen.append(args)
        return domination.search_part(*args)

    def arguments(part):
        return (part.n, part.k, part.q0, part.path, True, None)

    with pytest.raises(CountInterrupted, match=f"3 of {len(parts)} subproblems are saved"):
        Runner(9, checkpoint=path)(what, lambda d: parts, interrupted, arguments, bool)
    assert len(json.loads(path.read_text())["done"]) == 3
    again = []
    Runner(9, checkpoint=path)(
        what, lambda d: parts, lambda *a: again.append(a) or 0, arguments, bool
    )
    assert len(again) == len(parts) - 3 and not set(again) & set(seen)
    assert proof(9, 4, Runner(9, checkpoint=path)) is None  # the file's parts are the proof's


def test_an_edited_checkpoint_that_claims_a_set_is_refused(tmp_path):
    path = tmp_path / "proof.json"
    assert proof(8, 4, Runner(8, checkpoint=path)) is None
    data = json.loads(path.read_text())
    fake = domination.encode([0, 1, 2, 3], 8)  # four queens that do not cover 8 x 8
    data["done"][0][1] = fake
    from cpqueens.execution.checkpoint import content_digest

    data["sha256"] = content_digest(data)
    path.write_text(json.dumps(data))
    with pytest.raises(CheckpointError, match="cannot have the weighted count"):
        proof(8, 4, Runner(8, checkpoint=path))


def test_the_verb_takes_a_checkpoint_and_an_executor(tmp_path):
    path = tmp_path / "d8.json"
    result = cpqueens.domination(8, checkpoint=path)
    assert (result.value, result.status) == (5, "optimal")  # A075458(8): no 4 queens cover it
    assert len(json.loads(path.read_text())["done"]) == len(domination.plan(8, 4))
    with ThreadPoolExecutor(2) as pool:
        result = cpqueens.domination(8, executor=pool)
    assert (result.value, result.status) == (5, "optimal")
    assert Board(8, 8).dominating(result.queens)


def test_a_lost_worker_ends_the_proof_with_its_parts_saved(tmp_path):
    from concurrent.futures import BrokenExecutor

    from cpqueens.errors import WorkerLostError

    parts = domination.plan(8, 4)

    def dies(index):
        if index == 5:
            raise BrokenExecutor("gone")
        return 0

    path = tmp_path / "proof.json"
    with ThreadPoolExecutor(1) as pool, pytest.raises(WorkerLostError) as lost:
        Runner(8, executor=pool, checkpoint=path)(
            "x", lambda depth: parts, dies, lambda part: (parts.index(part),), bool
        )
    saved = len(json.loads(path.read_text())["done"])
    assert str(lost.value) == (
        f"a worker process died (killed, or out of memory); {saved} of {len(parts)} parts were "
        f"searched and are saved in {path}: run the same command to resume"
    )


def test_checkpoint_and_executor_are_refused_where_the_search_is_one_piece(tmp_path):
    with pytest.raises(cpqueens.NotSupportedError, match="checkpoint is for a search that runs"):
        cpqueens.domination(5, blocked=[(0, 0)], checkpoint=tmp_path / "x.json")
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="workers or executor"):
        Runner(5, workers=2, executor=pool)


@pytest.mark.slow
def test_a_proof_on_the_local_pool_agrees_with_this_process():
    assert proof(13, 6, Runner(13, workers=2)) is None
    found = domination.decide(13, 7, Runner(13, workers=2))
    assert found is not None and Board(13, 13).dominating([divmod(c, 13) for c in found])


def test_a_proof_on_a_large_board_splits_finer_than_the_local_pools_depth():
    # gamma(Q20)'s proof at the pool's depth 1 would be 55 parts of minutes each
    fine = domination.proof_plan(20, 10, 1)
    assert len(fine) == 1392 > len(domination.plan(20, 10, 1)) == 55
    assert domination.proof_plan(20, 10, 2) == fine  # a cluster's split: unchanged
    assert domination.proof_plan(19, 9, 1) == domination.plan(19, 9, 1)
