"""The CPU of a sample of a domination count's parts, and the whole count projected from it.

    python benchmarks/probe_parts.py 17 9 --sample 12 --seed 1

Splits the count of k covering queens on n x n as the local pool does (depth 2:
a part per child of the first queen's orbit), counts a random sample of the
parts in this process, one after the other, and prints each part's CPU seconds
and count, then the mean times the number of parts: the CPU the whole count
would take on one core (a projection: the parts are lopsided, read the spread).
"""

from __future__ import annotations

import argparse
import random
import time

from cpqueens.backends.bitmask import domination


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("--sample", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--independent", action="store_true")
    args = parser.parse_args()
    began = time.process_time()
    parts = domination.plan(args.n, args.k, 2, False, args.independent)
    print(f"{len(parts)} parts, split in {time.process_time() - began:.2f} CPU-s", flush=True)
    chosen = random.Random(args.seed).sample(range(len(parts)), min(args.sample, len(parts)))
    total = 0.0
    print("| part | first queen | path | count | CPU-s |")
    print("| --- | --- | --- | --- | --- |")
    for i in chosen:
        part = parts[i]
        began = time.process_time()
        count = domination.search_part(
            part.n, part.k, part.q0, part.path, False, None, part.independent, False
        )
        seconds = time.process_time() - began
        total += seconds
        print(f"| {i} | {part.q0} | {list(part.path)} | {count} | {seconds:.2f} |", flush=True)
    mean = total / len(chosen)
    print(f"\nmean {mean:.2f} CPU-s a part; projected {mean * len(parts):,.0f} CPU-s for the count")


if __name__ == "__main__":
    main()
