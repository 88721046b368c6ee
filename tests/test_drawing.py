"""Drawing: text grids, the judges' column lists, SVG pictures that parse as XML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import cpqueens
from cpqueens import Board, Solution

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent


def elements(svg: str, kind: str) -> list[ET.Element]:
    """The elements of the SVG whose class list holds ``kind``."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [e for e in root.iter() if kind in e.get("class", "").split()]


def test_eight_queens_svg_has_64_squares_and_8_queens():
    solution = cpqueens.model(8).first(backend="bitmask")
    svg = solution._repr_svg_()
    squares = elements(svg, "square")
    queens = elements(svg, "queen")
    assert len(squares) == 64
    assert all(e.tag == f"{SVG}rect" for e in squares)
    assert len(queens) == 8
    assert not elements(svg, "blocked")
    # Each queen stands on its solution's square: translate(45*col 45*row).
    places = sorted(
        tuple(int(v) // 45 for v in re.findall(r"\d+", q.get("transform"))) for q in queens
    )
    assert places == sorted((col, row) for row, col in enumerate(solution.columns))


def test_svg_shows_blocked_cells_and_colours():
    m = cpqueens.model(Board.parse("0111\n1111\n1111\n1110\n"), colours=2)
    solution = m.first(backend="bitmask")
    svg = solution.draw("svg", size=200)
    assert len(elements(svg, "square")) == 16
    assert len(elements(svg, "blocked")) == 2
    assert len(elements(svg, "colour-0")) == 4
    assert len(elements(svg, "colour-1")) == 4
    assert ET.fromstring(svg).get("width") == "200"


def test_board_svg_has_no_queens():
    svg = Board(5, ((2, 2),))._repr_svg_()
    assert len(elements(svg, "square")) == 25
    assert len(elements(svg, "blocked")) == 1
    assert not elements(svg, "queen")


def test_svg_rejects_a_bad_size():
    with pytest.raises(ValueError, match=r"^size must be None or an int >= 1 \(pixels\), got 0$"):
        Board(4).draw("svg", size=0)


def test_p1219_column_lists():
    found = [s.draw("columns") for s in cpqueens.model(6).solutions("bitmask", limit=3)]
    assert found == ["2 4 6 1 3 5", "3 6 2 5 1 4", "4 1 5 2 6 3"]


def test_two_colour_text_and_columns():
    solution = cpqueens.model(4, colours=2).first(backend="bitmask")
    assert solution.by_colour == ((1, 3, 0, 2), (2, 0, 3, 1))
    assert str(solution) == ".QW.\nW..Q\nQ..W\n.WQ."
    assert solution.draw("columns") == "2 4 1 3 | 3 1 4 2"


def test_text_marks_blocked_cells_beside_queens():
    solution = Solution(((1, 3, 0, 2),), Board(4, ((0, 0), (3, 3))))
    assert str(solution) == "#Q..\n...Q\nQ...\n..Q#"


def test_unknown_style():
    expected = "unknown drawing style 'png': expected one of 'board', 'columns', 'svg', 'json'"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        Solution(((0,),), Board(1)).draw("png")


def test_readme_picture_is_the_current_drawing():
    expected = cpqueens.model(8).first(backend="bitmask").draw("svg") + "\n"
    assert (ROOT / "docs" / "eight_queens.svg").read_text(encoding="utf-8") == expected
