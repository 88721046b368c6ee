"""`cpqueens puzzle solve SHOT`: CPU seconds of this tree against another, side by side (issue 47).

``python benchmarks/bench_solve_cpu.py --base DIR [--runs 11]`` draws a few
screenshots (the project's renderer and the outside painter, light and dark,
phone and board alone), then runs ``python -m cpqueens puzzle solve SHOT``
as a whole process, alternately with this tree and with ``DIR`` (another
checkout, for instance ``git archive 52f709e | tar -x -C DIR``) first on
``PYTHONPATH``, and reads each run's CPU (user + system) from the operating
system. It prints, per picture, the median seconds of each and the median of
the ratios of runs taken one after the other (this tree / the other), which
holds when the machine's load drifts. A picture either tree refuses is
named and not timed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cpqueens import Puzzle  # noqa: E402
from tests import painter  # noqa: E402
from tests import screenshots as shots  # noqa: E402


def pictures(folder: Path) -> dict[str, Path]:
    """The screenshots timed, written into ``folder``: name -> path."""
    nine = Puzzle.generate(9, seed=1)[0]
    seven = Puzzle.generate(7, seed=2)[0]
    made = {
        "light phone 9x9 (tests/screenshots.py)": shots.png(shots.phone(nine.regions)),
        "dark phone 9x9 (tests/screenshots.py)": shots.png(shots.phone(nine.regions, dark=True)),
        "board 7x7 jpeg (tests/screenshots.py)": shots.jpeg(
            shots.board(seven.regions, shots.Look(cell=50)), 85
        ),
        "light phone 9x9 (tests/painter.py)": painter.picture(
            nine.regions, random.Random(1), dark=False, frame="phone", quality=False, marks=False
        ).data,
        "dark phone 9x9 (tests/painter.py)": painter.picture(
            nine.regions, random.Random(2), dark=True, frame="phone", quality=False, marks=False
        ).data,
    }
    out = {}
    for i, (name, data) in enumerate(made.items()):
        path = folder / f"shot{i}.img"
        path.write_bytes(data)
        out[name] = path
    return out


def cpu(tree: Path, shot: Path) -> float:
    """The CPU seconds of one ``python -m cpqueens puzzle solve SHOT`` with ``tree`` first."""
    before = os.times()
    subprocess.run(
        [sys.executable, "-m", "cpqueens", "puzzle", "solve", str(shot)],
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=shot.parent,
        stdout=subprocess.DEVNULL,
        check=True,
    )
    after = os.times()
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the other tree")
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        shots_ = pictures(Path(folder))
        print("| picture | this tree, CPU s | base, CPU s | ratio (median of pairs) |")
        print("|---|---|---|---|")
        ratios_all = []
        for name, shot in shots_.items():
            refused = []
            for tree, words in ((ROOT, "this tree"), (args.base, "the base")):
                try:  # warm-up: numba's cache, the disk cache
                    cpu(tree, shot)
                except subprocess.CalledProcessError:
                    refused.append(words)
            if refused:  # a picture one of them cannot read is not a timing
                print(f"| {name} | refused by {' and '.join(refused)}: not timed | | |")
                continue
            mine, base, ratios = [], [], []
            for i in range(args.runs):
                order = (ROOT, args.base) if i % 2 == 0 else (args.base, ROOT)
                got = {tree: cpu(tree, shot) for tree in order}
                mine.append(got[ROOT])
                base.append(got[args.base])
                ratios.append(got[ROOT] / got[args.base])
            ratios_all += ratios
            print(
                f"| {name} | {statistics.median(mine):.3f} | {statistics.median(base):.3f} "
                f"| {statistics.median(ratios):.3f} |"
            )
        print(f"| all | | | {statistics.median(ratios_all):.3f} |")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
