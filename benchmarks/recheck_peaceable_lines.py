r"""Re-check "no armies of m each on n x n" by the other engine: the line search of any board.

The proof in parts (:mod:`cpqueens.backends.bitmask.pairs`) labels rows and
columns first and leaves one diagonal family to a knapsack. This script asks
the line-label branch-and-bound of :mod:`cpqueens.kernels.peaceable` (lines
in another order, the most contested first; a knapsack over each family of
disjoint lines; symmetry broken by lex-leader constraints on the labels)
the same question: armies of ``m`` or more, with ``m - 1`` as its incumbent.
An exhausted tree with none found agrees with the proof; armies found would
refute it (they are checked in plain Python and printed).

The search runs in slices; its whole state (labels, counts, stack) is saved
to ``--state FILE`` (numpy's npz) every ``--every`` seconds and at Ctrl-C,
and the same command resumes from it. Prints one line per save: nodes, CPU
seconds, the depth.

    nice -n 19 python benchmarks/recheck_peaceable_lines.py 16 38 --state ~/recheck16.npz
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

from cpqueens.backends.bitmask import lines  # noqa: E402
from cpqueens.backends.bitmask.pairs import peaceable  # noqa: E402
from cpqueens.vocabulary.cells import CellBoard, CellProblem  # noqa: E402

#: The arrays of a search that hold its state.
STATE = ("state", "label", "killw", "killb", "pw", "pb", "counts", "depth_line", "depth_phase")


def save(search: lines._Search, path: Path, cpu: float) -> None:
    """Write the search's state (and the CPU seconds so far) to ``path``, atomically."""
    arrays = {name: getattr(search, name) for name in STATE}
    temporary = path.with_name(path.name + ".tmp.npz")
    np.savez(temporary, cpu=np.array([cpu]), budget=np.array([search.budget]), **arrays)
    os.replace(temporary, path)


def main() -> None:
    """Run (or resume) the search for armies of m on n x n; print progress and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("m", type=int)
    parser.add_argument("--state", type=Path, required=True)
    parser.add_argument("--every", type=float, default=60.0)
    args = parser.parse_args()
    problem = CellProblem(CellBoard(args.n, args.n), armies=2)
    s = lines.structure(problem)
    shared = lines._shared(s, True, True)
    search = lines._Search(s, shared, floor=args.m - 1, seconds=0.5)
    cpu = 0.0
    if args.state.exists():
        with np.load(args.state) as saved:
            for name in STATE:
                getattr(search, name)[...] = saved[name]
            cpu, search.budget = float(saved["cpu"][0]), int(saved["budget"][0])
    began, last = time.process_time(), time.monotonic()
    try:
        while not search.done and not search.found:
            search.run()
            if time.monotonic() - last > args.every:
                save(search, args.state, cpu + time.process_time() - began)
                last = time.monotonic()
                print(
                    f"nodes {search.nodes:,}, CPU {cpu + time.process_time() - began:.0f} s, "
                    f"depth {int(search.state[0])}, load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
    except KeyboardInterrupt:
        save(search, args.state, cpu + time.process_time() - began)
        print("interrupted: the state is saved; run the same command to resume", flush=True)
        raise SystemExit(130) from None
    cpu += time.process_time() - began
    save(search, args.state, cpu)
    verdict: dict[str, object] = {"n": args.n, "m": args.m, "nodes": search.nodes, "cpu": cpu}
    if search.found:
        white, black = lines.armies(s, search.best_label)
        verdict.update(found=min(len(white), len(black)), peaceable=peaceable(args.n, white, black))
        verdict.update(white=white, black=black)
    else:
        verdict["found"] = None  # the tree is exhausted: no armies of m
    print(json.dumps(verdict), flush=True)


if __name__ == "__main__":
    main()
