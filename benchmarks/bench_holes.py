"""Issue 13 side by side: boards with holes, placed queens and the free board against C anchors.

Four goal rows, each a whole ``cpqueens count ... --workers 1`` process against a
whole C process compiled with ``gcc -O2`` at run time:

- n = 16 with 4 holes no symmetry keeps, against ``anchors/rowmask_dfs.c`` (the
  seeds' recursive bitmask DFS with a per-row allowed mask), goal >= 3x;
- n = 16 with the 4 corners blocked (kept by all 8 symmetries), same anchor, goal >= 8x;
- n = 18 with 2 queens placed (a completion count), same anchor (which closes the
  cells the placed queens attack, then searches), goal >= 3x;
- the free n = 17 board against ``anchors/takahashi.c`` (Takahashi's 2003
  symmetry-reduced counter, re-typed), goal >= 2x;

and one row to watch that the free board does not get slower: free n = 16 against
Takahashi. Two more figures explain the whole-process ratios: each board counted
again inside one warm process (kernels loaded, the planner's worker process
replaced by this process), and the floor of any numba program here, a whole
process that loads one cached numba kernel and returns. Repeats are interleaved,
the best of each side kept; every count is checked against the anchor's. The
machine is shared: the load averages go into the results.

Writes benchmarks/RESULTS-holes.md.

    python benchmarks/bench_holes.py [--repeats 3] [--only holes4,corners,placed2,free17,free16]

``--near-misses`` times issue 39's three rows instead (free n = 18 against Takahashi,
goal 2x; n = 19 with two placed queens against the plain C DFS, goal 2x; n = 17 with
the four corners blocked, goal 8x) and writes them as the "Counting near misses"
section of benchmarks/RESULTS-frontier.md; with ``--only`` a subset of those three
(``--near-misses --only placed19,corners17``) is timed and printed, not written.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ANCHORS = HERE / "anchors"


@dataclass(frozen=True)
class Board:
    """One row of the table: a board, its anchor, the goal."""

    name: str
    what: str
    n: int
    holes: tuple[tuple[int, int], ...] = ()
    placed: tuple[tuple[int, int], ...] = ()
    anchor: str = "rowmask_dfs"
    goal: float | None = None


BOARDS = (
    Board(
        "holes4",
        "n=16, 4 holes no symmetry keeps",
        16,
        holes=((2, 5), (7, 12), (10, 3), (13, 8)),
        goal=3.0,
    ),
    Board(
        "corners",
        "n=16, the 4 corners blocked (all 8 symmetries)",
        16,
        holes=((0, 0), (0, 15), (15, 0), (15, 15)),
        goal=8.0,
    ),
    Board("placed2", "n=18, 2 queens placed", 18, placed=((4, 6), (12, 13)), goal=3.0),
    Board("free17", "free n=17", 17, anchor="takahashi", goal=2.0),
    Board("free16", "free n=16 (watch: must not get slower)", 16, anchor="takahashi"),
    # issue 39's near misses (``--near-misses``): the same kinds of board, one size up
    Board("free18", "free n=18", 18, anchor="takahashi", goal=2.0),
    Board("placed19", "n=19, 2 queens placed", 19, placed=((4, 6), (12, 13)), goal=2.0),
    Board(
        "corners17",
        "n=17, the 4 corners blocked (all 8 symmetries)",
        17,
        holes=((0, 0), (0, 16), (16, 0), (16, 16)),
        goal=8.0,
    ),
)
#: The rows of ``--near-misses``, written as a section of RESULTS-frontier.md.
NEAR_MISSES = ("free18", "placed19", "corners17")
BEGIN, END = "<!-- counting-near-misses: begin -->", "<!-- counting-near-misses: end -->"


NOTES = (
    "How each board is counted (one worker):",
    "",
    "- holes4: `cpqueens/strategies/hole_sums.py`: one pass of the symmetry kernels over the"
    " free board",
    "  weighs each leaf by 8 less its queens on the holes' images (the free board less the",
    "  single holes), plus one small completion per non-attacking set of 2+ holes;",
    "  in this process (n < 17).",
    "- corners: the symmetry kernels with the holes as per-row masks (all 8 symmetries keep",
    "  them), in this process.",
    "- placed2: `cpqueens/kernels/placements.py`'s `count_placements` (look-ahead in the unrolled"
    " rows) on",
    "  weighted subproblems, in one worker process: no symmetry applies.",
    "- free17 / free16: the symmetry kernels (free17 in one worker process).",
    "- near misses (issue 39): free18 and corners17 on the symmetry kernels (the corners as",
    "  per-row masks), placed19 on `count_placements` over weighted subproblems (no symmetry",
    "  keeps its two queens), each in one worker process (n >= 17).",
    "- A whole cpqueens process pays numba's floor and more before counting (Python, numba,",
    "  numba's first load of a cached kernel, cpqueens' modules); the C anchors pay nothing.",
    "  The warm column counts in a process that has paid it already (the planner's worker",
    "  process replaced by that process). Before this issue's work (same script,",
    "  machine heavily loaded, load 3 to 9): `RESULTS-holes-before.md`.",
)


def grid(board: Board) -> str:
    """The board as text: n, then rows of 1 (a queen may stand) and 0 (a hole)."""
    rows = [
        "".join("0" if (r, c) in board.holes else "1" for c in range(board.n))
        for r in range(board.n)
    ]
    return "\n".join([str(board.n), *rows]) + "\n"


def commands(board: Board, build: Path, binaries: dict[str, Path]) -> dict[str, list[str]]:
    """The two whole-process commands of a row: cpqueens and its anchor."""
    ours = [sys.executable, "-m", "cpqueens", "count", "--workers", "1", "--quiet"]
    placed = [f"{r},{c}" for r, c in board.placed]
    if board.holes:
        path = build / f"{board.name}.txt"
        path.write_text(grid(board))
        ours += ["--board", str(path)]
    else:
        ours.append(str(board.n))
    if placed:
        ours += ["--placed", *placed]
    if board.anchor == "takahashi":
        anchor = [str(binaries["takahashi"]), str(board.n)]
    else:
        anchor = [str(binaries["rowmask_dfs"]), *placed]
    return {"cpqueens": ours, "anchor": anchor}


def shown(argv: list[str]) -> str:
    """A command as the results show it: ``python`` for the interpreter, board files by name."""
    return " ".join(["python", *(Path(a).name if a.endswith(".txt") else a for a in argv[1:])])


def children_cpu() -> float:
    """The CPU seconds of the finished child processes (their own waited-for children too)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(argv: list[str], stdin: str | None) -> tuple[float, float, int]:
    """Run ``argv`` to the end: its wall time, its CPU time, the first number it printed.

    The CPU time is user + system, its worker processes' included: on a shared machine
    the wall clock runs on while a process waits for a core, its CPU time does not.
    """
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True)
    wall, used = time.perf_counter() - start, children_cpu() - cpu
    return wall, used, int(done.stdout.split()[0])


