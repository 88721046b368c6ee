"""Boards with holes on the fast paths: symmetric holes on the symmetry kernels, exact counts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens.backends import get as get_backend
from cpqueens.kernels import placements as native
from cpqueens.strategies import burnside as burnside_module
from cpqueens.strategies import class_count as class_count_module
from cpqueens.strategies import hole_sums as hole_sums_module
from cpqueens.strategies import planner
from cpqueens.strategies.symmetry import leader as leader_of
from tests import internals, oracle
from tests.test_symmetry import CELL_MAPS, brute_force_classes

burnside = internals.ColumnsOf(burnside_module)
class_count = internals.ColumnsOf(class_count_module)
hole_sums = internals.ColumnsOf(hole_sums_module)
placed_as_holes = internals.on_columns(planner.placed_as_holes)
strategy = internals.on_columns(planner.strategy)
takes_placed_as_holes = internals.on_columns(planner.takes_placed_as_holes)
leader = internals.on_columns(leader_of)


def symmetric_holes(n, seeds):
    """The seeds and every image of them under the 8 board symmetries."""
    return sorted({f(r, c, n) for r, c in seeds for f in CELL_MAPS.values()})


def rows_of(n, blocked):
    full = (1 << n) - 1
    return [full & ~sum(1 << c for r2, c in blocked if r2 == r) for r in range(n)]


def kernel_classes(n, blocked, depth=0):
    """(of 2, of 4, of 8) by the symmetry kernels' pieces at ``depth``."""
    rows = class_count.symmetric_rows(n, blocked)
    assert rows is not None
    parts = class_count.pieces(n, depth)
    counts = [class_count.count_piece(n, piece, rows) for piece in parts]
    return class_count.combine(n, parts, counts)


cells = st.tuples(st.integers(0, 12), st.integers(0, 12))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(5, 8), seeds=st.lists(cells, max_size=3))
@pytest.mark.slow
def test_symmetric_holes_on_the_kernels_match_brute_force(n, seeds):
    blocked = symmetric_holes(n, [(r % n, c % n) for r, c in seeds])
    two, four, eight = kernel_classes(n, blocked)
    solutions = [(s,) for s in oracle.placements(n, blocked)]
    classes = brute_force_classes(solutions, CELL_MAPS, n)
    assert 2 * two + 4 * four + 8 * eight == len(solutions)
    assert two + four + eight == len(classes)
    assert two == sum(1 for c in classes if len(c) == 2)
    assert eight == sum(1 for c in classes if len(c) == 8)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(9, 12), seeds=st.lists(cells, min_size=1, max_size=3))
def test_symmetric_holes_every_split_matches_the_unreduced_kernel(n, seeds):
    blocked = symmetric_holes(n, [(r % n, c % n) for r, c in seeds])
    plain = int(native.count_placements(np.array(rows_of(n, blocked), np.uint64)))
    for depth in (0, 1, 2):
        two, four, eight = kernel_classes(n, blocked, depth)
        assert 2 * two + 4 * four + 8 * eight == plain


@pytest.mark.parametrize(
    ("n", "blocked"),
    [
        (12, [(0, 0), (0, 11), (11, 0), (11, 11)]),  # the corners
        (13, [(6, 6)]),  # the centre of an odd board: no solution is its own half turn
        (13, symmetric_holes(13, [(2, 5), (6, 1)])),
    ],
)
def test_symmetric_boards_count_on_the_kernels(n, blocked):
    model = cpqueens.model(n, blocked=blocked)
    assert strategy(model, "bitmask").name == "classes"
    plain = int(native.count_placements(np.array(rows_of(n, blocked), np.uint64)))
    assert model.count(backend="bitmask", workers=1) == plain
    two, four, eight = kernel_classes(n, blocked)
    assert model.count(backend="bitmask", unique=True, workers=1) == two + four + eight


