"""Generating puzzles: the compiled rules against the Deducer, and "expert" puzzles."""

from __future__ import annotations

import random

import pytest

from cpqueens import Puzzle
from cpqueens.tasks.deduce import Deducer, compiled
from tests.test_puzzles import oracle, random_regions


def deducer_end(n, k, regions, level, group):
    """What the Deducer (plain Python, ``record=False``) ends with: deepest, state, score."""
    deducer = Deducer(Puzzle(n, regions, stars=k), max_level=level, record=False, max_group=group)
    deepest, solved = deducer.run()
    unknown = deducer.all & ~deducer.queens & ~deducer.crossed
    near = 0.0
    for i, unit in enumerate(deducer.units):
        need = deducer.need(i)
        if need > 0:
            near += 1.0 / (1 + max(0, (unit & unknown).bit_count() - need))
    state = 1 if solved else -1 if deducer.contradiction else 0
    return deepest, state, deducer.decided() + near


def test_the_compiled_rules_end_where_the_deducer_ends():
    rng = random.Random(40)
    states = set()
    for _ in range(40):
        n = rng.choice([5, 6, 7, 8, 9])
        k = 2 if n >= 8 and rng.random() < 0.5 else 1
        regions = random_regions(n, rng)
        for level, group in ((1, None), (2, None), (3, 3), (3, None)):
            expected = deducer_end(n, k, regions, level, group)
            found = compiled(n, k, regions, False, level, group)
            if expected[1] == -1:
                # No solution: where the rules stop depends on which one meets the broken unit
                # first (the Deducer tries shapes and groups before the trial, the kernel after;
                # the generator never meets this, its planted solution always stands).
                assert found[:2] == expected[:2], (n, k, regions)
            else:  # solved or stuck: sound rules reach the same fixed point in any order
                assert found == expected, (n, k, regions)
            states.add(expected[1])
    assert states == {-1, 0, 1}  # stuck, solved and left without room: each one seen


def test_the_compiled_rules_on_generated_puzzles_of_each_level():
    # easy: the last cells and confined lines (levels 1-2); medium and hard need level 3
    for difficulty, level in (("easy", 2), ("medium", 3), ("hard", 3)):
        p, _ = Puzzle.generate(8, difficulty=difficulty, seed=3)
        regions = [list(row) for row in p.regions]
        assert compiled(8, 1, regions, max_level=level)[1] == 1
        assert compiled(8, 1, regions)[0] <= level
        if level > 2:
            assert compiled(8, 1, regions, max_level=level - 1)[1] == 0


@pytest.mark.parametrize("seed", [1, 5])
def test_expert_puzzles_have_one_solution_the_compiled_rules_cannot_reach(seed):
    p, solution = Puzzle.generate(7, difficulty="expert", seed=seed)
    assert oracle(7, p.regions) == [solution]
    assert p.is_connected()
    assert compiled(7, 1, [list(row) for row in p.regions])[1] == 0  # stuck without the lookahead
    explanation = p.explain()
    assert explanation.difficulty == "expert" == p.rate()
    assert explanation.queens == solution  # the lookahead finishes it: no search
    assert Puzzle.generate(7, difficulty="expert", seed=seed) == (p, solution)
