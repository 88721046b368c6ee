"""Region puzzles (Queens game, Star Battle): engines against a brute-force oracle, files, verbs."""

from __future__ import annotations

import json
import random
import re
import time
import xml.etree.ElementTree as ET
from contextlib import contextmanager
from itertools import combinations, pairwise, permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens import Puzzle

ENGINES = ("bitmask", "cpsat", "python-constraint")


# -- an independent oracle: every placement, checked rule by rule -------------------------------


def oracle(n, regions, stars=1, queens=(), blocked=(), diagonals=False):
    """Every solution as a sorted tuple of (row, col), by brute force over whole rows."""
    blocked, queens = set(blocked), set(queens)
    if stars == 1:
        layouts = [tuple((c,) for c in perm) for perm in permutations(range(n))]
    else:
        layouts = star_layouts(n, stars)
    found = []
    for layout in layouts:
        cells = [(r, c) for r, cols in enumerate(layout) for c in cols]
        if any(cell in blocked for cell in cells) or not queens <= set(cells):
            continue
        if any(sum(1 for _, c in cells if c == col) != stars for col in range(n)):
            continue
        if any(sum(1 for r, c in cells if regions[r][c] == g) != stars for g in range(n)):
            continue
        if any(
            max(abs(r1 - r2), abs(c1 - c2)) == 1 for (r1, c1), (r2, c2) in combinations(cells, 2)
        ):
            continue
        if diagonals and any(
            abs(r1 - r2) == abs(c1 - c2) for (r1, c1), (r2, c2) in combinations(cells, 2)
        ):
            continue
        found.append(tuple(sorted(cells)))
    return sorted(found)


def star_layouts(n, stars):
    """Every way to put ``stars`` per row, at most ``stars`` per column, rows not touching."""
    rows = [
        combo
        for combo in combinations(range(n), stars)
        if all(b - a > 1 for a, b in pairwise(combo))
    ]
    found = []

    def extend(layout, columns):
        if len(layout) == n:
            found.append(tuple(layout))
            return
        for combo in rows:
            if layout and any(abs(a - b) <= 1 for a in combo for b in layout[-1]):
                continue
            if any(columns[c] == stars for c in combo):
                continue
            for c in combo:
                columns[c] += 1
            extend([*layout, combo], columns)
            for c in combo:
                columns[c] -= 1

    extend([], [0] * n)
    return found


def random_regions(n, rng):
    """n connected regions grown from n random seeds (the tests' own, not the generator's)."""
    seeds = rng.sample([(r, c) for r in range(n) for c in range(n)], n)
    grid = [[-1] * n for _ in range(n)]
    for g, (r, c) in enumerate(seeds):
        grid[r][c] = g
    frontier = list(seeds)
    while frontier:
        r, c = rng.choice(frontier)
        free = [
            (r + dr, c + dc)
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if 0 <= r + dr < n and 0 <= c + dc < n and grid[r + dr][c + dc] == -1
        ]
        if not free:
            frontier.remove((r, c))
            continue
        rr, cc = rng.choice(free)
        grid[rr][cc] = grid[r][c]
        frontier.append((rr, cc))
    return grid


@contextmanager
def kernel_only():
    """The bitmask engine with its plain-Python first try turned off: the compiled search alone."""
    from cpqueens.backends.bitmask import propagate as regions_propagate

    before = regions_propagate.NODES
    regions_propagate.NODES = 0
    try:
        yield
    finally:
        regions_propagate.NODES = before


@pytest.fixture
def kernel(monkeypatch):
    """Small puzzles searched by the compiled kernel, as big ones are."""
    from cpqueens.backends.bitmask import propagate as regions_propagate

    monkeypatch.setattr(regions_propagate, "NODES", 0)


def assert_engines_agree(puzzle, expected):
    with kernel_only():  # the compiled search, and (below) the plain-Python one for small grids
        assert puzzle.count(backend="bitmask") == len(expected)
        assert sorted(puzzle.solutions(backend="bitmask")) == expected
        assert puzzle.count(limit=2, backend="bitmask") == min(2, len(expected))
    for engine in ENGINES:
        assert puzzle.count(backend=engine) == len(expected), engine
        assert sorted(puzzle.solutions(backend=engine)) == expected, engine
        assert puzzle.count(limit=2, backend=engine) == min(2, len(expected)), engine
        assert puzzle.is_unique(backend=engine) == (len(expected) == 1), engine
    for queens in expected:
        assert puzzle.violations(queens) == []


#: OEIS A002464 (Hertzsprung's problem): permutations of n with no two neighbours adjacent,
#: the solutions of a grid whose regions are its rows (one queen per row, column, none touching).
A002464 = [1, 0, 0, 2, 14, 90, 646, 5242, 47622, 479306]


@pytest.mark.parametrize("budget", [1, 7, 1 << 20])
def test_a_search_paused_every_few_candidates_counts_the_same(monkeypatch, kernel, budget):
    # The compiled search hands control back every BUDGET candidates and resumes from its arrays.
    from cpqueens.backends.bitmask import regions as regions_bitmask

    monkeypatch.setattr(regions_bitmask, "BUDGET", budget)
    for n, expected in enumerate(A002464[:8], start=1):
        assert Puzzle(n, tuple((r,) * n for r in range(n))).count() == expected
    assert Puzzle(8, tuple(tuple(range(8)) for _ in range(8)), diagonals=True).count() == 92
    rng = random.Random(budget)
    for _ in range(8):
        n = rng.choice((5, 6))
        regions = random_regions(n, rng)
        found = oracle(n, regions)
        puzzle = Puzzle(n, regions)
        assert puzzle.solutions(backend="bitmask") == found
        assert puzzle.count(limit=2) == min(2, len(found))
    star = Puzzle(8, random_regions(8, rng), stars=2)
    assert star.count() == len(oracle(8, star.regions, stars=2))


