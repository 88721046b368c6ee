"""The whole board or a refusal (issue 40): turned boards, two boards, dark pages, messages.

Every picture is drawn here (tests/screenshots.py) from puzzles the project
generated. A board turned by less than a degree is read exactly (turned
back first) or refused; a grid that is only part of the board is refused; a
picture with two boards is refused naming both; a dark page reads as a light
one does. Each reading is checked against the drawn truth.
"""

from __future__ import annotations

import io
import math
import random
import re

import numpy as np
import pytest
from PIL import Image

from cpqueens import Puzzle
from cpqueens.errors import ImageReadError
from cpqueens.readers import edges, lattice, screenshot
from tests import screenshots as shots
from tests.test_screenshots import puzzle


def fast() -> shots.Look:
    """Drawn without supersampling: a phone screenshot in some 30 ms (scaled after, smoothed)."""
    return shots.Look(supersample=1)


def assert_reads(data: object, expected: Puzzle) -> Puzzle:
    got = Puzzle.from_image(data)
    assert got == expected, f"\n{got}\n!=\n{expected}"
    return got


def turned_point(
    x: float, y: float, size: tuple[int, int], turned: tuple[int, int], degrees: float
) -> tuple[float, float]:
    """Where PIL's rotate(degrees, expand=True) puts the point (x, y) of a picture of ``size``."""
    a = math.radians(degrees)
    dx, dy = x - size[0] / 2, y - size[1] / 2
    return (
        turned[0] / 2 + dx * math.cos(a) + dy * math.sin(a),
        turned[1] / 2 - dx * math.sin(a) + dy * math.cos(a),
    )


# -- turned boards ---------------------------------------------------------------------------


@pytest.mark.parametrize("degrees", [0.2, -0.5, 0.5, 1.0])
def test_a_clean_5x5_board_turned_by_less_than_a_degree_reads_exactly(degrees):
    p = puzzle(5, 0)  # the case: turned by 0.5 degree, it was read as a 4x4 puzzle
    picture = shots.rotated(shots.board(p.regions, shots.Look(cell=48)), degrees)
    shot = Puzzle.read_screenshot(shots.png(picture))
    assert shot.puzzle == p
    turn = shot.reading.turn  # turned back, unless its lines drift by less than a pixel
    assert turn.angle == pytest.approx(degrees, abs=0.1) if turn else abs(degrees) < 0.3


@pytest.mark.slow
def test_a_turned_dark_phone_jpeg_reads_exactly():
    p = puzzle(9, 1)
    shot = shots.phone(p.regions, fast(), dark=True, page=(24, 26, 30))
    assert_reads(shots.jpeg(shots.scaled(shots.rotated(shot, -0.7), 0.5), 85), p)


def test_a_straight_board_is_read_as_it_is():
    p = puzzle(6, 0)
    assert Puzzle.read_screenshot(shots.png(shots.board(p.regions))).reading.turn is None


def test_the_overlay_on_a_turned_board_crowns_the_solution_cells_where_they_are_drawn():
    p = puzzle(6, 1)
    solution = p.solve()
    look = shots.Look(cell=50)
    board = shots.board(p.regions, look)
    picture = shots.rotated(board, 0.8)
    shot = Puzzle.read_screenshot(shots.png(picture))
    drawn = Image.open(io.BytesIO(shot.overlay(solution))).convert("RGB")
    left, top, _, _ = shots.board_box(p.regions, look)
    for r in range(6):
        for c in range(6):
            x, y = turned_point(
                left + (c + 0.5) * 50, top + (r + 0.5) * 50, board.size, picture.size, 0.8
            )
            crowned = sum(drawn.getpixel((round(x), round(y)))) < 60
            assert crowned == ((r, c) in solution), (r, c)


# -- the whole board ---------------------------------------------------------------------------


def _view(picture: Image.Image) -> screenshot._View:
    return screenshot._View.of(picture.convert("RGB"))


