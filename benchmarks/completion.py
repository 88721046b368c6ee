"""Random n-Queens Completion instances: queens dropped at random, none attacking another.

A queen is dropped on a uniformly random cell and kept if no queen kept so far
attacks it (row, column or diagonal), until ``round(fraction * n)`` are kept.
The same (n, fraction, seed) always gives the same instance. Such instances
may have no completion; the benchmark reports what each search answers.

    python benchmarks/completion.py 200 0.2 1      # prints R,C pairs for --placed
    cpqueens solve 200 --any --placed $(python benchmarks/completion.py 200 0.2 1)
"""

from __future__ import annotations

import argparse
import random


def instance(n: int, fraction: float, seed: int) -> list[tuple[int, int]]:
    """``round(fraction * n)`` pairwise non-attacking queens on an n-board, as sorted (row, col)."""
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction must be between 0 and 1, got {fraction!r}")
    rng = random.Random(f"completion {n} {fraction} {seed}")
    rows: dict[int, int] = {}
    cols: set[int] = set()
    up: set[int] = set()
    down: set[int] = set()
    target = round(fraction * n)
    for _ in range(1000 * n * n):
        if len(rows) == target:
            return sorted(rows.items())
        r, c = rng.randrange(n), rng.randrange(n)
        if r in rows or c in cols or r + c in up or c - r in down:
            continue
        rows[r] = c
        cols.add(c), up.add(r + c), down.add(c - r)
    raise ValueError(f"could not drop {target} non-attacking queens on a {n}-board")


def main() -> None:
    """Print one instance as R,C pairs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("fraction", type=float, help="placed queens per row, 0.1 to 0.3 here")
    parser.add_argument("seed", type=int)
    args = parser.parse_args()
    print(" ".join(f"{r},{c}" for r, c in instance(args.n, args.fraction, args.seed)))


if __name__ == "__main__":
    main()
