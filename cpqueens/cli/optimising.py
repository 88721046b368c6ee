"""``cpqueens optimize``: the most or fewest queens on cells, proved optimal or bounded."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

import cpqueens

if TYPE_CHECKING:
    pass

from cpqueens.cli.counting import dask_client
from cpqueens.cli.reader import UsageError, read_board
from cpqueens.cli.types import seconds, workers_count

OPTIMIZE_EXAMPLES = """\
examples:
  cpqueens optimize domination 8            5 queens cover the 8x8 board (proved optimal)
  cpqueens optimize independent-domination 8 --count --json
  cpqueens optimize peaceable 8             9 white and 9 black queens
  cpqueens optimize independence --board grid.txt --count
  cpqueens optimize domination 20 --time-limit 60   the best found (11), with its bound (10)
  cpqueens optimize domination 15 --checkpoint d15.json   no 8 queens cover 15x15: resumable
  cpqueens optimize peaceable 15 --workers 2 --checkpoint p15.json   32 each, proved: resumable
"""


def add_optimize(commands: Any) -> None:
    """The ``optimize`` command: the most or fewest queens on cells, proved optimal."""
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
    parser.add_argument(
        "--checkpoint", metavar="FILE", help="proof parts saved (the count's beside it); resume"
    )
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

    parts: dict[str, Any] = {} if args.checkpoint is None else {"checkpoint": args.checkpoint}
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
