"""How much search a faster count could still save: node counts, not times (issue 45, goal 1).

Goal 1 asks for twice NQueensFAF's speed at n = 18, that is 1.43x more than
the symmetry kernels give today. A count is faster by visiting fewer nodes or
by spending less on each; this script measures the first, four ways, on plain
bitmask searches compiled here (numba, uncached: nothing here calls the
package's kernels, whose cache they would depend on):

    python benchmarks/bench_count_bounds.py symmetry N
        the plain search (no symmetry) against the "max edge" representatives of
        ``kernels.classes`` (their rows from ``kernels.edges.masks``, split as the
        library splits them by ``by_edge_queens``), per distance D: nodes and
        leaves. A perfect 8-fold reduction would visit the plain nodes / 8; the
        ratio of the representatives' nodes to that is all symmetry can still give;
    python benchmarks/bench_count_bounds.py lookahead N
        a full look-ahead (every row below keeps a free cell, every empty column
        a free cell below) applied at one depth k: the nodes left, and the checks
        made, both as fractions of the plain search's nodes;
    python benchmarks/bench_count_bounds.py memo N
        the nodes at depth n - k and their distinct "rest of the board" (the empty
        columns, shifted to start at 0, and which of the k x k cells below are
        free): a memo of the last k rows saves the ratio at most;
    python benchmarks/bench_count_bounds.py halves N
        meet in the middle: the top half's placements (rows 0..n/2 - 1) and the
        bottom half's, each reduced to (columns, the two diagonal sets at row
        n/2); a solution joins a top and a bottom with complementary columns and
        disjoint diagonals. Prints the pairs such a join must test (by column
        set, distinct states) and, for n <= 13, the count it gives.

Results: benchmarks/RESULTS-frontier.md ("Issue 45: where twice NQueensFAF would
have to come from").
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np
from numba import njit
from oeis import A000170

from cpqueens.kernels.edges import by_edge_queens, masks


@njit(cache=False)
def nodes_and_leaves(allowed: np.ndarray) -> tuple[int, int]:
    """The nodes (queens placed) and leaves (solutions) of a plain search on per-row masks."""
    n = allowed.shape[0]
    full = (1 << n) - 1
    stack = np.zeros((n + 1, 4), np.int64)
    depth = 0
    free = allowed[0]
    c = d = a = 0
    nodes = leaves = 0
    while True:
        if free != 0:
            bit = free & -free
            free ^= bit
            nodes += 1
            if depth == n - 1:
                leaves += 1
                continue
            stack[depth, 0] = free
            stack[depth, 1] = c
            stack[depth, 2] = d
            stack[depth, 3] = a
            c = c | bit
            d = ((d | bit) << 1) & full
            a = (a | bit) >> 1
            depth += 1
            free = allowed[depth] & ~(c | d | a)
        else:
            if depth == 0:
                break
            depth -= 1
            free = stack[depth, 0]
            c = stack[depth, 1]
            d = stack[depth, 2]
            a = stack[depth, 3]
    return nodes, leaves


@njit(cache=False)
def _looked_ahead(n, depth, c, d, a, at, checks):
    """The plain search's (solutions, nodes) below a node, the full look-ahead at depth ``at``."""
    full = (1 << n) - 1
    if depth == n:
        return 1, 1
    if depth == at:
        checks[0] += 1
        below_d = d
        below_a = a
        covered = 0
        for _ in range(depth, n):
            row_free = full & ~(c | below_d | below_a)
            if row_free == 0:
                return 0, 1
            covered |= row_free
            below_d = (below_d << 1) & full
            below_a = below_a >> 1
        if covered | c != full:
            return 0, 1
    free = full & ~(c | d | a)
    solutions = 0
    nodes = 1
    while free:
        bit = free & -free
        free ^= bit
        below_d = ((d | bit) << 1) & full
        s, k = _looked_ahead(n, depth + 1, c | bit, below_d, (a | bit) >> 1, at, checks)
        solutions += s
        nodes += k
    return solutions, nodes