#: A whole process that loads one cached numba kernel and calls it: numba's own floor.
FLOOR = """
import numba
@numba.njit(cache=True)
def kernel(n):
    return n + 1
print(kernel(1))
"""

#: One warm process: load the kernels, then count each board in this process.
WARM = """
import json, sys, time
import cpqueens
import cpqueens.tasks.count
cpqueens.tasks.count.processes = lambda *args, **kwargs: 0  # count here, not in a worker
cpqueens.model(12).count(workers=1)
cpqueens.model(12, placed=[(0, 1)]).count(workers=1)
cpqueens.model(12, blocked=[(2, 3)]).count(workers=1)
times = {}
for name, n, holes, placed in json.loads(sys.argv[1]):
    model = cpqueens.model(n, [tuple(h) for h in holes], placed=[tuple(p) for p in placed])
    start = time.perf_counter()
    found = model.count(workers=1)
    times[name] = [time.perf_counter() - start, found]
print(json.dumps(times))
"""


def compile_anchors(build: Path) -> dict[str, Path]:
    """Compile each C anchor into ``build`` with gcc -O2."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise SystemExit("bench_holes needs gcc for its C anchors")
    found = {}
    for name in ("rowmask_dfs", "takahashi"):
        found[name] = build / name
        subprocess.run([gcc, "-O2", "-o", str(found[name]), str(ANCHORS / f"{name}.c")], check=True)
    return found


def main(argv: list[str] | None = None) -> int:
    """Time the chosen rows, check the counts, write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--only",
        default=None,
        help="the rows to time, comma-separated (default: issue 13's five, or with"
        " --near-misses its three; a subset of those three is printed, not written)",
    )
    parser.add_argument("--output", type=Path, default=HERE / "RESULTS-holes.md")
    parser.add_argument(
        "--near-misses",
        action="store_true",
        help="issue 39's three rows, into the '## Counting near misses' section of "
        "RESULTS-frontier.md",
    )
    args = parser.parse_args(argv)
    if args.only is not None:
        names = tuple(args.only.split(","))
    elif args.near_misses:
        names = NEAR_MISSES
    else:
        names = tuple(b.name for b in BOARDS if b.name not in NEAR_MISSES)
    chosen = [b for b in BOARDS if b.name in names]
    load_before = os.getloadavg()
    started = datetime.datetime.now(datetime.UTC)
    runs: dict[str, dict[str, list[float]]] = {
        b.name: {"cpqueens": [], "anchor": [], "warm": [], "cpqueens cpu": [], "anchor cpu": []}
        for b in chosen
    }
    floor: list[float] = []
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        build = Path(folder)
        binaries = compile_anchors(build)
        argvs = {b.name: commands(b, build, binaries) for b in chosen}
        for board in chosen:  # untimed: numba compiles a changed kernel once, then it is cached
            subprocess.run(argvs[board.name]["cpqueens"], capture_output=True, check=True)
        (build / "floor.py").write_text(FLOOR)
        floor_argv = [sys.executable, str(build / "floor.py")]
        floor_env = {**os.environ, "NUMBA_CACHE_DIR": str(build / "numba")}
        subprocess.run(floor_argv, env=floor_env, capture_output=True, check=True)
        boards_json = json.dumps([[b.name, b.n, b.holes, b.placed] for b in chosen])
        for repeat in range(args.repeats):
            start = time.perf_counter()
            subprocess.run(floor_argv, env=floor_env, capture_output=True, check=True)
            floor.append(time.perf_counter() - start)
            # (the near misses' long counts are not counted a third time in a warm process)
            warm_argv = [sys.executable, "-c", WARM, "[]" if args.near_misses else boards_json]
            warm = subprocess.run(warm_argv, capture_output=True, text=True, check=True)
            for name, (seconds, found) in json.loads(warm.stdout).items():
                if counts.setdefault(name, found) != found:
                    raise SystemExit(f"{name}: a warm count gave {found}, not {counts[name]}")
                runs[name]["warm"].append(seconds)
            for board in chosen:
                stdin = grid(board) if board.anchor == "rowmask_dfs" else None
                for side in ("anchor", "cpqueens"):
                    seconds, cpu, found = timed(argvs[board.name][side], stdin)
                    if counts.setdefault(board.name, found) != found:
                        raise SystemExit(
                            f"{board.name}: {side} counted {found}, not {counts[board.name]}"
                        )
                    runs[board.name][side].append(seconds)
                    runs[board.name][f"{side} cpu"].append(cpu)
                    print(f"repeat {repeat + 1} {board.name} {side}: {seconds:.2f} s", flush=True)
    load_after = os.getloadavg()
    command = "python benchmarks/bench_holes.py " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = [
        "# Issue 13: boards with holes, placed queens and the free board against C",
        "",
        f"- command: `{command.strip()}`",
        f"- date: {started.isoformat(timespec='seconds')}",
        f"- machine: {os.cpu_count()} CPUs, {platform.machine()}, Python"
        f" {platform.python_version()}; SHARED with other jobs, load average (1, 5, 15 min)"
        f" before {' '.join(f'{x:.2f}' for x in load_before)},"
        f" after {' '.join(f'{x:.2f}' for x in load_after)}",
        f"- each time: one whole process, best of {args.repeats} interleaved repeats;"
        " cpqueens is `python -m cpqueens count ... --workers 1 --quiet`, the anchors are"
        " `benchmarks/anchors/*.c` compiled with `gcc -O2`; the counts agree",
        "",
        "| board | count | anchor | anchor (s) | cpqueens (s) | ratio | goal | met"
        " | budget: anchor / goal (s) | count in a warm process (s) | its ratio"
        " | anchor CPU (s) | cpqueens CPU (s) | CPU ratio |",
        "| --- | ---: | --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |"
        " ---: | ---: | ---: |",
    ]
    for board in chosen:
        best = {side: min(times, default=0.0) for side, times in runs[board.name].items()}
        ratio = best["anchor"] / best["cpqueens"]
        goal = f">= {board.goal:g}x" if board.goal else "watch"
        met = "" if board.goal is None else ("yes" if ratio >= board.goal else "**no**")
        budget = f"{best['anchor'] / board.goal:.2f}" if board.goal else ""
        warm = (
            f"{best['warm']:.2f} | {best['anchor'] / best['warm']:.2f}x"
            if runs[board.name]["warm"]
            else "not run | -"
        )
        lines.append(
            f"| {board.what} | {counts[board.name]:,} | `{board.anchor}.c` |"
            f" {best['anchor']:.2f} | {best['cpqueens']:.2f} | {ratio:.2f}x | {goal} | {met} |"
            f" {budget} | {warm} | {best['anchor cpu']:.2f} | {best['cpqueens cpu']:.2f} |"
            f" {best['anchor cpu'] / best['cpqueens cpu']:.2f}x |"
        )
    lines += [
        "",
        f"numba's floor: a whole process that loads one cached numba kernel and returns took"
        f" {min(floor):.2f} s (best of {len(floor)}: {', '.join(f'{t:.2f}' for t in floor)}).",
        "A goal whose budget is below it cannot be met by a whole process that counts with numba.",
        "",
        "Boards:",
        "",
    ]
    for board in chosen:
        lines.append(
            f"- {board.name}: n={board.n}, holes {list(board.holes)}, placed {list(board.placed)};"
            f" cpqueens `{shown(argvs[board.name]['cpqueens'])}`"
        )
    lines += ["", *NOTES]
    rounded = {
        name: {s: [round(t, 2) for t in ts] for s, ts in sides.items()}
        for name, sides in runs.items()
    }
    lines += ["", f"All runs (s): {rounded}", ""]
    if args.near_misses and set(names) == set(NEAR_MISSES):
        near_misses(lines)
    elif args.near_misses:
        lines.append("(a subset of the near misses: printed, not written)")
    else:
        args.output.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


