"""Puzzles read back as written, and the messages of issue 47 (item 5) say what the library does."""

from __future__ import annotations

import random
import re

import pytest

from cpqueens import Puzzle


def _with_givens(seed: int) -> Puzzle:
    """A generated puzzle with a few given queens, blocked cells, stars and diagonals at random."""
    rng = random.Random(seed)
    p, solution = Puzzle.generate(rng.choice((5, 6, 7)), seed=seed)
    queens = rng.sample(solution, 2)
    free = [(r, c) for r in range(p.n) for c in range(p.n) if (r, c) not in solution]
    return Puzzle(
        p.n,
        p.regions,
        stars=p.stars,
        queens=queens,
        blocked=rng.sample(free, 3),
        diagonals=rng.random() < 0.5,
    )


@pytest.mark.parametrize("seed", range(6))
def test_every_form_reads_back_equal(seed):
    p = _with_givens(seed)
    assert Puzzle.loads(p.to_text()) == p
    assert Puzzle.loads(p.dumps()) == p
    assert Puzzle.from_json(p.to_json()) == p
    assert Puzzle.parse(p.to_text()).to_text() == p.to_text()


def test_a_given_queen_on_a_blocked_cell_is_refused_by_every_read():
    message = "the given queen at (0, 1) stands on a blocked cell: a cell is either a given queen"
    obj = {"n": 2, "regions": [[0, 1], [1, 1]], "givens": {"queens": [[0, 1]], "blocked": [[0, 1]]}}
    with pytest.raises(ValueError, match=re.escape(message)):
        Puzzle.from_json(obj)
    with pytest.raises(ValueError, match=re.escape(message)):
        Puzzle.loads(str(obj).replace("'", '"'))
    with pytest.raises(ValueError, match=re.escape(message)):
        Puzzle(2, ((0, 1), (1, 1)), queens=[(0, 1)], blocked=[(0, 1), (1, 0)])
    with pytest.raises(ValueError, match="must follow a region symbol"):
        Puzzle.parse("AB*#\nBB")  # the letter grid cannot mark a cell twice
    assert Puzzle(2, ((0, 1), (1, 1)), queens=[(0, 1)], blocked=[(1, 0)]).blocked == ((1, 0),)


def test_an_unknown_difficulty_names_every_difficulty_that_can_be_asked():
    with pytest.raises(ValueError) as refused:
        Puzzle.generate(10, stars=2, difficulty="fiendish")
    assert str(refused.value) == (
        "unknown difficulty 'fiendish': expected one of 'easy', 'medium', 'hard', 'expert', "
        "'needs search'"
    )


def test_easy_star_battle_is_made_now_that_confined_lines_are_easy():
    # It was refused ("no puzzle with 2 stars is easy"): the last-cells rule alone cannot
    # start, but a region confined to its lines can.
    p, solution = Puzzle.generate(10, stars=2, difficulty="easy", seed=1)
    assert p.rate() == "easy" and p.solve() == solution


@pytest.mark.parametrize(("size", "stars"), [(7, 2), (11, 3)])
def test_sizes_past_the_two_row_bound_without_an_arrangement_are_refused(size, stars):
    # 2k <= ceil(n / 2) holds (4 <= 4, 6 <= 6), yet no arrangement exists: the search says so.
    assert not Puzzle(size, tuple((r,) * size for r in range(size)), stars=stars).crowded()
    with pytest.raises(
        ValueError, match=f"^no {size}x{size} grid holds {stars} stars in every row"
    ):
        Puzzle.generate(size, stars=stars)


def test_the_smallest_star_battle_sizes_by_brute_force():
    """k stars per row and column, none touching, on n x n: a plain-Python check of the docs."""

    def arrangement(n: int, k: int) -> bool:
        rows = [mask for mask in range(1 << n) if mask.bit_count() == k and not mask & (mask << 1)]

        def place(row: int, above: int, columns: tuple[int, ...]) -> bool:
            if row == n:
                return all(count == k for count in columns)
            for mask in rows:
                if mask & (above | above << 1 | above >> 1):
                    continue
                counts = tuple(columns[c] + (mask >> c & 1) for c in range(n))
                if max(counts) > k or any(k - counts[c] > n - row - 1 for c in range(n)):
                    continue
                if place(row + 1, mask, counts):
                    return True
            return False

        return place(0, 0, (0,) * n)

    assert [n for n in range(3, 10) if arrangement(n, 2)] == [8, 9]
    assert arrangement(4, 1) and not arrangement(3, 1)
