"""Issue 48's last seams: a board rule means its keyword however it is added; claims are checked.

Each test is the issue's example as a user writes it, against a brute force of
its own (plain ``itertools``, no cpqueens code).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations

import pytest

import cpqueens
from cpqueens.expressions import Comparison, Var
from cpqueens.vocabulary.constraints import (
    Forbidden,
    KnightMoves,
    NoTouch,
    Placed,
    Regions,
    Toroidal,
    Where,
)

ENGINES = ("auto", "bitmask", "cpsat", "python-constraint")
KNIGHT = {(1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1)}


def queen_sets(
    n: int, k: int, *, knight: bool = False, touch: bool = True, holding: object = None
) -> int:
    """Sets of k queens on n x n, no two sharing a line (or a knight's move, or touching)."""

    def attack(a: tuple[int, int], b: tuple[int, int]) -> bool:
        dr, dc = b[0] - a[0], b[1] - a[1]
        lines = dr == 0 or dc == 0 or abs(dr) == abs(dc)
        return (
            lines or (knight and (dr, dc) in KNIGHT) or (not touch and max(abs(dr), abs(dc)) == 1)
        )

    cells = [(r, c) for r in range(n) for c in range(n)]
    return sum(
        all(not attack(a, b) for a, b in combinations(chosen, 2))
        for chosen in combinations(cells, k)
        if holding is None or holding in chosen
    )


@pytest.mark.parametrize("backend", ENGINES)
def test_no_touch_and_knight_moves_as_kinds_mean_their_keywords(backend):
    # The issue: with_constraints(NoTouch()) gave 0 (it said "one piece per row" too), the
    # keyword 44; KnightMoves() 0 against knight=True's 20.
    free = cpqueens.model(4, per_row=None, per_column=None)
    assert free.with_constraints(NoTouch()).count(backend, queens=2) == 44
    assert free.with_constraints(KnightMoves()).count(backend, queens=2) == 20
    assert queen_sets(4, 2, touch=False) == 44 and queen_sets(4, 2, knight=True) == 20
    keyword = cpqueens.model(4, per_row=None, per_column=None, knight=True)
    assert free.with_constraints(KnightMoves()).statement == keyword.statement
    assert str(free.with_constraints(KnightMoves())) == str(keyword)


def test_every_built_in_board_rule_as_a_kind_is_its_keyword_on_cells():
    free = cpqueens.model(5, per_row=None, per_column=None)
    grid = [[0, 0, 1, 1, 1], [0, 2, 2, 1, 3], [2, 2, 3, 3, 3], [4, 2, 3, 4, 4], [4, 4, 4, 4, 4]]
    pairs = (
        (free.with_constraints(Toroidal()), dict(toroidal=True)),
        (free.with_constraints(NoTouch()), dict(no_touch=True)),
        (free.with_constraints(KnightMoves()), dict(knight=True)),
        (free.with_constraints(Forbidden(((0, 0), (2, 3)))), dict(blocked=[(0, 0), (2, 3)])),
        (free.with_constraints(Placed(((1, 1),))), dict(placed=[(1, 1)])),
        (free.with_constraints(Regions(grid)), dict(regions=grid)),
    )
    for kind, keywords in pairs:
        same = cpqueens.model(5, per_row=None, per_column=None, **keywords)
        assert kind.statement == same.statement, keywords
        assert kind.count() == same.count()
    # a torus with the knight's moves: the kind wraps them as the keyword does
    torus = cpqueens.model(5, per_row=None, per_column=None, toroidal=True)
    both = cpqueens.model(5, per_row=None, per_column=None, toroidal=True, knight=True)
    assert torus.with_constraints(KnightMoves(wraps=True)).statement == both.statement


def test_a_rule_the_keyword_cannot_say_stays_a_rule_over_q_and_says_so():
    # Two armies: the keyword would change how the armies attack each other, the kind reads
    # q, the first army's column in each row, so it also states one piece per row.
    armies = cpqueens.model(3, per_row=None, per_column=None, armies=2)
    kind = armies.with_constraints(NoTouch())
    assert kind.statement.one_piece_rows == (0, 1, 2)
    assert "sum x[r,c] over c = 1 for every row r" in str(kind)
    assert "NoTouch" in str(kind)


@dataclass(frozen=True)
class FirstLeftOfLast:
    """The issue's kind: q[0] < q[n-1], claiming rot90 and the mirror (only rot180 keeps it)."""

    claims: tuple[str, ...] = ("rot90", "mirror")

    def violation(self, by_colour, n: int) -> str | None:
        """None if the first row's queen stands left of the last row's."""
        columns = by_colour[0]
        return None if columns[0] < columns[n - 1] else f"{self} fails"

    def kept_by(self, n: int) -> tuple[str, ...]:
        """What the kind claims."""
        return self.claims

    def decompose(self, n: int, colours: int) -> tuple[Where, ...]:
        """One condition."""
        return (Where(Comparison("<", Var(0, 0), Var(0, n - 1))),)


def first_left_of_last(n: int) -> int:
    """The n-queens solutions with q[0] < q[n-1], by permutations."""
    return sum(
        p[0] < p[-1]
        for p in permutations(range(n))
        if len({c + r for r, c in enumerate(p)}) == n == len({c - r for r, c in enumerate(p)})
    )


@pytest.mark.parametrize("backend", ENGINES)
def test_a_false_claim_raises_naming_the_symmetry_and_never_changes_a_count(backend):
    # The issue: cpsat counted 92 (n=8) and 10 (n=5), the truth being 46 and 5.
    for n in (5, 8):
        claiming = cpqueens.model(n).with_constraints(FirstLeftOfLast())
        for verb in (
            lambda m: m.count(backend),
            lambda m: m.count(backend, unique=True),
            lambda m: list(m.solutions(backend, unique=True)),
        ):
            with pytest.raises(ValueError, match=r"is not kept by rot90 \(its kept_by"):
                verb(claiming)
        honest = cpqueens.model(n).with_constraints(FirstLeftOfLast(("rot180",)))
        modest = cpqueens.model(n).with_constraints(FirstLeftOfLast(("identity",)))
        assert honest.count(backend) == modest.count(backend) == first_left_of_last(n)
    assert first_left_of_last(8) == 46 and first_left_of_last(5) == 5


def test_a_false_claim_on_cells_raises_before_it_prunes():
    free = cpqueens.model(4, per_row=None, per_column=None)
    corner = free.where(free.x[0, 0] == 1, keeps=("mirror",))
    for verb in (
        lambda: corner.count(queens=2, unique=True),
        lambda: list(corner.solutions(queens=2, unique=True)),
        lambda: corner.maximize(),
    ):
        with pytest.raises(ValueError, match="not kept by mirror, which they claim"):
            verb()
    assert corner.count(queens=2) == queen_sets(4, 2, holding=(0, 0)) == 6
    corners = free.where(
        free.x[0, 0] + free.x[0, 3] + free.x[3, 0] + free.x[3, 3] == 1, keeps=("mirror", "rot90")
    )
    assert corners.symmetries() == ("identity", "rot90", "rot180", "rot270", "mirror", "flip",
                                    "diagonal", "antidiagonal")  # fmt: skip
    assert corners.count(queens=2, unique=True) == 3


# -- the small ones ------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_solution_too_large_to_draw_prints_a_short_summary():
    found = cpqueens.model(10**6).find()
    text = str(found)
    assert text.splitlines()[0] == (
        "a solution of 1,000,000 queens on a 1,000,000 x 1,000,000 board, too large to draw"
    )
    assert len(text) < 300
    with pytest.raises(ValueError, match=r"too large to draw as 'board' \(at most 1,000 rows\)"):
        found.draw("board")
    assert found.draw("columns").split()[:3] == ["2", "4", "6"]  # 1-based, as the judges print


@dataclass(frozen=True)
class Opaque:
    """A kind with no decompose: no engine can state it."""

    def violation(self, by_colour, n: int) -> str | None:
        """Never broken."""
        return None

    def kept_by(self, n: int) -> tuple[str, ...]:
        """The identity only."""
        return ("identity",)


@pytest.mark.parametrize("backend", ENGINES)
def test_a_kind_no_engine_states_gets_one_refusal_from_every_engine(backend):
    for m in (
        cpqueens.model(6).with_constraints(Opaque()),
        cpqueens.model(4, per_row=None, per_column=None).with_constraints(Opaque()),
    ):
        with pytest.raises(cpqueens.NotSupportedError) as refusal:
            m.count(backend, queens=None if m.statement.column_shaped else 2)
        message = str(refusal.value)
        assert "\n" not in message and "Opaque" in message
        assert "decompose(n, colours)" in message


@pytest.mark.slow  # 3 s
def test_an_every_size_count_that_may_run_long_says_so_and_shows_its_progress():
    dominating = cpqueens.model(
        6, per_row=None, per_column=None, dominating=True, independent=False
    )
    steps: list[tuple[int, int]] = []
    with pytest.warns(cpqueens.LongCountWarning, match="pass queens=k to count one size"):
        with pytest.raises(cpqueens.IncompleteSearchError):
            dominating.count(progress=lambda done, total: steps.append((done, total)),
                             time_limit=3)  # fmt: skip
    assert steps[0] == (0, 37) and len(steps) >= 2  # the sizes 0..36, each a step
    small = cpqueens.model(3, per_row=None, per_column=None, dominating=True, independent=False)
    assert small.count() == 495  # 9 cells: no warning, counted at once


def test_more_colours_than_columns_is_no_solution_on_the_command_line(tmp_path):
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "cpqueens", "count", "8", "--colours", "100000"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert (run.returncode, run.stdout.strip()) == (0, "0")
    refused = subprocess.run(
        [sys.executable, "-m", "cpqueens", "count", "1000", "--colours", "200"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert refused.returncode != 0 and refused.stdout == ""
    assert (
        refused.stderr.count("\n") == 1 and "colours=200 on a 1,000x1,000 board" in refused.stderr
    )
