"""The CPU of a sample of a domination search's parts, and the whole search projected from it.

    python benchmarks/probe_parts.py 17 9 --sample 12 --seed 1
    python benchmarks/probe_parts.py 18 9 --sample 12 --frame both
    python benchmarks/probe_parts.py 20 10 --sample 12 --first --frame both
    python benchmarks/probe_parts.py 17 9 --sample 12 --levels 1,2
    python benchmarks/probe_parts.py 24 12 --first --depth 3 --sample 40

Splits the count of k covering queens on n x n as the local pool does (depth 2:
a part per child of the first queen's orbit), counts a random sample of the
parts in this process, one after the other, and prints each part's CPU seconds
and count, then the mean times the number of parts: the CPU the whole count
would take on one core (a projection: the parts are lopsided, read the spread).
``--first``: the proof's parts instead (each stops at a covering set).
``--depth 3``: a split one level finer (a cluster's parts are finer still).
``--frame both``: each part twice, the kernel's frame cut off then on, side by
side (the same count; the ratio of CPU is the cut's gain on the sample).
"""

from __future__ import annotations

import argparse
import random
import time

from cpqueens.backends.bitmask import domination


def _timed(part: domination.Part, frame: int) -> tuple[int, float]:
    """A part's result and the CPU seconds it took in this process."""
    began = time.process_time()
    value = domination.search_part(
        part.n, part.k, part.q0, part.path, part.first, None, part.independent, False, frame
    )
    return value, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("--sample", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--independent", action="store_true")
    parser.add_argument("--first", action="store_true", help="the proof's parts, not the count's")
    parser.add_argument("--depth", type=int, default=2, help="levels of the split (2: the pool's)")
    parser.add_argument("--frame", choices=("on", "off", "both"), default="on")
    parser.add_argument("--levels", help="levels of the cut side by side, e.g. 1,2")
    args = parser.parse_args()
    frames = {"on": (domination.CUT,), "off": (0,), "both": (0, domination.CUT)}[args.frame]
    if args.levels:
        frames = tuple(int(level) for level in args.levels.split(","))
    began = time.process_time()
    parts = domination.plan(args.n, args.k, args.depth, args.first, args.independent)
    print(f"{len(parts)} parts, split in {time.process_time() - began:.2f} CPU-s", flush=True)
    chosen = random.Random(args.seed).sample(range(len(parts)), min(args.sample, len(parts)))
    totals = dict.fromkeys(frames, 0.0)
    what = "value" if args.first else "count"
    heads = " | ".join(f"{what}, CPU-s (cut {f})" for f in frames)
    print(f"| part | first queen | path | {heads} |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in frames) + " |")
    for i in chosen:
        part = parts[i]
        cells = []
        values = set()
        for frame in frames:
            value, seconds = _timed(part, frame)
            totals[frame] += seconds
            values.add(value != 0 if args.first else value)
            cells.append(f"{value}, {seconds:.2f}")
        if len(values) != 1:
            raise SystemExit(f"part {i}: the frame cut changed its result: {cells}")
        print(f"| {i} | {part.q0} | {list(part.path)} | {' | '.join(cells)} |", flush=True)
    for frame in frames:
        mean = totals[frame] / len(chosen)
        print(
            f"cut {frame}: mean {mean:.2f} CPU-s a part; "
            f"projected {mean * len(parts):,.0f} CPU-s for the whole search"
        )
    if len(frames) >= 2:
        last, first = frames[-1], frames[0]
        print(f"CPU with cut {last} / with cut {first}: {totals[last] / totals[first]:.3f}")


if __name__ == "__main__":
    main()