def test_rows_as_regions_count_hertzsprungs_problem():
    for n, expected in enumerate(A002464, start=1):
        assert Puzzle(n, tuple((r,) * n for r in range(n))).count() == expected


#: Rows as regions, 3 stars on 14 x 14: billions of solutions.
ROWS_14 = Puzzle(14, tuple((r,) * 14 for r in range(14)), stars=3)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_time_limit_ends_a_huge_count(engine):
    with pytest.raises(cpqueens.IncompleteSearchError) as caught:  # billions: not to the end
        ROWS_14.count(backend=engine, time_limit=0.3)
    message = str(caught.value)
    assert message.startswith("the time limit of 0.3 s ended the search before it was complete; ")
    assert re.search(r"; [0-9,]+ solutions? found by then$", message)


def test_a_time_limit_while_orientations_are_compared_names_solutions(monkeypatch, kernel):
    # The probe counts placements of a few rows; a deadline passing then names the solutions
    # found before it (none here: the first slice is empty), never the placements.
    from cpqueens.backends.bitmask import regions as regions_bitmask

    monkeypatch.setattr(regions_bitmask, "FIRST_SLICE", 0)
    monkeypatch.setattr(regions_bitmask, "PROBE_ROWS", 2)
    monkeypatch.setattr(regions_bitmask, "BUDGET", 60)
    rows = Puzzle(9, tuple((r,) * 9 for r in range(9)))  # 47622 solutions (A002464)
    with pytest.raises(cpqueens.IncompleteSearchError, match=r"; 0 solutions found by then$"):
        rows.count(time_limit=1e-6)


def test_every_puzzle_verb_takes_a_time_limit():
    small = Puzzle.parse(QUEENS_5)
    now = 1e-9  # passed before the first check
    assert small.solve(time_limit=10) == SOLUTION_5
    assert small.check(time_limit=10) == (True, [SOLUTION_5])
    assert small.is_unique(time_limit=10) and small.count(time_limit=10) == 1
    assert small.explain(time_limit=10).queens == SOLUTION_5
    for call in (
        lambda: small.explain(time_limit=now),
        lambda: small.rate(time_limit=now),
        lambda: ROWS_14.solutions(time_limit=0.2),
        lambda: Puzzle.generate(20, 4, seed=1, time_limit=0.2),  # over a minute in all
    ):
        with pytest.raises(cpqueens.IncompleteSearchError, match=r"^the time limit of "):
            call()
    for bad, error in ((0, ValueError), (-1.0, ValueError), ("1", TypeError), (True, TypeError)):
        with pytest.raises(error, match=r"^time_limit must be None or a number of seconds > 0"):
            small.count(time_limit=bad)


def test_the_oracle_itself():
    # 4x4, each column its own region: the no-touch permutations of 4 are (1,3,0,2) and (2,0,3,1).
    columns = [[0, 1, 2, 3]] * 4
    assert oracle(4, columns) == [
        ((0, 1), (1, 3), (2, 0), (3, 2)),
        ((0, 2), (1, 0), (2, 3), (3, 1)),
    ]
    # 8x8 with columns as regions and the long diagonals attacking: the 92 eight-queens solutions
    # (every one has no two queens touching, as diagonal neighbours share a diagonal).
    p = Puzzle(8, tuple(tuple(range(8)) for _ in range(8)), diagonals=True)
    assert p.count() == 92


@pytest.mark.slow
def test_random_grids_with_0_1_and_2_solutions_agree_with_the_oracle():
    rng = random.Random(2026)
    seen: dict[int, int] = {}
    while not all(seen.get(k, 0) >= 3 for k in (0, 1, 2)):
        n = rng.choice((4, 5, 6))
        regions = random_regions(n, rng)
        expected = oracle(n, regions)
        if len(expected) > 2 and seen.get(3, 0) >= 3:
            continue
        assert_engines_agree(Puzzle(n, regions), expected)
        bucket = min(len(expected), 3)
        seen[bucket] = seen.get(bucket, 0) + 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(4, 6),
    st.randoms(use_true_random=False),
    st.booleans(),
    st.integers(0, 2),
    st.integers(0, 3),
)
@pytest.mark.slow
def test_hypothesis_grids_with_givens_and_diagonals(n, rng, diagonals, queens, blocked):
    regions = random_regions(n, rng)
    cells = [(r, c) for r in range(n) for c in range(n)]
    given = rng.sample(cells, queens)
    walls = rng.sample([cell for cell in cells if cell not in given], blocked)
    puzzle = Puzzle(n, regions, queens=given, blocked=walls, diagonals=diagonals)
    assert_engines_agree(puzzle, oracle(n, regions, 1, given, walls, diagonals))


@pytest.mark.parametrize("seed", range(6))
def test_two_stars_agree_with_the_oracle(seed):
    rng = random.Random(seed)
    n = 9 if seed == 0 else 8
    regions = random_regions(n, rng)
    expected = oracle(n, regions, stars=2)
    assert_engines_agree(Puzzle(n, regions, stars=2), expected)


