"""``cpqueens puzzle``: the Queens game and Star Battle, from files and screenshots."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from cpqueens.backends import choices

if TYPE_CHECKING:
    pass

from cpqueens.cli.reader import (
    UsageError,
    left,
    read_answer,
    read_one,
    read_puzzle,
    read_source,
    write_output,
)
from cpqueens.cli.types import cell, seconds

PUZZLE_EXAMPLES = """\
examples:
  cpqueens puzzle solve queens.txt                the letter grid with the queens marked '*'
  cpqueens puzzle solve queens.txt --format json  {"queens": [[row, col], ...]} (0-based, sorted)
  cpqueens puzzle solve many.json                 a JSON array of puzzles: one answer each
  cpqueens puzzle check queens.txt --format json  {"unique": true, "solutions": [[[0, 2], ...]]}
  cpqueens puzzle count queens.txt                the exact number of solutions
  cpqueens puzzle explain queens.txt              a player's deduction steps and the difficulty
  cpqueens puzzle hint queens.txt --queens 1,0 --crossed 0,0 0,1   the next deduction only
  cpqueens puzzle verify queens.txt --queens 0,2 1,0 2,3 3,1 4,4   the rules an answer breaks
  cpqueens puzzle new --size 9 --difficulty hard --seed 7 --format json
  cpqueens puzzle count big.txt --time-limit 10   an error, not a number, past 10 s
  cpqueens puzzle solve shot.png                  a screenshot of the game, read and solved
  cpqueens puzzle solve shot.png --format png --out solved.png   its queens drawn on it

A puzzle file ('-' for stdin) is a letter grid (one region letter or digit per
cell, one row per line; '*' after a cell marks a given queen, '#' a blocked
cell; optional header lines 'stars K' and 'diagonals') or JSON: {"n": 8,
"regions": [[0, 0, 1, ...], ...], "stars": 1, "givens": {"queens": [[r, c]],
"blocked": [[r, c]]}} (stars and givens optional), or a screenshot of the
Queens game (PNG, JPEG or WebP, told by its content): the board is found in
it and read, and refused in one line if the reading is unsure (the colours
do not read as n connected regions with exactly one solution). 'puzzle
solve' also reads several: a JSON array of puzzles, or letter grids
separated by blank lines. Cells are 0-based (row, col), row 0 at the top,
column 0 at the left.

