"""The command line's one file reader: boards, puzzles, screenshots and answers, and its output.

Every file a command reads goes through :func:`read_input`: a regular file or
stdin, at most so many bytes, devices refused; each refusal is one line
naming the file and why.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cpqueens.errors import ImageReadError
from cpqueens.execution.files import FileRefusedError, read_at_most, read_regular
from cpqueens.vocabulary.board import Board
from cpqueens.vocabulary.limits import MAX_BOARD_BYTES


class UsageError(Exception):
    """A command line that names an impossible problem (exit code 1)."""


#: The largest puzzle file read: a 62 x 62 grid is some 12 KB; room for a batch of them.
MAX_PUZZLE_BYTES = 4 * 2**20


def shown(path: str) -> str:
    """How messages name the file ``path``: quoted, or ``<stdin>`` for '-'."""
    return "<stdin>" if path == "-" else repr(path)


def read_input(path: str, what: str, most: int, kinds: str = "") -> bytes | str:
    """The bytes of file ``path`` ('-' = stdin), at most ``most`` of them; else one-line refusal.

    A device, a directory, a missing file or a larger one is refused with a
    ``UsageError`` naming the file (``what``: "board file", ...) and why;
    ``kinds`` says what such a file is, for the message.
    """
    name = shown(path)
    try:
        if path == "-":
            if sys.stdin is None:
                raise UsageError(f"cannot read {what} {name}: no standard input")
            stdin = getattr(sys.stdin, "buffer", sys.stdin)  # bytes unless stdin was replaced
            return read_at_most(stdin, most)  # type: ignore[arg-type]
        return read_regular(path, most)
    except FileRefusedError as error:
        reason = f"{error} ({kinds})" if kinds else str(error)
        raise UsageError(f"cannot read {what} {name}: {reason}") from None
    except OSError as error:
        raise UsageError(f"cannot read {what} {name}: {error.strerror or error}") from None


def read_text(path: str, what: str, most: int, kinds: str = "", utf8: str = "") -> str:
    """:func:`read_input` decoded as UTF-8 (a byte order mark skipped); else a refusal."""
    data = read_input(path, what, most, kinds)
    return decode(data, path, what, utf8)


def decode(data: bytes | str, path: str, what: str, utf8: str = "") -> str:
    """``data`` as UTF-8 text, or a refusal naming the file (``utf8``: what else it may be)."""
    try:
        return data.decode("utf-8-sig") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        reason = f"not UTF-8 text{f' ({utf8})' if utf8 else ''}"
        raise UsageError(f"cannot read {what} {shown(path)}: {reason}") from None


#: The names of pictures: a file so named that is no picture is refused as one.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


def read_board(path: str) -> Board:
    """The board in file ``path`` ('-' = stdin): UTF-8 text, a byte order mark skipped."""
    kinds = f"a board file is a regular file or stdin of at most {MAX_BOARD_BYTES} bytes"
    text = read_text(path, "board file", MAX_BOARD_BYTES, kinds)
    try:
        return Board.parse(text)
    except ValueError as error:
        raise UsageError(f"board file {shown(path)}: {error}") from None


def read_source(args: argparse.Namespace) -> tuple[list[Any], Any]:
    """(the puzzles, a Screenshot or None) from ``args.file``: text, JSON or an image.

    An image is told by its first bytes (PNG, JPEG, WebP), not by its name;
    a text may hold several puzzles (a JSON array, or grids separated by
    blank lines). Devices are refused; at most so many bytes are read.
    """
    from cpqueens.model.puzzle import Puzzle
    from cpqueens.readers.images import MAX_IMAGE_BYTES, image_kind

    path = args.file
    shot_queens = getattr(args, "with_queens", False)
    shot_stars = getattr(args, "stars", None)
    name = shown(path)
    kinds = (
        f"a puzzle file is a regular file or stdin of at most {MAX_PUZZLE_BYTES} bytes of "
        "text, or a screenshot"
    )
    data = read_input(path, "puzzle file", MAX_IMAGE_BYTES, kinds)
    if isinstance(data, bytes) and image_kind(data):
        try:
            shot = Puzzle.read_screenshot(
                data,
                with_queens=shot_queens,
                stars=shot_stars,
                time_limit=getattr(args, "time_limit", None),
            )
        except ImageReadError as error:
            raise UsageError(f"image {name}: {error}") from None
        return [shot.puzzle], shot
    text = decode(data, path, "puzzle file", "nor a PNG, JPEG or WebP image")
    if len(data) > MAX_PUZZLE_BYTES:
        raise UsageError(
            f"cannot read puzzle file {name}: it holds more than {MAX_PUZZLE_BYTES} bytes of "
            f"text (a puzzle file holds at most that, a screenshot at most {MAX_IMAGE_BYTES})"
        )
    if shot_queens:
        raise UsageError(
            f"--with-queens reads a screenshot's queens: {name} is a puzzle file, not an image"
        )
    if shot_stars is not None:
        raise UsageError(
            f"--stars reads a screenshot's star count: {name} is a puzzle file, not an image "
            "(its 'stars K' line gives the count)"
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
    return read_one(args)[0]


def read_one(args: argparse.Namespace) -> tuple[Any, Any]:
    """(the one puzzle in ``args.file``, its Screenshot or None)."""
    found, shot = read_source(args)
    if len(found) != 1:
        raise UsageError(
            f"puzzle file {shown(args.file)} holds {len(found)} puzzles (a JSON array, or grids "
            "separated by blank lines): only 'puzzle solve' reads several"
        )
    return found[0], shot


def left(args: argparse.Namespace, shot: Any) -> float | None:
    """The seconds left of ``--time-limit``: a screenshot's reading ran on the same clock."""
    return args.time_limit if shot is None else shot.time_left()


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


def read_answer(path: str, puzzle: Any) -> list[tuple[int, int]]:
    """The queens of an answer file: the puzzle's grid with queens marked, or JSON ``queens``."""
    from cpqueens.model.puzzle import Puzzle

    name = shown(path)
    text = read_text(path, "answer file", MAX_PUZZLE_BYTES)
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