def perturbed_rows(n, swaps, rng):
    """Rows as regions, then ``swaps`` random cells swapped with the cell below: many solutions."""
    grid = [[r] * n for r in range(n)]
    for _ in range(swaps):
        r, c = rng.randrange(n - 1), rng.randrange(n)
        grid[r][c], grid[r + 1][c] = grid[r + 1][c], grid[r][c]
    return grid


@pytest.fixture
def turned_at_once(monkeypatch, kernel):
    """The compiled search compares orientations at once (no first slice, 2 rows probed).

    Yields the orientations it chose, so that a test can see the turned searches were run.
    """
    from cpqueens.backends.bitmask import regions as regions_bitmask

    chosen = []
    choose = regions_bitmask._best_orientation

    def spy(*args):
        chosen.append(choose(*args))
        return chosen[-1]

    monkeypatch.setattr(regions_bitmask, "FIRST_SLICE", 0)
    monkeypatch.setattr(regions_bitmask, "PROBE_ROWS", 2)
    monkeypatch.setattr(regions_bitmask, "_best_orientation", spy)
    return chosen


@pytest.mark.parametrize("turned", [False, True])
@pytest.mark.slow
def test_two_stars_with_many_solutions_agree_with_the_oracle(request, turned):
    # The region rooms (no-touch two rows at a time) and the jumps past barred columns prune;
    # a count with no limit must still see every solution, in either search orientation.
    chosen = request.getfixturevalue("turned_at_once") if turned else None
    rng = random.Random(23)
    counts = []
    for swaps in (0, 2, 3, 4, 6):
        regions = perturbed_rows(9, swaps, rng)
        expected = oracle(9, regions, stars=2)
        puzzle = Puzzle(9, regions, stars=2)
        assert puzzle.count(backend="bitmask") == len(expected)
        assert puzzle.solutions(backend="bitmask") == expected
        assert puzzle.solutions(limit=3, backend="bitmask") == expected[:3]
        assert puzzle.count(limit=2, backend="bitmask") == min(2, len(expected))
        counts.append(len(expected))
    assert counts[0] == 664 and max(counts[1:]) > 2  # rows as regions: every 2-star layout
    if turned:
        assert any(chosen)  # some searches ran turned


@pytest.mark.slow
def test_three_stars_agree_with_cpsat_in_every_orientation(monkeypatch, kernel):
    from cpqueens.backends.bitmask import regions as regions_bitmask

    puzzles = [Puzzle(13, perturbed_rows(13, 10, random.Random(0)), stars=3)]
    expected = [sorted(puzzle.solutions(backend="cpsat")) for puzzle in puzzles]
    assert [len(found) for found in expected] == [14]
    monkeypatch.setattr(regions_bitmask, "FIRST_SLICE", 0)
    for turn in range(len(regions_bitmask.ORIENTATIONS)):
        monkeypatch.setattr(regions_bitmask, "_best_orientation", lambda *_, turn=turn: turn)
        for puzzle, solutions in zip(puzzles, expected, strict=True):
            found = puzzle.solutions(backend="bitmask")
            assert found == solutions
            assert all(puzzle.violations(queens) == [] for queens in found)
            assert puzzle.count(limit=2, backend="bitmask") == 2  # solutions() counted them all


def test_a_turned_search_maps_givens_holes_and_solutions_back(turned_at_once):
    # Givens, holes and the long diagonals turn with the board; the solutions turn back,
    # in lexicographic order; a turned search that stops at its limit gives way.
    rng = random.Random(7)
    for _ in range(12):
        n = rng.choice((5, 6))
        regions = random_regions(n, rng)
        cells = [(r, c) for r in range(n) for c in range(n)]
        given = rng.sample(cells, rng.randint(0, 1))
        walls = rng.sample([cell for cell in cells if cell not in given], rng.randint(0, 3))
        diagonals = rng.random() < 0.5
        expected = oracle(n, regions, 1, given, walls, diagonals)
        puzzle = Puzzle(n, regions, queens=given, blocked=walls, diagonals=diagonals)
        assert puzzle.solutions(backend="bitmask") == expected
        assert puzzle.solutions(limit=1, backend="bitmask") == expected[:1]
        assert puzzle.count(limit=2, backend="bitmask") == min(2, len(expected))
    assert any(turned_at_once) and not all(turned_at_once)


#: Seed 14007 of benchmarks/puzzles_generated.json: the slowest to prove unique rows top-down.
STAR_BATTLE_14 = """stars 3
AAAAABBBBBBCCC
DDDAAABBEBBBBC
DDAAFFFFEBCCCC
DDAAAFGEEECHHH
IDDAAFGEEEJHHH
IDDAAFGGEEJHHH
IDKKKFGGEEJHHH
IDKKFFGGGEJJJH
IDKKKFEEEEEEJH
IDDLFFEMEMJJJH
IDDLLEEMMMJJJJ
IIDDLLEMMJJJNJ
IILLLLMMMNNNNJ
IIILMMMNNNNNNN
"""


@pytest.mark.slow
def test_a_14x14_three_star_puzzle_is_unique_on_the_compiled_engine_and_cpsat():
    puzzle = Puzzle.parse(STAR_BATTLE_14)
    found = puzzle.solutions(limit=2, backend="bitmask")
    assert found == puzzle.solutions(limit=2, backend="cpsat")
    assert len(found) == 1 and puzzle.violations(found[0]) == []


