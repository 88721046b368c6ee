"""The README's table: totals and unique counts of the free n x n board, n = 1..17, timed.

Each count is one library call, ``cpqueens.model(n).count(backend="bitmask",
workers=W)`` and the same with ``unique=True``; W is 1, except 2 (every core of
the machine it ran on) for the largest n. The figures are checked against OEIS
A000170 and A002562 here, not in the library. Writes
benchmarks/RESULTS-symmetry-table.md.

    python benchmarks/symmetry_table.py [--max-n 17] [--parallel-from 17] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from oeis import A000170

import cpqueens

A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955]
A002562 += [11977939, 83263591]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=17)
    parser.add_argument("--parallel-from", type=int, default=17)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS-symmetry-table.md")))
    args = parser.parse_args()
    cpqueens.model(8).count(backend="bitmask", workers=1)  # compile / load the kernels first

    rows = []
    for n in range(1, args.max_n + 1):
        workers = args.workers if n >= args.parallel_from else 1
        start = time.perf_counter()
        total = cpqueens.model(n).count(backend="bitmask", workers=workers)
        middle = time.perf_counter()
        unique = cpqueens.model(n).count(backend="bitmask", workers=workers, unique=True)
        end = time.perf_counter()
        assert (total, unique) == (A000170[n], A002562[n - 1]), (n, total, unique)
        rows.append(
            f"| {n} | {total:,} | {unique:,} | {middle - start:.3f} | {end - middle:.3f} "
            f"| {workers} |"
        )
        print(rows[-1], flush=True)

    lines = [
        f"Command: `python benchmarks/symmetry_table.py --max-n {args.max_n} "
        f"--parallel-from {args.parallel_from} --workers {args.workers}` "
        "(backend `bitmask`; every figure checked against OEIS A000170 / A002562)",
        "",
        "| n | solutions | unique (8 symmetries) | time total (s) | time unique (s) | workers |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        *rows,
        "",
    ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
