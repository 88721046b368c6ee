"""Models, boards and solutions show themselves: SVG with coordinates, HTML summaries."""

import xml.etree.ElementTree as ET

import cpqueens

SVG = "{http://www.w3.org/2000/svg}"


def elements(svg: str, tag: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter(SVG + tag) if cls in e.get("class", "").split()]


def test_model_svg_shows_blocked_cells_placed_queens_by_colour_and_coordinates():
    m = cpqueens.model(6, blocked=[(0, 0), (5, 5)], colours=2, placed=[(1, 2), (2, 4, 1)])
    picture = m._repr_svg_()
    assert len(elements(picture, "rect", "square")) == 36
    assert len(elements(picture, "path", "blocked")) == 2
    assert len(elements(picture, "path", "colour-0")) == 1
    assert len(elements(picture, "path", "colour-1")) == 1
    (black,) = elements(picture, "path", "colour-0")
    (white,) = elements(picture, "path", "colour-1")
    assert black.get("transform") == "translate(90 45)"  # row 1, column 2
    assert white.get("transform") == "translate(180 90)"  # row 2, column 4
    columns = [t.text for t in elements(picture, "text", "column")]
    rows = [t.text for t in elements(picture, "text", "row")]
    assert columns == rows == [str(k) for k in range(6)]


def test_model_html_lists_every_constraint():
    m = cpqueens.model(5, blocked=[(0, 1)])
    m = m.where(m.q[0] < m.q[4])
    summary = m._repr_html_()
    root = ET.fromstring(summary)
    cells = [code.text for code in root.iter("code")]
    assert cells == [str(c) for c in m.constraints]
    assert "q0[0] &lt; q0[4]" in summary
    assert "5x5 board, 1 colour of 5 queens" in summary and "1 blocked cell," in summary
    assert "symmetries: identity</p>" in summary
    # Notebooks prefer HTML to SVG: the summary carries the board too.
    assert len(elements(summary, "rect", "square")) == 25
    assert len(elements(summary, "path", "blocked")) == 1


def test_solution_coordinates_are_an_option():
    solution = cpqueens.model(8).first()
    plain = solution.draw("svg")
    assert "<text" not in plain and 'viewBox="0 0 360 360"' in plain
    drawn = solution.draw("svg", coordinates=True)
    assert len(elements(drawn, "text", "coordinate")) == 16
    assert len(elements(drawn, "path", "queen")) == 8
    board = cpqueens.Board(4, ((1, 1),)).draw("svg", coordinates=True)
    assert len(elements(board, "text", "coordinate")) == 8
    assert len(elements(board, "path", "blocked")) == 1
