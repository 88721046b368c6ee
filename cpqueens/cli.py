"""The command line: ``cpqueens count``, ``solve``, ``exists`` and ``backends``.

Every bad input ends in one line on stderr and a non-zero exit code: 2 for a
malformed command line, 1 for a problem the library or a board file rejects.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from itertools import chain
from typing import TYPE_CHECKING, Any, NoReturn, cast

import cpqueens
from cpqueens.backends import choices, distribution, is_installed, known, preference
from cpqueens.errors import CountInterrupted, CpqueensError, ImageReadError
from cpqueens.execution.files import FileRefusedError, read_at_most, read_regular
from cpqueens.model import DEFAULT_BACKEND, Model
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.constraints import Placed
from cpqueens.vocabulary.limits import MAX_BOARD_BYTES

if TYPE_CHECKING:
    from cpqueens.strategies.planner import BackendName

EXAMPLES = """\
examples:
  cpqueens count 8                          92 (backend auto: the fastest exact engine)
  cpqueens count 12 --backend cpsat --time  the time and the engine on stderr
  cpqueens count 8 --json                   {"count": 92, "n": 8, "backend": "bitmask", ...}
  cpqueens count 17 --time-limit 60         an error, not a number, if it runs past 60 s
  cpqueens exists --board grid.txt          yes or no: has the blocked board a solution?
  cpqueens exists 30 --placed 0,5 3,9 --time-limit 10   n-Queens Completion, at most 10 s
  cpqueens count 8 --colours 2              2n queens: 3252
  cpqueens count 16 --checkpoint q16.json   Ctrl-C or a crash, then the same command resumes
  cpqueens count 18 --scheduler tcp://HOST:8786   on a Dask cluster
  cpqueens count 8 --placed 0,0 3,5         queens fixed at (row, col), 0-based: 2
  cpqueens count 5 --colours 2 --placed 0,1,1   a colour-1 queen at (0, 1): 8
  cpqueens count 13 --toroidal              diagonals wrap around the edges: 4524
  cpqueens count 12 --knight                superqueens (no knight's move either): 156
  cpqueens count --board grid.txt           the board file gives n
  cpqueens count --colours 2 --board - < grid.txt
  cpqueens solve 6 --limit 3 --format columns
  cpqueens count 8 --unique                 12 classes under the board's symmetries
  cpqueens solve 8 --unique --format columns
  cpqueens solve 8 --format svg --out eight.svg
  cpqueens solve 100000 --any --format columns   any one solution, found fast
  cpqueens backends
"""

BOARD_HELP = """\
A board file (or '-' for stdin) holds the grid, optionally after a line giving
n: rows of 0/1 (1 = a queen may stand), of '*' and '.' ('.' = blocked), or of
'.' and '#' as cpqueens prints boards ('#' = blocked), with or without spaces
between cells. N may then be omitted; if given it must match the grid.

Exit codes: 0 done; 1 a problem, board file or backend the library rejects,
a time limit reached, or no solution to print; 2 a malformed command line;
130 Ctrl-C and 143 SIGTERM (finished subproblems stay in the checkpoint).
"""


#: Seconds to wait for a Dask scheduler to answer before giving up.
SCHEDULER_TIMEOUT = 10


class UsageError(Exception):
    """A command line that names an impossible problem (exit code 1)."""


def examples_for(command: str) -> str:
    """The lines of ``EXAMPLES`` that run ``command``, under their heading (a subcommand's help)."""
    lines = [line for line in EXAMPLES.splitlines()[1:] if line.startswith(f"  cpqueens {command}")]
    return "\n".join(["examples:", *lines]) + "\n"


def workers_count(text: str) -> int:
    """Read ``--workers W``: an int >= 1 (the command line has no None)."""
    try:
        workers = int(text)
    except ValueError:
        workers = 0
    if workers < 1:
        raise argparse.ArgumentTypeError(f"workers must be an int >= 1, got {text!r}")
    return workers


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr, never the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def cell(text: str) -> tuple[int, int]:
    """Read a 'R,C' command-line cell (0-based row and column)."""
    parts = text.split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected R,C (0-based row and column), got {text!r}"
        ) from None
    return row, col


def queen(text: str) -> tuple[int, int] | tuple[int, int, int]:
    """Read a 'R,C' or 'R,C,K' placed queen (0-based row, column and colour, K default 0)."""
    parts = text.split(",")
    try:
        if len(parts) not in (2, 3):
            raise ValueError(text)
        numbers = tuple(int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected R,C or R,C,K (0-based row, column and colour), got {text!r}"
        ) from None
    return numbers  # type: ignore[return-value]


def take_negative_cells(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` read a cell with a negative row, such as ``-1,0``, as an argument.

    argparse reads an argument that starts with '-' as an option unless it
    looks like a negative number (newer argparse versions already count
    ``-1,0`` as one, Python 3.11's does not). As no option looks like a
    number, ``--placed -1,0`` then reaches the library's check of the cell
    instead of failing as an option without its arguments.
    """
    numbers = parser._negative_number_matcher.pattern
    parser._negative_number_matcher = re.compile(rf"(?:{numbers})|^-\d+,-?\d+(?:,-?\d+)?$")


def add_problem_options(parser: argparse.ArgumentParser, unique: bool = True) -> None:
    """The options that state a problem and pick a backend, shared by every command that solves.

    ``unique`` adds ``--unique`` (one solution per symmetry class).
    """
    parser.add_argument("n", metavar="N", nargs="?", type=int, help="the board size")
    parser.add_argument(
        "--board",
        metavar="FILE",
        help="read the board (n, blocked cells, drawn queens placed) from FILE, - = stdin",
    )
    parser.add_argument(
        "--colours",
        metavar="K",
        type=int,
        default=None,
        help="colours of queens (default 1, or the colours of the board file's queens)",
    )
    parser.add_argument(
        "--placed",
        metavar="R,C[,K]",
        type=queen,
        nargs="+",
        action="extend",
        default=[],
        help="queens fixed at 0-based (row, col), of colour K (default 0)",
    )
    parser.add_argument(
        "--toroidal",
        action="store_true",
        help="the diagonals wrap around the board's edges (toroidal queens)",
    )
    parser.add_argument(
        "--knight",
        action="store_true",
        help="no two queens of one colour a knight's move apart (superqueens)",
    )
    take_negative_cells(parser)
    parser.add_argument(
        "--backend",
        metavar="B",
        default=DEFAULT_BACKEND,
        help=f"solver: {', '.join(choices())} (default {DEFAULT_BACKEND}: the fastest that fits)",
    )
    if unique:
        parser.add_argument(
            "--unique",
            action="store_true",
            help="one solution per class under the board symmetries the problem has",
        )
    parser.add_argument("--time", action="store_true", help="print the time taken on stderr")


def build_parser() -> argparse.ArgumentParser:
    """The ``cpqueens`` argument parser with its commands."""
    parser = _Parser(
        prog="cpqueens",
        description="Count and list N-Queens-family solutions exactly.",
        epilog=EXAMPLES + "\n" + BOARD_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=cpqueens.__version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    raw: dict[str, Any] = {"formatter_class": argparse.RawDescriptionHelpFormatter}

    count = commands.add_parser(
        "count", help="print the exact number of solutions", epilog=examples_for("count"), **raw
    )
    add_problem_options(count)
    count.add_argument(
        "--workers",
        metavar="W",
        type=workers_count,
        help="processes (default: every core if it pays)",
    )
    count.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="count on a Dask cluster, e.g. tcp://HOST:8786 (needs cpqueens[distributed])",
    )
    count.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="record finished subproblems in FILE; run the same command again to resume",
    )
    bar = count.add_mutually_exclusive_group()
    bar.add_argument(
        "--quiet", action="store_true", help="no progress bar (shown on a terminal after 1 s)"
    )
    bar.add_argument(
        "--progress",
        action="store_true",
        help="a progress bar on stderr even when it is not a terminal",
    )
    count.add_argument(
        "--time-limit",
        metavar="S",
        type=float,
        help="give up after S seconds: an error, never a partial count",
    )
    count.add_argument(
        "--json",
        action="store_true",
        help="print a JSON object: count, n, colours, unique, backend, seconds, ...",
    )
    count.set_defaults(run=run_count)

    solve = commands.add_parser(
        "solve", help="print solutions in lexicographic order", epilog=examples_for("solve"), **raw
    )
    add_problem_options(solve)
    solve.add_argument(
        "--limit", metavar="K", type=int, help="at most K solutions (default all; svg: 1)"
    )
    solve.add_argument(
        "--format",
        choices=("board", "columns", "svg", "json"),
        default="board",
        help="rows of Q and . (default), 1-based columns, an SVG picture, or a JSON list "
        "of solutions (each a list of 0-based column lists, one per colour)",
    )
    solve.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    add_any_options(solve)
    solve.set_defaults(run=run_solve)

    exists = commands.add_parser(
        "exists",
        help="print yes if the problem has a solution, else no",
        epilog=examples_for("exists"),
        **raw,
    )
    add_problem_options(exists, unique=False)
    exists.add_argument(
        "--time-limit",
        metavar="S",
        type=float,
        help="give up after S seconds: an error, never an unproven answer",
    )
    exists.set_defaults(run=run_exists)

    add_optimize(commands)
    listing = commands.add_parser("backends", help="list the backends and their versions")
    listing.set_defaults(run=run_backends)
    warm = commands.add_parser(
        "warm",
        help="compile every kernel into the on-disk cache (once, e.g. in a container image)",
    )
    warm.set_defaults(run=run_warm)
    add_puzzle_commands(commands)
    return parser


def read_board(path: str) -> Board:
    """The board in file ``path`` ('-' = stdin): UTF-8 text, a byte order mark skipped."""
    name = "<stdin>" if path == "-" else repr(path)
    try:
        if path == "-":
            if sys.stdin is None:
                raise UsageError(f"cannot read board file {name}: no standard input")
            stdin = getattr(sys.stdin, "buffer", sys.stdin)  # bytes unless stdin was replaced
            data = read_at_most(stdin, MAX_BOARD_BYTES)  # type: ignore[arg-type]
        else:
            data = read_regular(path, MAX_BOARD_BYTES)
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    except (OSError, UnicodeDecodeError, FileRefusedError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        if isinstance(error, FileRefusedError):
            reason = f"{error} (a board file is a regular file or stdin of at most "
            reason += f"{MAX_BOARD_BYTES} bytes)"
        raise UsageError(f"cannot read board file {name}: {reason}") from None
    try:
        return Board.parse(text)
    except ValueError as error:
        raise UsageError(f"board file {name}: {error}") from None


def build_model(args: argparse.Namespace) -> Model:
    """The model the problem options state."""
    variants = {"toroidal": args.toroidal, "knight": args.knight}
    if args.board is None:
        if args.n is None:
            raise UsageError("give the board size N or a board file with --board")
        return cpqueens.model(args.n, colours=args.colours, placed=args.placed, **variants)
    board = read_board(args.board)
    if args.n is not None and args.n != board.n:
        raise UsageError(f"N is {args.n} but the board in {args.board!r} is {board.n}x{board.n}")
    return cpqueens.model(board, colours=args.colours, placed=args.placed, **variants)


def report_time(args: argparse.Namespace, start: float, engine: str) -> None:
    """Print the seconds since ``start`` and the engine that answered on stderr if --time."""
    if args.time:
        print(f"time: {time.perf_counter() - start:.3f} s (backend {engine})", file=sys.stderr)


def run_count(args: argparse.Namespace) -> int:
    """``cpqueens count``: the exact number of solutions."""
    model = build_model(args)
    engine = cast("BackendName", model.engine(args.backend))  # a resolved name
    options = {
        "unique": args.unique,
        "progress": True if args.progress else (False if args.quiet or args.json else None),
        "checkpoint": args.checkpoint,
        "time_limit": args.time_limit,
    }
    start = time.perf_counter()
    if args.scheduler is None:
        total = model.count(engine, workers=args.workers, **options)
    else:
        if args.workers is not None:
            raise UsageError("--workers and --scheduler exclude each other")
        with dask_client(args.scheduler) as client:
            total = model.count(engine, executor=client.get_executor(), **options)
    seconds = time.perf_counter() - start
    if args.json:
        report = {
            "count": total,
            "unique": args.unique,
            "n": model.n,
            "colours": model.colours,
            "blocked": [list(cell) for cell in model.board.blocked],
            "placed": [list(cell) for cell in model.placed]
            + [[*cell, c.colour] for c in model.extra if isinstance(c, Placed) for cell in c.cells],
            "backend": engine,
            "path": model.engine(engine, path=True),
            "requested_backend": args.backend,
            "seconds": round(seconds, 6),
        }
        print(json.dumps(report))
    else:
        print(total)
    report_time(args, start, engine)
    return 0


@contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """A Dask ``distributed.Client`` connected to the scheduler at ``address``, closed on leaving.

    Left by an error or Ctrl-C, it turns logging off for the rest of the
    command before closing: results still in transit die with the connection,
    and Dask's event loop thread would log each loss on stderr (during the
    close or just after it) besides the one line this command prints.
    """
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(
            "--scheduler needs dask.distributed: pip install 'cpqueens[distributed]'"
        ) from None
    try:
        client = Client(address, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise UsageError(f"cannot reach the Dask scheduler at {address!r}: {error}") from None
    try:
        with _quiet_on_signals():
            yield client
    except BaseException:
        logging.disable(logging.CRITICAL)
        client.close()
        raise
    client.close()


@contextmanager
def _quiet_on_signals() -> Iterator[None]:
    """Turn logging off the moment Ctrl-C or SIGTERM arrives, then let the signal act as before.

    The runner cancels the cluster's tasks while the interrupt travels up to
    ``dask_client``; a result cancelled in transit makes Dask's event loop
    thread log an error (tornado's InvalidStateError) before logging would be
    turned off there.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {
        number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)
    }

    def quiet(number: int, frame: Any) -> None:
        logging.disable(logging.CRITICAL)
        handler = previous[number]
        if callable(handler):  # Python's default for SIGINT raises KeyboardInterrupt
            handler(number, frame)
        else:  # SIG_DFL or SIG_IGN: as the process would have without us
            signal.signal(number, handler)
            if handler == signal.SIG_DFL:
                signal.raise_signal(number)

    for number in previous:
        signal.signal(number, quiet)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def add_any_options(solve: argparse.ArgumentParser) -> None:
    """``solve --any`` (one solution, found fast by ``Model.find``) and ``--time-limit``."""
    solve.add_argument(
        "--any",
        action="store_true",
        help="print any one solution, found fast (not the first in order); any board size",
    )
    if "--time-limit" not in solve._option_string_actions:  # solve may state it already
        solve.add_argument(
            "--time-limit",
            metavar="S",
            type=float,
            help="give up after S seconds: an error, never a partial answer",
        )


def run_solve_any(args: argparse.Namespace) -> int:
    """``cpqueens solve --any``: one solution from ``Model.find``, in the chosen format."""
    if args.unique:
        raise UsageError("--any prints one solution of the model: it takes no --unique")
    if args.limit is not None and args.limit != 1:
        raise UsageError(
            f"--any prints one solution: expected no --limit or --limit 1, got {args.limit}"
        )
    model = build_model(args)
    start = time.perf_counter()
    solution = model.find(args.backend, time_limit=args.time_limit)
    engine = f"find, {args.backend}"
    if solution is None:
        report_time(args, start, engine)
        if args.format == "json":
            print("[]")
            return 0
        print("cpqueens: no solution", file=sys.stderr)
        return 1
    text = {"board": "{}\n\n", "json": "[{}]\n"}.get(args.format, "{}\n")
    text = text.format(solution.draw(args.format))
    if args.out is None:
        sys.stdout.write(text)
    else:
        try:
            with open(args.out, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as error:
            raise UsageError(f"cannot write {args.out!r}: {error.strerror}") from None
    report_time(args, start, engine)
    return 0


def run_solve(args: argparse.Namespace) -> int:
    """``cpqueens solve``: solutions drawn as boards, column lists or one SVG picture."""
    if args.any:
        return run_solve_any(args)
    limit = args.limit
    if args.format == "svg":
        if limit is not None and limit != 1:
            raise UsageError(f"--format svg draws one solution: expected --limit 1, got {limit}")
        limit = 1
    model = build_model(args)
    engine = cast("BackendName", model.engine(args.backend))  # a resolved name
    solutions = model.solutions(engine, limit=limit, unique=args.unique, time_limit=args.time_limit)
    start = time.perf_counter()
    first = next(solutions, None)  # bad input fails here, before --out is created
    if first is None:
        report_time(args, start, engine)
        if args.format == "json":
            print("[]")
            return 0
        if limit == 0:
            return 0
        print("cpqueens: no solution", file=sys.stderr)
        return 1
    try:
        out = sys.stdout if args.out is None else open(args.out, "w", encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {args.out!r}: {error.strerror}") from None
    try:
        if args.format == "json":  # one JSON list, written as the solutions come
            out.write("[")
            try:
                for i, solution in enumerate(chain((first,), solutions)):
                    out.write((",\n " if i else "") + solution.draw("json"))
            finally:  # a time limit: what was found is still one JSON list
                out.write("]\n")
        else:
            # Boards as the seeds print them: a blank line after each.
            end = "\n\n" if args.format == "board" else "\n"
            for solution in chain((first,), solutions):
                out.write(solution.draw(args.format) + end)
        out.flush()
    except OSError as error:
        if isinstance(error, BrokenPipeError) or out is sys.stdout:
            raise
        raise UsageError(f"cannot write {args.out!r}: {error.strerror}") from None
    finally:
        solutions.close()
        if out is not sys.stdout:
            out.close()
    report_time(args, start, engine)
    return 0


def run_exists(args: argparse.Namespace) -> int:
    """``cpqueens exists``: yes if the problem has a solution, no if it provably has none."""
    model = build_model(args)
    engine = cast("BackendName", model.engine(args.backend))  # a resolved name
    start = time.perf_counter()
    answer = model.exists(args.backend, time_limit=args.time_limit)  # "auto" takes find() too
    print("yes" if answer else "no")
    report_time(args, start, engine)
    return 0


OPTIMIZE_EXAMPLES = """\
examples:
  cpqueens optimize domination 8            5 queens cover the 8x8 board (proved optimal)
  cpqueens optimize independent-domination 8 --count --json
  cpqueens optimize peaceable 8             9 white and 9 black queens
  cpqueens optimize independence --board grid.txt --count
  cpqueens optimize domination 20 --time-limit 60   the best found (11), with its bound (10)
  cpqueens optimize domination 15 --checkpoint d15.json   no 8 queens cover 15x15: resumable
"""


def add_optimize(commands: Any) -> None:
    """The ``optimize`` command: the most or fewest queens on cells, proved optimal."""

    def seconds(text: str) -> float:
        value = float(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text!r}")
        return value

    parser = commands.add_parser(
        "optimize",
        help="the most or fewest queens: domination, peaceable armies, independence",
        epilog=OPTIMIZE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("problem", choices=OPTIMIZE_PROBLEMS, help="what to optimise")
    parser.add_argument("n", metavar="N", nargs="?", type=int, help="the board size")
    parser.add_argument("--columns", metavar="M", type=int, help="an N x M board (default M = N)")
    parser.add_argument("--board", metavar="FILE", help="a board file with blocked cells")
    parser.add_argument("--toroidal", action="store_true", help="lines wrap around the edges")
    parser.add_argument("--time-limit", metavar="S", type=seconds, help="the best found after S s")
    parser.add_argument("--count", action="store_true", help="also count the optimal solutions")
    parser.add_argument("--unique", action="store_true", help="also count their classes")
    parser.add_argument("--progress", action="store_true", help="each better solution on stderr")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.add_argument(  # the proof of a domination number runs in parts
        "--workers", metavar="W", type=workers_count, help="processes (CP-SAT: its threads)"
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="proof parts on a Dask cluster")
    parser.add_argument("--checkpoint", metavar="FILE", help="proof parts saved; resume")
    parser.set_defaults(run=run_optimize)


#: problem -> (the function of cpqueens, its options)
OPTIMIZE_PROBLEMS: dict[str, tuple[str, dict[str, bool]]] = {
    "domination": ("domination", {}),
    "independent-domination": ("domination", {"independent": True}),
    "peaceable": ("peaceable", {}),
    "independence": ("independence", {}),
}


def run_optimize(args: argparse.Namespace) -> int:
    """``cpqueens optimize``: an optimum with its proof status, bound and one solution."""
    blocked: tuple[tuple[int, int], ...] = ()
    n = args.n
    if args.board is not None:
        board = read_board(args.board)
        if n is not None and n != board.n:
            raise UsageError(f"N is {n} but the board in {args.board!r} is {board.n}x{board.n}")
        if board.queens:
            raise UsageError(
                f"the board in {args.board!r} has queens drawn on it: optimize reads blocked "
                "cells only ('.' free, '#' blocked)"
            )
        if args.columns is not None and args.columns != board.n:
            raise UsageError(
                f"--columns is {args.columns} but the board in {args.board!r} has {board.n} "
                "columns: leave --columns out with --board"
            )
        n, blocked = board.n, board.blocked
    if n is None:
        raise UsageError("give the board size N or a board file with --board")
    name, options = OPTIMIZE_PROBLEMS[args.problem]

    def report(value: int, bound: int, seconds: float) -> None:
        print(f"found {value} (bound {bound}) at {seconds:.2f} s", file=sys.stderr)

    parts = {"checkpoint": args.checkpoint} if args.checkpoint is not None else {}
    if args.workers is not None:
        if args.scheduler is not None:
            raise UsageError("--workers and --scheduler exclude each other")
        parts["workers"] = args.workers
    with dask_client(args.scheduler) if args.scheduler else nullcontext() as client:
        if client is not None:
            parts["executor"] = client.get_executor()
        result = getattr(cpqueens, name)(
            n,
            args.columns,
            blocked,
            toroidal=args.toroidal,
            time_limit=args.time_limit,
            count=args.count,
            unique=args.unique,
            progress=report if args.progress else None,
            **options,
            **parts,
        )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        bound = "" if result.status == "optimal" else f", bound {result.bound}"
        print(f"{result.value} ({result.status}{bound}, {result.seconds:.2f} s)")
        if result.count is not None:
            print(f"count: {result.count}")
        if result.classes is not None:
            print(f"classes: {result.classes}")
        marks = {(r, c): "#" for r, c in blocked}
        marks.update({(q[0], q[1]): "QB"[q[2]] if len(q) == 3 else "Q" for q in result.queens})
        for row in range(n):
            cols = range(n if args.columns is None else args.columns)
            print(" ".join(marks.get((row, col), ".") for col in cols))
    if result.status == "feasible":  # the best found is printed, but it is not proved
        print(
            f"cpqueens: the time limit of {args.time_limit:g} s ended the search before a proof: "
            f"{result.value} is the best found, the optimum is at "
            f"{'least' if name == 'domination' else 'most'} {result.bound}",
            file=sys.stderr,
        )
        return 1
    return 1 if result.status == "infeasible" else 0


def run_backends(args: argparse.Namespace) -> int:
    """``cpqueens backends``: every backend, installed or not, with its package's version."""
    for name in known():
        dist = distribution(name)
        if not is_installed(name):
            status = f"missing    pip install {dist}"
        else:
            status = f"installed  {dist} {version(dist)}"
        order = preference().index(name) + 1 if name in preference() else "-"
        print(f"{name:<18} {status}  (auto's choice {order})")
    return 0


def version(dist: str) -> str:
    """The installed version of distribution ``dist`` (cpqueens itself even when not installed)."""
    if dist == "cpqueens":
        return cpqueens.__version__
    from importlib import metadata  # 30 ms of imports (email, zipfile): only for --version

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "(version unknown)"


#: One small question per kernel family, each answered by the compiled kernels once numba is
#: loaded (small questions take plain Python only while it is not): ``cpqueens warm`` asks them.
WARM_UP: tuple[tuple[str, str], ...] = (
    ("symmetry classes", "cpqueens.model(12).count()"),
    ("turn-fixed solutions", "cpqueens.model(16).count(unique=True) and None"),
    ("hole sums and completions", "cpqueens.model(12, blocked=[(0, 1), (3, 5)]).count()"),
    ("two colours", "cpqueens.model(8, colours=2).count()"),
    ("toroidal and knight", "cpqueens.model(8, toroidal=True, knight=True).count()"),
    ("conditions", "(m := cpqueens.model(12)).where(m.q[0] < m.q[11]).count()"),
    ("first", "cpqueens.model(12, blocked=[(0, 0)]).first()"),
    ("exists", "cpqueens.model(12, blocked=[(0, 0)]).exists()"),
    ("any solution", "cpqueens.model(60, blocked=[(0, 1)]).find()"),
    ("region puzzles", "cpqueens.Puzzle.generate(8, seed=0)"),
    ("star battle", "cpqueens.Puzzle.generate(10, 2, seed=0)"),
    ("cell counts", "cpqueens.cells(5).count(queens=5)"),
    ("domination", "cpqueens.domination(5, count=True)"),
    ("peaceable armies", "cpqueens.peaceable(5)"),
)


def run_warm(args: argparse.Namespace) -> int:
    """``cpqueens warm``: compile (or load) every kernel family once, into the on-disk cache."""
    start = time.perf_counter()
    # Loaded kernels are always chosen: small questions then take them, not plain Python.
    from cpqueens.kernels import bits, conditions, regions  # noqa: F401
    from cpqueens.kernels.jit import cache_folder

    for name, question in WARM_UP:
        began = time.perf_counter()
        eval(question, {"cpqueens": cpqueens})  # fixed text above, never the user's
        print(f"{name:<26} {time.perf_counter() - began:6.2f} s")
    folder = cache_folder()
    where = (
        "no writable cache folder: kernels compile in every process" if folder is None else folder
    )
    print(f"every kernel compiled or loaded in {time.perf_counter() - start:.1f} s; cache: {where}")
    return 0


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be so that a count stops and saves the same way."""


def _terminate(signum: int, frame: object) -> NoReturn:
    raise Terminated()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "board", "") is None and getattr(args, "n", "") is None:
        parser.error("give the board size N or a board file with --board")
    if threading_main():
        signal.signal(signal.SIGTERM, _terminate)
    try:
        code = args.run(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as Unix tools do
        _silence_stdout()
        return 128 + signal.SIGPIPE
    except OSError as error:  # stdout cannot be written (a full disk, /dev/full)
        _silence_stdout()
        print(f"cpqueens: error: cannot write the output: {error.strerror}", file=sys.stderr)
        return 1
    except (UsageError, ValueError, TypeError, CpqueensError) as error:
        print(f"cpqueens: error: {error}", file=sys.stderr)
        return 1
    except CountInterrupted as stop:
        print(f"cpqueens: {stop}", file=sys.stderr)
        return 128 + (signal.SIGTERM if isinstance(stop.__cause__, Terminated) else signal.SIGINT)
    except Terminated:
        print("cpqueens: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("cpqueens: interrupted", file=sys.stderr)
        return 128 + signal.SIGINT


def threading_main() -> bool:
    """Whether this is the main thread (the only one that may set signal handlers)."""
    import threading

    return threading.current_thread() is threading.main_thread()


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        sys.stdout = open(os.devnull, "w")
    finally:
        os.close(devnull)


# -- region puzzles: cpqueens puzzle solve|check|count|explain|hint|verify|new ------------------

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
MAX_PUZZLE_BYTES = 4 * 2**20


#: The names of pictures: a file so named that is no picture is refused as one.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
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
            type=float,
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


def read_source(args: argparse.Namespace) -> tuple[list[Any], Any]:
    """(the puzzles, a Screenshot or None) from ``args.file``: text, JSON or an image.

    An image is told by its first bytes (PNG, JPEG, WebP), not by its name;
    a text may hold several puzzles (a JSON array, or grids separated by
    blank lines). Devices are refused; at most so many bytes are read.
    """
    from cpqueens.readers.images import MAX_IMAGE_BYTES, image_kind
    from cpqueens.tasks.puzzles import Puzzle

    path = args.file
    shot_queens = getattr(args, "with_queens", False)
    name = "<stdin>" if path == "-" else repr(path)
    try:
        if path == "-":
            if sys.stdin is None:
                raise UsageError(f"cannot read puzzle file {name}: no standard input")
            stdin = getattr(sys.stdin, "buffer", sys.stdin)
            data = read_at_most(stdin, MAX_IMAGE_BYTES)  # type: ignore[arg-type]
        else:
            data = read_regular(path, MAX_IMAGE_BYTES)
        if isinstance(data, bytes) and image_kind(data):
            try:
                shot = Puzzle.read_screenshot(
                    data, with_queens=shot_queens, time_limit=getattr(args, "time_limit", None)
                )
            except ImageReadError as error:
                raise UsageError(f"image {name}: {error}") from None
            return [shot.puzzle], shot
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    except (OSError, UnicodeDecodeError, FileRefusedError) as error:
        if isinstance(error, FileRefusedError):
            reason = f"{error} (a puzzle file is a regular file or stdin of at most "
            reason += f"{MAX_PUZZLE_BYTES} bytes of text, or a screenshot)"
        elif isinstance(error, OSError):
            reason = error.strerror or str(error)
        else:
            reason = "not UTF-8 text (nor a PNG, JPEG or WebP image)"
        raise UsageError(f"cannot read puzzle file {name}: {reason}") from None
    if len(data) > MAX_PUZZLE_BYTES:
        raise UsageError(
            f"cannot read puzzle file {name}: it holds more than {MAX_PUZZLE_BYTES} bytes of "
            f"text (a puzzle file holds at most that, a screenshot at most {MAX_IMAGE_BYTES})"
        )
    if shot_queens:
        raise UsageError(
            f"--with-queens reads a screenshot's queens: {name} is a puzzle file, not an image"
        )
    try:
        return Puzzle.loads_all(text), None
    except (ValueError, TypeError) as error:
        if path.lower().endswith(IMAGE_SUFFIXES):  # named as a picture, but it is none
            start = data[:8]
            raise UsageError(
                f"image {name}: not a PNG, JPEG or WebP image (it starts with {start!r})"
            ) from None
        raise UsageError(f"puzzle file {name}: {error}") from None


def read_puzzle(args: argparse.Namespace) -> Any:
    """The one puzzle in ``args.file``: a letter grid, JSON or a screenshot."""
    found = read_source(args)[0]
    if len(found) != 1:
        path = args.file
        name = "<stdin>" if path == "-" else repr(path)
        raise UsageError(
            f"puzzle file {name} holds {len(found)} puzzles (a JSON array, or grids separated "
            "by blank lines): only 'puzzle solve' reads several"
        )
    return found[0]


def write_output(args: argparse.Namespace, output: str | bytes) -> None:
    """``output`` to ``args.out`` if given, else to stdout (text with a newline)."""
    if isinstance(output, str):
        output += "\n"
    if args.out is None:
        if isinstance(output, bytes):
            if sys.stdout.isatty():
                raise UsageError("--format png writes an image: give --out PATH")
            sys.stdout.flush()
            sys.stdout.buffer.write(output)
        else:
            sys.stdout.write(output)
        return
    try:
        with open(args.out, "wb" if isinstance(output, bytes) else "w") as file:
            file.write(output)
    except OSError as error:
        raise UsageError(f"cannot write {args.out!r}: {error.strerror}") from None


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
        found = puzzle.solutions(limit=2, backend=args.backend, time_limit=args.time_limit)
        if not found:
            print(f"cpqueens: {where}no solution", file=sys.stderr)
            code = 1
            if args.format == "json" and several:
                outputs.append(json.dumps({"queens": None}))
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
    puzzle = read_puzzle(args)
    unique, found = puzzle.check(backend=args.backend, time_limit=args.time_limit)
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
    print(read_puzzle(args).count(backend=args.backend, time_limit=args.time_limit))
    return 0


#: The line on stderr for a puzzle that has not exactly one solution (every verb says the same).
NOT_ONE = {"no solution": "no solution", "several solutions": "the puzzle has at least 2 solutions"}


def run_puzzle_explain(args: argparse.Namespace) -> int:
    """``cpqueens puzzle explain``: the deduction steps and the difficulty.

    A puzzle without exactly one solution: its steps, then one line on stderr, exit code 1.
    """
    explanation = read_puzzle(args).explain(time_limit=args.time_limit)
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
    puzzle = read_puzzle(args)
    step = puzzle.hint(args.queens, crossed=args.crossed, time_limit=args.time_limit)
    if args.format == "json":
        print(json.dumps(None if step is None else step.to_json()))
    else:
        print("solved: every queen is placed" if step is None else step.text)
    return 0


def read_answer(path: str, puzzle: Any) -> list[tuple[int, int]]:
    """The queens of an answer file: the puzzle's grid with queens marked, or JSON ``queens``."""
    from cpqueens.tasks.puzzles import Puzzle

    name = "<stdin>" if path == "-" else repr(path)
    try:
        if path == "-":
            data = read_at_most(getattr(sys.stdin, "buffer", sys.stdin), MAX_PUZZLE_BYTES)  # type: ignore[arg-type]
        else:
            data = read_regular(path, MAX_PUZZLE_BYTES)
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    except (OSError, UnicodeDecodeError, FileRefusedError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        if isinstance(error, UnicodeDecodeError):
            reason = "not UTF-8 text"
        raise UsageError(f"cannot read answer file {name}: {reason}") from None
    try:
        if text.lstrip().startswith("{"):
            obj = json.loads(text)
            if not isinstance(obj, dict) or not isinstance(obj.get("queens"), list):
                raise ValueError('expected {"queens": [[row, col], ...]} or a marked grid')
            return [tuple(cell) if isinstance(cell, list) else cell for cell in obj["queens"]]
        grid = Puzzle.parse(text)
    except (ValueError, TypeError, RecursionError) as error:
        raise UsageError(f"answer file {name}: {error}") from None
    if grid.canonical()[:2] != puzzle.canonical()[:2]:
        raise UsageError(f"answer file {name}: its grid is not the puzzle's (other regions)")
    return list(grid.queens)


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
    from cpqueens.tasks.puzzles import Puzzle

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