Exit codes: 0 done (check: the puzzle is unique; verify: the answer solves
it); 1 no solution or several (check, explain, hint), an answer that breaks a
rule, a file or option refused, or a time limit reached; 2 a malformed
command line; 130 Ctrl-C.
"""

#: The largest puzzle file read: a 62 x 62 grid is some 12 KB; room for a batch of them.


FILE_HELP = "the puzzle: a letter grid, JSON, or a screenshot (PNG, JPEG, WebP); - = stdin"


def add_puzzle_commands(commands: Any) -> None:
    """The ``puzzle`` command and its verbs: solve, check, count, explain, hint, verify, new."""
    shared = {"epilog": PUZZLE_EXAMPLES, "formatter_class": argparse.RawDescriptionHelpFormatter}
    puzzle = commands.add_parser(
        "puzzle", help="region puzzles: the Queens game and Star Battle", **shared
    )
    verbs = puzzle.add_subparsers(dest="verb", metavar="VERB", required=True)
    engines = choices()

    def add_time_limit(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--time-limit",
            metavar="S",
            type=seconds,
            help="give up after S seconds: an error, never a partial answer",
        )

    def add_source(parser: argparse.ArgumentParser, queens: bool = True) -> None:
        parser.add_argument("file", metavar="FILE", help=FILE_HELP)
        if not queens:
            return
        parser.add_argument(
            "--with-queens",
            action="store_true",
            help="a screenshot's drawn queens are givens (default: only its regions are read)",
        )
        parser.add_argument(
            "--stars",
            metavar="K",
            type=int,
            help="a screenshot's stars per row, column and region "
            "(default: the one count that gives exactly one solution)",
        )

    def add_file(
        parser: argparse.ArgumentParser, backend: bool = True, queens: bool = True
    ) -> None:
        add_source(parser, queens)
        if backend:
            parser.add_argument("--backend", choices=engines, default="auto", help="the engine")
        add_time_limit(parser)

    solve = verbs.add_parser("solve", help="print the solution (of each puzzle)", **shared)
    add_file(solve)
    solve.add_argument(
        "--format",
        choices=("board", "json", "svg", "png"),
        default="board",
        help="png: the screenshot FILE with the solution's queens drawn on it",
    )
    solve.add_argument("--out", metavar="PATH", help="write the output to PATH, not stdout")
    solve.set_defaults(run=run_puzzle_solve)
    check = verbs.add_parser("check", help="say whether the solution is unique", **shared)
    add_file(check)
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.set_defaults(run=run_puzzle_check)
    count = verbs.add_parser("count", help="print the exact number of solutions", **shared)
    add_file(count)
    count.set_defaults(run=run_puzzle_count)
    explain = verbs.add_parser("explain", help="print the deduction steps and difficulty", **shared)
    add_source(explain)
    add_time_limit(explain)
    explain.add_argument("--format", choices=("text", "json"), default="text")
    explain.set_defaults(run=run_puzzle_explain)
    hint = verbs.add_parser("hint", help="print the next deduction only", **shared)
    add_file(hint, backend=False)
    hint.add_argument(
        "--queens", metavar="R,C", type=cell, nargs="+", default=[],
        help="the queens placed so far (0-based row, column)",
    )  # fmt: skip
    hint.add_argument(
        "--crossed", metavar="R,C", type=cell, nargs="+", default=[],
        help="the cells crossed out so far (0-based row, column)",
    )  # fmt: skip
    hint.add_argument("--format", choices=("text", "json"), default="text")
    hint.set_defaults(run=run_puzzle_hint)
    verify = verbs.add_parser("verify", help="say which rules an answer breaks", **shared)
    add_file(verify, backend=False)
    answer = verify.add_mutually_exclusive_group(required=True)
    answer.add_argument(
        "--queens", metavar="R,C", type=cell, nargs="+", help="the answer's queens (0-based)"
    )
    answer.add_argument(
        "--answer", metavar="F", help="a file: the grid with its queens marked '*' (as 'solve' "
        "prints it) or {\"queens\": [[r, c], ...]}",
    )  # fmt: skip
    verify.set_defaults(run=run_puzzle_verify)
    new = verbs.add_parser("new", help="generate a puzzle with exactly one solution", **shared)
    new.add_argument("--size", metavar="N", type=int, required=True, help="the grid is N x N")
    new.add_argument("--stars", metavar="K", type=int, default=1, help="per row (default 1)")
    new.add_argument(
        "--difficulty", choices=("easy", "medium", "hard", "needs-search"),
        help="the rules a player needs (default: any that deduction alone solves)",
    )  # fmt: skip
    new.add_argument("--seed", metavar="S", type=int, help="the same seed, the same puzzle")
    new.add_argument("--format", choices=("board", "json", "svg"), default="board")
    add_time_limit(new)
    new.set_defaults(run=run_puzzle_new)


def _cells_json(cells: Any) -> list[list[int]]:
    return [[r, c] for r, c in sorted(cells)]


def run_puzzle_solve(args: argparse.Namespace) -> int:
    """``cpqueens puzzle solve``: one solution of each puzzle, as a grid, JSON, SVG or PNG.

    A puzzle with several solutions is solved, and stderr says so; one with
    none prints nothing (``null`` in JSON) and the exit code is 1.
    """
    puzzles, shot = read_source(args)
    several = len(puzzles) > 1
    if args.format == "png" and shot is None:
        raise UsageError(
            "--format png draws the queens over a screenshot: FILE is a puzzle file "
            "(use --format svg for a picture)"
        )
    if several and args.format == "svg":
        raise UsageError(f"--format svg draws one puzzle, and the file holds {len(puzzles)}")
    code = 0
    outputs: list[str] = []
    for index, puzzle in enumerate(puzzles, start=1):
        where = f"puzzle {index}: " if several else ""
        if shot is not None and args.backend == "auto":  # the reading's check found it
            found = list(shot.solutions)
        else:
            found = puzzle.solutions(args.backend, 2, time_limit=left(args, shot))
        if not found:
            print(f"cpqueens: {where}no solution", file=sys.stderr)
            code = 1
            if several:  # one answer per puzzle, in order: this one's says so in place
                none = json.dumps({"queens": None}) if args.format == "json" else "no solution"
                outputs.append(none)
            continue
        if len(found) > 1:
            print(
                f"cpqueens: {where}the puzzle has at least 2 solutions; this is one of them",
                file=sys.stderr,
            )
        queens = found[0]
        if args.format == "png":
            write_output(args, shot.overlay(queens))
            return code
        if args.format == "json":
            outputs.append(json.dumps({"queens": _cells_json(queens)}))
        elif args.format == "svg":
            outputs.append(puzzle.svg(queens))
        else:
            colour = args.out is None and sys.stdout.isatty()
            outputs.append(puzzle.draw(queens, colour=colour))
    if outputs:
        write_output(args, ("\n" if args.format == "json" else "\n\n").join(outputs))
    return code


def run_puzzle_check(args: argparse.Namespace) -> int:
    """``cpqueens puzzle check``: unique (exit 0) or not (exit 1), with up to two solutions."""
    puzzle, shot = read_one(args)
    if shot is not None and args.backend == "auto":  # the reading's check proved it
        unique, found = True, list(shot.solutions)
    else:
        unique, found = puzzle.check(args.backend, time_limit=left(args, shot))
    if args.format == "json":
        print(json.dumps({"unique": unique, "solutions": [_cells_json(s) for s in found]}))
        return 0 if unique else 1
    if unique:
        print("unique: exactly one solution")
    elif not found:
        print("not unique: no solution")
    else:
        print("not unique: at least 2 solutions, for example")
    for queens in found:
        print(puzzle.draw(queens, colour=sys.stdout.isatty()))
        print()
    return 0 if unique else 1


def run_puzzle_count(args: argparse.Namespace) -> int:
    """``cpqueens puzzle count``: the exact number of solutions."""
    puzzle, shot = read_one(args)
    if shot is not None and args.backend == "auto":  # the reading's check proved it
        print(len(shot.solutions))
        return 0
    print(puzzle.count(args.backend, time_limit=left(args, shot)))
    return 0


#: The line on stderr for a puzzle that has not exactly one solution (every verb says the same).
NOT_ONE = {"no solution": "no solution", "several solutions": "the puzzle has at least 2 solutions"}


def run_puzzle_explain(args: argparse.Namespace) -> int:
    """``cpqueens puzzle explain``: the deduction steps and the difficulty.

    A puzzle without exactly one solution: its steps, then one line on stderr, exit code 1.
    """
    puzzle, shot = read_one(args)
    explanation = puzzle.explain(time_limit=left(args, shot))
    if args.format == "json":
        print(json.dumps(explanation.to_json()))
    else:
        print(explanation)
    if explanation.difficulty in NOT_ONE:
        print(f"cpqueens: {NOT_ONE[explanation.difficulty]}", file=sys.stderr)
        return 1
    return 0


def run_puzzle_hint(args: argparse.Namespace) -> int:
    """``cpqueens puzzle hint``: the next deduction for the queens placed so far."""
    puzzle, shot = read_one(args)
    step = puzzle.hint(args.queens, crossed=args.crossed, time_limit=left(args, shot))
    if args.format == "json":
        print(json.dumps(None if step is None else step.to_json()))
    else:
        print("solved: every queen is placed" if step is None else step.text)
    return 0


def run_puzzle_verify(args: argparse.Namespace) -> int:
    """``cpqueens puzzle verify``: the rules an answer breaks, one per line; exit 0 if none."""
    puzzle = read_puzzle(args)
    queens = args.queens if args.queens is not None else read_answer(args.answer, puzzle)
    problems = puzzle.verify(queens)
    if not problems:
        print("solved: the answer keeps every rule")
        return 0
    for problem in problems:
        print(problem)
    return 1


def run_puzzle_new(args: argparse.Namespace) -> int:
    """``cpqueens puzzle new``: a generated puzzle with exactly one solution."""
    from cpqueens.model.puzzle import Puzzle

    puzzle, solution = Puzzle.generate(
        args.size,
        args.stars,
        difficulty=None if args.difficulty is None else args.difficulty.replace("-", " "),
        seed=args.seed,
        time_limit=args.time_limit,
    )
    if args.format == "json":
        print(json.dumps({**puzzle.to_json(), "solution": _cells_json(solution)}))
    elif args.format == "svg":
        print(puzzle.svg())
    else:
        print(puzzle.draw(colour=sys.stdout.isatty()))
    return 0