def test_star_layouts_of_the_oracle():
    # Two stars per row and column with none touching need n >= 8; 8x8 has exactly two ways.
    assert [len(star_layouts(n, 2)) for n in range(4, 9)] == [0, 0, 0, 0, 2]
    assert Puzzle(8, tuple((r,) * 8 for r in range(8)), stars=2).count() == 2


# -- reading and writing ------------------------------------------------------------------------

QUEENS_5 = "AAACC\nBAACC\nAACCC\nADCCE\nDDDDE\n"
SOLUTION_5 = ((0, 2), (1, 0), (2, 3), (3, 1), (4, 4))


def test_letter_grid_reads_and_solves():
    p = Puzzle.parse(QUEENS_5)
    assert (p.n, p.stars, p.labels) == (5, 1, "ACBDE")  # numbered in order of first appearance
    assert p.regions[1] == (2, 0, 0, 1, 1)
    assert oracle(5, p.regions) == [SOLUTION_5]
    assert p.solve() == SOLUTION_5
    assert p.check() == (True, [SOLUTION_5])


def test_text_and_json_round_trip_with_givens():
    p = Puzzle(5, Puzzle.parse(QUEENS_5).regions, queens=[(0, 2)], blocked=[(4, 0)])
    text = p.to_text()
    assert text.splitlines()[0] == "A  A  A* B  B"
    assert Puzzle.parse(text) == p
    assert Puzzle.from_json(p.to_json()) == p
    assert Puzzle.from_json(json.dumps(p.to_json())) == p
    assert p.to_json()["givens"] == {"queens": [[0, 2]], "blocked": [[4, 0]]}
    star = Puzzle.parse("stars 2\ndiagonals\n" + "\n".join(["ABCDEFG"] * 7))
    assert (star.stars, star.diagonals) == (2, True)
    assert Puzzle.parse(star.to_text()) == star


def test_a_drawn_solution_reads_back_with_its_queens_as_givens():
    p = Puzzle.parse(QUEENS_5)
    drawn = p.draw(p.solve())
    back = Puzzle.parse(drawn)
    assert back.queens == SOLUTION_5
    assert back.regions == p.regions
    assert back.solve() == SOLUTION_5