def test_the_corners_of_fourteen():
    # no two corners can both hold a queen, so 4 * (solutions with a queen at (0, 0)) go
    corner = cpqueens.model(14, placed=[(0, 0)]).count(backend="bitmask", workers=1)
    blocked = [(0, 0), (0, 13), (13, 0), (13, 13)]
    assert cpqueens.model(14, blocked=blocked).count(workers=1) == 365596 - 4 * corner


def test_only_boards_all_8_symmetries_keep_take_the_kernels():
    assert class_count.symmetric_rows(6, [(0, 1), (0, 4)]) is None  # the mirror only
    assert class_count.symmetric_rows(6, [(0, 0), (5, 5)]) is None  # the diagonal pair
    assert strategy(cpqueens.model(13, blocked=[(0, 1), (0, 11)]), "bitmask").name != "classes"
    assert strategy(cpqueens.model(13, placed=[(6, 6)]), "bitmask").name != "classes"
    assert class_count.symmetric_rows(4, []) == (15, 15, 15, 15)


def plain_count(n, blocked):
    return int(native.count_placements(np.array(rows_of(n, blocked), np.uint64)))


@settings(max_examples=20, deadline=None)
@given(n=st.integers(5, 8), holes=st.lists(cells, min_size=1, max_size=4), depth=st.integers(0, 2))
@pytest.mark.slow
def test_hole_sums_match_brute_force(n, holes, depth):
    blocked = sorted({(r % n, c % n) for r, c in holes})
    model = cpqueens.model(n, blocked=blocked)
    parts = hole_sums.parts(model, depth)
    counts = [hole_sums.count_part("bitmask", n, part, model.board.blocked) for part in parts]
    assert hole_sums.total(n, parts, counts) == len(oracle.placements(n, blocked))


@settings(max_examples=8, deadline=None)
@given(n=st.integers(12, 13), holes=st.lists(cells, min_size=1, max_size=6))
def test_hole_sums_match_the_unreduced_kernel(n, holes):
    blocked = sorted({(r % n, c % n) for r, c in holes})
    model = cpqueens.model(n, blocked=blocked)
    assert (strategy(model, "bitmask").name == "hole sums") == (
        class_count.symmetric_rows(n, blocked) is None
    )
    assert model.count(workers=1) == plain_count(n, blocked)


def test_hole_sums_terms_and_choice():
    # opposite corners: one term, both holes' completions counted once; they attack
    assert hole_sums.terms(8, [(0, 0), (7, 7)], least=1) == [(((0, 0),), -2)]
    # two holes a knight's move apart: both singles (-1), and the pair (+1)
    pair = [(((0, 1),), -1), (((0, 1), (2, 2)), 1), (((2, 2),), -1)]
    assert hole_sums.terms(8, [(0, 1), (2, 2)], least=1) == pair
    assert hole_sums.terms(8, [(0, 1), (2, 2)]) == [(((0, 1), (2, 2)), 1)]
    assert hole_sums.orient(16, [(13, 8)]) == ((2, 7),)
    assert (
        strategy(cpqueens.model(16, blocked=[(r, r) for r in range(9)]), "bitmask").name
        != "hole sums"
    )
    assert (
        strategy(cpqueens.model(16, blocked=[(0, 1)], placed=[(5, 5)]), "bitmask").name
        != "hole sums"
    )
    assert (
        strategy(cpqueens.model(11, blocked=[(0, 1)]), "bitmask").name != "hole sums"
    )  # numba not worth it
    assert strategy(cpqueens.model(16, blocked=[(0, 1)]), "bitmask").name == "hole sums"


def test_the_less_holes_pieces_are_the_free_board_less_the_single_holes():
    n, holes = 11, ((0, 3), (4, 4), (9, 2))
    for depth in (0, 1, 2):
        tops = [p for p in class_count.pieces(n, depth) if p[0] == "top"]
        value = sum(class_count.count_less_holes(n, piece, holes) for piece in tops)
        singles = sum(plain_count(n, []) - plain_count(n, [h]) for h in holes)
        # plain_count(n, [h]) counts the board with h blocked: free - (queen on h)
        assert value == 24 * (plain_count(n, []) - singles)


