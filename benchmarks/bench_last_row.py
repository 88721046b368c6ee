"""Pieces of the symmetry kernels near a corner split by their edge queens, side by side (issue 45).

``kernels.edges.by_edge_queens`` splits a "top" piece whose row-0 queen stands
within n / 3 of a corner into one part per last-row queen, and within n / 5 by
the queens of columns 0 and n - 1 too. Two cases:

    python benchmarks/bench_last_row.py compare N [--board free|corners] [--depth 1] [--repeats 3]
            [--distances 5,6]
        per distance, the pieces of the count's split (``class_count.pieces(N, depth)``)
        searched whole, by the last row, and by it and the edge columns (at any distance),
        in turn in this process (CPU time, best of the repeats), the sums compared: the
        distances the library splits, and the first it leaves whole;
    python benchmarks/bench_last_row.py check FIRST LAST
        n = FIRST..LAST: the free board's total by the kernels (split) against A000170, the
        board with its corners blocked against the plain bitmask search
        (``kernels.placements.count_placements``), every "top" piece at depth 1, whatever its
        distance, split by its last row and by the edge columns against itself whole.

Both searches are ``kernels.classes._weighed_leaves``, the same machine code as the
object file's. Results: benchmarks/RESULTS-frontier.md (issue 45).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from oeis import A000170

from cpqueens.kernels.classes import _weighed_leaves, scratch
from cpqueens.kernels.edges import by_edge_columns, by_edge_queens, by_last_row, marks, masks
from cpqueens.kernels.placements import count_placements
from cpqueens.strategies.class_count import combine, count_piece, pieces, symmetric_rows


def board_rows(n: int, board: str) -> list[int]:
    """Each row's allowed columns: the free board, or its 4 corners blocked."""
    full = (1 << n) - 1
    if board == "free":
        return [full] * n
    rows = symmetric_rows(n, [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)])
    assert rows is not None
    return list(rows)


def search(n: int, piece: tuple, rows: list[int], split: str) -> int:
    """A "top" piece's twelfths, its rows split as ``split`` says.

    "whole": not split; "last": by its last row; "edges": by it and the edge
    columns (both at any distance); "library": as ``by_edge_queens`` does.
    """
    _, distance, row1, row2 = piece
    edge, bottom = marks(n, distance)
    allowed = [a & r for a, r in zip(masks(n, distance, row1, row2), rows, strict=True)]
    parts = {
        "whole": lambda: [allowed],
        "last": lambda: by_last_row(n, [allowed]),
        "edges": lambda: by_edge_columns(n, by_last_row(n, [allowed])),
        "library": lambda: by_edge_queens(n, distance, allowed),
    }[split]()
    edges, ties, stack = np.array(edge, np.uint64), *scratch(n)
    return sum(
        int(_weighed_leaves(np.array(p, np.uint64), edges, np.uint64(bottom), ties, stack))
        for p in parts
    )


def library_split(n: int, distance: int) -> str:
    """What ``by_edge_queens`` does at ``distance``: "whole", "last" or "edges"."""
    return "whole" if 3 * distance >= n else "last" if 5 * distance >= n else "edges"


def compare(n: int, board: str, depth: int, repeats: int, only: list[int] | None) -> None:
    """Per distance: the pieces whole, by the last row, by it and the edge columns (CPU s).

    Best of ``repeats``, the three in turn; ``only``: these distances (else those
    the library splits and the first it leaves whole).
    """
    rows = board_rows(n, board)
    search(8, ("top", 1, 255, 255), [255] * 8, "edges")  # load the kernel
    by_distance: dict[int, list] = {}
    for piece in pieces(n, depth):
        if piece.kind == "top":
            by_distance.setdefault(piece.distance, []).append(piece)
    taken = [d for d in sorted(by_distance) if 3 * d < n]
    shown = taken + [d for d in sorted(by_distance) if 3 * d >= n][:1] if only is None else only
    sides = ("whole", "last", "edges")
    print(f"n = {n}, {board} board, depth {depth}, best of {repeats} (CPU s)")
    print(
        "| distance | pieces | twelfths | whole | last row | ratio | and columns | ratio | taken |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    sums = dict.fromkeys(("whole", "library"), 0.0)
    for distance in shown:
        best = dict.fromkeys(sides, float("inf"))
        found = set()
        for _ in range(repeats):
            for side in sides:
                start = time.process_time()
                total = sum(search(n, p, rows, side) for p in by_distance[distance])
                best[side] = min(best[side], time.process_time() - start)
                found.add(total)
        if len(found) != 1:
            raise SystemExit(f"distance {distance}: the sums differ: {sorted(found)}")
        taken_here = library_split(n, distance)
        sums["whole"] += best["whole"]
        sums["library"] += best[taken_here]
        print(
            f"| {distance} | {len(by_distance[distance])} | {found.pop():,} | {best['whole']:.3f}"
            f" | {best['last']:.3f} | {best['last'] / best['whole']:.2f}"
            f" | {best['edges']:.3f} | {best['edges'] / best['whole']:.2f} | {taken_here} |"
        )
    print(f"these distances: whole {sums['whole']:.3f} s, as the library {sums['library']:.3f} s")


def check(first: int, last: int) -> None:
    """Totals on the kernels (split) against A000170 and the plain search; pieces against whole."""
    for n in range(first, last + 1):
        for board in ("free", "corners"):
            rows = board_rows(n, board)
            parts = pieces(n, 1)
            for piece in parts:
                if piece.kind == "top":
                    found = {s: search(n, piece, rows, s) for s in ("whole", "last", "edges")}
                    if len(set(found.values())) != 1:
                        raise SystemExit(f"n = {n}, {board}, {piece}: {found}")
            counts = [count_piece(n, p, None if board == "free" else tuple(rows)) for p in parts]
            two, four, eight = combine(n, parts, counts)
            total = 2 * two + 4 * four + 8 * eight
            want = A000170[n] if board == "free" else count_placements(np.array(rows, np.uint64))
            if total != want:
                raise SystemExit(f"n = {n}, {board}: {total} on the kernels, expected {want}")
            print(f"n = {n}, {board}: {total:,} (as expected)", flush=True)


def main() -> None:
    """Parse the case and run it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cases = parser.add_subparsers(dest="case", required=True)
    one = cases.add_parser("compare")
    one.add_argument("n", type=int)
    one.add_argument("--board", choices=("free", "corners"), default="corners")
    one.add_argument("--depth", type=int, default=1)
    one.add_argument("--repeats", type=int, default=3)
    one.add_argument("--distances", type=lambda text: [int(d) for d in text.split(",")])
    two = cases.add_parser("check")
    two.add_argument("first", type=int)
    two.add_argument("last", type=int)
    args = parser.parse_args()
    if args.case == "compare":
        compare(args.n, args.board, args.depth, args.repeats, args.distances)
    else:
        check(args.first, args.last)


if __name__ == "__main__":
    main()
