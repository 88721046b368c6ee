"""Side by side, one process: three splits of boards a subgroup of the 8 symmetries keeps.

Issue 13's first idea, for boards the symmetry kernels do not take:

- "plain": the first rows split with no symmetry, what a board the mirror does
  not keep got before;
- "row pairs": rows r and n - 1 - r split together, one pair of cells per orbit
  of the mirror, the flip and the half turn (:func:`row_pair_subproblems`,
  here only: measured and rejected, it costs more than it saves);
- "now": ``cpqueens.strategies.symmetry.subproblems`` as the count takes it (the mirror
  halves the first row; a board the flip keeps and the mirror does not is
  split as its transpose, which the mirror keeps).

Each split is counted by the same bitmask kernel (``count_placements``) at the
depth the count's planner would take for one worker (the shallowest with at
least 16 parts); repeats interleaved, best kept, the counts checked to agree.

Writes benchmarks/RESULTS-split-symmetry.md.

    python benchmarks/bench_split_symmetry.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cpqueens
from cpqueens.backends import get
from cpqueens.model import Model
from cpqueens.strategies.split import Subproblem
from cpqueens.strategies.split import subproblems as row_split
from cpqueens.strategies.symmetry import group
from cpqueens.strategies.symmetry import subproblems as count_split
from cpqueens.vocabulary.geometry import TRANSFORMS

HERE = Path(__file__).resolve().parent
#: The planner's aim for one worker (``counting.SUBPROBLEMS_PER_WORKER``).
TARGET = 16


def kept(n: int, cells: list[tuple[int, int]], names: list[str]) -> list[tuple[int, int]]:
    """``cells`` with their images under ``names``: holes those symmetries keep."""
    holes = set(cells)
    for name in names:
        holes |= {TRANSFORMS[name](r, c, n) for r, c in holes}
    return sorted(holes)


#: The symmetries that map the pair of rows r, n - 1 - r onto itself.
ROW_PAIR_SYMMETRIES = ("identity", "mirror", "flip", "rot180")


def _attacks(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])


def row_pair_subproblems(model: Model, depth: int) -> tuple[Subproblem, ...]:
    """Split rows 0 and n - 1 (no placed queen there), one pair of cells per orbit.

    The symmetries of the model's group that keep the pair of rows map the
    solutions with colour-0 queens on cells A of those rows one to one onto those
    with queens on A's image, so each orbit counts once, weighed by its size;
    ``depth - 1`` more rows split each pair's subproblem, top down.
    """
    n = model.n
    keepers = [TRANSFORMS[name] for name in group(model) if name in ROW_PAIR_SYMMETRIES]
    blocked = set(model.board.blocked)

    def free(cell: tuple[int, int], *others: tuple[int, int]) -> bool:
        return cell not in blocked and not any(_attacks(cell, o) for o in (*model.placed, *others))

    found: list[Subproblem] = []
    for first in ((0, c) for c in range(n)):
        for second in ((n - 1, c) for c in range(n)):
            if not (free(first) and free(second, first)):
                continue
            pair = (first, second)
            images = {tuple(sorted(f(r, c, n) for r, c in pair)) for f in keepers}
            if pair == min(images):  # the orbit's representative: its least image
                narrowed = model.with_placed(pair)
                found.extend(
                    Subproblem(part.model, len(images) * part.weight)
                    for part in row_split(narrowed, depth - 1, symmetry=False)
                )
    return tuple(found)


SEED_CELLS = [(1, 3), (2, 9), (3, 14), (5, 6), (6, 1), (7, 11)]
BOARDS: dict[str, Model] = {
    "rot180": cpqueens.model(16, kept(16, SEED_CELLS, ["rot180"])),
    "flip": cpqueens.model(16, kept(16, SEED_CELLS, ["flip"])),
    "mirror+flip": cpqueens.model(16, kept(16, SEED_CELLS[:3], ["mirror", "flip"])),
    "placed centre": cpqueens.model(17, placed=[(8, 8)]),
    "mirror": cpqueens.model(16, kept(16, SEED_CELLS, ["mirror"])),
}


def planned(split: Callable[[int], tuple[Subproblem, ...]], model: Model) -> list[Subproblem]:
    """The split at the shallowest depth with ``TARGET`` parts, as the planner takes it."""
    depth = 1
    parts = split(depth)
    while len(parts) < TARGET and depth < (model.n - len(model.placed)) // 2:
        depth += 1
        parts = split(depth)
    return list(parts)


def timed(parts: list[Subproblem]) -> tuple[float, int]:
    """Count every part with the bitmask backend; return the seconds and the weighted sum."""
    count = get("bitmask").count
    start = time.perf_counter()
    total = sum(part.weight * count(part.model) for part in parts)
    return time.perf_counter() - start, total


def main() -> None:
    """Measure every board with both splits, write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    timed(list(count_split(cpqueens.model(12), "bitmask", 1)))  # load the kernels first
    before = os.getloadavg()
    rows = []
    for name, model in BOARDS.items():
        splits = {
            "plain": planned(lambda d, m=model: row_split(m, d, symmetry=False), model),
            "pairs": planned(lambda d, m=model: row_pair_subproblems(m, d), model),
            "now": planned(lambda d, m=model: count_split(m, "bitmask", d), model),
        }
        best = {key: float("inf") for key in splits}
        counts = set()
        for _ in range(args.repeats):
            for key, parts in splits.items():
                seconds, total = timed(parts)
                best[key] = min(best[key], seconds)
                counts.add(total)
        if len(counts) != 1:
            sys.exit(f"{name}: the splits disagree: {sorted(counts)}")
        rows.append((name, model, group(model), counts.pop(), splits, best))
        print(name, best, flush=True)
    after = os.getloadavg()
    lines = [
        "# Splits of boards a subgroup of the 8 symmetries keeps (issue 13)",
        "",
        f"- command: `python benchmarks/bench_split_symmetry.py --repeats {args.repeats}`",
        f"- date: {datetime.datetime.now(datetime.UTC).isoformat(timespec='seconds')}",
        f"- machine: {os.cpu_count()} CPUs, {platform.machine()}, Python "
        f"{platform.python_version()}; SHARED, load average (1, 5, 15 min) before "
        f"{' '.join(f'{x:.2f}' for x in before)}, after {' '.join(f'{x:.2f}' for x in after)}",
        "- one process, kernels loaded first; each board's three splits counted by the same "
        "bitmask kernel, repeats interleaved, best kept; the counts agree",
        "",
        "| board | group | count | plain: parts, s | row pairs: parts, s, ratio "
        "| now: parts, s, ratio |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for name, model, names, total, splits, best in rows:
        lines.append(
            f"| {name} (n={model.n}) | {', '.join(names)} | {total:,} | "
            f"{len(splits['plain'])}, {best['plain']:.2f} | "
            f"{len(splits['pairs'])}, {best['pairs']:.2f}, {best['plain'] / best['pairs']:.2f}x | "
            f"{len(splits['now'])}, {best['now']:.2f}, {best['plain'] / best['now']:.2f}x |"
        )
    lines += [
        "",
        "ratio: the plain split's time over this split's (above 1: faster). Row pairs pin",
        "the bottom row's queen, but the kernel searches top down: the upper rows' work is",
        "done again for each bottom queen, which the orbits' halving does not pay back.",
        "",
        "Boards:",
        "",
    ]
    for name, model, *_ in rows:
        lines.append(
            f"- {name}: n={model.n}, holes {list(model.board.blocked)}, placed {list(model.placed)}"
        )
    (HERE / "RESULTS-split-symmetry.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
