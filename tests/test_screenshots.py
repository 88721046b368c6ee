"""Puzzles read from screenshots (issue 33): rendered by the tests, read back exactly or refused.

Every picture is made here (tests/screenshots.py) from puzzles the project
generated: boards in the game's look, in phone and desktop frames, light and
dark, scaled, as JPEG, cropped tight, with highlighted cells, queens and X
marks. A reading must equal the rendered regions up to renaming, or be
refused with a line that says what was seen; never a different puzzle.
"""

from __future__ import annotations

import io
import json
import os
import random
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image

from cpqueens import CpqueensError, Puzzle
from cpqueens.errors import ImageReadError
from cpqueens.readers import images
from cpqueens.readers.colours import tone_cost
from tests import screenshots as shots

ROOT = Path(__file__).resolve().parent.parent

#: Puzzle.generate(n, seed=s) for s = 0, 1: unique, connected (checked below).
PUZZLES = {
    (5, 0): "AAAAA\nBACAA\nBDCAE\nDDCEE\nDCCCE",
    (5, 1): "AABBB\nABBCB\nAABCD\nEEBBD\nEEDDD",
    (6, 0): "AAAAAA\nBCCCAA\nBDCCEE\nDDCFEE\nDCCFFE\nFFFFEE",
    (6, 1): "ABBBBB\nACCCCB\nACDDDB\nAAEEBB\nAAAFFB\nFFFFFB",
    (7, 0): "ABBBBBB\nACBDBEE\nADDDBBE\nADDDBBB\nADADDDF\nAAADDFF\nAAAGFFF",
    (7, 1): "AAABBBB\nAAAAACC\nDDAAECC\nDAAAECE\nDDDFEEE\nDDDFGEE\nDDFFGEE",
    (8, 0): "ABBBCDDD\nABEBDDFF\nABEEDDFF\nABEEEEFF\nAGGGHEFF\nGGGHHHHF\nGGGHGFHF\nGGGGGFFF",
    (8, 1): "AAABBBCC\nAAABBCDC\nAAAACCCC\nAAAACCCC\nAAAAECCC\nFGEEEEEC\nFGEHEHHC\nGGEHHHHC",
    (9, 0): "AAAAAAABB\nAAAAAAABB\nAAAAAABBC\nDADBBBBCC\nDDDEEEEEF\nDDDEEFFFF\nGGDGHHIFF\n"
    "GGGGGHIII\nGGGHHHHHH",
    (9, 1): "AABBBBCCC\nAABBBBBBB\nAAABBBBDB\nAAABEEEDD\nAAAAEDDDD\nFGGGEEEHD\nFGFGGEEEE\n"
    "FFFGGEEEI\nFFFIIIIII",
    (10, 0): "AAABBBBBCC\nAAAAABBCCC\nAAAACCCCDD\nAAEFFCCDDD\nAFFFFCCDDD\nFFFFDDDDDD\n"
    "FFGGGGDDDD\nHHHHGGIDDD\nHHHHHGIDDD\nHJJIIIIIDD",
    (10, 1): "AABBBBBBBB\nACCCCBBDDD\nAAAABBBEED\nFFFAGGGGEE\nFFFAAGGGEE\nFFFFHHGIIE\n"
    "FFHHHHGGII\nFFHJHJGIII\nHHHJJJGGII\nJJJJGGGGII",
    (11, 0): "AAAABBBBBCC\nDEAEEBCCBCC\nDEEEEBBCCCF\nDDGBBBHHCFF\nDDGBBBHHFFF\nIDDIIBHHFFF\n"
    "IDIIIJHHHKF\nIIIIJJHKKKF\nIIIJJFHKKKF\nIIIIJFFFFFF\nIIIIFFFFFFF",
    (11, 1): "AAAAAAAABBB\nAAAAAABBBBB\nAAAACAABBBB\nDCCCCEEBBFB\nGGCCEEEFFFF\nGCCCCEFFHFH\n"
    "GGCCCEEFHHH\nGGGGIIEEHHH\nGJGGIHHEHHH\nJJGJIHHHHHH\nJJJJIHHHHHK",
    (12, 0): "AABBBCCDDDEE\nAABBCCDDDDEE\nABBBDDDDDDEF\nBBBBBDGGGGEF\nHHBHBGGGGGFF\n"
    "HHHHBGGIIGFJ\nHHHKBGIIIJFJ\nHKKKIIIIIJFJ\nHKKKIIIIJJJJ\nHKKKKILLLJLJ\nKKKKKIILLLLJ\n"
    "KKKKKKKLLLLL",
    (12, 1): "AAAABBBCCCDD\nAAABBBBCCCDE\nAAAFFFCCCEDE\nAAAAFFFFEEEE\nAAAFFGFFFEEE\n"
    "AGAAGGFHHHEE\nGGAGGGFFHHHE\nGGGGGGGHHHHH\nGGGGGGGHIJJH\nGGGGKGGHIIJJ\nLGKKKGGHIJJJ\n"
    "GGKKKKKHIIII",
}