@pytest.mark.slow
def test_hole_sums_unique_and_checkpoint(tmp_path):
    asymmetric = cpqueens.model(12, blocked=[(2, 5), (7, 10), (10, 3)])
    total = plain_count(12, asymmetric.board.blocked)
    assert asymmetric.count(workers=1, unique=True) == total  # no symmetry: classes of one
    saved = tmp_path / "holes.json"
    assert asymmetric.count(workers=1, checkpoint=saved) == total
    assert asymmetric.count(workers=1, checkpoint=saved) == total  # resumed: every part done
    mirror = cpqueens.model(12, blocked=[(0, 1), (0, 10)])  # unique: the lex-leader way
    assert mirror.count(unique=True) == mirror.count(backend="cpsat", unique=True)


@pytest.mark.parametrize("n", [5, 7, 9])
@pytest.mark.slow
def test_the_queen_in_the_middle_counts_as_its_lines_blocked(n):
    middle = (n // 2, n // 2)
    model = cpqueens.model(n, placed=[middle])
    holes = placed_as_holes(model)
    assert holes.placed == () and middle not in holes.board.blocked
    assert len(holes.board.blocked) == 4 * (n - 1)  # its row, column and two diagonals
    solutions = oracle.solutions(n, (), [middle])
    sizes = [len(c) for c in brute_force_classes(solutions, CELL_MAPS, n)]
    # The kernels on the holes, the whole count (which takes the holes) and the oracle agree.
    assert kernel_classes(n, holes.board.blocked) == tuple(sizes.count(k) for k in (2, 4, 8))
    assert model.count(workers=1) == len(solutions)
    assert model.count(workers=1, unique=True) == len(sizes)


@pytest.mark.parametrize(("n", "placed"), [(13, [(6, 6)]), (15, [(7, 7)])])
@pytest.mark.slow
def test_placed_queens_all_symmetries_keep_go_to_the_kernels(n, placed):
    model = cpqueens.model(n, placed=placed)
    assert takes_placed_as_holes(model, "bitmask")
    assert strategy(placed_as_holes(model), "bitmask").name == "classes"
    unreduced = get_backend("bitmask").count(model)  # count_placements, no symmetry
    assert model.count(workers=1) == unreduced
    assert model.count(workers=2) == unreduced


def test_placed_queens_become_holes_only_where_all_symmetries_keep_them():
    assert not takes_placed_as_holes(cpqueens.model(13, placed=[(6, 5)]), "bitmask")
    assert not takes_placed_as_holes(cpqueens.model(13, placed=[(6, 6)], colours=2), "bitmask")
    assert not takes_placed_as_holes(cpqueens.model(13, placed=[(6, 6)]), "cpsat")
    with pytest.raises(ValueError, match=r"^placed queens become holes on a one-colour model"):
        placed_as_holes(cpqueens.model(5, placed=[(2, 2)], colours=2))


SUBGROUPS = [
    ["mirror"],
    ["flip"],
    ["rot180"],
    ["diagonal"],
    ["rot90"],
    ["mirror", "flip"],
    ["diagonal", "antidiagonal"],
]


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(2, 7),
    seeds=st.lists(cells, max_size=3),
    kept=st.sampled_from(SUBGROUPS),
    centre=st.booleans(),
    colours=st.integers(1, 2),
)
@pytest.mark.slow
def test_unique_counts_by_burnside_match_the_oracles_classes(n, seeds, kept, centre, colours):
    holes = {(r % n, c % n) for r, c in seeds}
    for _ in range(3):  # the images under the kept symmetries, and theirs
        holes |= {CELL_MAPS[name](r, c, n) for r, c in holes for name in kept}
    placed = [(n // 2, n // 2)] if centre and n % 2 and (n // 2, n // 2) not in holes else []
    model = cpqueens.model(n, sorted(holes), placed=placed, colours=colours)
    names = model.symmetries()
    solutions = oracle.solutions(n, sorted(holes), placed, colours)
    expected = len(brute_force_classes(solutions, names, n))
    assert model.count("bitmask", unique=True, workers=1) == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    "blocked",
    [
        [(0, 0), (0, 10)],  # the mirror
        [(0, 0), (10, 10)],  # the half turn and the diagonals
        [(1, 3), (9, 7), (3, 9), (7, 1)],  # the quarter turns
        [(2, 0), (8, 0)],  # the flip
    ],
)
def test_unique_counts_by_burnside_match_cpsats_lex_leader(blocked):
    model = cpqueens.model(11, blocked)
    assert len(model.symmetries()) > 1
    assert model.count("bitmask", unique=True) == model.count("cpsat", unique=True)


@pytest.mark.parametrize("n", range(2, 10))
@pytest.mark.slow
def test_the_turned_placements_are_the_oracles(n):
    full = (1 << n) - 1
    placements = [s[0] for s in oracle.solutions(n)]
    turned = [p for p in placements if all(p[n - 1 - r] == n - 1 - c for r, c in enumerate(p))]
    assert burnside.half_turn_placements(n, [full] * n) == sorted(turned)
    quarter = [p for p in turned if burnside.is_quarter_turn_fixed(p)]
    # The kernel's search and this module's listing agree.
    assert class_count.turn_fixed(n, [full] * n) == (len(turned), len(quarter))


@pytest.mark.parametrize(("n", "blocked"), [(8, []), (8, [(0, 0), (7, 7)]), (9, [(4, 4)])])
@pytest.mark.slow
def test_two_colour_unique_counts_by_burnside_match_the_lex_leader(n, blocked):
    model = cpqueens.model(n, blocked, colours=2)
    checked = model.with_constraints(leader(model)).count("bitmask", workers=1)
    assert model.count("bitmask", unique=True, workers=1) == checked


@pytest.mark.parametrize("n", range(5, 13))
def test_pieces_near_a_corner_split_by_their_edge_queens_add_up_to_the_whole_piece(n):
    from cpqueens.kernels.classes import _weighed_leaves, scratch
    from cpqueens.kernels.edges import by_edge_queens, marks, masks

    full = (1 << n) - 1
    corners = rows_of(n, [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)])
    split = 0
    for rows in ([full] * n, corners):
        for piece in class_count.pieces(n, 1 if n > 9 else 2):
            if piece.kind != "top":
                continue
            edge, bottom = marks(n, piece.distance)
            allowed = [a & r for a, r in zip(masks(n, *piece[1:]), rows, strict=True)]
            parts = by_edge_queens(n, piece.distance, allowed)
            split += len(parts) != 1
            # one queen in the last row each, in column 0 and n - 1 too near a corner
            if len(parts) > 1:
                for part in parts:
                    assert bin(part[-1]).count("1") == 1
                    if 5 * piece.distance < n:
                        assert sum(p & 1 == p for p in part) == 1
                        assert sum(p >> (n - 1) << (n - 1) == p for p in part) == 1

            def leaves(part, edge=edge, bottom=bottom):
                return int(
                    _weighed_leaves(
                        np.array(part, np.uint64),
                        np.array(edge, np.uint64),
                        np.uint64(bottom),
                        *scratch(n),
                    )
                )

            assert sum(leaves(p) for p in parts) == leaves(allowed), (n, rows, piece)
    assert split > 0
    # the corners blocked, on the kernels (split) against the plain bitmask search
    blocked = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)]
    two, four, eight = kernel_classes(n, blocked, 1)
    plain = int(native.count_placements(np.array(corners, np.uint64)))
    assert 2 * two + 4 * four + 8 * eight == plain
    if n <= 8:
        assert plain == len(list(oracle.placements(n, blocked)))