@st.composite
def drawn_puzzles(draw):
    """A random region grid (regions numbered in reading order), givens, and queens to draw."""
    n = draw(st.integers(1, 9))
    cells = [(r, c) for r in range(n) for c in range(n)]
    flat = draw(st.permutations(range(n))) + draw(
        st.lists(st.integers(0, n - 1), min_size=n * n - n, max_size=n * n - n)
    )
    order: dict[int, int] = {}
    for g in flat:
        order.setdefault(g, len(order))
    regions = [[order[flat[r * n + c]] for c in range(n)] for r in range(n)]
    picked = draw(st.lists(st.sampled_from(cells), unique=True, max_size=min(n * n, 8)))
    split = draw(st.lists(st.integers(0, 2), min_size=len(picked), max_size=len(picked)))
    kinds = list(zip(picked, split, strict=True))
    queens, blocked, drawn = ([cell for cell, s in kinds if s == k] for k in range(3))
    puzzle = Puzzle(
        n,
        regions,
        stars=draw(st.integers(1, (n + 1) // 2)),
        queens=queens,
        blocked=blocked,
        diagonals=draw(st.booleans()),
        labels=draw(st.permutations(SYMBOLS).map(lambda s: "".join(s[:n]))),
    )
    return puzzle, drawn


SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"


@settings(max_examples=150, deadline=None)
@given(case=drawn_puzzles())
@pytest.mark.slow
def test_every_drawn_puzzle_reads_back_with_its_queens_as_givens(case):
    puzzle, drawn = case
    with_drawn = Puzzle(
        puzzle.n,
        puzzle.regions,
        stars=puzzle.stars,
        queens=(*puzzle.queens, *drawn),
        blocked=puzzle.blocked,
        diagonals=puzzle.diagonals,
    )
    for text in (puzzle.to_text(drawn), puzzle.draw(drawn), puzzle.draw(drawn, colour=True)):
        back = Puzzle.parse(text)
        assert back == with_drawn
        assert back.labels == puzzle.labels
    assert Puzzle.parse(puzzle.to_text()) == puzzle
    assert Puzzle.from_json(json.dumps(puzzle.to_json())) == puzzle


def test_json_form_of_the_issue():
    obj = {
        "n": 4,
        "regions": [[0, 0, 1, 1], [0, 2, 2, 1], [3, 2, 2, 1], [3, 3, 3, 1]],
        "stars": 1,
        "givens": {"queens": [], "blocked": [[0, 0]]},
        "name": "ignored",
    }
    p = Puzzle.from_json(obj)
    assert p.blocked == ((0, 0),)
    assert p.count() == len(oracle(4, obj["regions"], blocked=[(0, 0)]))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AAB\nAB\nCCC", "line 2, column 3: row 2 has 2 cells, expected 3 like the first row"),
        ("AAB\nA?B\nCCC", "line 2, column 2: '?' is not a region symbol"),
        ("AAB\nABB\nAAB", "the grid has 2 regions (AB), expected 3"),
        ("ABCD\nABCD\nABCD", "line 3, column 1: the grid has 3 rows of 4 cells: expected 4 rows"),
        ("*AB\nABB\nCCC", "line 1, column 1: '*' must follow a region symbol"),
        ("stars two\nAB\nBA", "line 1, column 1: cannot read the header"),
        ("AAB\n\nABB\nCCC", "line 2, column 1: a blank line inside the grid"),
        ("", "the puzzle has no grid"),
        ("stars 3\nABCD\nABCD\nABCD\nABCD", "stars must be between 1 and 2 on a 4x4 grid"),
    ],
)
def test_malformed_grids_name_the_place(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Puzzle.parse(text)


def test_a_region_in_two_pieces_when_connectivity_is_asked_for():
    text = "ABA\nBBB\nCCC"  # region A is two cells apart
    assert Puzzle.parse(text).n == 3
    with pytest.raises(ValueError, match=r"line 1, column 3: region 'A' is in 2 pieces"):
        Puzzle.parse(text, connected=True)


@pytest.mark.parametrize(
    ("obj", "error", "message"),
    [
        ({"regions": [[0]]}, ValueError, "no 'n'"),
        ({"n": 2, "regions": [[0, 1], [1]]}, ValueError, "region numbers: row 1 has 1"),
        ({"n": 2, "regions": [[0, 2], [1, 1]]}, ValueError, r"regions\[0\]\[1\] is 2"),
        ({"n": 2, "regions": [[0, "a"], [1, 1]]}, TypeError, r"regions\[0\]\[1\] must be an int"),
        ({"n": 2, "regions": [[0, 1], [1, 1]], "givens": {"queens": [[5, 0]]}}, ValueError, "off"),
        ({"n": 2, "regions": [[0, 1], [1, 1]], "givens": {"walls": []}}, ValueError, "walls"),
        ({"n": True, "regions": []}, TypeError, "n must be an int"),
    ],
)
def test_malformed_json(obj, error, message):
    with pytest.raises(error, match=message):
        Puzzle.from_json(obj)


def test_bad_arguments_to_the_verbs():
    p = Puzzle.parse(QUEENS_5)
    with pytest.raises(ValueError, match="unknown backend 'z3'"):
        p.count(backend="z3")
    with pytest.raises(ValueError, match="limit must be None or an int >= 1, got 0"):
        p.count(limit=0)
    with pytest.raises(ValueError, match="unknown difficulty 'brutal'"):
        Puzzle.generate(6, difficulty="brutal")


# -- explain, rate, generate, draw ---------------------------------------------------------------


def test_explain_reaches_the_solution_with_sound_steps():
    p = Puzzle.parse(QUEENS_5)
    explanation = p.explain()
    assert explanation.queens == SOLUTION_5
    # a region confined to one column and the last cells: the first rules alone, easy
    assert explanation.difficulty == "easy" == p.rate()
    assert [step.rule for step in explanation.steps].count("confined") == 1
    for step in explanation.steps:
        assert set(step.queens) <= set(SOLUTION_5)
        assert not set(step.crossed) & set(SOLUTION_5)
    assert str(explanation).endswith("difficulty: easy")


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_generated_queens_puzzles_are_unique_connected_and_rated(difficulty):
    p, solution = Puzzle.generate(7, difficulty=difficulty, seed=11)
    assert p.is_connected()
    assert oracle(7, p.regions) == [solution]
    assert p.rate() == difficulty
    explanation = p.explain()
    assert explanation.queens == solution
    for step in explanation.steps:
        assert set(step.queens) <= set(solution)
        assert not set(step.crossed) & set(solution)
    again, _ = Puzzle.generate(7, difficulty=difficulty, seed=11)
    assert again == p  # reproducible from the seed


def test_generated_star_battle_is_unique_on_every_engine():
    p, solution = Puzzle.generate(8, stars=2, seed=3)
    assert p.is_connected()
    assert oracle(8, p.regions, stars=2) == [solution]
    assert p.cross_check() == 1
    assert p.explain().queens == solution


def test_a_puzzle_with_two_solutions_has_several_not_a_difficulty():
    rng = random.Random(5)
    while True:
        regions = random_regions(5, rng)
        if len(oracle(5, regions)) == 2:
            break
    p = Puzzle(5, regions)
    assert p.rate() == "several solutions"
    assert p.explain().difficulty == "several solutions"
    assert p.explain().steps[-1].text.endswith("the puzzle has at least 2 solutions")
    with pytest.raises(ValueError, match="at least 2 solutions: no hint can be sure"):
        p.hint()
    unique, found = p.check()
    assert not unique and len(found) == 2


def test_svg_has_region_colours_and_queens():
    p = Puzzle.parse(QUEENS_5)
    picture = p.svg(p.solve())
    root = ET.fromstring(picture)
    ns = "{http://www.w3.org/2000/svg}"
    cells = [e for e in root.iter(f"{ns}rect") if e.get("class", "").startswith("cell")]
    assert len(cells) == 25
    assert len({e.get("fill") for e in cells}) == 5  # one colour per region
    assert len([e for e in root.iter(f"{ns}path") if e.get("class") == "queen"]) == 5
    assert p._repr_svg_().startswith("<svg")
    assert "\x1b[48;5;" in p.draw(colour=True)
    assert "\x1b" not in p.draw()


def test_exported():
    assert cpqueens.Puzzle is Puzzle
    assert "Puzzle" in cpqueens.__all__


# -- issue 34: one coordinate convention, verdicts, equality, batches, hints, generation ---------


def test_explain_and_hint_write_cells_as_violations_do():
    p = Puzzle.parse(QUEENS_5)
    texts = [step.text for step in p.explain().steps]
    assert "(1, 0) is the last cell left in region B: a queen there" in texts
    assert "region E lies within column 4: cross out the other 1 cell there" in texts
    assert not any(re.search(r"\br\d+c\d+\b", text) for text in texts)
    assert p.violations([(0, 2), (1, 3)])[-1] == "queens at (0, 2) and (1, 3) touch"


def test_a_contradictory_puzzle_has_no_solution_from_every_verb():
    p = Puzzle(5, Puzzle.parse(QUEENS_5).regions, queens=[(0, 0), (0, 2)])  # two in row 0
    assert p.count() == 0 and p.solve() is None
    assert p.rate() == "no solution"
    explanation = p.explain()
    assert explanation.difficulty == "no solution"
    assert explanation.steps[-1].text == "a rule is broken here: the puzzle has no solution"
    assert not str(explanation).endswith("needs search")
    with pytest.raises(ValueError, match=r"^the puzzle has no solution$"):
        p.hint()


def test_hint_is_the_first_deduction_after_the_queens_placed():
    p = Puzzle.parse(QUEENS_5)
    first = p.hint()
    assert first == p.explain().steps[0]
    after = p.hint([(1, 0)])
    assert after.queens == ((0, 2),) and after.rule == "last cells"
    assert p.hint(SOLUTION_5) is None
    with pytest.raises(ValueError, match=r"^no solution holds your queen \(0, 0\)$"):
        p.hint([(0, 0)])
    with pytest.raises(ValueError, match=r"your queens: cell \[5, 0\] is off the 5x5 grid"):
        p.hint([(5, 0)])


def test_a_hint_with_a_given_queen_is_explains_first_step_after_it():
    rows = Puzzle(4, [[r] * 4 for r in range(4)], queens=[(0, 1)])  # one solution: 1 3 0 2
    steps = [step for step in rows.explain().steps if step.rule != "given"]
    assert rows.hint() == steps[0]
    assert rows.hint(rows.solve()) is None


def test_verify_names_the_rules_an_answer_breaks():
    p = Puzzle.parse(QUEENS_5)
    assert p.verify(SOLUTION_5) == []
    broken = p.verify([(0, 2), (1, 3)])
    assert "row 2 has 0 queens, expected 1" in broken
    assert "queens at (0, 2) and (1, 3) touch" in broken


def test_equal_whatever_the_region_labels():
    text = Puzzle.loads(QUEENS_5)
    numbers = [[ord(ch) - ord("A") for ch in line] for line in QUEENS_5.split()]
    from_json = Puzzle.loads(json.dumps({"n": 5, "regions": numbers}))
    assert text.regions != from_json.regions  # numbered differently ...
    assert text == from_json and hash(text) == hash(from_json)  # ... the same puzzle
    assert len({text, from_json}) == 1
    assert Puzzle.loads(text.dumps()) == text
    assert json.loads(text.dumps()) == text.to_json()
    assert text != Puzzle(5, numbers, queens=[(0, 2)])  # givens count
    assert text != Puzzle(5, [[0] * 4 + [1], *numbers[1:]])  # the partition counts


def test_several_puzzles_read_as_a_batch_or_refused_naming_json_arrays():
    two = QUEENS_5 + "\nstars 1\nAB\nBB\n"
    assert [p.n for p in Puzzle.loads_all(two)] == [5, 2]
    array = json.dumps([Puzzle.parse(QUEENS_5).to_json(), {"n": 1, "regions": [[0]]}])
    assert [p.n for p in Puzzle.loads_all(array)] == [5, 1]
    for text in (two, array):
        with pytest.raises(ValueError, match=r"holds 2 puzzles \(a JSON array, or grids sep"):
            Puzzle.loads(text)
    with pytest.raises(ValueError, match=r"^puzzle 2: the JSON puzzle has no 'regions'"):
        Puzzle.loads_all('[{"n": 1, "regions": [[0]]}, {"n": 1}]')


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("stars 0\nAB\nBB", "stars must be between 1 and 1 on a 2x2 grid"),
        ("[" * 100_000, "not JSON this reader takes: nested too deep"),
        ('{"a": ' * 100_000, "not JSON this reader takes: nested too deep"),
        ("A" * 5000, "line 1, column 63: row 1 has more than 62 cells"),
        ("A\n" * 70, "line 63, column 1: the grid has more than 62 rows"),
        ("ABC\nABC\nABD", "(ABCD), expected 3: a puzzle has as many regions as rows"),
    ],
)
def test_bad_files_are_refused_at_once(text, message):
    start = time.process_time()
    with pytest.raises(ValueError, match=re.escape(message)):
        Puzzle.loads(text)
    assert time.process_time() - start < 30  # CPU seconds: no 5000-cell row is read whole