def puzzle(n: int, seed: int = 0) -> Puzzle:
    return Puzzle.parse(PUZZLES[(n, seed)])


def read(data: object, **options: object) -> Puzzle:
    return Puzzle.from_image(data, **options)


def assert_reads(data: object, expected: Puzzle) -> None:
    got = read(data)
    assert shots.same_regions(got.regions, expected.regions), f"\n{got}\n!=\n{expected}"


@pytest.mark.slow
def test_the_puzzles_rendered_are_unique_and_connected():
    for p in (Puzzle.parse(text) for text in PUZZLES.values()):
        assert p.is_connected() and p.count(limit=2) == 1


def test_same_regions_is_equality_up_to_renaming():
    assert shots.same_regions(((0, 1), (1, 1)), ((1, 0), (0, 0)))
    assert not shots.same_regions(((0, 1), (1, 1)), ((0, 1), (0, 1)))


# -- what players capture -------------------------------------------------------------------


@pytest.mark.parametrize(
    "dark", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["light", "dark"]
)
def test_a_phone_screenshot_reads_exactly(dark):
    p = puzzle(9, 1)
    shot = shots.phone(p.regions, dark=dark)
    assert shot.size == (1080, 2400)
    assert_reads(shots.png(shot), p)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_desktop_window_reads_exactly(dark):
    p = puzzle(8, 0)
    assert_reads(shots.png(shots.desktop(p.regions, dark=dark)), p)


def test_a_page_crop_with_a_margin_and_a_coloured_background():
    p = puzzle(7, 1)
    look = shots.Look(cell=48, background=(230, 240, 250))
    assert_reads(shots.png(shots.board(p.regions, look)), p)


@pytest.mark.parametrize("cut", [-3, -2, -1])
def test_a_tight_crop_that_keeps_the_border_reads(cut):
    p = puzzle(10, 0)
    look = shots.Look(cell=50)  # the border: 3 pixels outside the cells
    left, top, right, bottom = shots.board_box(p.regions, look)
    picture = shots.board(p.regions, look).crop((left + cut, top + cut, right - cut, bottom - cut))
    assert_reads(shots.png(picture), p)


@pytest.mark.parametrize(("factor", "quality"), [(0.75, None), (0.5, 79)])
def test_a_crop_through_the_border_line_resized_reads(factor, quality):
    # a pixel of the 3-pixel border left, resized: the outermost pixels are part border, part
    # cell, so they change along the side as the cells do; refused as "a line that changes
    # along it" (a line inside the board) from 11ce9e1 until the blend was seen for what it is
    p = puzzle(8, 1)
    look = shots.Look(cell=77)
    left, top, right, bottom = shots.board_box(p.regions, look)
    picture = shots.board(p.regions, look).crop((left - 1, top - 1, right + 1, bottom + 1))
    picture = shots.scaled(picture, factor)
    assert_reads(shots.jpeg(picture, quality) if quality else shots.png(picture), p)


