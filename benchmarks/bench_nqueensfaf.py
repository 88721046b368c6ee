"""cpqueens against NQueensFAF's CpuSolver, whole processes side by side (issue 45, goal 1).

NQueensFAF (github olepoeschl/NQueensFAF, MIT, Java) is the fastest released
single-machine counter found: queens on the border rows and columns first
("constellations"), one per symmetry class, then a bitmask search of the
inside. This script builds its ``CpuSolver`` from a checkout with ``javac``
(outside this repository: its source is never copied here) and times it
against ``cpqueens count`` in one run, the two commands in turn:

    python benchmarks/bench_nqueensfaf.py build CHECKOUT [--out DIR]
    python benchmarks/bench_nqueensfaf.py compare CHECKOUT N [N ...] [--workers 1 2] [--runs 2]

CHECKOUT is a working tree of NQueensFAF or its git directory (the ``fetch``
tool's mirror: the sources are then read with ``git archive HEAD``). Only
``nqueensfaf-core`` and ``nqueensfaf-impl`` are built, without the GPU solver
(it needs LWJGL/OpenCL); the kryo serialiser behind its save/load (never
called in a count) is replaced by three empty classes written here, and a
small ``FafCount`` main class counts N on T threads and prints the total.
The build goes to ``DIR`` (default: ``/tmp/nqueensfaf-build``).

``compare`` runs, for each N and each worker count W, ``cpqueens count
--workers W N`` and ``java FafCount N W`` in turn, ``--runs`` times each
(A B A B ...), checks both totals against A000170 and prints a Markdown table:
the fastest run of each (wall seconds, and its CPU seconds: user + system of
the process and its children, timed by ``alternate.timed``), and NQueensFAF's
over cpqueens' (above 1: cpqueens is faster). Results: ``benchmarks/RESULTS-frontier.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import alternate
from oeis import A000170

#: The folders of a checkout that the CpuSolver needs.
SOURCES = ("nqueensfaf-core/src/main/java", "nqueensfaf-impl/src/main/java")
#: Left out of the build: the GPU solver and its helpers need LWJGL (OpenCL).
LEFT_OUT = ("GpuSolver.java", "InfoUtil.java")

#: Stand-ins for the three kryo classes the CpuSolver names (its save/load only).
KRYO_STUBS = {
    "com/esotericsoftware/kryo/Kryo.java": """
package com.esotericsoftware.kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
/** A stand-in: the benchmark never saves nor loads a solver's state. */
public class Kryo {
    public void register(Class<?> type) {}
    public void writeObject(Output output, Object object) {
        throw new UnsupportedOperationException("no kryo in this build");
    }
    public <T> T readObject(Input input, Class<T> type) {
        throw new UnsupportedOperationException("no kryo in this build");
    }
}
""",
    "com/esotericsoftware/kryo/io/Input.java": """
package com.esotericsoftware.kryo.io;
/** A stand-in: the benchmark never loads a solver's state. */
public class Input implements AutoCloseable {
    public Input(java.io.InputStream stream) {}
    public void close() {}
}
""",
    "com/esotericsoftware/kryo/io/Output.java": """
