"""Screenshots by an outside painter (issue 47): read exactly or refused, never misread.

Every picture here is drawn by ``tests/painter.py``, a painter that shares no
code with cpqueens' own (``tests/screenshots.py``): its own geometry, line
widths, margins, anti-aliasing, marks and frames, and the game's dark theme
(a near-black page, muted regions, light thin lines). A reading must be the
painted puzzle, or a refusal in one line; never another puzzle. The reported
case (a 5x5 board whose orange-red region runs along the left and bottom
edges, once read as a 4x4 puzzle) is drawn in all its forms.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image

from cpqueens import Puzzle
from cpqueens.errors import ImageReadError
from cpqueens.readers import edges, lattice, screenshot
from tests import painter

REPORTED = Puzzle(5, painter.REPORTED)


def draw(regions, seed, solution=(), **options) -> painter.Shot:
    return painter.picture(regions, random.Random(seed), solution=solution, **options)


def verdict(shot: painter.Shot, expected: Puzzle) -> str:
    """'right', or the refusal's words; a misread fails the test here."""
    try:
        got = Puzzle.from_image(shot.data)
    except ImageReadError as refused:
        assert "\n" not in str(refused)
        return str(refused)
    assert got == expected, f"{shot.what}: misread\n{got}\n!=\n{expected}"
    return "right"


# -- the painter draws what it says ----------------------------------------------------------


def test_the_painter_paints_each_cell_in_its_regions_colour():
    shot = draw(painter.REPORTED, 0, colours=painter.REPORTED_COLOURS, dark=False,
                frame="frameless", quality=False, marks=False, close_edge=False)  # fmt: skip
    picture = np.asarray(Image.open(io.BytesIO(shot.data)).convert("RGB"), dtype=int)
    board = shot.board
    assert board.colours == list(painter.REPORTED_COLOURS)
    left = (picture.shape[1] - 5 * board.cell) / 2  # the margins are the same each side here
    top = (picture.shape[0] - 5 * board.cell) / 2
    for r in range(5):
        for c in range(5):
            x, y = round(left + (c + 0.5) * board.cell), round(top + (r + 0.5) * board.cell)
            colour = painter.REPORTED_COLOURS[painter.REPORTED[r][c]]
            assert np.abs(picture[y, x] - colour).max() <= 1, (r, c)


def test_random_regions_are_n_connected_regions():
    for seed in range(20):
        n = 5 + seed % 8
        regions = painter.random_regions(n, random.Random(seed))
        p = Puzzle(n, regions)
        assert p.is_connected()


# -- the reported case, in all its forms -----------------------------------------------------

FORMS = [
    (frame, dark, quality, marks)
    for frame in ("phone", "frameless")
    for dark in (False, True)
    for quality in (False, 80)
    for marks in (False, True)
]


def _form_id(form: tuple[str, bool, int | bool, bool]) -> str:
    frame, dark, quality, marks = form
    words = [frame, "dark" if dark else "light", f"jpeg{quality}" if quality else "png"]
    return "-".join([*words, *(["marks"] if marks else [])])


def _reported(form: tuple[str, bool, int | bool, bool], seed: int) -> painter.Shot:
    frame, dark, quality, marks = form
    return draw(painter.REPORTED, seed, REPORTED.solve() or (), dark=dark, frame=frame,
                quality=quality, marks=marks, colours=painter.REPORTED_COLOURS,
                close_edge=False)  # fmt: skip


@pytest.mark.parametrize("form", FORMS, ids=_form_id)
def test_the_reported_5x5_board_reads_exactly_in_every_form(form):
    assert verdict(_reported(form, 0), REPORTED) == "right"


@pytest.mark.slow
@pytest.mark.parametrize("form", FORMS, ids=_form_id)
def test_the_reported_5x5_board_reads_exactly_in_every_form_more_seeds(form):
    for seed in (1, 2):
        assert verdict(_reported(form, seed), REPORTED) == "right"


def test_its_4x4_part_is_refused_as_not_the_whole_board():
    # the misread: the lattice of columns 1-4 and rows 0-3, the orange-red L taken for frame
    shot = draw(painter.REPORTED, 0, colours=painter.REPORTED_COLOURS, dark=False,
                frame="frameless", quality=False, marks=False, close_edge=False)  # fmt: skip
    view = screenshot._View.of(Image.open(io.BytesIO(shot.data)).convert("RGB"))
    whole = screenshot.read(shot.data)
    assert whole.n == 5
    part = lattice.Grid(4, whole.xs[1:], whole.ys[:-1])
    colours = np.array(whole.colours, dtype=float)[:-1, 1:]
    said = edges.runs_on(view.darkness, view.rgb, part, colours)
    assert said is not None and ("left" in said or "bottom" in said), said


# -- the game's dark theme -------------------------------------------------------------------

