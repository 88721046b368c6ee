"""The command line's argument types and examples: cells, queens, workers, the example lines."""

from __future__ import annotations

import argparse
import math
import re

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


def seconds(text: str) -> float:
    """Read ``--time-limit S``: a finite number of seconds > 0, the same check for every verb."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:  # NaN fails too
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value