#: Under the near misses' table: how to read it, what was tried.
NEAR_NOTES = (
    "Reading it. The goal columns judge the wall-clock ratio of the best runs, as the",
    "issue does; on this shared machine (load 3 to 7 from other sessions' jobs) a",
    "process's wall time counts the time it waited for a core, so the CPU columns (user +",
    "system, the worker process included, best of the repeats) are the steadier figure.",
    "The n = 19 board's two queens are bench_holes' n = 18 ones, (4, 6) and (12, 13): the",
    "issue does not say which two it measured, and no symmetry keeps these (a pair that one",
    "kept would halve the search).",
    "",
    "What changed for issue 39 (commit 'Kernels unroll more rows'), each measured side by",
    "side in one process, kernels alternating, CPU time: `count_placements_in` unrolls its",
    "last nine rows (was seven), 1.11-1.14x on this n = 19 board and 1.07x on the free",
    "n = 16; the symmetry kernels' `_weighed_leaves` its last ten (was nine), 1.02-1.04x on",
    "n = 17 with the corners blocked. Tried and dropped: ten, eleven or twelve rows for",
    "`count_placements_in` (0.97-1.01x of nine); eleven for `_weighed_leaves` (no better",
    "than ten); a look-ahead on the first unrolled level (1.01-1.02x, noise); a check at",
    "every level that the last row keeps a free cell (23% fewer nodes at n = 16, but",
    "0.94-0.98x the time); skipping the tie arithmetic at leaves whose two last columns miss",
    "the bottom marks (1.00x); searching the board bottom-up or in another of its 8",
    "orientations (the n = 19 board: 1.0-1.39x slower; the symmetry kernels bottom-up: 1.8x",
    "the nodes). The process's own cost is small beside these counts (n = 17 with the",
    "corners: about 0.5 s of CPU over the kernels' 6.7 s).",
)


def near_misses(lines: list[str]) -> None:
    """Write the table as the '## Counting near misses' section of RESULTS-frontier.md."""
    out = HERE / "RESULTS-frontier.md"
    body = [BEGIN, "## Counting near misses", "", *lines[2:], *NEAR_NOTES, "", END]
    old = out.read_text() if out.exists() else "# The frontier: optimisation and counting\n"
    if BEGIN in old:
        head, _, rest = old.partition(BEGIN)
        out.write_text(head + "\n".join(body) + rest.partition(END)[2])
    else:
        out.write_text(old.rstrip("\n") + "\n\n" + "\n".join(body) + "\n")


if __name__ == "__main__":
    sys.exit(main())
