"""``cpqueens puzzle ...`` as a user runs it: a subprocess in a folder outside the repository."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from .processes import cpu_seconds, wait_for
from .test_puzzles import QUEENS_5, SOLUTION_5, oracle

ROOT = Path(__file__).resolve().parent.parent
TWO_SOLUTIONS = "CDDDE\nCCAEE\nAAAAE\nAAABE\nAABBB\n"  # random_regions(5, Random(5)) + retries


def run(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m cpqueens puzzle ARGS`` in ``cwd`` on this worktree's package."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "cpqueens", "puzzle", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "queens.txt").write_text(QUEENS_5)
    regions = [[ord(ch) - ord("A") for ch in line] for line in QUEENS_5.split()]
    relabelled = {"n": 5, "regions": regions, "givens": {"queens": [[0, 2]], "blocked": []}}
    (tmp_path / "queens.json").write_text(json.dumps(relabelled))
    return tmp_path


@pytest.mark.slow
def test_solve_json_shape(folder):
    result = run("solve", "queens.txt", "--format", "json", cwd=folder)
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout) == {"queens": [list(cell) for cell in SOLUTION_5]}


@pytest.mark.slow
def test_solve_board_reads_back_with_its_queens(folder):
    result = run("solve", "queens.txt", cwd=folder)
    assert result.returncode == 0
    assert "\x1b" not in result.stdout  # not a terminal: no colour
    (folder / "solved.txt").write_text(result.stdout)
    again = run("check", "solved.txt", "--format", "json", "--backend", "cpsat", cwd=folder)
    assert json.loads(again.stdout) == {"unique": True, "solutions": [list(map(list, SOLUTION_5))]}


@pytest.mark.slow
def test_a_drawn_solution_pins_a_grid_of_two(folder):
    # Two solutions; the drawn one read back has its queens as givens: one solution left.
    (folder / "two.txt").write_text(TWO_SOLUTIONS)
    assert run("count", "two.txt", cwd=folder).stdout == "2\n"
    result = run("solve", "two.txt", cwd=folder)
    (folder / "solved.txt").write_text(result.stdout)
    drawn = json.loads(run("solve", "two.txt", "--format", "json", cwd=folder).stdout)["queens"]
    assert result.stdout.count("*") == 5
    assert run("count", "solved.txt", cwd=folder).stdout == "1\n"
    again = run("solve", "solved.txt", "--format", "json", cwd=folder)
    assert json.loads(again.stdout) == {"queens": drawn}
    givens = [[r, c] for r, c in drawn[:2]]  # two of them, through the JSON form
    obj = {"n": 5, "regions": [[ord(ch) - 65 for ch in line] for line in TWO_SOLUTIONS.split()]}
    (folder / "two.json").write_text(json.dumps({**obj, "givens": {"queens": givens}}))
    assert run("count", "two.json", cwd=folder).stdout == "1\n"


@pytest.mark.slow
def test_solve_svg(folder):
    result = run("solve", "queens.json", "--format", "svg", "--backend", "cpsat", cwd=folder)
    root = ET.fromstring(result.stdout)
    queens = [e for e in root.iter("{http://www.w3.org/2000/svg}path") if "queen" in e.get("class")]
    assert len(queens) == 5


@pytest.mark.parametrize("backend", ["bitmask", "cpsat", "python-constraint"])
@pytest.mark.slow
def test_check_json_unique_and_not(folder, backend):
    result = run("check", "queens.txt", "--format", "json", "--backend", backend, cwd=folder)
    assert json.loads(result.stdout) == {"unique": True, "solutions": [list(map(list, SOLUTION_5))]}
    grid = TWO_SOLUTIONS
    two = oracle(5, [[ord(ch) - 65 for ch in line] for line in grid.split()])
    assert len(two) == 2
    result = run("check", "-", "--format", "json", "--backend", backend, cwd=folder, stdin=grid)
    answer = json.loads(result.stdout)
    assert answer["unique"] is False
    assert sorted(tuple(map(tuple, s)) for s in answer["solutions"]) == two


@pytest.mark.slow
def test_count_is_exact(folder):
    result = run("count", "-", "--backend", "cpsat", cwd=folder, stdin=TWO_SOLUTIONS)
    assert (result.returncode, result.stdout) == (0, "2\n")
    many = "AAAAB\nAAAAB\nAAAAC\nDDDDC\nEEEEC\n"
    expected = len(oracle(5, [[ord(ch) - 65 for ch in line] for line in many.split()]))
    result = run("count", "-", "--backend", "cpsat", cwd=folder, stdin=many)
    assert result.stdout == f"{expected}\n"


def test_explain(folder):
    result = run("explain", "queens.txt", cwd=folder)
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "difficulty: easy"
    assert "region E lies within column 4" in result.stdout
    data = json.loads(run("explain", "queens.json", "--format", "json", cwd=folder).stdout)
    assert data["queens"] == [list(cell) for cell in SOLUTION_5]
    assert data["steps"][0]["rule"] == "given"


@pytest.mark.slow
def test_new_json_is_a_puzzle_file_plus_its_solution(folder):
    result = run("new", "--size", "7", "--seed", "4", "--format", "json", cwd=folder)
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert set(data) == {"n", "regions", "solution"}
    assert oracle(7, data["regions"]) == [tuple(map(tuple, data["solution"]))]
    (folder / "new.json").write_text(result.stdout)
    solved = run("solve", "new.json", "--format", "json", "--backend", "cpsat", cwd=folder)
    assert json.loads(solved.stdout) == {"queens": data["solution"]}


@pytest.mark.slow
def test_new_board_and_difficulty(folder):
    result = run("new", "--size", "6", "--seed", "1", "--difficulty", "easy", cwd=folder)
    assert result.returncode == 0
    (folder / "easy.txt").write_text(result.stdout)
    assert run("explain", "easy.txt", cwd=folder).stdout.endswith("difficulty: easy\n")


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        (("count", "-"), "AAB\nAB\nCCC\n", 1, "puzzle file <stdin>: line 2, column 3: row 2 has"),
        (("count", "missing.txt"), "", 1, "cannot read puzzle file 'missing.txt'"),
        (("count", "-"), '{"n": 2}', 1, "puzzle file <stdin>: the JSON puzzle has no 'regions'"),
        (("count", "-"), "{nope", 1, "puzzle file <stdin>: line 1, column 2: not JSON"),
        (("new", "--size", "6", "--stars", "2"), "", 1, "no 6x6 grid holds 2 stars"),
        (("new", "--size", "x"), "", 2, "invalid int value"),
        (("solve", "q.txt", "--format", "gif"), "", 2, "invalid choice: 'gif'"),
        (("frobnicate",), "", 2, "invalid choice: 'frobnicate'"),
    ],
)
def test_errors_are_one_line(folder, args, stdin, code, message):
    result = run(*args, cwd=folder, stdin=stdin)
    assert result.returncode == code
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_no_solution(folder):
    result = run("solve", "-", "--backend", "cpsat", cwd=folder, stdin="AB\nBB\n")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", "cpqueens: no solution\n")


@pytest.mark.parametrize(
    ("example", "first", "last"),
    [
        ("queens_game", "9x9 Queens puzzle: unique solution", "difficulty: hard"),
        ("star_battle", "10x10, 2 stars: 1 solution", "difficulty: needs search"),
    ],
)
@pytest.mark.slow
def test_examples(tmp_path, example, first, last):
    picture = tmp_path / "out.svg"
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / f"{example}.py"), "--svg", str(picture)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert (result.returncode, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0].startswith(first) and lines[-1].endswith(last)
    assert ET.parse(picture).getroot().tag.endswith("svg")


# -- limits: a time limit, and Ctrl-C, end a long puzzle search with one line ---------------------

#: Rows as regions, 3 stars on 14 x 14: billions of solutions (a misread grid).
ROWS_14 = "stars 3\n" + "\n".join(chr(65 + r) * 14 for r in range(14)) + "\n"


@pytest.mark.slow
def test_a_time_limit_ends_a_huge_count_with_one_line(tmp_path):
    (tmp_path / "rows.txt").write_text(ROWS_14)
    result = run("count", "rows.txt", "--time-limit", "1", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert re.fullmatch(
        r"cpqueens: error: the time limit of 1 s ended the search before it was complete; "
        r"[\d,]+ solutions? found by then\n",
        result.stderr,
    ), result.stderr
    result = run("count", "rows.txt", "--time-limit", "1", "--backend", "cpsat", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith("cpqueens: error: the time limit of 1 s ended the search")
    for bad in ("0", "inf", "nan"):  # the same refusal from every verb
        result = run("count", "rows.txt", "--time-limit", bad, cwd=tmp_path)
        assert (result.returncode, result.stderr) == (
            2,
            "cpqueens puzzle count: error: argument --time-limit: expected a number of seconds "
            f"> 0, got '{bad}'\n",
        )


@pytest.mark.slow
def test_a_time_limit_ends_a_long_generation_with_one_line(tmp_path):
    result = run("new", "--size", "14", "--stars", "3", "--seed", "1", "--time-limit", "0.3",
                 cwd=tmp_path)  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        "cpqueens: error: the time limit of 0.3 s ended the generation before it found a "
        "14x14 puzzle\n",
    )


@pytest.mark.parametrize(
    "args", [("count", "rows.txt"), ("new", "--size", "20", "--stars", "4", "--seed", "1")]
)
@pytest.mark.slow
def test_ctrl_c_stops_a_long_puzzle_search_at_once(tmp_path, args):
    (tmp_path / "rows.txt").write_text(ROWS_14)
    job = subprocess.Popen(
        [sys.executable, "-m", "cpqueens", "puzzle", *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Imported, and deep in the search (the whole search takes far longer): by the CPU time
    # it has used, not by the clock, which runs on while a busy machine runs other work.
    assert wait_for(lambda: cpu_seconds(job.pid) >= 3, timeout=300)
    assert job.poll() is None
    job.send_signal(signal.SIGINT)
    out, err = job.communicate(timeout=30)
    assert (job.returncode, out, err) == (130, "", "cpqueens: interrupted\n")


# -- issue 34: exit codes, batches, hint, verify, and the probe's large or bad inputs -------------


@pytest.mark.slow
def test_check_exits_0_only_for_a_unique_puzzle(folder):
    assert run("check", "queens.txt", cwd=folder).returncode == 0
    two = run("check", "-", cwd=folder, stdin=TWO_SOLUTIONS)
    assert two.returncode == 1
    assert two.stdout.startswith("not unique: at least 2 solutions, for example\n")
    none = run("check", "-", "--format", "json", cwd=folder, stdin="AB*\nBB*\n")
    assert (none.returncode, json.loads(none.stdout)) == (1, {"unique": False, "solutions": []})


def test_solve_says_when_a_puzzle_has_several_solutions(folder):
    result = run("solve", "-", "--format", "json", cwd=folder, stdin=TWO_SOLUTIONS)
    assert result.returncode == 0
    assert result.stderr == "cpqueens: the puzzle has at least 2 solutions; this is one of them\n"
    queens = tuple(map(tuple, json.loads(result.stdout)["queens"]))
    assert queens in oracle(5, [[ord(ch) - 65 for ch in line] for line in TWO_SOLUTIONS.split()])


@pytest.mark.slow
def test_a_contradictory_puzzle_gets_one_verdict_from_every_verb(folder):
    bad = "AB*\nBB*\n"  # two given queens in one column
    for verb in ("solve", "explain", "hint"):
        result = run(verb, "-", cwd=folder, stdin=bad)
        assert result.returncode == 1, verb
        assert result.stderr.splitlines()[-1].endswith("no solution"), verb
        assert "needs search" not in result.stdout
    assert run("count", "-", cwd=folder, stdin=bad).stdout == "0\n"


@pytest.mark.slow
def test_solve_reads_a_batch_and_other_verbs_name_json_arrays(folder):
    batch = json.dumps([json.loads((folder / "queens.json").read_text()), {"n": 2,
                        "regions": [[0, 1], [1, 1]]}])  # fmt: skip
    result = run("solve", "-", "--format", "json", cwd=folder, stdin=batch)
    assert result.returncode == 1  # the second has no solution
    assert [json.loads(line) for line in result.stdout.splitlines()] == [
        {"queens": [list(cell) for cell in SOLUTION_5]},
        {"queens": None},
    ]
    assert result.stderr == "cpqueens: puzzle 2: no solution\n"
    grids = run("solve", "-", cwd=folder, stdin=QUEENS_5 + "\n" + QUEENS_5)
    assert grids.returncode == 0 and grids.stdout.count("*") == 10
    refused = run("count", "-", cwd=folder, stdin=batch)
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == (
        "cpqueens: error: puzzle file <stdin> holds 2 puzzles (a JSON array, or grids separated "
        "by blank lines): only 'puzzle solve' reads several\n"
    )


@pytest.mark.slow
def test_hint_prints_the_next_deduction_only(folder):
    first = run("hint", "queens.txt", cwd=folder)
    assert (first.returncode, first.stdout) == (
        0, "(1, 0) is the last cell left in region B: a queen there\n"
    )  # fmt: skip
    after = run("hint", "queens.txt", "--queens", "1,0", "--format", "json", cwd=folder)
    assert json.loads(after.stdout)["queens"] == [[0, 2]]
    wrong = run("hint", "queens.txt", "--queens", "0,0", cwd=folder)
    assert (wrong.returncode, wrong.stderr) == (
        1, "cpqueens: error: no solution holds your queen (0, 0)\n"
    )  # fmt: skip
    cross = run("hint", "queens.txt", "--crossed", "1,0", cwd=folder)
    assert (cross.returncode, cross.stderr) == (
        1, "cpqueens: error: the solution has a queen on your crossed cell (1, 0)\n"
    )  # fmt: skip


@pytest.mark.slow
def test_verify_an_answer_from_the_command_line_or_a_file(folder):
    cells = [f"{r},{c}" for r, c in SOLUTION_5]
    good = run("verify", "queens.txt", "--queens", *cells, cwd=folder)
    assert (good.returncode, good.stdout) == (0, "solved: the answer keeps every rule\n")
    bad = run("verify", "queens.txt", "--queens", "0,2", "1,3", cwd=folder)
    assert bad.returncode == 1
    assert "queens at (0, 2) and (1, 3) touch" in bad.stdout.splitlines()
    (folder / "answer.txt").write_text(run("solve", "queens.txt", cwd=folder).stdout)
    (folder / "answer.json").write_text(json.dumps({"queens": [[0, 2], [1, 0]]}))
    assert run("verify", "queens.txt", "--answer", "answer.txt", cwd=folder).returncode == 0
    partial = run("verify", "queens.json", "--answer", "answer.json", cwd=folder)
    assert partial.returncode == 1 and "row 2 has 0 queens, expected 1" in partial.stdout
    (folder / "other.txt").write_text("AB*\nBB\n")
    other = run("verify", "queens.txt", "--answer", "other.txt", cwd=folder)
    assert other.stderr == (
        "cpqueens: error: answer file 'other.txt': its grid is not the puzzle's (other regions)\n"
    )


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("count", "/dev/zero"), "", "cannot read puzzle file '/dev/zero': it is not a regular"),
        (("count", "-"), "A" * (5 * 2**20), "cannot read puzzle file <stdin>: it holds more than"),
        (("count", "-"), "[" * 100_000, "not JSON this reader takes: nested too deep"),
        (("count", "-"), "stars 0\nAB\nBB\n", "stars must be between 1 and 1 on a 2x2 grid"),
        (("new", "--size", "61", "--stars", "31"), "", "expected a size of at least 123"),
        (("new", "--size", "30", "--stars", "6"), "", "has 5,313,000 of them, more than its"),
        (("new", "--size", "7", "--stars", "2"), "", "no 7x7 grid holds 2 stars in every row"),
    ],
)
def test_bad_or_impossible_input_is_refused_in_one_line(folder, args, stdin, message):
    result = run(*args, cwd=folder, stdin=stdin)
    assert (result.returncode, result.stdout) == (1, "")
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr


def grid_of_rows(n: int, stars: int) -> str:
    symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"
    return f"stars {stars}\n" + "\n".join(symbols[r] * n for r in range(n)) + "\n"


@pytest.mark.slow  # five CLI processes, 3 s each on 2 cores
@pytest.mark.parametrize("verb", ["count", "solve", "check", "explain", "hint"])
def test_rows_too_crowded_answer_no_solution_at_once(tmp_path, verb):
    # 31 stars in each of 62 columns' rows: two neighbouring rows hold 31 at most, need 62
    (tmp_path / "big.txt").write_text(grid_of_rows(62, 31))
    result = run(verb, "big.txt", cwd=tmp_path)
    expected = {
        "count": (0, "0\n", ""),
        "solve": (1, "", "cpqueens: no solution\n"),
        "check": (1, "not unique: no solution\n", ""),
        "hint": (1, "", "cpqueens: error: the puzzle has no solution\n"),
    }
    if verb == "explain":
        assert result.returncode == 1 and "but need 62" in result.stdout
        assert "difficulty: no solution" in result.stdout
    else:
        assert (result.returncode, result.stdout, result.stderr) == expected[verb]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "stars"), [(30, 6), (62, 15), (62, 31)])
@pytest.mark.parametrize("verb", ["count", "solve", "check", "explain"])
def test_large_puzzles_keep_their_time_limit(tmp_path, n, stars, verb):
    (tmp_path / "big.txt").write_text(grid_of_rows(n, stars))
    result = run(verb, "big.txt", "--time-limit", "1", cwd=tmp_path)  # run's timeout: 120 s
    assert "Traceback" not in result.stderr
    if verb == "check" and result.stdout.startswith("not unique"):  # an answer: exit code 1
        assert result.returncode == 1
    elif result.returncode == 0:  # an answer within the limit
        assert verb in ("solve", "count")
    else:
        assert result.returncode == 1
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert (
            result.stderr.startswith("cpqueens: error: the time limit of 1 s ended the search")
            or result.stderr == "cpqueens: no solution\n"
        ), result.stderr
