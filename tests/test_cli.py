"""The command line, run as a subprocess: answers, formats, and one-line errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path

import pytest

import cpqueens
from tests.processes import OUTSIDE

from . import oracle

ROOT = Path(__file__).resolve().parent.parent
SEED_001_SAMPLE = "1111\n1111\n1111\n1111\n"
P1562_SAMPLE = "**.*\n*.*.\n****\n****\n"
B = ("--backend", "bitmask")


def run(*args: str, stdin: str | bytes = "", prelude: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m cpqueens ARGS`` on this worktree's package (``prelude``: code run first).

    ``stdin`` is text, encoded as UTF-8, or the exact bytes to send.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "cpqueens", *args]
    if prelude:
        call = f"import sys; from cpqueens.cli import main; sys.exit(main({list(args)!r}))"
        command = [sys.executable, "-c", f"{prelude}\n{call}"]
    data = stdin.encode() if isinstance(stdin, str) else stdin
    result = subprocess.run(
        command, input=data, capture_output=True, cwd=OUTSIDE, env=env, timeout=120
    )
    out, err = result.stdout.decode(), result.stderr.decode()
    return subprocess.CompletedProcess(command, result.returncode, out, err)


def test_count():
    result = run("count", "8", "--backend", "bitmask")
    assert (result.returncode, result.stdout, result.stderr) == (0, "92\n", "")


@pytest.mark.slow
def test_count_with_the_default_backend_and_time():
    result = run("count", "6", "--workers", "1", "--time")
    assert (result.returncode, result.stdout) == (0, "4\n")
    assert re.fullmatch(r"time: \d+\.\d{3} s \(backend bitmask\)\n", result.stderr)
    result = run("count", "6", "--backend", "cpsat", "--time")
    assert (result.returncode, result.stdout) == (0, "4\n")
    assert re.fullmatch(r"time: \d+\.\d{3} s \(backend cpsat\)\n", result.stderr)


def test_count_placed_queens():
    placed = [(0, 0), (3, 5)]
    result = run("count", "8", "--placed", "0,0", "3,5", "--backend", "bitmask")
    assert result.stdout == f"{len(oracle.solutions(8, placed=placed))}\n"


def test_count_a_board_from_stdin_gives_n():
    result = run("count", "--colours", "2", "--board", "-", "--backend", "bitmask",
                 stdin=SEED_001_SAMPLE)  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (0, "2\n", "")


@pytest.mark.slow
def test_count_a_judge_file_with_its_size_line():
    # Seed 001's input: n, then n rows; 2n queens on a free 4-board: 2.
    result = run("count", "--colours", "2", "--board", "-", "--backend", "bitmask",
                 stdin="4\n" + SEED_001_SAMPLE)  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (0, "2\n", "")
    result = run("count", "4", "--board", "-", *B, stdin="4\r\n" + P1562_SAMPLE)
    expected = len(oracle.solutions(4, blocked=[(0, 2), (1, 1), (1, 3)]))
    assert (result.returncode, result.stdout) == (0, f"{expected}\n")


@pytest.mark.slow
def test_what_cpqueens_prints_reads_back(tmp_path):
    # The issue: a printed free 6-board counted 0 (its '.' read as blocked), not 4.
    path = tmp_path / "printed.txt"
    path.write_text(str(cpqueens.Board(6)) + "\n")
    result = run("count", "--board", str(path), *B)
    assert (result.returncode, result.stdout, result.stderr) == (0, "4\n", "")
    # A drawn solution ('#' blocked, 'Q' and 'W' queens) reads back with its queens placed:
    # of the board's 2 solutions, only itself is left.
    solved = run("solve", "--board", "-", "--colours", "2", "--limit", "1", *B,
                 stdin="0111\n1111\n1111\n1110\n")  # fmt: skip
    assert solved.stdout == "#QW.\nW..Q\nQ..W\n.WQ#\n\n"
    result = run("count", "--board", "-", "--colours", "2", *B, stdin=solved.stdout)
    assert (result.returncode, result.stdout, result.stderr) == (0, "1\n", "")
    result = run("count", "--board", "-", "--colours", "2", *B, stdin="0111\n1111\n1111\n1110\n")
    assert (result.returncode, result.stdout, result.stderr) == (0, "2\n", "")


@pytest.mark.slow
def test_a_byte_order_mark_and_crlf(tmp_path):
    path = tmp_path / "grid.txt"
    path.write_bytes(b"\xef\xbb\xbf4\r\n**.*\r\n*.*.\r\n****\r\n****\r\n")
    expected = f"{len(oracle.solutions(4, blocked=[(0, 2), (1, 1), (1, 3)]))}\n"
    result = run("count", "--board", str(path), *B)
    assert (result.returncode, result.stdout, result.stderr) == (0, expected, "")
    result = run("count", "--board", "-", *B, stdin=path.read_bytes())
    assert (result.returncode, result.stdout, result.stderr) == (0, expected, "")
    result = run("count", "--colours", "2", "--board", "-", *B,
                 stdin="\ufeff" + SEED_001_SAMPLE.replace("\n", "\r\n"))  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (0, "2\n", "")


def test_a_board_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "grid.txt"
    path.write_bytes(b"11\n1\xff\n")
    result = run("count", "--board", str(path))
    line = f"cpqueens: error: cannot read board file {str(path)!r}: not UTF-8 text\n"
    assert (result.returncode, result.stdout, result.stderr) == (1, "", line)


def test_count_a_board_file(tmp_path):
    path = tmp_path / "grid.txt"
    path.write_text("****\n****\n****\n***.\n")
    result = run("count", "4", "--board", str(path), "--backend", "python-constraint")
    assert result.stdout == f"{len(oracle.solutions(4, blocked=[(3, 3)]))}\n"


@pytest.mark.slow
def test_a_drawn_solution_read_back_keeps_its_queens(tmp_path):
    # What `solve` prints is a board file whose queens are placed: one solution is left.
    drawn = run("solve", "--board", "-", "--colours", "2", "--limit", "1", *B,
                stdin="0111\n1111\n1111\n1110\n").stdout  # fmt: skip
    assert drawn == "#QW.\nW..Q\nQ..W\n.WQ#\n\n"
    path = tmp_path / "solved.txt"
    path.write_text(drawn)
    result = run("count", "--board", str(path), *B)  # two colours: the letters say so
    assert (result.returncode, result.stdout, result.stderr) == (0, "1\n", "")
    result = run("solve", "--board", str(path), "--format", "columns", *B)
    assert result.stdout == "2 4 1 3 | 3 1 4 2\n"
    path.write_text("Q...\n....\n....\n....\n")  # a queen in the corner: no 4-queens solution
    assert run("count", "--board", str(path), *B).stdout == "0\n"
    result = run("count", "--board", str(path), "--colours", "2", *B)
    assert result.stdout == f"{len(oracle.solutions(4, colours=2, placed=[(0, 0)]))}\n"
    result = run("optimize", "domination", "--board", str(path))
    assert result.returncode == 1  # as for any unreadable board file
    assert result.stderr.startswith(f"cpqueens: error: the board in {str(path)!r} has queens")


@pytest.mark.slow
def test_unique_counts_and_representatives():
    result = run("count", "8", "--unique", "--backend", "bitmask")
    assert (result.returncode, result.stdout, result.stderr) == (0, "12\n", "")
    result = run("solve", "6", "--unique", "--format", "columns")
    assert (result.returncode, result.stdout) == (0, "2 4 6 1 3 5\n")


def test_solve_columns_is_p1219():
    result = run("solve", "6", "--limit", "3", "--format", "columns", "--backend", "bitmask")
    assert result.stdout == "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n"


def test_solve_boards_with_the_default_backend():
    result = run("solve", "4")
    assert result.returncode == 0
    assert result.stdout == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"


def test_solve_two_colours_on_a_blocked_board():
    result = run("solve", "--board", "-", "--colours", "2", "--format", "columns",
                 "--backend", "bitmask", stdin="0111\n1111\n1111\n1110\n")  # fmt: skip
    assert result.stdout == "2 4 1 3 | 3 1 4 2\n3 1 4 2 | 2 4 1 3\n"


def test_solve_svg_to_a_file(tmp_path):
    out = tmp_path / "eight.svg"
    result = run("solve", "8", "--format", "svg", "--out", str(out), "--backend", "bitmask")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    root = ET.parse(out).getroot()
    classes = [e.get("class", "").split() for e in root.iter()]
    assert sum("square" in c for c in classes) == 64
    assert sum("queen" in c for c in classes) == 8


def test_solve_without_solutions():
    result = run("solve", "3", "--backend", "bitmask")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", "cpqueens: no solution\n")


def test_backends_lists_names_and_versions():
    result = run("backends")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        f"cpsat              installed  ortools {metadata.version('ortools')}  (auto's choice 2)",
        "python-constraint  installed  python-constraint2 "
        f"{metadata.version('python-constraint2')}  (auto's choice 3)",
        f"bitmask            installed  cpqueens {cpqueens.__version__}  (auto's choice 1)",
    ]


def test_warm_lists_its_families_and_refuses_an_unknown_one():
    listing = run("warm", "--list")
    assert listing.returncode == 0
    names = [line.split()[0] for line in listing.stdout.splitlines()]
    assert names[:3] == ["classes", "turns", "holes"] and "puzzles" in names and len(names) == 14
    assert "puzzles     region puzzles" in listing.stdout
    wrong = run("warm", "--only", "puzzle")
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert wrong.stderr.startswith(
        "cpqueens warm: error: argument --only: invalid choice: 'puzzle' (choose from 'classes',"
    )
    assert wrong.stderr.count("\n") == 1


def test_warm_prints_each_family_before_it_asks_its_question(monkeypatch, capsys):
    from cpqueens.cli import main, tools

    seen = []
    monkeypatch.setattr(cpqueens, "_probe", lambda: seen.append(capsys.readouterr().out), False)
    families = {
        "one": ("the first family", "cpqueens._probe()"),
        "two": ("the second family", "cpqueens._probe()"),
        "three": ("the third family", "cpqueens._probe()"),
    }
    monkeypatch.setattr(tools, "WARM_UP", families)
    assert main(["warm", "--only", "three", "one"]) == 0
    # Each family's title is out before its question runs, its time when it is done.
    assert seen[0] == "the third family           "
    assert re.fullmatch(r" +\d+\.\d\d s\nthe first family           ", seen[1])
    last = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r" +\d+\.\d\d s", last[0])
    assert last[1].startswith("2 of 3 families compiled or loaded in ")


@pytest.mark.slow  # loads numba in a fresh process
def test_warm_only_the_named_family():
    result = run("warm", "--only", "variants")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(r"toroidal boards +\d+\.\d\d s", lines[0])
    assert lines[1].startswith("1 of 14 families compiled or loaded in ") and "cache: " in lines[1]


HIDE_CONSTRAINT = (
    "import importlib.util as u; find = u.find_spec\n"
    "u.find_spec = lambda name, *a: None if name == 'constraint' else find(name, *a)"
)


def test_a_missing_solver():
    listing = run("backends", prelude=HIDE_CONSTRAINT)
    assert (
        "python-constraint  missing    pip install python-constraint2  (auto's choice 3)\n"
        in listing.stdout
    )
    result = run("count", "4", "--backend", "python-constraint", prelude=HIDE_CONSTRAINT)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "cpqueens: error: backend 'python-constraint' needs the 'python-constraint2' package: "
        "pip install python-constraint2\n"
    )


def test_help_shows_examples():
    result = run("--help")
    assert result.returncode == 0
    assert "examples:\n  cpqueens count 8 " in result.stdout
    assert "cpqueens solve 8 --format svg --out eight.svg" in result.stdout


@pytest.mark.parametrize("command", ["count", "solve", "exists"])
def test_subcommand_help_shows_its_own_examples(command):
    result = run(command, "--help")
    assert result.returncode == 0
    examples = result.stdout.split("examples:\n", 1)[1].splitlines()
    assert examples, result.stdout
    assert all(line.startswith(f"  cpqueens {command} ") for line in examples), examples


def test_console_script_is_declared():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["scripts"] == {"cpqueens": "cpqueens.cli:main"}


@pytest.mark.parametrize(
    ("args", "stdin", "code", "line"),
    [
        (["count", "0"], "", 1, "cpqueens: error: board size n must be an int >= 1, got 0"),
        (["count", "-3"], "", 1, "cpqueens: error: board size n must be an int >= 1, got -3"),
        (["count", "x"], "", 2, "cpqueens count: error: argument N: invalid int value: 'x'"),
        (["count"], "", 2, "cpqueens: error: give the board size N or a board file with --board"),
        ([], "", 2, "cpqueens: error: the following arguments are required: COMMAND"),
        (["count", "4", "--colours", "0"], "", 1,
         "cpqueens: error: colours must be an int >= 1, got 0"),
        (["count", "4", "--placed", "9,9"], "", 1,
         "cpqueens: error: placed queen (9, 9) is off the 4x4 board: "
         "row and column must be in 0..3"),
        (["count", "4", "--placed", "1,0", "1,2"], "", 1,
         "cpqueens: error: placed queens (1, 0) and (1, 2) share row 1: "
         "expected at most one placed queen per row"),
        (["count", "8", "--placed", "-1,0"], "", 1,
         "cpqueens: error: placed queen (-1, 0) is off the 8x8 board: "
         "row and column must be in 0..7"),
        (["count", "8", "--placed", "0,0", "-1,0"], "", 1,
         "cpqueens: error: placed queen (-1, 0) is off the 8x8 board: "
         "row and column must be in 0..7"),
        (["count", "8", "--placed=-1,0"], "", 1,
         "cpqueens: error: placed queen (-1, 0) is off the 8x8 board: "
         "row and column must be in 0..7"),
        (["solve", "4", "--placed", "0,-2", "-3,-1"], "", 1,
         "cpqueens: error: placed queen (0, -2) is off the 4x4 board: "
         "row and column must be in 0..3"),
        (["count", "8", "--placed", "-1"], "", 2,
         "cpqueens count: error: argument --placed: expected R,C or R,C,K "
         "(0-based row, column and colour), "
         "got '-1'"),
        (["count", "4", "--placed", "1"], "", 2,
         "cpqueens count: error: argument --placed: expected R,C or R,C,K "
         "(0-based row, column and colour), "
         "got '1'"),
        (["count", "4", "--backend", "gurobi"], "", 1,
         "cpqueens: error: unknown backend 'gurobi': "
         "expected one of 'auto', 'cpsat', 'python-constraint', 'bitmask'"),
        (["count", "4", "--workers", "0", *B], "", 2,
         "cpqueens count: error: argument --workers: workers must be an int >= 1, got '0'"),
        (["count", "4", "--workers", "two", *B], "", 2,
         "cpqueens count: error: argument --workers: workers must be an int >= 1, got 'two'"),
        (["solve", "4", "--limit", "-1"], "", 1,
         "cpqueens: error: limit must be None or an int >= 0, got -1"),
        (["solve", "4", "--format", "svg", "--limit", "2"], "", 1,
         "cpqueens: error: --format svg draws one solution: expected --limit 1, got 2"),
        (["solve", "4", "--format", "png"], "", 2,
         "cpqueens solve: error: argument --format: invalid choice: 'png' "
         "(choose from 'board', 'columns', 'svg', 'json')"),
        (["solve", "4", "--out", "/nonexistent/dir/x.txt", *B], "", 1,
         "cpqueens: error: cannot write '/nonexistent/dir/x.txt': No such file or directory"),
        (["count", "--board", "/nonexistent/grid.txt"], "", 1,
         "cpqueens: error: cannot read board file '/nonexistent/grid.txt': "
         "No such file or directory"),
        (["count", "8", "--board", "-"], P1562_SAMPLE, 1,
         "cpqueens: error: N is 8 but the board in '-' is 4x4"),
        (["count", "--board", "-"], b"\xff\xfe1\n", 1,
         "cpqueens: error: cannot read board file <stdin>: not UTF-8 text"),
        (["count", "--board", "-"], "111\n11\n111\n", 1,
         "cpqueens: error: board file <stdin>: line 2, column 3: row 2 has 2 cells, "
         "expected 3 like the first row (line 1)"),
        (["count", "--board", "-"], "5\n1111\n1111\n1111\n1111\n", 1,
         "cpqueens: error: board file <stdin>: line 1, column 1: the size line says 5 but the "
         "grid below it is 4x4: expected 4"),
        (["count", "--board", "-"], "x.\n..\n", 1,
         "cpqueens: error: board file <stdin>: line 1, column 1: unknown character 'x': "
         "expected a grid of 0/1 (1 = a queen may stand), of '*' and '.' ('.' = blocked) "
         "or of '.' and '#' ('#' = blocked)"),
        (["count", "--board", "-"], "**\n*1\n", 1,
         "cpqueens: error: board file <stdin>: line 2, column 2: unknown character '1' in a "
         "'*'/'.' grid: expected '*' or '.'"),
        (["count", "--board", "-"], "11\n11\n11\n", 1,
         "cpqueens: error: board file <stdin>: line 3, column 1: one row too many: "
         "the grid has 2 cells per row (line 1), so expected 2 rows"),
        (["count", "--board", "-"], "", 1,
         "cpqueens: error: board file <stdin>: line 1, column 1: no grid: expected rows of 0/1 "
         "(1 = a queen may stand), of '*' and '.' ('.' = blocked) or of '.' and '#' "
         "('#' = blocked)"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_on_stderr(args, stdin, code, line):
    result = run(*args, stdin=stdin)
    assert (result.returncode, result.stdout, result.stderr) == (code, "", line + "\n")
