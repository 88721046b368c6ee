"""The named rules (shapes, k in k, would empty, lookahead 1 and 2) and the levels (issue 47).

Every rule is checked sound against a brute force written here in plain
Python: a queen it places stands in every solution, a cell it crosses out
in none, on random grids with no, one or several solutions.
"""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import pytest

from cpqueens import Puzzle
from cpqueens.tasks import levels
from cpqueens.tasks.deduce import Deducer
from cpqueens.vocabulary.shapes import canonical, shape_name


def brute_force(p: Puzzle) -> list[frozenset[tuple[int, int]]]:
    """Every solution of a one-star puzzle: a column per row, no two touching, one per region."""
    n = p.n
    found = []
    for columns in itertools.permutations(range(n)):
        if any(abs(columns[r] - columns[r + 1]) <= 1 for r in range(n - 1)):
            continue
        cells = [(r, c) for r, c in enumerate(columns)]
        if len({p.regions[r][c] for r, c in cells}) != n:
            continue
        if p.diagonals and any(
            abs(r1 - r2) == abs(c1 - c2) for (r1, c1), (r2, c2) in itertools.combinations(cells, 2)
        ):
            continue
        if any(cell in p.blocked for cell in cells) or not set(p.queens) <= set(cells):
            continue
        found.append(frozenset(cells))
    return found