@njit(cache=False)
def _rests(n, k, out):
    """Each node at depth n - k: its empty columns shifted to 0, the free cells below."""
    full = (1 << n) - 1
    stack = np.zeros((n + 1, 4), np.int64)
    depth = 0
    free = full
    c = d = a = 0
    found = 0
    while True:
        if free != 0:
            bit = free & -free
            free ^= bit
            nc = c | bit
            nd = ((d | bit) << 1) & full
            na = (a | bit) >> 1
            if depth + 1 == n - k:
                empty = full & ~nc
                low = 0
                while not (empty >> low) & 1:
                    low += 1
                cells = 0
                position = 0
                below_d = nd
                below_a = na
                for _ in range(k):
                    row_free = empty & ~(below_d | below_a)
                    rest = empty
                    while rest:
                        column = rest & -rest
                        rest ^= column
                        if row_free & column:
                            cells |= 1 << position
                        position += 1
                    below_d = (below_d << 1) & full
                    below_a = below_a >> 1
                out[found, 0] = empty >> low
                out[found, 1] = cells
                found += 1
                continue
            stack[depth, 0] = free
            stack[depth, 1] = c
            stack[depth, 2] = d
            stack[depth, 3] = a
            c = nc
            d = nd
            a = na
            depth += 1
            free = full & ~(c | d | a)
        else:
            if depth == 0:
                break
            depth -= 1
            free = stack[depth, 0]
            c = stack[depth, 1]
            d = stack[depth, 2]
            a = stack[depth, 3]
    return found


@njit(cache=False)
def _halves(n, top, out):
    """Each placement of the top or bottom half: its columns, r - c and r + c sets at row h."""
    h = n // 2
    rows = h if top else n - h
    full = (1 << n) - 1
    columns = np.zeros(n + 1, np.int64)
    diagonal = np.zeros(n + 1, np.int64)
    anti = np.zeros(n + 1, np.int64)
    choices = np.zeros(n + 1, np.int64)
    queen = np.zeros(n + 1, np.int64)
    found = 0
    depth = 0
    choices[0] = full
    while depth >= 0:
        if depth == rows:
            down = 0
            up = 0
            for i in range(rows):
                col = queen[i]
                gap = h - i if top else (n - 1 - i) - h
                x = col + gap if top else col - gap
                y = col - gap if top else col + gap
                if 0 <= x < n:
                    down |= 1 << x
                if 0 <= y < n:
                    up |= 1 << y
            out[found, 0] = columns[depth]
            out[found, 1] = down
            out[found, 2] = up
            found += 1
            depth -= 1
            continue
        if choices[depth] == 0:
            depth -= 1
            continue
        bit = choices[depth] & -choices[depth]
        choices[depth] ^= bit
        col = 0
        while (1 << col) != bit:
            col += 1
        queen[depth] = col
        columns[depth + 1] = columns[depth] | bit
        diagonal[depth + 1] = ((diagonal[depth] | bit) << 1) & full
        anti[depth + 1] = (anti[depth] | bit) >> 1
        depth += 1
        choices[depth] = full & ~(columns[depth] | diagonal[depth] | anti[depth])
    return found


