"""Excluded Diagonals instances (CSPLib prob079): the published ones and a generator for more.

An instance is an n x n board and a list of diagonals; taking the first d of
them excludes those diagonals, that is, blocks every cell on them. A pair
``(k, 1)`` is the sum diagonal r + c = k, a pair ``(k, 0)`` the difference
diagonal r - c = k - (n - 1) (the CSPLib files' convention). Shared by the
tests and the benchmarks (which put the repository on ``sys.path``).
"""

from __future__ import annotations

import json
import random
import re
import tarfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

#: The published instances and answers (README there).
DATA = Path("/work/shared/data/csplib-prob079")

Diagonal = tuple[int, int]


@dataclass(frozen=True)
class Instance:
    """One generated diagonal list: ``diagonals[:d]`` is the instance with d exclusions."""

    n: int
    diagonals: tuple[Diagonal, ...]
    name: str = ""

    def blocked(self, d: int | None = None) -> tuple[tuple[int, int], ...]:
        """The cells on the first ``d`` diagonals (all of them if None), sorted."""
        return blocked_cells(self.n, self.diagonals[:d])


def diagonal_cells(n: int, diagonal: Diagonal) -> Iterator[tuple[int, int]]:
    """The cells of one diagonal of an n x n board."""
    k, kind = diagonal
    for row in range(n):
        col = k - row if kind == 1 else row - (k - (n - 1))
        if 0 <= col < n:
            yield row, col


def blocked_cells(n: int, diagonals: Iterable[Diagonal]) -> tuple[tuple[int, int], ...]:
    """Every cell on any of ``diagonals``, sorted."""
    return tuple(sorted({cell for d in diagonals for cell in diagonal_cells(n, d)}))


def parse(text: str, name: str = "") -> Instance:
    """Read a CSPLib ``.param`` file: ``n = ..``, ``numdiags = ..``, ``diags = [[k, s], ...]``."""
    n = re.search(r"^\s*n\s*=\s*(\d+)", text, re.M)
    diags = re.search(r"diags\s*=\s*\[(.*)\]", text, re.S)
    if n is None or diags is None:
        raise ValueError(f"{name or 'instance'}: expected 'n = ..' and 'diags = [...]'")
    pairs = re.findall(r"\[\s*(\d+)\s*,\s*([01])\s*\]", diags.group(1))
    return Instance(int(n.group(1)), tuple((int(k), int(s)) for k, s in pairs), name)


def published(n: int) -> dict[int, Instance]:
    """The 1,000 published instances of size n, by id."""
    found = {}
    with tarfile.open(DATA / f"diag-{n}.tar.gz") as archive:
        for member in archive:
            match = re.search(rf"diag-{n}-4-(\d+)\.param$", member.name)
            if match and member.isfile():
                text = archive.extractfile(member).read().decode()  # type: ignore[union-attr]
                found[int(match.group(1))] = parse(text, member.name)
    return found


def labels() -> list[dict]:
    """The published answers: dicts of n, d, id, sat (bool) and nodes (the authors' DFS)."""
    return json.loads((DATA / "labels.json").read_text())


def generate(n: int, seed: int, k: int = 4) -> Instance:
    """Random diagonals excluded, in random order, while every row and column keeps k free cells.

    The paper's procedure: a diagonal whose cells would leave some row or
    column with fewer than k free cells is skipped; the list ends when no
    diagonal can be added.
    """
    rng = random.Random(seed)
    candidates: list[Diagonal] = [(d, kind) for d in range(2 * n - 1) for kind in (0, 1)]
    rng.shuffle(candidates)
    row_free, col_free = [n] * n, [n] * n
    blocked: set[tuple[int, int]] = set()
    chosen: list[Diagonal] = []
    for diagonal in candidates:
        new = [cell for cell in diagonal_cells(n, diagonal) if cell not in blocked]
        rows, cols = row_free[:], col_free[:]
        for row, col in new:
            rows[row] -= 1
            cols[col] -= 1
        if min(rows) >= k and min(cols) >= k:
            chosen.append(diagonal)
            blocked.update(new)
            row_free, col_free = rows, cols
    return Instance(n, tuple(chosen), f"generated n={n} seed={seed} k={k}")


def grid(n: int, blocked: Sequence[tuple[int, int]]) -> str:
    """The board as n rows of '1' (free) and '0' (blocked), after a line with n."""
    cells = set(blocked)
    rows = ["".join("0" if (r, c) in cells else "1" for c in range(n)) for r in range(n)]
    return "\n".join([str(n), *rows]) + "\n"
