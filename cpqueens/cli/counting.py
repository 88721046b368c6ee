"""``cpqueens count``, ``solve`` and ``exists``: the classic board and its variants."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain
from typing import Any

import cpqueens
from cpqueens.backends import choices
from cpqueens.cli.reader import UsageError, read_board
from cpqueens.cli.types import examples_for, queen, seconds, take_negative_cells, workers_count
from cpqueens.model import DEFAULT_BACKEND, Model

SCHEDULER_TIMEOUT = 10


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
    engine = model.engine(args.backend)  # a resolved name
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
            "placed": [[r, c] if g == 0 else [r, c, g] for r, c, g in model.statement.placed],
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

    Logging is off in this process while it is connected, and for the rest of
    the command if an error or Ctrl-C leaves it: the command reports a lost
    cluster itself, in one line (the parts saved, how to resume). Dask's
    client and tornado log each lost connection, and each result that dies in
    transit when the client closes, on stderr with a traceback: a killed
    scheduler made them do so while the count was still running.
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
    logging.disable(logging.CRITICAL)  # Dask's loggers set levels of their own: all of them
    try:
        with _quiet_on_signals():
            yield client
    except BaseException:
        client.close()
        raise
    client.close()
    logging.disable(logging.NOTSET)


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
            type=seconds,
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
    engine = model.engine(args.backend)  # a resolved name
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
    engine = model.engine(args.backend)  # a resolved name
    start = time.perf_counter()
    answer = model.exists(args.backend, time_limit=args.time_limit)  # "auto" takes find() too
    print("yes" if answer else "no")
    report_time(args, start, engine)
    return 0


def add_counting(commands: Any) -> None:
    """The ``count``, ``solve`` and ``exists`` commands."""
    raw: dict[str, Any] = {"formatter_class": argparse.RawDescriptionHelpFormatter}
    count = commands.add_parser(
        "count", help="print the exact number of solutions", epilog=examples_for("count"), **raw
    )
    add_problem_options(count)
    count.add_argument(
        "--workers",
        metavar="W",
        type=workers_count,
        help="processes for a long count, threads for a short one on the compiled kernels "
        "(default: every core if it pays)",
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
        type=seconds,
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
        type=seconds,
        help="give up after S seconds: an error, never an unproven answer",
    )
    exists.set_defaults(run=run_exists)
