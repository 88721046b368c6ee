"""Reading a region puzzle's text: the letter grid, its header lines, JSON, several in one file.

Each function reads one part and names the line and column of what it
cannot read; :class:`~cpqueens.vocabulary.regions.RegionPuzzle` assembles them.
"""

from __future__ import annotations

import json
import re
from typing import Any

Cell = tuple[int, int]
#: The symbols a text grid names regions with, in the order ``to_text`` uses them.
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"
#: The largest board: a row is one 64-bit mask in the compiled search, and text has 62 symbols.
MAX_N = len(SYMBOLS)
QUEEN_MARK = "*"
BLOCKED_MARK = "#"


def json_value(text: str) -> Any:
    """The JSON value of ``text``, or a ValueError naming the line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"line {error.lineno}, column {error.colno}: not JSON: {error.msg}"
        ) from None
    except RecursionError:
        raise ValueError("not JSON this reader takes: nested too deep") from None


def blocks(text: str) -> list[str]:
    """Letter grids split at blank lines (a block of header lines joins the grid after it)."""
    lines = text.splitlines()
    groups: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        if line.strip():
            current.append(line)
        elif current and not all(is_header(kept) for kept in current):
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return ["\n".join(group) for group in groups] if len(groups) > 1 else [text]


def is_header(line: str) -> bool:
    """Whether ``line`` is a header line (``stars K``, ``diagonals``)."""
    word = line.strip().split()[0].lower() if line.strip() else ""
    return word in ("stars", "diagonals")


def numbered(index: int, total: int, read: Any, *args: Any, **options: Any) -> Any:
    """``read(*args)``, its ValueError prefixed with ``puzzle INDEX`` when ``total`` > 1."""
    try:
        return read(*args, **options)
    except (ValueError, TypeError) as error:
        if total == 1:
            raise
        raise type(error)(f"puzzle {index}: {error}") from None


def marked(line: str, column: int) -> bool:
    """Whether the non-space character before 1-based ``column`` of ``line`` is a mark."""
    before = line[: column - 1].rstrip(" \t")
    return bool(before) and before[-1] in (QUEEN_MARK, BLOCKED_MARK)


def column_of(line: str, cells: int) -> int:
    """The 1-based column of the first character past cell number ``cells`` (or the line's end)."""
    seen = 0
    for column, char in enumerate(line.rstrip(), start=1):
        if char in SYMBOLS:
            seen += 1
            if seen > cells:
                return column
    return len(line.rstrip()) + 1


def header_and_grid(lines: list[str]) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """A letter grid's header (``stars K``, ``diagonals``) and its grid lines, numbered."""
    header: dict[str, Any] = {"stars": None, "diagonals": False}
    grid_lines: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            if grid_lines and any(rest.strip() for rest in lines[number:]):
                raise ValueError(f"line {number}, column 1: a blank line inside the grid")
            continue
        word = stripped.split()[0].lower()
        if not grid_lines and word in ("stars", "diagonals"):
            read_header(header, number, stripped, word)
            continue
        if len(grid_lines) == MAX_N:
            raise ValueError(
                f"line {number}, column 1: the grid has more than {MAX_N} rows: a puzzle is "
                f"at most {MAX_N}x{MAX_N}"
            )
        grid_lines.append((number, line))
    if not grid_lines:
        raise ValueError("the puzzle has no grid: expected one region symbol per cell")
    return header, grid_lines


def read_header(header: dict[str, Any], number: int, stripped: str, word: str) -> None:
    """One header line into ``header``: ``stars K`` or ``diagonals``; else a ValueError."""
    match = re.fullmatch(r"stars\s*[:=]?\s*(\d+)", stripped, re.IGNORECASE)
    if word == "stars" and match:
        header["stars"] = int(match.group(1))
    elif word == "diagonals" and stripped.lower() == "diagonals":
        header["diagonals"] = True
    else:
        raise ValueError(
            f"line {number}, column 1: cannot read the header {stripped!r}: "
            "expected 'stars K' or 'diagonals'"
        )


def grid_cells(
    grid_lines: list[tuple[int, str]],
) -> tuple[list[list[str]], list[Cell], list[Cell]]:
    """The grid's symbols row by row, its given queens and its blocked cells."""
    cells: list[list[str]] = []
    queens: list[Cell] = []
    blocked: list[Cell] = []
    first = grid_lines[0][0]
    for number, line in grid_lines:
        row = grid_row(number, line, len(cells), queens, blocked)
        if cells and len(row) != len(cells[0]):
            raise ValueError(
                f"line {number}, column {column_of(line, len(cells[0]))}: row "
                f"{len(cells) + 1} has {len(row)} cells, expected {len(cells[0])} "
                f"like the first row (line {first})"
            )
        cells.append(row)
    return cells, queens, blocked


def grid_row(
    number: int, line: str, index: int, queens: list[Cell], blocked: list[Cell]
) -> list[str]:
    """One grid line's symbols; its marks go to ``queens`` and ``blocked`` (row ``index``)."""
    row: list[str] = []
    for column, char in enumerate(line.rstrip(), start=1):
        if char in " \t":
            continue
        if char in (QUEEN_MARK, BLOCKED_MARK):
            if not row or (row and marked(line, column)):
                raise ValueError(
                    f"line {number}, column {column}: {char!r} must follow a region "
                    "symbol (it marks that cell)"
                )
            (queens if char == QUEEN_MARK else blocked).append((index, len(row) - 1))
            continue
        if len(row) >= MAX_N and char in SYMBOLS:
            raise ValueError(
                f"line {number}, column {column}: row {index + 1} has more than "
                f"{MAX_N} cells: a puzzle is at most {MAX_N}x{MAX_N}"
            )
        if char not in SYMBOLS:
            raise ValueError(
                f"line {number}, column {column}: {char!r} is not a region symbol: "
                f"expected a letter or digit, '{QUEEN_MARK}' (a queen) or "
                f"'{BLOCKED_MARK}' (blocked)"
            )
        row.append(char)
    return row