package com.esotericsoftware.kryo.io;
/** A stand-in: the benchmark never saves a solver's state. */
public class Output implements AutoCloseable {
    public Output(java.io.OutputStream stream) {}
    public void flush() {}
    public void close() {}
}
""",
}

#: The benchmark's main class: count N on T threads, print the total.
MAIN = """
import de.nqueensfaf.impl.CpuSolver;
/** Counts the N-Queens solutions with NQueensFAF's CpuSolver: FafCount N THREADS. */
public class FafCount {
    public static void main(String[] args) {
        CpuSolver solver = new CpuSolver();
        solver.setN(Integer.parseInt(args[0]));
        solver.setThreadCount(Integer.parseInt(args[1]));
        solver.setUpdateInterval(0);
        solver.start();
        System.out.println(solver.getSolutions());
    }
}
"""


def _sources(checkout: Path, into: Path) -> Path:
    """The checkout's sources, copied under ``into`` (read from git if it is a git directory)."""
    if (checkout / "HEAD").is_file() and (checkout / "objects").is_dir():  # a bare git directory
        archive = subprocess.run(
            ["git", f"--git-dir={checkout}", "archive", "HEAD", *SOURCES],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    else:
        for folder in SOURCES:
            shutil.copytree(checkout / folder, into / folder)
    return into


def build(checkout: Path, out: Path) -> Path:
    """Compile NQueensFAF's CpuSolver and the ``FafCount`` main class into ``out``."""
    if not shutil.which("javac"):
        raise SystemExit("bench_nqueensfaf: javac not found (a JDK 17 is needed)")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        root = _sources(checkout, Path(scratch))
        files = [
            p
            for folder in SOURCES
            for p in (root / folder).rglob("*.java")
            if p.name not in LEFT_OUT and p.name != "package-info.java"
        ]
        if not any(p.name == "CpuSolver.java" for p in files):
            raise SystemExit(f"bench_nqueensfaf: no CpuSolver.java under {checkout}")
        for name, text in KRYO_STUBS.items():
            stub = root / "stubs" / name
            stub.parent.mkdir(parents=True, exist_ok=True)
            stub.write_text(text)
            files.append(stub)
        main = root / "FafCount.java"
        main.write_text(MAIN)
        files.append(main)
        subprocess.run(
            ["javac", "-nowarn", "-d", str(out), *map(str, files)],
            check=True,
            capture_output=True,
        )
    return out


def _timed(command: list[str]) -> tuple[float, float, int]:
    """Wall and CPU seconds of a whole process (``alternate.timed``), its last integer printed."""
    run = alternate.timed(command)
    if run.code:
        raise SystemExit(f"{' '.join(command)} exited {run.code}")
    return run.wall, run.cpu, int(run.stdout.split()[-1])


def compare(checkout: Path, sizes: list[int], workers: list[int], runs: int, out: Path) -> None:
    """Time both counters on every n and worker count, in turn; print a Markdown table."""
    classes = build(checkout, out)
    cpqueens = [sys.executable, "-m", "cpqueens", "count"]
    java = ["java", "-cp", str(classes), "FafCount"]
    # The kernels compiled and cached before the first timed run (a user's second count).
    subprocess.run([*cpqueens, "12"], check=True, capture_output=True)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    sized = " ".join(map(str, sizes))
    ways = " ".join(map(str, workers))
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    busy = f", load average {load[0]:.1f} at the start" if load else ""
    print(
        f"Command: `python benchmarks/bench_nqueensfaf.py compare CHECKOUT {sized}"
        f" --workers {ways} --runs {runs}` ({when} UTC, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores (shared){busy})."
    )
    print()
    print(
        "| n | workers | cpqueens wall / CPU (s) | NQueensFAF wall / CPU (s) "
        "| NQueensFAF / cpqueens, wall | CPU |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        for w in workers:
            ours: list[tuple[float, float]] = []
            theirs: list[tuple[float, float]] = []
            for _ in range(runs):
                for command, times, who in (
                    ([*cpqueens, "--workers", str(w), str(n)], ours, "cpqueens"),
                    ([*java, str(n), str(w)], theirs, "NQueensFAF"),
                ):
                    wall, cpu, total = _timed(command)
                    if n in A000170 and total != A000170[n]:
                        raise SystemExit(
                            f"{who} counted {total} for n={n}: A000170 says {A000170[n]}"
                        )
                    times.append((wall, cpu))
            (a, a_cpu), (b, b_cpu) = min(ours), min(theirs)
            print(
                f"| {n} | {w} | {a:.2f} / {a_cpu:.2f} | {b:.2f} / {b_cpu:.2f} | "
                f"{b / a:.2f}x | {b_cpu / a_cpu:.2f}x |",
                flush=True,
            )


def main(argv: list[str]) -> None:
    """The command line: build, or compare."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    for verb in ("build", "compare"):
        sub = verbs.add_parser(verb)
        sub.add_argument("checkout", type=Path, help="NQueensFAF's working tree or git directory")
        sub.add_argument("--out", type=Path, default=Path("/tmp/nqueensfaf-build"))
        if verb == "compare":
            sub.add_argument("sizes", type=int, nargs="+")
            sub.add_argument("--workers", type=int, nargs="+", default=[1, 2])
            sub.add_argument("--runs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.verb == "build":
        print(build(args.checkout, args.out))
    else:
        compare(args.checkout, args.sizes, args.workers, args.runs, args.out)


if __name__ == "__main__":
    main(sys.argv[1:])