@pytest.mark.parametrize("factor", [1, 0.5])
def test_a_crop_along_a_line_inside_the_board_is_refused(factor):
    # cut along the line right of the first column and above the bottom row: the picture ends on
    # a line thin within a region and thick between two (never read as the 7x7 board it frames)
    p = puzzle(8, 1)
    look = shots.Look(cell=77)
    left, top, right, bottom = shots.board_box(p.regions, look)
    picture = shots.board(p.regions, look).crop((left + 77, top - 4, right + 4, bottom - 77))
    with pytest.raises(ImageReadError, match=r"^found a 7x7 grid but its bottom border was not "
                       r"found: the picture ends on a line that changes along it, a line inside "
                       r"the board \(crop the picture with the board's border\)$"):  # fmt: skip
        read(shots.png(shots.scaled(picture, factor)))


@pytest.mark.parametrize("cut", [0, 3, 7])
def test_a_crop_through_the_edge_cells_is_refused(cut):
    # the picture ends inside the cells: a column or a row could be missing (issue 47)
    p = puzzle(10, 0)
    look = shots.Look(cell=50)
    left, top, right, bottom = shots.board_box(p.regions, look)
    picture = shots.board(p.regions, look).crop((left + cut, top + cut, right - cut, bottom - 2))
    with pytest.raises(ImageReadError, match=r"^found a 10x10 grid but its \w+ border was not "
                       r"found: the picture ends inside its edge cells \(crop the picture with "
                       r"the board's border\)$"):  # fmt: skip
        read(shots.png(picture))


@pytest.mark.parametrize(("factor", "quality"), [(0.5, 60), (0.75, 80), (1.5, 95), (3, 70)])
def test_scaled_jpeg_screenshots(factor, quality):
    p = puzzle(11, 0)
    look = shots.Look(cell=44)
    picture = shots.scaled(shots.board(p.regions, look), factor)
    assert_reads(shots.jpeg(picture, quality), p)


@pytest.mark.slow
def test_a_scaled_phone_jpeg():
    p = puzzle(12, 1)
    assert_reads(shots.jpeg(shots.scaled(shots.phone(p.regions), 0.5), 60), p)


@pytest.mark.slow
@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10, 11, 12])
def test_every_size_from_5_to_12(n):
    p = puzzle(n, 1)
    assert_reads(shots.png(shots.board(p.regions, shots.Look(cell=40))), p)


@pytest.mark.parametrize(
    ("alpha", "factor", "dark"),
    [(0.25, 1, False), (0.15, 0.5, False), (None, 0.5, False), (None, 0.75, True)],
    ids=["faint", "fainter", "none", "none-dark"],
)
def test_faint_thin_lines_or_none_the_board_told_by_its_outline(alpha, factor, dark):
    p = puzzle(9, 0)
    look = shots.Look(line_alpha=alpha, thin=1) if alpha else shots.Look(line=None)
    assert_reads(shots.png(shots.scaled(shots.desktop(p.regions, look, dark=dark), factor)), p)


@pytest.mark.slow
def test_highlighted_cells_queens_and_crosses_are_read_under():
    p = puzzle(9, 0)
    solution = p.solve()
    look = shots.Look(
        queens=solution[:4],
        crosses=[(0, 0), (8, 8), (4, 1)],
        highlights={(2, 2): 0.8, (6, 5): 1.25, (7, 7): 0.85},
    )
    data = shots.png(shots.desktop(p.regions, look))
    assert_reads(data, p)
    shot = Puzzle.read_screenshot(data)
    assert shot.reading.queens == tuple(sorted(solution[:4]))
    assert shot.reading.crosses == ((0, 0), (4, 1), (8, 8))
    assert shot.puzzle.queens == ()  # drawn queens are not givens unless asked
    given = Puzzle.from_image(data, with_queens=True)
    assert given.queens == tuple(sorted(solution[:4])) and given.count() == 1


def test_the_overlay_draws_a_queen_on_each_solution_cell_and_nowhere_else():
    p = puzzle(8, 1)
    solution = p.solve()
    look = shots.Look(cell=50)
    shot = Puzzle.read_screenshot(shots.png(shots.board(p.regions, look)))
    drawn = Image.open(io.BytesIO(shot.overlay(solution))).convert("RGB")
    left, top, _, _ = shots.board_box(p.regions, look)
    for r in range(8):
        for c in range(8):
            x, y = left + c * 50 + 25, top + r * 50 + 25
            assert (sum(drawn.getpixel((x, y))) < 60) == ((r, c) in solution), (r, c)


