"""Side by side, one process: region puzzles solved and proved unique, against plain CP-SAT.

Issue 23's goals. Every puzzle is generated here from a seed (``Puzzle.generate``,
unique by construction, re-checked). "Solve and prove unique" is
``Puzzle.solutions(limit=2)`` on the compiled search (warm: its kernel loaded
once before timing), against the model every blog writes: one CP-SAT Boolean
per cell, rows, columns and regions as ``add_exactly_one`` (k = 1) or sums of
k, no-touch as pairwise clauses, solved once, the solution forbidden by a
clause, solved again (INFEASIBLE = unique), with CP-SAT's default parameters
and one worker per core. Both answers are checked to agree.

The solved sets are read from benchmarks/puzzles_generated.json, a cache of
the generated puzzles by size and seed (generated and saved when missing:
delete it to regenerate the same puzzles from their seeds); the generation
goals always generate afresh.

Writes benchmarks/RESULTS-puzzles.md (then ``bench_regions_kernel.py`` appends
the kernel's before/after table).

    python benchmarks/bench_puzzles.py [--daily 20] [--eleven 1000] [--stars10 100] [--stars14 10]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from ortools.sat.python import cp_model

from cpqueens import Puzzle

HERE = Path(__file__).resolve().parent


def plain_cpsat(puzzle: Puzzle) -> tuple[tuple[int, int], ...] | None:
    """Solve with the plain CP-SAT model, then prove unique by forbidding the solution."""
    n, k = puzzle.n, puzzle.stars
    cp = cp_model.CpModel()
    x = [[cp.new_bool_var(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    groups = [x[r] for r in range(n)] + [[x[r][c] for r in range(n)] for c in range(n)]
    groups += [[x[r][c] for r, c in puzzle.region_cells(g)] for g in range(n)]
    for group in groups:
        if k == 1:
            cp.add_exactly_one(group)
        else:
            cp.add(sum(group) == k)
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    cp.add_bool_or([x[r][c].Not(), x[r + dr][c + dc].Not()])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = os.cpu_count() or 1
    if solver.solve(cp) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    queens = tuple((r, c) for r in range(n) for c in range(n) if solver.value(x[r][c]))
    cp.add_bool_or([x[r][c].Not() for r, c in queens])
    if solver.solve(cp) != cp_model.INFEASIBLE:
        return None  # not unique
    return queens


def ours(puzzle: Puzzle) -> tuple[tuple[int, int], ...] | None:
    """Solve and prove unique with the compiled search: two solutions asked for, one found."""
    found = puzzle.solutions(limit=2)
    return found[0] if len(found) == 1 else None


def timed(call, puzzle: Puzzle) -> tuple[float, object]:
    start = time.perf_counter()
    answer = call(puzzle)
    return time.perf_counter() - start, answer


def side_by_side(puzzles: list[Puzzle]) -> tuple[list[float], list[float]]:
    """Each puzzle's seconds on the compiled search and on plain CP-SAT, answers checked."""
    mine, theirs = [], []
    for puzzle in puzzles:
        a, first = timed(ours, puzzle)
        b, second = timed(plain_cpsat, puzzle)
        if first is None or first != second:
            raise AssertionError(f"the engines disagree on\n{puzzle}")
        mine.append(a)
        theirs.append(b)
    return mine, theirs


def generated(size: int, stars: int, count: int, base: int) -> tuple[list[Puzzle], list[float]]:
    """``count`` puzzles from seeds base, base+1, ..., and each one's generation time."""
    puzzles, seconds = [], []
    for seed in range(base, base + count):
        start = time.perf_counter()
        puzzle, _ = Puzzle.generate(size, stars, seed=seed)
        seconds.append(time.perf_counter() - start)
        puzzles.append(puzzle)
    return puzzles, seconds


CACHE = HERE / "puzzles_generated.json"


