"""The CPU of the same domination parts under two source trees (or cut levels), side by side.

    python benchmarks/ab_parts.py 19 10 "140:12 45:9 160:20" "old=/path/to/old/tree:2 new=.:3"

Each part (``q0:path``, the path's child indices joined by commas; ``q0:`` for
none) is counted in a fresh process per version, one version after the other,
with that version's ``cpqueens`` first on ``PYTHONPATH`` (a tree made by
``git archive COMMIT cpqueens | tar -x -C DIR``) at the given cut level, and
the CPU seconds of the part alone (after a warm-up on a small board) are
printed; then the totals and each version's ratio to the first. Versions
alternate part by part, so a changing load falls on all of them alike. The
counts must agree.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

_ONE = """
import sys, time
from cpqueens.backends.bitmask import domination as d
n, k, q0, level = map(int, sys.argv[1:5])
path = tuple(int(i) for i in sys.argv[5].split(",")) if sys.argv[5] else ()
d.search_part(8, 5, 0, (), False, None, False, False, level)
began = time.process_time()
value = d.search_part(n, k, q0, path, False, None, False, False, level)
print(value, round(time.process_time() - began, 3))
"""


def main() -> None:
    n, k, parts_text, versions_text = sys.argv[1:5]
    parts = [part.split(":") for part in parts_text.split()]
    versions = []
    for version in versions_text.split():
        name, spec = version.split("=")
        tree, level = spec.rsplit(":", 1)
        versions.append((name, os.path.abspath(tree), level))
    totals = {name: 0.0 for name, _, _ in versions}
    with tempfile.TemporaryDirectory() as where:  # outside any tree: PYTHONPATH decides
        for q0, path in parts:
            cells = []
            values = set()
            for name, tree, level in versions:
                env = dict(os.environ, PYTHONPATH=tree)
                command = [sys.executable, "-c", _ONE, n, k, q0, level, path]
                out = subprocess.run(
                    command, cwd=where, env=env, capture_output=True, text=True, check=True
                ).stdout.split()
                values.add(out[0])
                totals[name] += float(out[1])
                cells.append(f"{name} {out[0]}, {out[1]} CPU-s")
            if len(values) != 1:
                raise SystemExit(f"part {q0}:{path}: the versions disagree: {cells}")
            print(f"| {q0} | [{path}] | " + " | ".join(cells) + " |", flush=True)
    first = versions[0][0]
    for name, total in totals.items():
        print(f"{name}: {total:.2f} CPU-s, {total / totals[first]:.3f} of {first}")


if __name__ == "__main__":
    main()