@pytest.mark.parametrize(
    ("rows", "cols", "side"),
    [(range(4), range(4), "its lines run on past its bottom edge"),
     (range(1, 5), range(5), "its lines run on past its top edge"),
     (range(5), range(1, 5), "its lines run on past its left edge")],
)  # fmt: skip
def test_a_grid_that_is_part_of_the_board_is_not_the_whole_board(rows, cols, side):
    p = puzzle(5, 1)
    look = shots.Look(cell=48)
    view = _view(shots.board(p.regions, look))
    left, top, _, _ = shots.board_box(p.regions, look)
    whole = lattice.Grid(
        5, tuple(left + 48.0 * k for k in range(6)), tuple(top + 48.0 * k for k in range(6))
    )
    assert edges.runs_on(view.darkness, view.rgb, whole, np.zeros((5, 5, 3))) is None
    rows, cols = list(rows), list(cols)
    part = lattice.Grid(
        4,
        tuple(whole.xs[c] for c in [*cols, cols[-1] + 1]),
        tuple(whole.ys[r] for r in [*rows, rows[-1] + 1]),
    )
    colours = np.array([[view.rgb[round(part.ys[r]) + 24, round(part.xs[c]) + 24]
                         for c in range(4)] for r in range(4)], dtype=float)  # fmt: skip
    assert edges.runs_on(view.darkness, view.rgb, part, colours) == side


def test_a_crop_that_cuts_a_row_to_a_sliver_is_refused():
    p = puzzle(8, 0)
    look = shots.Look(cell=50)
    left, top, right, bottom = shots.board_box(p.regions, look)
    picture = shots.board(p.regions, look).crop((left + 5, top + 35, right - 5, bottom - 5))
    with pytest.raises(ImageReadError):  # 15 pixels of the top row are left: not the board
        Puzzle.from_image(shots.png(picture))


# -- two boards -----------------------------------------------------------------------------

TWO = re.compile(
    r"the picture holds two boards (side by side|one above the other) \(a (\d+)x\2 grid at "
    r"x (\d+)-(\d+), y (\d+)-(\d+); a (\d+)x\7 grid at x (\d+)-(\d+), y (\d+)-(\d+)\): "
    r"crop it to the one to read"
)


@pytest.mark.parametrize("across", [True, False], ids=["side by side", "stacked"])
def test_two_boards_in_one_picture_are_refused_naming_both(across):
    first, second = puzzle(6, 0), puzzle(5, 1)
    look_a, look_b = shots.Look(cell=40), shots.Look(cell=44)
    picture = shots.together(
        shots.board(first.regions, look_a), shots.board(second.regions, look_b), across, gap=30
    )
    with pytest.raises(ImageReadError) as caught:
        Puzzle.from_image(shots.png(picture))
    found = TWO.fullmatch(str(caught.value))
    assert found, str(caught.value)
    assert found[1] == ("side by side" if across else "one above the other")
    a_left, a_top, a_right, a_bottom = shots.board_box(first.regions, look_a)
    b_left, b_top, b_right, b_bottom = shots.board_box(second.regions, look_b)
    shift = (a_right + a_left + 30, 0) if across else (0, a_bottom + a_top + 30)
    expected = [
        (6, a_left, a_right, a_top, a_bottom),
        (5, b_left + shift[0], b_right + shift[0], b_top + shift[1], b_bottom + shift[1]),
    ]
    told = [
        tuple(int(v) for v in found.group(2, 3, 4, 5, 6)),
        tuple(int(v) for v in found.group(7, 8, 9, 10, 11)),
    ]
    for (n, *box), (m, *seen) in zip(expected, told, strict=True):
        assert n == m and all(abs(a - b) <= 3 for a, b in zip(box, seen, strict=True)), told


