"""Whole processes from a cold start: what a first call costs over a bare interpreter.

Issue 32's timings. Each case is a fresh process, timed from outside (start to
exit), best of ``--runs``, each run paired with a bare interpreter
(``python -c pass``) started the same way just before it; the figure is the
case's best less the bare interpreter's best ("added"). The cases:

- ``import``: ``python -c "import cpqueens"``;
- ``count 8``: the ``cpqueens count 8`` command;
- ``puzzle solve NxN``: ``cpqueens puzzle solve FILE`` of a Queens-game puzzle
  made here by ``Puzzle.generate(N, seed=32)`` (unique by construction);
- ``blocked 14``: the first ``model(14, blocked=[(0, 0), (3, 5)]).count()``;
- ``empty cache: ...``: the same with ``NUMBA_CACHE_DIR`` a new empty folder
  for every run (the first run after an install), the puzzle solve and the
  README's first script (counts of n=13 and n=16, a plain script without a
  main guard; its figure is the whole time, not the added time).

Every run's output is checked (92, the puzzle's solution, 329662, 73712 and
14772512). ``--checkout PATH`` runs another checkout's package with the same
interpreter (``PYTHONPATH=PATH``), for a side-by-side table against it.

    python benchmarks/bench_cold_start.py [--runs 5] [--checkout ../main] [--cases import count]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = """\
import cpqueens

print(cpqueens.model(13).count())  # 73712
print(cpqueens.model(16).count())  # 14772512, on every core
"""
BLOCKED = "import cpqueens; print(cpqueens.model(14, blocked=[(0, 0), (3, 5)]).count())"
PUZZLE_SIZES = (7, 9, 11)


def cli(*args: str) -> list[str]:
    """The ``cpqueens`` command as the console script runs it, with this interpreter."""
    return [
        sys.executable,
        "-c",
        "import sys; from cpqueens.cli import main; sys.exit(main())",
        *args,
    ]


def timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    """One whole process: its wall seconds and its output; raises if it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise RuntimeError(f"{command} exited {done.returncode}: {done.stderr.strip()}")
    return seconds, done.stdout


def cases(folder: Path) -> dict[str, tuple[list[str], str, bool]]:
    """Each case: its command, the text its output must hold, whether the kernel cache is empty."""
    from cpqueens import Puzzle

    found: dict[str, tuple[list[str], str, bool]] = {
        "import": ([sys.executable, "-c", "import cpqueens"], "", False),
        "count 8": (cli("count", "8"), "92", False),
    }
    for n in PUZZLE_SIZES:
        puzzle, solution = Puzzle.generate(n, seed=32)
        path = folder / f"queens{n}.txt"
        path.write_text(puzzle.to_text())
        answer = puzzle.draw(solution).splitlines()[0]  # the first row, its queen marked
        found[f"puzzle solve {n}x{n}"] = (cli("puzzle", "solve", path.name), answer, False)
    found["blocked 14"] = ([sys.executable, "-c", BLOCKED], "329662", False)
    found["empty cache: puzzle solve 9x9"] = (
        cli("puzzle", "solve", "queens9.txt"),
        found["puzzle solve 9x9"][1],
        True,
    )
    (folder / "first.py").write_text(SCRIPT)
    found["empty cache: README's first script"] = (
        [sys.executable, "first.py"],
        "73712\n14772512",
        True,
    )
    return found


def measure(
    command: list[str], expect: str, empty_cache: bool, runs: int, env: dict[str, str], cwd: Path
) -> tuple[float, float]:
    """The best of ``runs`` of the command and of a bare interpreter, in turn."""
    bare, mine = [], []
    for _ in range(runs):
        bare.append(timed([sys.executable, "-c", "pass"], env, cwd)[0])
        run_env = dict(env)
        if empty_cache:
            run_env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cache-", dir=cwd)
        seconds, output = timed(command, run_env, cwd)
        if expect not in output:
            raise RuntimeError(f"{command}: expected {expect!r} in the output, got {output!r}")
        mine.append(seconds)
    return min(mine), min(bare)


def main() -> None:
    """Time every case (or those named), warm-up run first, and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--checkout", type=Path, help="another checkout's package to time")
    parser.add_argument("--cases", nargs="*", help="the cases to run (a prefix of their names)")
    options = parser.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode caching on, as users have it
    if options.checkout is not None:
        env["PYTHONPATH"] = str(options.checkout.resolve())
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(f"| case | added over a bare interpreter (best of {options.runs}) | bare |")
        print("| --- | ---: | ---: |")
        for case, (command, expect, empty_cache) in cases(folder).items():
            if options.cases and not any(case.startswith(prefix) for prefix in options.cases):
                continue
            timed(command, env, folder)  # warm-up: bytecode written, kernels cached
            best, bare = measure(command, expect, empty_cache, options.runs, env, folder)
            shown = f"{best:.3f} s (whole)" if "README" in case else f"{best - bare:+.3f} s"
            print(f"| {case} | {shown} | {bare:.3f} s |", flush=True)


if __name__ == "__main__":
    main()
