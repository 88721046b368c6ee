r"""Re-check A250000(n) by the pairs search without its symmetry reduction: every row set.

The proof (:mod:`cpqueens.backends.bitmask.pairs`) searches one row set per
orbit of the row reversal and the colour swap. This script asks the same
search with ``symmetry=False``: every row set and every column set, some four
times the work, in parts on the local pool with a checkpoint (the same command
resumes). The answer must be the proof's, and its armies are checked here in
plain Python: two armies of the value on distinct cells, no queen attacking
one of the other army.

    nice -n 10 python benchmarks/recheck_peaceable_pairs.py 16 --workers 2 --checkpoint p16e.json
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench_peaceable_frontier import peaceful  # noqa: E402

import cpqueens  # noqa: E402


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    """Run (or resume) the search without symmetry; print the checked answer as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--checkpoint", type=Path, required=True)
    args = parser.parse_args()
    began, cpu = time.perf_counter(), cpu_seconds()
    best = cpqueens.peaceable(
        args.n, symmetry=False, workers=args.workers, checkpoint=str(args.checkpoint)
    )
    wall = time.perf_counter() - began
    white, black = peaceful(args.n, [list(q) for q in best.queens])
    if not white == black == best.value or best.status != "optimal":
        raise SystemExit(f"armies of {white} and {black}, reported {best.value} {best.status}")
    saved = json.loads(args.checkpoint.read_text())
    print(json.dumps({
        "n": args.n, "value": best.value, "status": best.status, "wall": round(wall, 1),
        "cpu": round(cpu_seconds() - cpu, 1), "parts": saved["subproblems"],
        "saved": len(saved["done"]), "larger": sorted({v for _, v in saved["done"]}),
        "what": saved["backend"],
    }))  # fmt: skip


if __name__ == "__main__":
    main()