@pytest.mark.parametrize("across", [True, False], ids=["side by side", "stacked"])
def test_two_tight_crops_touching_are_refused_naming_both(across):
    first, second = puzzle(6, 0), puzzle(5, 1)
    crops = [
        shots.board(p.regions, look).crop(shots.board_box(p.regions, look))
        for p, look in ((first, shots.Look(cell=44)), (second, shots.Look(cell=40)))
    ]
    with pytest.raises(ImageReadError) as caught:
        Puzzle.from_image(shots.png(shots.together(*crops, across)))
    found = TWO.fullmatch(str(caught.value))
    assert found and (found[2], found[7]) == ("6", "5"), str(caught.value)
    edge = 6 * 44  # where the second board starts
    assert abs(int(found[8] if across else found[10]) - edge) <= 2, str(caught.value)
    # (with cells of one size, the two boards' lines join into lines across both, and the
    # picture is refused as "no board found": not named, but not read either)


def test_a_phone_with_a_second_small_board_is_refused():
    p, q = puzzle(7, 0), puzzle(5, 0)
    shot = shots.phone(p.regions, fast(), dark=True)
    small = shots.board(q.regions, shots.Look(cell=24, background=(0, 0, 0)))
    shot.paste(Image.new("RGB", (small.width + 40, small.height + 40)), (40, 2200))
    shot.paste(small, (60, 2220))
    with pytest.raises(ImageReadError, match=r"^the picture holds two boards .*a 7x7 grid.*5x5"):
        Puzzle.from_image(shots.png(shot))


# -- dark pages -----------------------------------------------------------------------------


@pytest.mark.parametrize("page", [(18, 18, 18), (32, 32, 36)])
def test_a_dark_phone_page_reads_as_a_light_one(page):
    p = puzzle(8, 1)
    light = shots.phone(p.regions, fast())
    dark = shots.phone(p.regions, fast(), dark=True, page=page)
    for picture in (light, dark):
        assert_reads(shots.jpeg(shots.scaled(picture, 0.5), 85), p)


@pytest.mark.parametrize("size", [22, 28])
def test_a_dark_page_full_of_small_light_text_reads_as_a_light_one(size):
    # the gaps between lines of light text on a near-black page were long dark lines, and
    # their lattices crowded out the board: "no board found" (issue 40: 25-27 of 30 read)
    p = puzzle(6, 0)
    for dark in (False, True):
        shot = shots.phone(
            p.regions, fast(), dark=dark, page=(20, 20, 22) if dark else None, text=(size, 1.3)
        )
        assert_reads(shots.jpeg(shot, 85), p)


# -- messages ---------------------------------------------------------------------------------


def test_a_region_in_pieces_is_named_by_0_based_cells():
    regions = [[0, 0, 1, 1, 1], [0, 2, 2, 2, 1], [3, 3, 2, 4, 1], [3, 3, 4, 4, 4], [4, 0, 4, 4, 4]]
    with pytest.raises(ImageReadError) as caught:
        Puzzle.from_image(shots.png(shots.board(regions)))
    assert str(caught.value) == (
        "found a 5x5 grid with 5 colour groups but the puzzle read has a region in pieces "
        "(the colour of (0, 0) again at (4, 1), not connected)"
    )


def test_colours_and_lines_that_disagree_name_the_line_0_based():
    p = puzzle(6, 0)
    drawn = [list(row) for row in p.regions]
    assert drawn[2][3] != drawn[2][4] == drawn[2][5]
    drawn[2][4] = drawn[2][3]  # the thick lines drawn as if (2, 4) were in (2, 3)'s region
    with pytest.raises(ImageReadError) as caught:
        Puzzle.from_image(shots.png(shots.board(p.regions, shots.Look(borders=drawn))))
    assert str(caught.value) == (
        "found a 6x6 grid with 6 colour groups but its colours and its lines disagree: "
        "a thin line between (2, 3) and (2, 4), whose cells are two colours"
    )


