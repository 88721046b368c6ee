"""Generating puzzles to order: median time over 10 seeds per size and difficulty (issue 34).

``python benchmarks/bench_generate.py`` prints one Markdown row per case:
size, stars, difficulty, wall-clock median and max, CPU median (seconds).
Every puzzle is checked: rated as asked (or, with no difficulty, solved by
deduction alone) by ``rate()``.
"""

from __future__ import annotations

import statistics
import time

from cpqueens import Puzzle

Puzzle.generate(5, seed=0)  # load the compiled kernel
cases = [(n, 1, d) for n in range(7, 12) for d in ("easy", "medium", "hard", None)]
cases += [(10, 2, d) for d in ("medium", "hard", None)]
for n, k, d in cases:
    wall, cpu = [], []
    for seed in range(10):
        w, c = time.perf_counter(), time.process_time()
        p, s = Puzzle.generate(n, k, difficulty=d, seed=seed)
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
        rating = p.rate()
        assert rating == d if d else rating in ("easy", "medium", "hard"), (n, k, d, seed, rating)
    print(
        f"| {n} | {k} | {d or 'default'} | {statistics.median(wall):.2f} | {max(wall):.2f} "
        f"| {statistics.median(cpu):.2f} |",
        flush=True,
    )
