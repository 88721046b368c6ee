"""CSPLib prob079 Excluded Diagonals instances: our decisions against the published answers.

The answers (``sat``) come from the authors' own solver (Gent, Jefferson &
Nightingale, JAIR 2017); excluding a diagonal is blocking its cells. The
sample takes every size, the instances the authors' DFS needed the most nodes
for, and a seeded random rest.
"""

from __future__ import annotations

import random

import pytest

import cpqueens
from tests.excluded_diagonals import DATA, labels, published

pytestmark = pytest.mark.skipif(not DATA.exists(), reason=f"no CSPLib data at {DATA}")

#: Labelled instances decided by exists(): the hardest of each size, then a random sample.
HARDEST_PER_SIZE, RANDOM_PER_SIZE = 10, 90
#: Labelled instances counted (sizes up to 15 count in this process in milliseconds).
COUNTED_PER_SIZE, COUNTED_MAX_N = 25, 15


@pytest.fixture(scope="module")
def instances():
    return {n: published(n) for n in range(10, 20)}


def sample(per_size: int, hardest: int = 0, sizes=range(10, 20)) -> list[dict]:
    """Labels of each size in ``sizes``: the ``hardest`` by the authors' nodes, then random ones."""
    rng = random.Random(79)
    chosen = []
    for n in sizes:
        of_size = [label for label in labels() if label["n"] == n]
        of_size.sort(key=lambda label: -label["nodes"])
        rest = of_size[hardest:]
        chosen += of_size[:hardest] + rng.sample(rest, min(per_size, len(rest)))
    return chosen


def model_of(instances, label: dict) -> cpqueens.Model:
    """The labelled instance: the first d diagonals of instance ``id`` of size n, excluded."""
    return cpqueens.model(label["n"], instances[label["n"]][label["id"]].blocked(label["d"]))


def test_the_sample_has_both_answers_and_the_hardest_instance():
    chosen = sample(RANDOM_PER_SIZE, HARDEST_PER_SIZE)
    assert {label["sat"] for label in chosen} == {True, False}
    hardest = max(label["nodes"] for label in labels())  # 3.4e9 nodes of the authors' DFS
    assert max(label["nodes"] for label in chosen) == hardest


@pytest.mark.slow
def test_exists_agrees_with_the_published_answers(instances):
    wrong = [
        label
        for label in sample(RANDOM_PER_SIZE, HARDEST_PER_SIZE)
        if model_of(instances, label).exists() != label["sat"]
    ]
    assert wrong == []


@pytest.mark.slow
def test_a_count_is_positive_exactly_when_the_published_answer_is_sat(instances):
    wrong = [
        label
        for label in sample(COUNTED_PER_SIZE, sizes=range(10, COUNTED_MAX_N + 1))
        if (model_of(instances, label).count(workers=1) > 0) != label["sat"]
    ]
    assert wrong == []


@pytest.mark.slow
def test_the_first_solution_is_a_solution_and_none_exactly_when_unsat(instances):
    for label in sample(6):
        model = model_of(instances, label)
        first = model.first()
        assert (first is not None) == label["sat"], label
        if first is not None:
            assert not set(enumerate(first.columns)) & set(model.board.blocked)
            assert len({c - r for r, c in enumerate(first.columns)}) == label["n"]
            assert len({c + r for r, c in enumerate(first.columns)}) == label["n"]
            assert sorted(first.columns) == list(range(label["n"]))
            if label["n"] <= 12:  # the enumeration's first, in pure Python
                assert first.by_colour == next(model.solutions("bitmask")).by_colour


@pytest.mark.slow
def test_find_returns_a_valid_solution_exactly_when_the_published_answer_is_sat(instances):
    for label in sample(5, 2):  # the 2 hardest of each size and 5 random ones
        model = model_of(instances, label)
        found = model.find(time_limit=60)
        assert (found is not None) == label["sat"], label
        if found is not None:
            cells = set(enumerate(found.columns))
            assert not cells & set(model.board.blocked), label
            assert len({c for _, c in cells}) == label["n"], label
            assert len({c - r for r, c in cells}) == label["n"], label
            assert len({c + r for r, c in cells}) == label["n"], label