def cached(
    size: int, stars: int, count: int, base: int, seeds: list[int] | None = None
) -> list[Puzzle]:
    """Puzzles from seeds base, base+1, ... (or ``seeds``), read from :data:`CACHE` or generated.

    The cache holds each puzzle's letter grid under its size, stars and seed;
    deleting it regenerates the same puzzles (``Puzzle.generate`` is
    reproducible from its seed). Each read puzzle is checked unique again.
    """
    store = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    shelf = store.setdefault(f"{size}x{size}, {stars} star(s)", {})
    puzzles = []
    for seed in seeds if seeds is not None else range(base, base + count):
        if str(seed) in shelf:
            puzzle = Puzzle.parse(shelf[str(seed)])
            assert puzzle.is_unique(), f"the cached puzzle of seed {seed} is not unique"
        else:
            puzzle, _ = Puzzle.generate(size, stars, seed=seed)
            shelf[str(seed)] = puzzle.to_text()
            if len(shelf) % 50 == 0:
                CACHE.write_text(json.dumps(store, indent=0, sort_keys=True) + "\n")
        puzzles.append(puzzle)
    CACHE.write_text(json.dumps(store, indent=0, sort_keys=True) + "\n")
    return puzzles


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    """Run every goal side by side and write RESULTS-puzzles.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--daily", type=int, default=20, help="puzzles per size n = 7, 8, 9")
    parser.add_argument("--eleven", type=int, default=1000, help="11x11 puzzles to pick 10 from")
    parser.add_argument("--stars10", type=int, default=100, help="10x10 two-star puzzles")
    parser.add_argument("--stars14", type=int, default=10, help="14x14 three-star puzzles")
    parser.add_argument(
        "--stars14-seeds", metavar="S,S,...", help="the 14x14 puzzles' seeds (default 14000, ...)"
    )
    parser.add_argument("--generate", type=int, default=15, help="9x9 puzzles generated")
    parser.add_argument("--hard", type=int, default=7, help="hard 9x9 puzzles generated")
    args = parser.parse_args()
    Puzzle.generate(5, seed=0)[0].solutions(limit=2)  # load the compiled kernel: warm process
    load_before = os.getloadavg()
    daily = [p for n in (7, 8, 9) for p in cached(n, 1, args.daily, 1000 * n)]
    eleven = cached(11, 1, args.eleven, 11000)
    stars10 = cached(10, 2, args.stars10, 10000)
    seeds14 = [int(s) for s in args.stars14_seeds.split(",")] if args.stars14_seeds else None
    stars14 = cached(14, 3, args.stars14, 14000, seeds14) if args.stars14 else []
    rows = []

    def goal(name: str, mine: list[float], theirs: list[float], budget: str, met: bool) -> None:
        ratio = sum(theirs) / sum(mine)
        rows.append(
            f"| {name} | {len(mine)} | {ms(statistics.mean(mine))} | {ms(max(mine))} | "
            f"{ms(statistics.mean(theirs))} | {ratio:,.0f}x | {budget} | {verdict(met)} |"
        )
        print(rows[-1], flush=True)

    mine, theirs = side_by_side(daily)
    ten_x = sum(theirs) / sum(mine) >= 10
    goal("Queens n = 7-9, solve + unique", mine, theirs, "< 2 ms avg, >= 10x",
         statistics.mean(mine) < 0.002 and ten_x)  # fmt: skip

    times = sorted(((timed(ours, p)[0], i) for i, p in enumerate(eleven)), reverse=True)
    hardest = [eleven[i] for _, i in times[:10]]
    mine, theirs = side_by_side(hardest)
    goal(f"Queens 11x11, hardest 10 of {args.eleven}", mine, theirs, "< 20 ms each, >= 10x",
         max(mine) < 0.020 and sum(theirs) / sum(mine) >= 10)  # fmt: skip

    mine, theirs = side_by_side(stars10)
    goal("Star Battle 10x10, 2 stars", mine, theirs, "< 50 ms avg", statistics.mean(mine) < 0.05)

    if stars14:
        mine, theirs = side_by_side(stars14)
        goal(f"Star Battle 14x14, 3 stars ({len(mine)})", mine, theirs, "< 1 s each",
             max(mine) < 1)  # fmt: skip

    _, gen = generated(9, 1, args.generate, 9000)
    hard = []
    for seed in range(90000, 90000 + args.hard):
        start = time.perf_counter()
        puzzle, _ = Puzzle.generate(9, difficulty="hard", seed=seed)
        hard.append(time.perf_counter() - start)
        assert puzzle.rate() == "hard"
    gen_rows = [
        f"| unique 9x9 Queens | {len(gen)} | {statistics.median(gen):.3f} s | {max(gen):.3f} s | "
        f"< 1 s median | {verdict(statistics.median(gen) < 1)} |",
        f"| hard 9x9 Queens (rated hard) | {len(hard)} | {statistics.median(hard):.3f} s | "
        f"{max(hard):.3f} s | < 10 s median | {verdict(statistics.median(hard) < 10)} |",
    ]
    print("\n".join(gen_rows))
    load_after = os.getloadavg()
    load = " / ".join(" ".join(f"{x:.2f}" for x in avg) for avg in (load_before, load_after))

    command = "python benchmarks/bench_puzzles.py " + " ".join(sys.argv[1:])
    text = f"""# Region puzzles: solve and prove unique, side by side with plain CP-SAT

`{command.strip()}` on {datetime.date.today()}, Python {platform.python_version()},
{os.cpu_count()} cores shared with other engineers' work: load average (1, 5, 15 min)
{load} at the start / end of the timed part; one process, the compiled kernel loaded
before timing (a warm process). "ours" is `Puzzle.solutions(limit=2)` (the compiled
row-subset search, stopping at the second solution); "plain CP-SAT" is a Boolean per
cell, `add_exactly_one` (or a sum of k) per row, column and region, a clause per touching
pair, solved, the solution forbidden, solved again (INFEASIBLE = unique), default
parameters with {os.cpu_count()} workers. Every answer is checked to agree. Puzzles are
generated from seeds by `Puzzle.generate` (unique by construction), cached in
`benchmarks/puzzles_generated.json` (re-checked unique when read).

| set | puzzles | ours, mean | ours, max | plain CP-SAT, mean | ratio (total) | goal | |
|---|---|---|---|---|---|---|---|
{chr(10).join(rows)}

Generating (`Puzzle.generate(9, seed=s)`, `difficulty="hard"`: rated hard by `rate()`):

| puzzle | generated | median | max | goal | |
|---|---|---|---|---|---|
{chr(10).join(gen_rows)}
"""
    (HERE / "RESULTS-puzzles.md").write_text(text)


if __name__ == "__main__":
    main()