def symmetry(n: int) -> None:
    """The representatives' nodes per distance against the plain search and an 8-fold split."""
    full = (1 << n) - 1
    plain_nodes, plain_leaves = nodes_and_leaves(np.full(n, full, np.int64))
    assert plain_leaves == A000170[n], (plain_leaves, A000170[n])
    print(f"n = {n}: plain search {plain_nodes:,} nodes, {plain_leaves:,} leaves")
    print("| D | nodes | leaves | nodes per leaf |")
    print("| ---: | ---: | ---: | ---: |")
    total_nodes = total_leaves = 0
    for distance in range(1, (n + 1) // 2):
        nodes = leaves = 0
        for part in by_edge_queens(n, distance, masks(n, distance, full, full)):
            k, leaf = nodes_and_leaves(np.array(part, np.int64))
            nodes += k
            leaves += leaf
        total_nodes += nodes
        total_leaves += leaves
        per_leaf = f"{nodes / leaves:.1f}" if leaves else "-"
        print(f"| {distance} | {nodes:,} | {leaves:,} | {per_leaf} |")
    print(f"| all | {total_nodes:,} | {total_leaves:,} | {total_nodes / total_leaves:.1f} |")
    print(
        f"plain / representatives: nodes {plain_nodes / total_nodes:.2f}x, leaves "
        f"{plain_leaves / total_leaves:.2f}x; representatives / (plain / 8): "
        f"{total_nodes / (plain_nodes / 8):.2f} (all that symmetry can still save)"
    )


def lookahead(n: int) -> None:
    """The nodes left by a full look-ahead at each depth, and the checks it makes."""
    checks = np.zeros(1, np.int64)
    solutions, base = _looked_ahead(n, 0, 0, 0, 0, -1, checks)
    assert solutions == A000170[n]
    print(f"n = {n}: plain search {base:,} nodes")
    print("| look-ahead at depth | nodes left | checks |")
    print("| ---: | ---: | ---: |")
    for at in range(n // 2, n - 1):
        checks[0] = 0
        solutions, nodes = _looked_ahead(n, 0, 0, 0, 0, at, checks)
        assert solutions == A000170[n]
        print(f"| {at} | {nodes / base:.3f} | {checks[0] / base:.3f} |")


def memo(n: int) -> None:
    """The nodes at depth n - k against their distinct rests (a memo of the last k rows)."""
    print(f"n = {n}")
    print("| last k rows | nodes at depth n - k | distinct rests | nodes per rest |")
    print("| ---: | ---: | ---: | ---: |")
    out = np.zeros((A000170[n] * 25, 2), np.int64)
    for k in range(3, 9):
        found = _rests(n, k, out)
        distinct = len(np.unique(out[:found], axis=0))
        print(f"| {k} | {found:,} | {distinct:,} | {found / distinct:.1f} |")


def halves(n: int) -> None:
    """The pairs a meet-in-the-middle join of the two halves tests, and (n <= 13) its count."""
    full = (1 << n) - 1
    size = max(A000170[n] * 8, 1_000)
    groups = []
    for top in (True, False):
        out = np.zeros((size, 3), np.int64)
        found = _halves(n, top, out)
        states, weights = np.unique(out[:found], axis=0, return_counts=True)
        by_columns: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for (columns, down, up), weight in zip(states.tolist(), weights.tolist(), strict=True):
            by_columns[columns].append((down, up, weight))
        groups.append((found, len(states), by_columns))
    (tops, top_states, top_groups), (bottoms, bottom_states, bottom_groups) = groups
    pairs = sum(len(v) * len(bottom_groups.get(full ^ cols, ())) for cols, v in top_groups.items())
    print(
        f"n = {n}: top halves {tops:,} ({top_states:,} distinct), bottom halves {bottoms:,} "
        f"({bottom_states:,}); column sets {len(top_groups):,}; pairs to test {pairs:,}"
    )
    if n <= 13:
        count = 0
        for cols, states in top_groups.items():
            for down, up, weight in states:
                for down2, up2, weight2 in bottom_groups.get(full ^ cols, ()):
                    if down & down2 == 0 and up & up2 == 0:
                        count += weight * weight2
        assert count == A000170[n], (count, A000170[n])
        print(f"joined count {count:,} = A000170({n})")


def main() -> None:
    """Parse the command line and print one measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["symmetry", "lookahead", "memo", "halves"])
    parser.add_argument("n", type=int)
    args = parser.parse_args()
    measure = {"symmetry": symmetry, "lookahead": lookahead, "memo": memo, "halves": halves}
    measure[args.what](args.n)


if __name__ == "__main__":
    main()