#: A board of 8 regions whose last (bottom-left) region is drawn close to a dark page.
EIGHT = (
    (0, 0, 0, 0, 0, 0, 0, 1),
    (0, 0, 0, 0, 0, 1, 1, 1),
    (0, 2, 0, 0, 0, 0, 1, 1),
    (0, 2, 0, 0, 3, 1, 1, 4),
    (2, 2, 2, 0, 3, 1, 1, 1),
    (5, 5, 2, 3, 3, 3, 3, 6),
    (5, 7, 3, 3, 6, 3, 6, 6),
    (7, 7, 7, 6, 6, 6, 6, 6),
)


def test_the_dark_theme_is_drawn_as_the_game_draws_it():
    # a near-black page, light thin lines, the game's colours muted by one rule for all
    for seed in range(40):
        rng = random.Random(seed)
        theme = painter.dark_theme(rng)
        assert max(theme.page) <= 40 and min(theme.thin) >= 200 and theme.thin_alpha <= 0.5
        colours = painter.palette(rng, 9, theme, "game")
        d, k = theme.mute
        for colour in colours:
            base = next(g for g in painter.GAME if painter.muted(g, theme) == colour)
            assert max(colour) < max(base) and colour == painter.muted(base, theme)
        assert 0.15 <= d <= 0.35 and 0.55 <= k <= 0.72


@pytest.mark.parametrize("seed", range(2))
def test_the_games_closest_colours_muted_the_most_read_exactly_on_a_dark_phone(seed):
    # muted by (0.35, 0.55), the game's closest colours are 12 grey levels apart
    p = Puzzle(8, EIGHT)
    rng = random.Random(seed)
    theme = replace(painter.dark_theme(rng), mute=(0.35, 0.55))
    board = painter.Board(p.regions, painter.palette(rng, 8, theme, "game"), theme, 50)
    shot = painter.Shot(painter.encode(painter.phone(board, rng).image(), 85), p.regions, "", board)
    assert verdict(shot, p) == "right"


def test_a_resized_dark_page_with_a_region_close_to_the_page_reads_exactly():
    # resized (bicubic), the phone's light thin lines ring: a few grey levels darker beside
    # them, on the near-black region a large share of its room, once taken for a thick line
    p = Puzzle(8, EIGHT)
    shot = draw(EIGHT, 26, p.solve(), dark=True, frame="phone")
    assert shot.what == "dark phone png marks close-to-page"
    assert verdict(shot, p) == "right"


TEN = Puzzle.parse(
    "ABBBBBCCCC\nBBCCCBCDEE\nFCCCCCCDEE\nFFCCCCDDDD\nFFCFFCCDDD\nFFFFDDCDDD\nGFGFFDDDDD\n"
    "GFGHIIDDHH\nGGGHIIDHHJ\nGGHHHHHHHH"
).regions


@pytest.mark.slow
def test_a_near_black_region_on_a_large_dark_phone_reads_exactly():
    # benchmarks/bench_painter.py --light-and-dark, seed 5, dark (the puzzle Puzzle.generate
    # made there): 1170 x 2532, shrunk by 2 its light 1-pixel lines (some 15 grey levels) were
    # too faint to find ("no board found"), and beside its near-black region G the black
    # borders show no ink (a thin line between (5, 0) and (6, 0), whose cells are two colours)
    rng = random.Random(5)
    kind, _, _ = rng.random(), rng.randint(5, 12), rng.randrange(10**6)  # as the bench draws
    p = Puzzle(10, TEN)
    shot = painter.picture(TEN, rng, dark=True, one_pixel=kind < 0.16, solution=p.solve())
    assert shot.what == "dark phone png close-to-page"
    assert verdict(shot, p) == "right"


# -- boards of 1-pixel lines ---------------------------------------------------------------


def _one_pixel(line: int, seed: int, dark: bool = False) -> tuple[painter.Shot, Puzzle]:
    """A board of 1-pixel lines of one grey ``line``, regions told by their colours alone."""
    p = Puzzle(6, SIX)
    rng = random.Random(seed)
    theme = replace(
        painter.one_pixel_theme(dark), thin=(line,) * 3, thick=(line,) * 3, outer=(line,) * 3
    )
    board = painter.Board(p.regions, painter.palette(rng, 6, theme, "game"), theme, 47.3)
    image = painter.frameless(board, (10, 10, 10, 10)).image()
    return painter.Shot(painter.encode(image, None), p.regions, "1px", board), p


#: A 6x6 board (Puzzle.generate(6, seed=0)).
SIX = (
    (0, 0, 0, 0, 0, 0),
    (0, 1, 1, 1, 0, 2),
    (3, 4, 1, 0, 0, 5),
    (3, 4, 4, 5, 5, 5),
    (4, 4, 4, 4, 5, 5),
    (4, 4, 4, 4, 5, 5),
)


@pytest.mark.parametrize("line", [40, 180])
def test_a_board_of_one_pixel_lines_reads_by_its_colours(line):
    # a grey between the cells' shades is dark ink over lighter cells and light ink over
    # darker ones: once read as thick lines inside a region and refused ("a thick line
    # between (0, 0) and (0, 1)", a line that is not there)
    shot, p = _one_pixel(line, 0)
    assert verdict(shot, p) == "right"