def test_row_placements_are_counted_not_listed():
    from cpqueens.backends.bitmask.regions import row_candidates

    rng = random.Random(34)
    for _ in range(60):
        n = rng.randint(2, 9)
        k = rng.randint(1, (n + 1) // 2)
        cells = [(r, c) for r in range(n) for c in range(n)]
        queens = rng.sample(cells, rng.randint(0, 2))
        blocked = [cell for cell in rng.sample(cells, min(4, len(cells))) if cell not in queens]
        p = Puzzle(n, [[r] * n for r in range(n)], stars=k, queens=queens, blocked=blocked)
        listed = [row_candidates(p, row) for row in range(n)]
        assert p.row_placements() == sum(map(len, listed))
        for row, found in enumerate(listed):
            free = [c for c in range(n) if (row, c) not in set(blocked)]
            given = {c for r, c in queens if r == row}
            brute = [
                combo
                for combo in combinations(free, k)
                if given <= set(combo) and all(b - a > 1 for a, b in pairwise(combo))
            ]
            assert found == brute  # the same, in lexicographic order
    assert Puzzle(62, [[r] * 62 for r in range(62)], stars=31).row_placements() == 62 * 32


@pytest.mark.slow
def test_engines_that_list_rows_refuse_a_grid_too_large_and_auto_takes_cpsat():
    rows = Puzzle(30, [[r] * 30 for r in range(30)], stars=6)  # 5,313,000 row placements
    with pytest.raises(cpqueens.NotSupportedError, match="has 5,313,000 of them, more "
                       "than its 524,288: expected backend 'cpsat'"):  # fmt: skip
        rows.count(backend="bitmask")
    with pytest.raises(cpqueens.NotSupportedError, match="has more than 65,536 of them: "
                       "expected backend 'cpsat'"):  # fmt: skip
        rows.count(backend="python-constraint")
    assert len(rows.solutions(limit=2, time_limit=30)) == 2  # auto: CP-SAT


def test_generate_refuses_at_once_what_it_cannot_make():
    for size, stars, message in (
        (61, 31, "expected a size of at least 123"),
        (
            62,
            20,
            "(two neighbouring rows hold at most 31 stars, 40 needed): expected a size of at "
            "least 79",
        ),
        (30, 6, "this 30x30 puzzle with 6 stars has 5,313,000 of them, more than its 524,288"),
    ):
        with pytest.raises(ValueError, match=re.escape(message)):
            Puzzle.generate(size, stars)
    with pytest.raises(ValueError, match=r"^attempts must be an int >= 1, got -1$"):
        Puzzle.generate(8, attempts=-1)


@pytest.mark.parametrize("size", [7, pytest.param(9, marks=pytest.mark.slow)])
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", None])
def test_generated_puzzles_have_the_difficulty_asked_and_one_solution(size, difficulty):
    for seed in (1, 2):
        p, solution = Puzzle.generate(size, difficulty=difficulty, seed=seed)
        assert p.count(limit=2) == 1 and p.solve() == solution
        assert p.is_connected()
        rating = p.rate()
        assert rating == difficulty if difficulty else rating in ("easy", "medium", "hard")


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["hard", None])  # "medium" at seed 4: 66 s of generation
def test_generated_star_battle_10x10_needs_no_search(difficulty):
    p, solution = Puzzle.generate(10, 2, difficulty=difficulty, seed=4)
    assert p.count(limit=2, backend="cpsat") == 1 and p.solve() == solution
    explanation = p.explain()
    assert explanation.queens == solution
    assert all(step.rule != "search" for step in explanation.steps)
    rating = p.rate()
    # no difficulty: any puzzle the rules solve; with 2 stars "would empty" is needed often,
    # and its weight can make the puzzle expert (the levels of tasks/levels.py)
    assert rating == difficulty if difficulty else rating in ("medium", "hard", "expert")