def random_regions(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """n connected regions grown at random from n random seeds."""
    grid = [[-1] * n for _ in range(n)]
    seeds = rng.sample([(r, c) for r in range(n) for c in range(n)], n)
    frontier = []
    for g, (r, c) in enumerate(seeds):
        grid[r][c] = g
        frontier.append((r, c))
    while frontier:
        r, c = frontier.pop(rng.randrange(len(frontier)))
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < n and 0 <= cc < n and grid[rr][cc] == -1:
                grid[rr][cc] = grid[r][c]
                frontier.append((rr, cc))
    return tuple(tuple(row) for row in grid)


def check_sound(p: Puzzle) -> Deducer:
    """Run every rule on ``p`` and check each step against every solution; the deducer."""
    solutions = brute_force(p)
    deducer = Deducer(p)
    deducer.run()
    for step in deducer.steps:
        for solution in solutions:
            assert set(step.queens) <= solution, (p.to_text(), step)
            assert not set(step.crossed) & solution, (p.to_text(), step)
    if solutions and not deducer.contradiction:
        assert set(deducer.placed()) <= frozenset.intersection(*solutions)
    if deducer.contradiction:
        assert not solutions, p.to_text()
    return deducer


@pytest.mark.parametrize("seed", range(12))
def test_every_rule_is_sound_on_random_grids(seed):
    rng = random.Random(seed)
    n = rng.choice((5, 6, 7))
    p = Puzzle(n, random_regions(n, rng), diagonals=seed % 4 == 3)
    check_sound(p)


@pytest.mark.parametrize("seed", range(4))
def test_every_rule_is_sound_on_generated_puzzles_past_the_compiled_rules(seed):
    p, solution = Puzzle.generate(7, difficulty="expert", seed=seed)
    deducer = check_sound(p)
    assert brute_force(p) == [frozenset(solution)]
    rules = {step.rule for step in deducer.steps}
    assert rules & {"lookahead 1", "lookahead 2"}
    assert deducer.placed() == solution


def test_shapes_are_named_whatever_their_turn_or_mirror():
    l_tromino = [(0, 0), (0, 1), (1, 0)]
    turned = [(5, 5), (5, 4), (6, 5)]
    assert canonical(l_tromino) == canonical(turned)
    assert shape_name(turned) == "an L-tromino"
    assert shape_name([(2, 2), (2, 3)]) == shape_name([(2, 2), (3, 2)]) == "a domino"
    assert shape_name([(0, 1), (1, 0), (1, 1), (1, 2)]) == "a T-tetromino"
    assert shape_name([(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]) == "a U-pentomino"
    assert shape_name([(0, 0), (2, 2)]) == "2 cells apart"
    assert shape_name([(0, c) for c in range(3)] + [(1, c) for c in range(3)]) == "a hexomino"


def test_a_domino_region_crosses_the_cells_along_its_sides():
    # Region B is the domino (1, 1)-(1, 2): its queen, wherever, rules out (0, 1), (0, 2),
    # (2, 1) and (2, 2); the confined rule takes the rest of row 1 first.
    p = Puzzle.parse("AAAAA\nABBAA\nACCDD\nCCEDD\nCCEEE")
    explanation = p.explain()
    shapes = [step for step in explanation.steps if step.rule == "shape"]
    assert shapes, str(explanation)
    first = shapes[0]
    assert "region B form a domino" in first.text
    assert {(0, 1), (0, 2), (2, 1), (2, 2)} >= set(first.crossed) and first.crossed
    check_sound(p)


def test_levels_count_techniques_and_how_often():
    assert levels.level(["last cells", "confined"]) == "easy"
    assert levels.level(["shape"] * 4) == "medium"
    assert levels.level(["shape"] * 5) == "hard"
    assert levels.level(["confined pair", "would empty"]) == "hard"
    assert levels.level(["shape"] * 13) == "expert"
    assert levels.level(["lookahead 2"]) == "expert"
    assert levels.level(["last cells"], solved=False) == "needs search"


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
def test_generated_puzzles_are_rated_as_asked_and_explained_without_search(difficulty):
    p, solution = Puzzle.generate(7, difficulty=difficulty, seed=2)
    explanation = p.explain()
    assert p.rate() == explanation.difficulty == difficulty
    assert explanation.queens == solution
    assert all(step.rule != "search" for step in explanation.steps)


def test_hints_alone_solve_an_expert_puzzle():
    p, solution = Puzzle.generate(8, difficulty="expert", seed=1)
    queens: list[tuple[int, int]] = []
    crossed: set[tuple[int, int]] = set()
    for _ in range(200):
        step = p.hint(queens, crossed=sorted(crossed))
        if step is None:
            break
        assert step.rule != "search", step
        queens += step.queens
        crossed |= set(step.crossed)
    assert tuple(sorted(queens)) == solution


@pytest.mark.slow
def test_a_star_battle_that_needs_search_is_beyond_the_lookahead():
    p, solution = Puzzle.generate(8, stars=2, difficulty="needs search", seed=0)
    assert p.count(limit=2) == 1 and p.solve() == solution
    explanation = p.explain()
    assert explanation.difficulty == "needs search"
    assert explanation.steps[-1].rule == "search"


def example_grid(name: str) -> str:
    """The ``GRID`` text of an example script, read without running it."""
    tree = ast.parse((Path(__file__).parent.parent / "examples" / name).read_text())
    return next(
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "GRID"
    )


#: The 10 x 10 two-star grid of examples/star_battle.py (one solution; the lookahead of 2
#: rounds does not finish it).
STARS_10 = example_grid("star_battle.py")


def test_the_lookahead_names_its_depth_and_is_sound_where_search_takes_over():
    p = Puzzle.parse(STARS_10)
    (solution,) = p.solutions(limit=2)
    explanation = p.explain()
    rules = [step.rule for step in explanation.steps]
    assert "lookahead 1" in rules and "lookahead 2" in rules
    assert rules.index("lookahead 2") > rules.index("lookahead 1")  # the shorter one first
    assert explanation.difficulty == "needs search" and rules[-1] == "search"
    for step in explanation.steps[:-1]:
        assert set(step.queens) <= set(solution) and not set(step.crossed) & set(solution)
    deep = next(step for step in explanation.steps if step.rule == "lookahead 2")
    assert deep.text.endswith("(a lookahead of 2 rounds): cross it out") and deep.level == 4