def test_region_colours_25_apart_are_told_apart():
    p = puzzle(12, 0)
    assert_reads(shots.png(shots.board(p.regions, shots.Look(palette=shots.CLOSE))), p)
    close = shots.CLOSE
    assert max(abs(a - b) for a, b in zip(close[0], close[1], strict=True)) == 25


def test_every_source_kind_reads(tmp_path):
    p = puzzle(6, 0)
    picture = shots.board(p.regions)
    data = shots.png(picture)
    path = tmp_path / "queens.dat"  # the content says PNG, not the name
    path.write_bytes(data)
    for source in (data, bytearray(data), str(path), path, io.BytesIO(data), picture):
        assert_reads(source, p)
    webp = io.BytesIO()
    picture.save(webp, "WEBP", lossless=True)
    assert images.image_kind(webp.getvalue()) == "WebP"
    assert_reads(webp.getvalue(), p)


def test_the_darker_or_lighter_copy_of_a_colour():
    base = (200.0, 150.0, 100.0)
    import numpy as np

    assert tone_cost(np.array([160.0, 120.0, 80.0]), np.array(base)) == 0.0
    assert tone_cost(np.array([227.5, 202.5, 177.5]), np.array(base)) < 1  # half-way to white
    assert tone_cost(np.array([100.0, 150.0, 200.0]), np.array(base)) == float("inf")


# -- refusals: one line that says what was seen ---------------------------------------------