def test_a_drawing_with_thin_lines_only_says_nothing_marks_the_regions():
    p = puzzle(7, 0)
    white = shots.Look(thick=1, palette=[(255, 255, 255)] * 7)
    with pytest.raises(ImageReadError) as caught:
        Puzzle.from_image(shots.png(shots.board(p.regions, white)))
    assert str(caught.value) == (
        "found a 7x7 grid but its cells are all one colour and no line is thicker than "
        "another: nothing marks the regions (coloured cells or thick borders between regions)"
    )
    bordered = shots.Look(palette=[(255, 255, 255)] * 7)  # regions drawn by thick lines only
    with pytest.raises(ImageReadError) as caught:
        Puzzle.from_image(shots.png(shots.board(p.regions, bordered)))
    assert str(caught.value) == (
        "found a 7x7 grid but its cells are all one colour: the regions are drawn by their "
        "borders only, and only coloured regions are read"
    )


# -- exact or refused: a sweep --------------------------------------------------------------


@pytest.mark.slow
def test_sweep_turned_dark_and_double_pictures_read_exactly_or_are_refused():
    rng = random.Random(40)
    answered = 0
    for trial in range(10):
        n = rng.choice([5, 6, 7, 8, 9, 10])
        p = puzzle(n, trial % 2)
        look = shots.Look(cell=rng.randint(30, 60))
        if trial % 5 == 4:  # two boards: only a refusal is right
            q = puzzle(rng.choice([5, 6, 7]), 1)
            picture = shots.together(
                shots.board(p.regions, look), shots.board(q.regions), trial % 2 == 0
            )
            truth = None
        elif trial % 2:
            picture = shots.phone(p.regions, dark=True, seed=trial, page=(24, 26, 30))
            truth = p
        else:
            look.background = (20, 20, 20) if trial % 4 else (255, 255, 255)
            picture = shots.board(p.regions, look)
            truth = p
        picture = shots.rotated(picture, rng.uniform(0.2, 1.0) * rng.choice([-1, 1]))
        data = shots.jpeg(picture, 85) if trial % 3 else shots.png(picture)
        try:
            got = Puzzle.from_image(data)
        except ImageReadError:
            continue
        assert truth is not None and got == truth, f"trial {trial}: answered\n{got}"
        answered += 1
    assert answered >= 6  # turned boards are read, not merely refused


# -- the reader's own shortcuts give NumPy's values -------------------------------------------


def test_the_readers_median_is_numpys_to_the_bit():
    # the reader takes thousands of medians of small parts (issue 47 item 6: CPU): its own
    # must give exactly np.median's values and types, or a reading could change
    rng = np.random.default_rng(47)
    for _ in range(400):
        kind = rng.choice([np.uint8, np.int16, np.float32, np.float64])
        shape = tuple(int(v) for v in rng.integers(1, 8, size=rng.integers(1, 3)))
        a = (rng.random(shape) * 255).astype(kind)
        for axis in (None, *range(a.ndim)):
            mine, numpys = lattice.median(a, axis), np.median(a, axis=axis)
            assert np.asarray(mine).dtype == np.asarray(numpys).dtype
            assert np.array_equal(mine, numpys), (a, axis)


@pytest.mark.parametrize("name", edges.SIDES)
def test_each_row_past_a_side_is_what_rows_gives_one_at_a_time(name):
    picture = np.zeros((40, 50), dtype=np.uint8)
    grid = lattice.Grid(4, (7.5, 15.5, 23.5, 31.5, 39.5), (3.25, 11.25, 19.25, 27.25, 35.25))
    side = edges._Side.of(name, picture, np.zeros((40, 50, 3), dtype=np.uint8), grid)
    for start, stop in ((0, 2.4), (2, 12.0), (0, 30.0), (5, 5.0)):
        expected = []
        for d in range(start, math.ceil(stop)):
            rows = side.rows(d, d + 1, least=1)
            if rows is None:
                break
            expected.append(rows[0])
        assert side.each_row(start, stop) == expected
