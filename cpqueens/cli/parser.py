"""The command line's parser: its commands, the argument types it reads, its one-line errors."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, NoReturn

import cpqueens

if TYPE_CHECKING:
    pass

from cpqueens.cli.counting import add_counting
from cpqueens.cli.optimising import add_optimize
from cpqueens.cli.puzzles import add_puzzle_commands
from cpqueens.cli.tools import add_tools
from cpqueens.cli.types import EXAMPLES

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


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr, never the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``cpqueens`` argument parser: each command family adds its commands."""
    parser = Parser(
        prog="cpqueens",
        description="Count and list N-Queens-family solutions exactly.",
        epilog=EXAMPLES + "\n" + BOARD_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=cpqueens.__version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_counting(commands)
    add_optimize(commands)
    add_tools(commands)
    add_puzzle_commands(commands)
    return parser
