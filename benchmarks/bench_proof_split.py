"""A domination proof split at depth 1 and at depth 2, side by side: what the finer split costs.

    python benchmarks/bench_proof_split.py 16 8 --rounds 4

Searches every part of the proof that no k queens cover n x n in this
process, the whole split at depth 1 then at depth 2 (the order alternating
round by round), and prints each total's CPU seconds and their ratio. The
two splits partition the same tree, so they must agree (no part finds a set
where k is below the domination number); the ratio is the cost of the finer
split (``FINE_FROM`` in ``cpqueens/backends/bitmask/domination.py``).
"""

from __future__ import annotations

import argparse
import time

from cpqueens.backends.bitmask import domination


def searched(n: int, k: int, depth: int) -> tuple[int, int, float]:
    """(parts, parts that found a covering set, CPU seconds) of the split at ``depth``."""
    parts = domination.plan(n, k, depth)
    began = time.process_time()
    found = sum(
        domination.search_part(p.n, p.k, p.q0, p.path, True, None, p.independent) > 0 for p in parts
    )
    return len(parts), found, time.process_time() - began


def main() -> None:
    """Alternate the two splits and print each round's CPU and ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    searched(args.n, args.k, 1)  # the kernels loaded, not timed
    for r in range(args.rounds):
        cpu = {}
        for depth in (1, 2) if r % 2 == 0 else (2, 1):
            parts, found, cpu[depth] = searched(args.n, args.k, depth)
            print(f"round {r}, depth {depth}: {parts} parts, {found} found, {cpu[depth]:.2f} CPU-s")
        print(f"round {r}: depth 2 / depth 1 = {cpu[2] / cpu[1]:.3f}", flush=True)


if __name__ == "__main__":
    main()