# -- the plain-Python first try of the bitmask engine (small puzzles never wait for the kernel) --


@pytest.mark.parametrize(("n", "stars", "seeds"), [(7, 1, 8), (9, 1, 8), (11, 1, 4), (10, 2, 3)])
@pytest.mark.slow
def test_the_plain_python_search_answers_as_the_compiled_one(n, stars, seeds):
    from cpqueens.backends.bitmask import propagate as regions_propagate
    from cpqueens.backends.bitmask import regions as regions_bitmask

    for seed in range(seeds):
        puzzle, solution = Puzzle.generate(n, stars, seed=seed)
        free = regions_bitmask._free(n, puzzle.blocked)
        args = (n, stars, puzzle.regions, free, puzzle.queens, puzzle.diagonals)
        small = regions_propagate.search(*args, limit=2, keep=2, nodes=10**6)
        assert small == (1, [solution])
        with kernel_only():
            assert regions_bitmask.search(puzzle, 2, keep=2) == small
        # a second solution made by dropping a region's rule: both searches list the same first
        merged = tuple(tuple(0 if g == 1 else g for g in row) for row in puzzle.regions)
        loose = regions_propagate.search(n, stars, merged, free, (), False, None, 3, nodes=10**6)
        if loose is not None:
            assert loose[0] == 0  # n - 1 regions of k stars cannot hold n * k stars


def test_the_plain_python_search_keeps_the_given_queens_in_its_solutions():
    # Givens are placed first and belong to every solution it lists, as the kernel's do.
    puzzle, solution = Puzzle.generate(7, seed=4)
    for queens in (solution[:1], solution[:3], solution):
        with_givens = Puzzle(7, puzzle.regions, queens=queens)
        assert with_givens.solutions() == [solution]
        with kernel_only():
            assert with_givens.solutions() == [solution]
    wrong = Puzzle(7, puzzle.regions, queens=[solution[0], (solution[0][0] + 1, solution[0][1])])
    assert wrong.count() == 0 and wrong.solutions() == []


