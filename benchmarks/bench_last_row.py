"""Pieces of the symmetry kernels near a corner, split by their last row, side by side (issue 45).

``kernels.edges.by_last_row`` splits a "top" piece whose row-0 queen stands
within n / 3 of a corner into one part per last-row queen. Two cases:

    python benchmarks/bench_last_row.py compare N [--board free|corners] [--depth 1] [--repeats 3]
            [--distances 5,6]
        per distance, the pieces of the count's split (``class_count.pieces(N, depth)``)
        searched whole and split, in turn in this process (CPU time, best of the repeats),
        the sums compared: the distances the split takes, and the first it leaves;
    python benchmarks/bench_last_row.py check FIRST LAST
        n = FIRST..LAST: the free board's total by the kernels (split) against A000170, the
        board with its corners blocked against the plain bitmask search
        (``kernels.placements.count_placements``), every "top" piece at depth 1, whatever its
        distance, split by its last row against itself whole.

Both searches are ``kernels.classes._weighed_leaves``, the same machine code as the
object file's. Results: benchmarks/RESULTS-frontier.md (issue 45).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cpqueens.kernels.classes import _weighed_leaves, scratch
from cpqueens.kernels.edges import by_last_row, marks, masks
from cpqueens.kernels.placements import count_placements
from cpqueens.strategies.class_count import combine, count_piece, pieces, symmetric_rows

#: OEIS A000170, n = 5..20.
A000170 = {
    5: 10,
    6: 4,
    7: 40,
    8: 92,
    9: 352,
    10: 724,
    11: 2680,
    12: 14200,
    13: 73712,
    14: 365596,
    15: 2279184,
    16: 14772512,
    17: 95815104,
    18: 666090624,
    19: 4968057848,
    20: 39029188884,
}


def board_rows(n: int, board: str) -> list[int]:
    """Each row's allowed columns: the free board, or its 4 corners blocked."""
    full = (1 << n) - 1
    if board == "free":
        return [full] * n
    rows = symmetric_rows(n, [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)])
    assert rows is not None
    return list(rows)


def search(n: int, piece: tuple, rows: list[int], split: bool) -> int:
    """A "top" piece's twelfths, its rows searched whole or split by the last row (any distance)."""
    _, distance, row1, row2 = piece
    edge, bottom = marks(n, distance)
    allowed = [a & r for a, r in zip(masks(n, distance, row1, row2), rows, strict=True)]
    # by_last_row splits whenever its distance is below n / 3: 0 splits every piece
    parts = by_last_row(n, 0, allowed) if split else [allowed]
    edges, ties, stack = np.array(edge, np.uint64), *scratch(n)
    return sum(
        int(_weighed_leaves(np.array(p, np.uint64), edges, np.uint64(bottom), ties, stack))
        for p in parts
    )


def compare(n: int, board: str, depth: int, repeats: int, only: list[int] | None) -> None:
    """Per distance: the pieces whole and split, CPU seconds (best of ``repeats``), the ratio.

    ``only``: these distances (else those the split takes and the first it leaves).
    """
    rows = board_rows(n, board)
    search(8, ("top", 1, 255, 255), [255] * 8, True)  # load the kernel
    by_distance: dict[int, list] = {}
    for piece in pieces(n, depth):
        if piece.kind == "top":
            by_distance.setdefault(piece.distance, []).append(piece)
    taken = [d for d in sorted(by_distance) if 3 * d < n]
    shown = taken + [d for d in sorted(by_distance) if 3 * d >= n][:1] if only is None else only
    print(f"n = {n}, {board} board, depth {depth}, best of {repeats} (CPU s)")
    print("| distance | pieces | twelfths | whole | split | split / whole | split taken |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    sums = {"whole": 0.0, "split": 0.0}
    for distance in shown:
        best = {"whole": float("inf"), "split": float("inf")}
        found = set()
        for _ in range(repeats):
            for side in ("whole", "split"):
                start = time.process_time()
                total = sum(search(n, p, rows, side == "split") for p in by_distance[distance])
                best[side] = min(best[side], time.process_time() - start)
                found.add(total)
        if len(found) != 1:
            raise SystemExit(f"distance {distance}: the sums differ: {sorted(found)}")
        for side in sums:
            sums[side] += best[side]
        print(
            f"| {distance} | {len(by_distance[distance])} | {found.pop():,} | {best['whole']:.3f}"
            f" | {best['split']:.3f} | {best['split'] / best['whole']:.2f}"
            f" | {'yes' if distance in taken else 'no'} |"
        )
    print(f"these distances: whole {sums['whole']:.3f} s, split {sums['split']:.3f} s")


def check(first: int, last: int) -> None:
    """Totals on the kernels (split) against A000170 and the plain search; pieces against whole."""
    for n in range(first, last + 1):
        for board in ("free", "corners"):
            rows = board_rows(n, board)
            parts = pieces(n, 1)
            for piece in parts:
                if piece.kind == "top":
                    whole, split = (search(n, piece, rows, s) for s in (False, True))
                    if whole != split:
                        raise SystemExit(f"n = {n}, {board}, {piece}: {split} split, {whole} whole")
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
