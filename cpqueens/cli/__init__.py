"""The command line: ``cpqueens count``, ``solve``, ``exists``, ``optimize``, ``puzzle``, ...

One module per command family (:mod:`~cpqueens.cli.counting`,
:mod:`~cpqueens.cli.optimising`, :mod:`~cpqueens.cli.puzzles`,
:mod:`~cpqueens.cli.tools`), one file reader (:mod:`~cpqueens.cli.reader`),
the parser (:mod:`~cpqueens.cli.parser`). Every error ends in one line on
stderr and an exit code: 2 for a malformed command line, 1 for a problem the
library or a file rejects, 70 for an internal error (a fault of cpqueens,
never of the input: please report it), 130 Ctrl-C, 143 SIGTERM.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import NoReturn

from cpqueens.cli.parser import build_parser
from cpqueens.cli.reader import UsageError
from cpqueens.errors import CountInterrupted, CpqueensError, InvalidSolutionError

#: The exit code of an error that is not the user's (BSD's EX_SOFTWARE).
INTERNAL_ERROR = 70


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be so that a count stops and saves the same way."""


def _terminate(signum: int, frame: object) -> NoReturn:
    raise Terminated()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    try:
        parser = build_parser()
    except Exception as error:  # a defect in the parser's own making: not the user's
        return _internal(error)
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
    except InvalidSolutionError as error:  # an engine's answer failed its check: our fault
        return _internal(error)
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
    except Exception as error:  # not the input's fault: a defect of cpqueens
        return _internal(error)


def _internal(error: BaseException) -> int:
    """Report an error that is not the user's in one line, with its own exit code."""
    detail = f"{type(error).__name__}: {error}".splitlines()[0]
    print(
        f"cpqueens: internal error (a fault of cpqueens, not of the input; please report it): "
        f"{detail}",
        file=sys.stderr,
    )
    return INTERNAL_ERROR


def threading_main() -> bool:
    """Whether this is the main thread (the only one that may set signal handlers)."""
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


__all__ = ["INTERNAL_ERROR", "main"]