def test_the_plain_python_search_gives_way_past_its_budget_and_keeps_the_order():
    from cpqueens.backends.bitmask import propagate as regions_propagate

    rows = Puzzle(9, tuple((r,) * 9 for r in range(9)))  # 47622 solutions: more than MOST
    free = (1 << 81) - 1
    assert regions_propagate.search(9, 1, rows.regions, free, nodes=50) is None
    assert regions_propagate.search(9, 1, rows.regions, free, nodes=10**7) is None  # too many
    assert rows.count() == 47622  # the kernel took over
    star = Puzzle(8, random_regions(8, random.Random(3)), stars=2)
    expected = oracle(8, star.regions, stars=2)
    found = regions_propagate.search(8, 2, star.regions, (1 << 64) - 1, limit=None, keep=99)
    assert found == (len(expected), expected)
    assert regions_propagate.search(8, 2, star.regions, (1 << 64) - 1, limit=1, keep=0) == (
        min(1, len(expected)),
        [],
    )


def test_a_small_puzzle_is_solved_without_loading_numba(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "queens.txt"
    path.write_text(Puzzle.generate(9, seed=5)[0].to_text())
    code = (
        "import sys\nfrom cpqueens import Puzzle\n"
        f"p = Puzzle.loads(open({str(path)!r}).read())\n"
        "print(p.check()[0], p.count(), 'numba' in sys.modules, 'numpy' in sys.modules)\n"
        "import cpqueens\n"
        "m = cpqueens.model(p)\n"
        "print(m.count(), m.first() is not None, 'numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["True", "1", "False", "False", "1", "True", "False"]


def test_a_model_with_regions_agrees_on_both_paths():
    rng = random.Random(11)
    for _ in range(6):
        n = rng.choice((5, 6, 7))
        regions = random_regions(n, rng)
        diagonals = rng.random() < 0.5
        expected = oracle(n, regions, diagonals=diagonals)
        m = cpqueens.model(n, regions=regions, no_touch=True, diagonals=diagonals)
        columns = [tuple(c for _, c in cells) for cells in expected]
        assert m.count(backend="bitmask") == len(expected)
        assert [s.columns for s in m.solutions(backend="bitmask")] == columns
        with kernel_only():
            assert m.count(backend="bitmask") == len(expected)
            assert [s.columns for s in m.solutions(backend="bitmask")] == columns


@pytest.mark.parametrize(("n", "stars"), [(2, 1), (5, 2), (6, 2), (7, 3)])
def test_rows_too_crowded_for_their_stars_have_no_solution_by_every_verb(n, stars):
    """Two neighbouring rows hold ceil(n/2) stars at most: the oracle finds none either."""
    rng = random.Random(n * 10 + stars)
    puzzle = Puzzle(n, random_regions(n, rng), stars=stars)
    assert puzzle.crowded()
    assert oracle(n, puzzle.regions, stars) == []
    assert (puzzle.count(), puzzle.solutions(), puzzle.solve()) == (0, [], None)
    assert puzzle.check() == (False, []) and puzzle.rate() == "no solution"
    explanation = puzzle.explain()
    assert explanation.difficulty == "no solution"
    assert explanation.steps[0].text == (
        f"two neighbouring rows hold at most {(n + 1) // 2} stars, none touching "
        f"(one in each 2x2 block), but need {2 * stars}"
    )
    with pytest.raises(ValueError, match=r"^the puzzle has no solution$"):
        puzzle.hint()


def test_a_crowded_puzzle_is_answered_without_a_search(monkeypatch):
    # a screenshot's reading tries every star count that fits a row (1 to 5 on 9x9): the
    # crowded ones (3 to 5) have no solution by the two-row bound, and were searched anyway
    from cpqueens.backends.bitmask import regions as regions_bitmask

    searched = []
    real = regions_bitmask.solutions
    monkeypatch.setattr(regions_bitmask, "solutions", lambda *a: searched.append(a) or real(*a))
    puzzle = Puzzle(9, tuple((r,) * 9 for r in range(9)), stars=3)
    assert puzzle.crowded() and puzzle.solutions(backend="bitmask") == [] and searched == []
    with pytest.raises(ValueError, match="nosuch"):
        puzzle.solutions(backend="nosuch")
    assert Puzzle(9, puzzle.regions).solutions(backend="bitmask", limit=1) and len(searched) == 1


def test_the_star_bound_is_tight_where_puzzles_are_played():
    # 10x10 two stars and 14x14 three stars: 4 <= 5 and 6 <= 7, so not crowded
    assert not Puzzle.generate(10, stars=2, seed=4)[0].crowded()
    assert not Puzzle(14, tuple((r,) * 14 for r in range(14)), stars=3).crowded()


def test_a_hint_takes_the_players_crosses_and_is_always_news():
    puzzle, solution = Puzzle.generate(8, seed=5)
    queens: set = set()
    crossed: set = set()
    for step in puzzle.explain().steps:  # the player follows the explanation step by step
        hint = puzzle.hint(sorted(queens), crossed=sorted(crossed))
        assert hint is not None
        assert not (set(hint.queens) <= queens and set(hint.crossed) <= crossed), hint
        queens |= set(step.queens)
        crossed |= set(step.crossed)
    assert puzzle.hint(sorted(queens), crossed=sorted(crossed)) is None
    r, c = solution[0]
    with pytest.raises(
        ValueError, match=rf"^the solution has a queen on your crossed cell \({r}, {c}\)$"
    ):
        puzzle.hint(crossed=[(r, c)])
    with pytest.raises(ValueError, match=r"your crossed cells: cell \[8, 0\] is off the 8x8"):
        puzzle.hint(crossed=[(8, 0)])