# -- the adversarial family: an L-shaped edge region close to the page or the frame ------------


def _l_case(seed: int, **options) -> tuple[painter.Shot, Puzzle]:
    rng = random.Random(seed)
    n = 5 + seed % 4
    while not (p := Puzzle(n, painter.l_regions(n, rng))).is_unique():
        pass
    return painter.picture(
        p.regions, rng, close_edge=True, edge_region=0, solution=p.solve(), **options
    ), p


@pytest.mark.parametrize(
    "options",
    [
        {"dark": True, "close_to": "page", "quality": 70, "marks": True},
        {"dark": False, "close_to": "frame", "quality": 80, "marks": True},
    ],
    ids=["dark-page-jpeg-marks", "light-frame-jpeg-marks"],
)
def test_an_l_shaped_edge_region_close_to_the_page_or_frame_is_never_misread(options):
    # benchmarks/bench_painter.py --adversarial draws hundreds (RESULTS-screenshots.md)
    for seed in range(2):
        verdict(*_l_case(seed, **options))


def test_a_picture_ending_on_a_line_inside_the_board_is_refused():
    # the reported board cut through the line left of its second column and above its
    # bottom row: the picture ends on a line that is thin here and thick there
    shot = _reported(("phone", True, 80, True), 0)
    reading = screenshot.read(shot.data)
    picture = Image.open(io.BytesIO(shot.data))
    box = (round(reading.xs[1]), round(reading.ys[0]) - 20, round(reading.xs[-1]) + 20,
           round(reading.ys[-2]))  # fmt: skip
    out = io.BytesIO()
    picture.crop(box).save(out, "PNG")
    with pytest.raises(ImageReadError, match=r"border was not found|run on"):
        Puzzle.from_image(out.getvalue())


# -- random boards, every family -------------------------------------------------------------


def _random_case(seed: int) -> tuple[painter.Shot, Puzzle]:
    rng = random.Random(seed)
    n = rng.randint(5, 12)
    p = Puzzle.generate(n, seed=rng.randrange(10**6))[0]
    return painter.picture(p.regions, rng, one_pixel=rng.random() < 0.1, solution=p.solve()), p


@pytest.mark.parametrize("seed", range(2))
def test_random_boards_read_exactly_or_are_refused(seed):
    shot, p = _random_case(seed)
    verdict(shot, p)


@pytest.mark.slow
def test_twenty_random_boards_none_misread_and_most_read():
    # benchmarks/bench_painter.py draws thousands (RESULTS-screenshots.md)
    verdicts = [verdict(*_random_case(1000 + seed)) for seed in range(20)]
    refused = [v for v in verdicts if v != "right"]
    assert len(refused) <= 2, refused


@pytest.mark.slow
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_an_edge_region_coloured_close_to_the_page_is_not_cut_off(dark):
    verdicts = []
    for seed in range(8):
        rng = random.Random(seed)
        p = Puzzle.generate(rng.randint(5, 9), seed=seed)[0]
        shot = painter.picture(p.regions, rng, dark=dark, close_edge=True, solution=p.solve())
        verdicts.append(verdict(shot, p))
    assert verdicts.count("right") >= 7, verdicts


@pytest.mark.slow
def test_the_same_puzzles_read_the_same_on_dark_pages_as_on_light():
    for seed in range(5):
        p = Puzzle.generate(6 + seed, seed=seed)[0]
        for dark in (False, True):
            shot = draw(p.regions, seed, p.solve(), dark=dark, frame="phone", quality=False)
            assert verdict(shot, p) == "right", (seed, shot.what)


# -- the command line ------------------------------------------------------------------------


@pytest.mark.slow
def test_the_command_line_solves_the_reported_board_and_refuses_a_cut_one(tmp_path):
    shot = _reported(("phone", True, 80, True), 0)
    (tmp_path / "shot.jpg").write_bytes(shot.data)
    command = [sys.executable, "-m", "cpqueens", "puzzle", "solve"]
    done = subprocess.run([*command, "shot.jpg"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    solution = REPORTED.solve()
    assert sum(row.count("*") for row in done.stdout.splitlines()) == 5
    for r, row in enumerate(done.stdout.splitlines()):
        assert [c for c, cell in enumerate(row.split()) if cell.endswith("*")] == [
            c for rr, c in solution if rr == r
        ]
    board = Image.open(io.BytesIO(shot.data))
    reading = screenshot.read(shot.data)
    left, top = round(reading.xs[1]), round(reading.ys[0]) - 20  # the left column cut away
    board.crop((left, top, round(reading.xs[-1]) + 20, round(reading.ys[-2]))).save(
        tmp_path / "cut.png"
    )
    done = subprocess.run([*command, "cut.png"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode != 0 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "border was not found" in done.stderr or "run on" in done.stderr, done.stderr