def _bomb() -> bytes:
    """A PNG of 30000 x 30000 pixels in some 100 bytes: a decompression bomb."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" * 30001 * 4)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _noise() -> bytes:
    rng = random.Random(3)
    picture = Image.frombytes("RGB", (600, 900), rng.randbytes(600 * 900 * 3))
    return shots.png(picture)


BAD = {
    "noise": (_noise, "no board found"),
    "blank": (lambda: shots.png(Image.new("RGB", (1080, 2400), "white")), "no board found"),
    "truncated": (
        lambda: shots.png(shots.board(puzzle(8, 0).regions))[:3000],
        "cannot decode the PNG image",
    ),
    "text": (lambda: b"%PDF-1.4 not an image at all", "not a PNG, JPEG or WebP image"),
    "bomb": (_bomb, "more than 40,000,000 pixels"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_images_are_refused_with_a_reason(name):
    make, words = BAD[name]
    with pytest.raises(ImageReadError, match=words) as caught:
        read(make())
    assert isinstance(caught.value, CpqueensError)
    assert "\n" not in str(caught.value)


def test_two_regions_of_one_colour_say_what_was_seen():
    p = puzzle(9, 0)
    palette = list(shots.PALETTE)
    palette[1] = palette[0]  # regions A and B drawn alike
    with pytest.raises(ImageReadError) as caught:
        read(shots.png(shots.board(p.regions, shots.Look(palette=palette))))
    assert str(caught.value).startswith("found a 9x9 grid but 8 colour groups")
    reading = caught.value.reading
    assert reading.n == 9 and reading.groups == 8 and reading.options == ()


def _ambiguous(offset: int = 7, thick: int = 1) -> tuple[Puzzle, bytes]:
    """A board whose darkened cell nearly has the colour of a neighbouring region.

    The neighbour's colour is the darkened one plus ``offset``; moving the cell
    into that region leaves another unique, connected puzzle. ``thick`` 1 draws
    no region borders (every line thin), so the lines cannot tell them apart.
    """
    p = puzzle(10, 1)
    n = p.n
    for r in range(n):
        for c in range(n):
            own = p.regions[r][c]
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if not (0 <= rr < n and 0 <= cc < n) or p.regions[rr][cc] == own:
                    continue
                other = p.regions[rr][cc]
                moved = [list(row) for row in p.regions]
                moved[r][c] = other
                if len({g for row in moved for g in row}) != n:
                    continue
                alternative = Puzzle(n, moved)
                if not alternative.is_connected() or alternative.count(limit=2) != 1:
                    continue
                palette = list(shots.PALETTE)
                palette[other] = tuple(round(v * 0.8) + offset for v in palette[own])
                look = shots.Look(palette=palette, highlights={(r, c): 0.8}, thick=thick)
                return p, shots.png(shots.board(p.regions, look))
    raise AssertionError("no cell to make the reading ambiguous")


def test_a_reading_two_unique_puzzles_fit_is_refused_not_guessed():
    _, data = _ambiguous()
    with pytest.raises(ImageReadError, match="read as 2 different puzzles") as caught:
        read(data)
    assert len(caught.value.reading.options) >= 2


@pytest.mark.parametrize("offset", [0, 7])
def test_the_region_borders_tell_a_darkened_cell_from_its_neighbour(offset):
    p, data = _ambiguous(offset, thick=3)  # its colour that of the next region, or near it
    assert_reads(data, p)


def test_a_grid_whose_reading_has_two_solutions_is_refused():
    rows = Puzzle(6, [[r] * 6 for r in range(6)])  # rows as regions: many solutions
    data = shots.png(shots.board(rows.regions))
    with pytest.raises(ImageReadError) as caught:
        read(data, stars=1)
    assert str(caught.value) == (
        "found a 6x6 grid with 6 colour groups but the puzzle read has more than one solution"
    )
    assert rows.count(limit=2) == 2 and all(
        Puzzle(6, rows.regions, stars=k).count() == 0 for k in (2, 3)
    )
    with pytest.raises(ImageReadError) as caught:
        read(data)  # every star count that fits a 6x6 grid is tried
    assert str(caught.value) == (
        "found a 6x6 grid with 6 colour groups but no star count gives exactly one solution "
        "(1 star: more than one solution; 2-3 stars: no solution)"
    )


def test_queens_drawn_where_no_solution_has_them():
    p = puzzle(7, 0)
    wrong = next((r, c) for r in range(7) for c in range(7) if (r, c) not in p.solve())
    data = shots.png(shots.board(p.regions, shots.Look(queens=[wrong])))
    assert_reads(data, p)
    with pytest.raises(ImageReadError) as caught:
        read(data, with_queens=True, stars=1)
    assert str(caught.value) == (
        "found a 7x7 grid with 7 colour groups but the puzzle read has no solution with the "
        f"queens drawn at ({wrong[0]}, {wrong[1]})"
    )


# -- the command line, as a player runs it --------------------------------------------------


def cpqueens(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "cpqueens", "puzzle", *args],
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


@pytest.mark.slow
def test_the_cli_solves_a_screenshot_and_draws_the_queens_on_it(tmp_path):
    p = puzzle(9, 1)
    solution = p.solve()
    (tmp_path / "shot.jpeg").write_bytes(shots.png(shots.phone(p.regions, dark=True)))
    result = cpqueens("solve", "shot.jpeg", "--format", "json", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, b"")
    assert json.loads(result.stdout) == {"queens": [list(c) for c in solution]}
    result = cpqueens("solve", "shot.jpeg", "--format", "png", "--out", "solved.png", cwd=tmp_path)
    assert (result.returncode, result.stderr, result.stdout) == (0, b"", b"")
    drawn = Image.open(tmp_path / "solved.png").convert("RGB")
    assert drawn.size == (1080, 2400)
    left, top, cell = shots.phone_cells(9)
    for r in range(9):
        for c in range(9):
            x, y = left + c * cell + cell // 2, top + r * cell + cell // 2
            dark = sum(drawn.getpixel((x, y))) < 60
            assert dark == ((r, c) in solution), (r, c)


@pytest.mark.slow
def test_the_cli_checks_counts_and_explains_a_screenshot(tmp_path):
    p = puzzle(8, 1)
    (tmp_path / "shot").write_bytes(shots.jpeg(shots.desktop(p.regions), 85))
    check = cpqueens("check", "shot", "--format", "json", cwd=tmp_path)
    assert check.returncode == 0 and b'"unique": true' in check.stdout
    count = cpqueens("count", "shot", cwd=tmp_path)
    assert (count.returncode, count.stdout) == (0, b"1\n")
    explain = cpqueens("explain", "shot", cwd=tmp_path)
    assert explain.returncode == 0 and b"difficulty:" in explain.stdout


@pytest.mark.parametrize(
    "name", [n if n == "bomb" else pytest.param(n, marks=pytest.mark.slow) for n in sorted(BAD)]
)
def test_the_cli_refuses_a_bad_image_in_one_line(tmp_path, name):
    make, words = BAD[name]
    (tmp_path / "bad.png").write_bytes(make())
    result = cpqueens("solve", "bad.png", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == b""
    line = result.stderr.decode()
    assert line.startswith("cpqueens: error: ") and line.count("\n") == 1, line
    assert words in line


@pytest.mark.slow
def test_the_cli_refuses_an_ambiguous_reading_in_one_line(tmp_path):
    _, data = _ambiguous()
    (tmp_path / "shot.png").write_bytes(data)
    result = cpqueens("solve", "shot.png", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode() == (
        "cpqueens: error: image 'shot.png': found a 10x10 grid with 10 colour groups but its "
        "colours read as 2 different puzzles (a darker or lighter cell could belong to more "
        "than one region): not guessing\n"
    )


@pytest.mark.slow
def test_the_cli_png_format_needs_a_screenshot(tmp_path):
    (tmp_path / "queens.txt").write_text(PUZZLES[(5, 0)])
    result = cpqueens("solve", "queens.txt", "--format", "png", "--out", "x.png", cwd=tmp_path)
    assert result.returncode == 1
    assert b"--format png draws the queens over a screenshot" in result.stderr
    assert not (tmp_path / "x.png").exists()
    result = cpqueens("solve", "queens.txt", "--with-queens", cwd=tmp_path)
    assert result.returncode == 1 and b"--with-queens reads a screenshot's queens" in result.stderr


# -- the sweep: everything at once ----------------------------------------------------------


def _sweep_cases() -> list[tuple[int, int, int]]:
    return [(n, seed, trial) for n in range(5, 13) for seed in (0, 1) for trial in range(3)]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "seed", "trial"), _sweep_cases())
def test_sweep_frames_scales_jpeg_marks_and_highlights(n, seed, trial):
    p = puzzle(n, seed)
    solution = p.solve()
    rng = random.Random(n * 100 + seed * 10 + trial)
    look = shots.Look(palette=shots.CLOSE if rng.random() < 0.3 else shots.PALETTE)
    if rng.random() < 0.5:
        look.queens = rng.sample(solution, rng.randint(1, n))
    if rng.random() < 0.5:
        look.crosses = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(1, 8))]
    if rng.random() < 0.4:
        look.highlights = {
            (rng.randrange(n), rng.randrange(n)): rng.choice([0.8, 0.85, 1.2, 1.3])
            for _ in range(rng.randint(1, 2))
        }
    frame = ("phone", "desktop", "board", "tight")[
        trial % 4 if rng.random() < 0.5 else rng.randrange(4)
    ]
    dark = rng.random() < 0.4
    if frame == "phone":
        picture = shots.phone(p.regions, look, dark=dark)
    elif frame == "desktop":
        picture = shots.desktop(p.regions, look, dark=dark)
    else:
        look.cell = rng.randint(30, 80)
        look.background = (0, 0, 0) if dark else (255, 255, 255)
        picture = shots.board(p.regions, look)
        if frame == "tight":  # cropped to the border, or a pixel or two past it
            left, top, right, bottom = shots.board_box(p.regions, look)
            cut = [rng.randint(-look.thick - 2, -1) for _ in range(4)]
            picture = picture.crop((left + cut[0], top + cut[1], right - cut[2], bottom - cut[3]))
    picture = shots.scaled(picture, rng.choice([0.5, 0.75, 1, 1.5, 2] + [3] * (frame != "phone")))
    data = shots.jpeg(picture, rng.randint(60, 95)) if rng.random() < 0.5 else shots.png(picture)
    try:
        got = read(data)
    except ImageReadError as refused:  # a refusal is allowed only where two readings fit
        assert look.highlights and look.palette is shots.CLOSE, str(refused)
        return
    assert shots.same_regions(got.regions, p.regions), f"\n{got}\n!=\n{p}"
