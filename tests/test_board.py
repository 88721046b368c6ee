"""Board: parsing the seeds' grids (and exact errors naming line and column), drawing as text."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens import Board
from cpqueens.drawing.pictures import COLOUR_LETTERS
from cpqueens.vocabulary.board import check_cells, check_size

from . import oracle

# The seeds' samples: seed 001 (0/1, 1 = a queen may stand) and Luogu P1562 ('.' = blocked).
FREE_4 = "1111\n1111\n1111\n1111\n"
FIRST_ROW_1011 = "1011\n1111\n1111\n1111\n"
P1562_SAMPLE = "**.*\n*.*.\n****\n****\n"


def test_parse_the_seeds_samples():
    assert Board.parse(FREE_4) == Board(4)
    assert Board.parse(FIRST_ROW_1011) == Board(4, ((0, 1),))
    assert Board.parse(P1562_SAMPLE) == Board(4, ((0, 2), (1, 1), (1, 3)))


def test_seed_001_sample_counts():
    counts = [
        cpqueens.model(Board.parse(text), colours=2).count(backend="bitmask")
        for text in (FREE_4, FIRST_ROW_1011)
    ]
    assert counts == [2, 0]


@pytest.mark.parametrize(
    "text",
    [
        "1 0 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1",  # spaces between digits
        "\n\n  1011  \n1111\t\n1111\n1111 \n\n \n",  # blank lines around, indent, trailing spaces
        "1011\r\n1111\r\n1111\r\n1111\r\n",  # CRLF line ends
        "*.**\n****\n****\n****",  # the same board in P1562's alphabet
        "* . * *\n* * * *\n* * * *\n* * * *\n",
    ],
)
def test_parse_tolerates_layout(text):
    assert Board.parse(text) == Board(4, ((0, 1),))


def test_parse_one_by_one():
    assert [Board.parse(text) for text in ("1", "*", ".")] == [Board(1)] * 3
    assert Board.parse("Q") == Board(1, queens=((0, 0, 0),))
    assert [Board.parse(text) for text in ("0", "#")] == [Board(1, ((0, 0),))] * 2
    # A lone '.' is cpqueens' drawing of a free cell; P1562's blocked cell needs format=.
    assert Board.parse(".", format="p1562") == Board(1, ((0, 0),))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1, column 1: no grid: expected rows of 0/1 (1 = a queen may stand), "
         "of '*' and '.' ('.' = blocked) or of '.' and '#' ('#' = blocked)"),
        ("\n  \n", "line 1, column 1: no grid: expected rows of 0/1 (1 = a queen may stand), "
         "of '*' and '.' ('.' = blocked) or of '.' and '#' ('#' = blocked)"),
        ("111\n101\n11\n", "line 3, column 3: row 3 has 2 cells, expected 3 like the first row "
         "(line 1)"),
        ("\n111\n1011\n111\n", "line 3, column 4: row 2 has 4 cells, expected 3 like the first "
         "row (line 2)"),
        ("1 1\n1\n", "line 2, column 2: row 2 has 1 cells, expected 2 like the first row "
         "(line 1)"),
        ("11\n11\n11\n", "line 3, column 1: one row too many: the grid has 2 cells per row "
         "(line 1), so expected 2 rows"),
        ("111\n111\n", "line 3, column 1: the grid ends after 2 rows, expected 3 rows of 3 "
         "cells"),
        ("11\n\n11\n", "line 2, column 1: blank line inside the grid"),
        ("1x\n11\n", "line 1, column 2: unknown character 'x' in a 0/1 grid: "
         "expected '1' or '0'"),
        ("11\n1*\n", "line 2, column 2: unknown character '*' in a 0/1 grid: "
         "expected '1' or '0'"),
        ("*.\n.1\n", "line 2, column 2: unknown character '1' in a '*'/'.' grid: "
         "expected '*' or '.'"),
        ("x.\n..\n", "line 1, column 1: unknown character 'x': expected a grid of 0/1 "
         "(1 = a queen may stand), of '*' and '.' ('.' = blocked) or of '.' and '#' "
         "('#' = blocked)"),
        # Formats never mix: the first character of one format only decides, '.' never does.
        ("1.\n11\n", "line 1, column 2: unknown character '.' in a 0/1 grid: "
         "expected '1' or '0'"),
        ("..\n*#\n", "line 2, column 2: unknown character '#' in a '*'/'.' grid: "
         "expected '*' or '.'"),
        ("#.\n.*\n", "line 2, column 2: unknown character '*' in a '.'/'#' grid: "
         "expected '.', '#' or a queen letter 'A'..'Z'"),
        ("Q.\n.1\n", "line 2, column 2: unknown character '1' in a '.'/'#' grid: "
         "expected '.', '#' or a queen letter 'A'..'Z'"),
        ("Q.\n.q\n", "line 2, column 2: unknown character 'q' in a '.'/'#' grid: "
         "expected '.', '#' or a queen letter 'A'..'Z'"),
        ("..\n.x\n", "line 2, column 2: unknown character 'x': expected a grid of 0/1 "
         "(1 = a queen may stand), of '*' and '.' ('.' = blocked) or of '.' and '#' "
         "('#' = blocked)"),
        # A size line: its number must be the grid's n.
        ("5\n1111\n1111\n1111\n1111\n", "line 1, column 1: the size line says 5 but the "
         "grid below it is 4x4: expected 4"),
        ("\n  3\n**\n**\n", "line 2, column 3: the size line says 3 but the grid below it "
         "is 2x2: expected 2"),
        ("4\n", "line 2, column 1: no grid after the size line 4: expected 4 rows of 4 cells"),
        ("3\n***\n**\n***\n", "line 3, column 3: row 2 has 2 cells, expected 3 like the "
         "first row (line 2)"),
        # A leading line of 0/1 digits without a k x k grid below is the grid's first row.
        ("10\n111\n111\n111\n", "line 2, column 3: row 2 has 3 cells, expected 2 like the "
         "first row (line 1)"),
        ("\ufeff11\n1\n", "line 2, column 2: row 2 has 1 cells, expected 2 like the first "
         "row (line 1)"),
    ],
)  # fmt: skip
def test_parse_errors_name_line_and_column(text, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Board.parse(text)


def test_parse_rejects_non_text():
    with pytest.raises(TypeError, match=r"^board text must be a str, got b'11' \(bytes\)$"):
        Board.parse(b"11")


def render(n: int, blocked: set[tuple[int, int]], free: str, taken: str, gap: str) -> str:
    """A grid written independently of the parser (test helper)."""
    return "\n".join(
        gap.join(taken if (r, c) in blocked else free for c in range(n)) for r in range(n)
    )


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    n=st.integers(1, 7),
    alphabet=st.sampled_from([("1", "0"), ("*", ".")]),
    gap=st.sampled_from(["", " "]),
)
def test_parse_round_trips_random_boards(data, n, alphabet, gap):
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = data.draw(st.sets(cells, max_size=n * n))
    name = {"1": "01", "*": "p1562"}[alphabet[0]]
    form = data.draw(st.sampled_from(["auto", name]))
    board = Board.parse(render(n, blocked, *alphabet, gap), format=form)
    if form == "auto" and name == "p1562" and len(blocked) == n * n:
        # '.' alone is cpqueens' drawing of a free board: P1562's all-blocked grid needs format=.
        assert board == Board(n)
        return
    assert board == Board(n, tuple(blocked))
    assert model_count(board) == len(oracle.placements(n, blocked))


def model_count(board: Board) -> int:
    return cpqueens.model(board).count(backend="bitmask")


def test_board_text_marks_blocked_cells():
    board = Board.parse(P1562_SAMPLE)
    assert str(board) == "..#.\n.#.#\n....\n...."
    assert board.draw("board") == str(board)


def test_board_has_no_column_drawing():
    expected = "unknown drawing style 'columns': expected one of 'board', 'svg'"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        Board(4).draw("columns")


def test_model_accepts_a_parsed_board():
    m = cpqueens.model(Board.parse(P1562_SAMPLE), blocked=[(3, 3)])
    assert m.board.blocked == ((0, 2), (1, 1), (1, 3), (3, 3))


# Input faults, item 10: any numbers.Integral is an integer (numpy's too), bools and floats are not.


def test_numpy_integers_are_sizes_and_coordinates():
    size = check_size(np.int64(8))
    assert (size, type(size)) == (8, int)
    cells = check_cells([(np.int64(1), np.int32(2)), (np.uint8(0), 3)], np.int16(4), "blocked cell")
    assert cells == ((0, 3), (1, 2))
    assert {type(v) for cell in cells for v in cell} == {int}
    board = Board(np.int64(4), [(np.int64(0), np.int64(1))])
    assert board == Board(4, ((0, 1),))
    assert type(board.n) is int
    m = cpqueens.model(np.int64(8), placed=[(np.int8(0), np.int16(0)), (np.int64(3), 5)])
    assert m.count(backend="bitmask") == len(oracle.solutions(8, placed=[(0, 0), (3, 5)]))


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: check_size(np.float64(8.0)), TypeError,
         "board size n must be an int >= 1, got np.float64(8.0) (float64)"),
        (lambda: check_size(np.bool_(True)), TypeError,
         "board size n must be an int >= 1, got np.True_ (bool)"),
        (lambda: check_size(True), TypeError, "board size n must be an int >= 1, got True (bool)"),
        (lambda: check_size(np.int64(0)), ValueError, "board size n must be an int >= 1, got 0"),
        (lambda: check_cells([(np.float64(1.0), 0)], 4, "placed queen"), TypeError,
         "placed queen must be a (row, col) pair of ints, got (np.float64(1.0), 0)"),
        (lambda: check_cells([(True, 0)], 4, "blocked cell"), TypeError,
         "blocked cell must be a (row, col) pair of ints, got (True, 0)"),
        (lambda: check_cells([(np.int64(-1), 0)], 4, "placed queen"), ValueError,
         "placed queen (-1, 0) is off the 4x4 board: row and column must be in 0..3"),
    ],
)  # fmt: skip
def test_bools_floats_and_off_board_numpy_values_are_refused(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        call()


# Round trips: whatever cpqueens prints reads back as the same board.


def boards(max_n: int = 8, queens: bool = True) -> st.SearchStrategy[Board]:
    """Random boards of size 1..max_n with any blocked cells (all free and all blocked too).

    With ``queens``, some free cells hold a queen of any of the 26 drawn colours.
    """

    def blocked(n: int) -> st.SearchStrategy[Board]:
        cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
        full = st.just(frozenset((r, c) for r in range(n) for c in range(n)))
        chosen = st.sets(cells, max_size=n * n) | full | st.just(frozenset())
        if not queens:
            return chosen.map(lambda cells: Board(n, tuple(cells)))

        def with_queens(closed: frozenset) -> st.SearchStrategy[Board]:
            free = sorted({(r, c) for r in range(n) for c in range(n)} - closed)
            if not free:
                return st.just(Board(n, tuple(closed)))
            drawn = st.dictionaries(
                st.sampled_from(free), st.integers(0, len(COLOUR_LETTERS) - 1), max_size=n
            )
            return drawn.map(
                lambda q: Board(n, tuple(closed), tuple((r, c, k) for (r, c), k in q.items()))
            )

        return chosen.flatmap(with_queens)

    return st.integers(1, max_n).flatmap(blocked)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(board=boards())
def test_a_printed_board_reads_back_as_itself(board):
    text = str(board)
    assert Board.parse(text) == board
    assert Board.parse(text, format="drawing") == board
    assert Board.parse(f"{board.n}\n{text}\n") == board  # with a judge's size line
    free = board.without_queens()
    assert Board.parse(str(free)) == free
    assert model_count(Board.parse(str(free))) == model_count(free)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(4, 8), colours=st.integers(1, 2))
def test_a_printed_solution_reads_back_with_its_queens(data, n, colours):
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    board = Board(n, tuple(data.draw(st.sets(cells, max_size=n // 2))))
    m = cpqueens.model(board, colours=colours)
    solutions = list(m.solutions(backend="bitmask", limit=20))
    assume(solutions)
    solution = data.draw(st.sampled_from(solutions))
    text = str(solution)
    back = Board.parse(text)
    assert back.without_queens() == solution.board == board
    assert sorted((c, r, k) for r, k, c in back.queens) == sorted(solution.cells)
    # Its queens are placed: the solution itself is the only one left, on every engine.
    again = cpqueens.model(back)
    assert again.colours == colours
    assert list(again.solutions(backend="bitmask")) == [solution]
    assert again.count(backend="cpsat") == 1
    # Some of its queens placed: the count is the number of solutions holding them.
    kept = data.draw(st.sets(st.sampled_from(back.queens), max_size=len(back.queens)))
    partial = cpqueens.model(Board(n, board.blocked, tuple(kept)), colours=colours)
    expected = sum(
        1 for s in m.solutions(backend="bitmask") if all(s.by_colour[k][r] == c for r, c, k in kept)
    )
    assert partial.count(backend="bitmask") == expected


def test_a_printed_free_board_is_free():
    # The issue: a printed free 6-board read back as all blocked (count 0, not 4).
    printed = str(Board(6))
    assert printed == "\n".join(["......"] * 6)
    assert model_count(Board.parse(printed)) == 4


def test_every_queen_letter_is_a_queen_of_its_colour():
    n = len(COLOUR_LETTERS)
    rows = [
        "".join("#" if r == c else COLOUR_LETTERS[(r + c) % n] for c in range(n)) for r in range(n)
    ]
    board = Board.parse("\n".join(rows))
    assert board.blocked == tuple((i, i) for i in range(n))
    assert board.queens == tuple((r, c, (r + c) % n) for r in range(n) for c in range(n) if r != c)
    assert Board.parse("Q.\n.W").queens == ((0, 0, 0), (1, 1, 1))
    assert Board.parse("A").queens == ((0, 0, COLOUR_LETTERS.index("A")),)


def test_a_drawn_queen_is_placed():
    # The seeds' 8-queens solution drawn with one queen: the 8x8 count with (0, 0) placed.
    board = Board.parse("Q.......\n" + "........\n" * 7)
    assert board.queens == ((0, 0, 0),)
    assert cpqueens.model(board).count() == 4
    assert cpqueens.model(board.without_queens()).count() == 92
    assert cpqueens.model(Board.parse("WQ..\n....\n....\n....")).colours == 2


@pytest.mark.parametrize(
    "queens, error, message",
    [
        (((0, 0, 26),), ValueError,
         "queen (0, 0, 26): colour 26 has no drawing letter: expected a colour from 0 to 25"),
        (((0, 0, 0), (0, 0, 1)), ValueError,
         "queens (0, 0, 0) and (0, 0, 1) share a cell: expected at most one queen per cell"),
        (((1, 1, 0),), ValueError,
         "queen (1, 1, 0) stands on a blocked cell: expected queens on free cells"),
        (((0, 4, 0),), ValueError,
         "queen (0, 4) is off the 4x4 board: row and column must be in 0..3"),
        (((0, 0),), TypeError, "a board's queen must be a (row, col, colour) triple, got (0, 0)"),
        ("Q", TypeError, "queens must be an iterable of (row, col, colour) triples, got 'Q'"),
    ],
)  # fmt: skip
def test_bad_queens_on_a_board_are_refused(queens, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        Board(4, ((1, 1),), queens)


def test_parse_a_judge_file_with_its_size_line():
    assert Board.parse("4\n" + P1562_SAMPLE) == Board.parse(P1562_SAMPLE)
    assert Board.parse("4\n1 0 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1\n") == Board(4, ((0, 1),))
    assert Board.parse("  4 \n\n1011\n1111\n1111\n1111\n\n") == Board(4, ((0, 1),))
    assert Board.parse("04\n" + FREE_4) == Board(4)
    ten = "\n".join(["1" * 9 + "0"] + ["1" * 10] * 9)
    assert Board.parse("10\n" + ten) == Board.parse(ten) == Board(10, ((0, 9),))
    assert Board.parse("1\n1") == Board(1)
    assert Board.parse("1\n0") == Board(1, ((0, 0),))
    assert Board.parse("2\n.#\n..") == Board(2, ((0, 1),))
    # A leading line of 0/1 digits is the first row unless a k x k grid follows it.
    assert Board.parse("11\n11") == Board(2)
    assert Board.parse("01\n10") == Board(2, ((0, 0), (1, 1)))
    assert Board.parse("100\n111\n111") == Board(3, ((0, 1), (0, 2)))


def test_parse_a_byte_order_mark_and_crlf():
    assert Board.parse("\ufeff1011\r\n1111\r\n1111\r\n1111\r\n") == Board(4, ((0, 1),))
    assert Board.parse("\ufeff4\r\n*.**\r\n****\r\n****\r\n****\r\n") == Board(4, ((0, 1),))
    assert Board.parse("\ufeff" + str(Board(3, ((2, 2),)))) == Board(3, ((2, 2),))


def test_forced_formats():
    assert Board.parse("..\n..", format="p1562") == Board(2, ((0, 0), (0, 1), (1, 0), (1, 1)))
    assert Board.parse("..\n..", format="drawing") == Board.parse("..\n..") == Board(2)
    assert Board.parse("10\n01", format="01") == Board(2, ((0, 1), (1, 0)))
    expected = "line 1, column 1: unknown character '1' in a '.'/'#' grid: "
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}"):
        Board.parse("10\n01", format="drawing")


@pytest.mark.parametrize("form", ["01/", "P1562", "", None, "board"])
def test_an_unknown_format_lists_the_choices(form):
    expected = f"unknown board format {form!r}: expected one of 'auto', '01', 'p1562', 'drawing'"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        Board.parse("11\n11", format=form)
