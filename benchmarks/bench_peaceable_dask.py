r"""A250000 past the published table: a(n) proved on a Dask cluster, from a measured projection.

1. The projection: the incumbent is the command's own (the annealing's,
   seeded); a sample of the proof's parts (every ``len(parts) / sample``-th)
   is searched here, one after the other, and timed in CPU seconds; their mean
   times the number of parts, over the workers, is the projected time.
2. The run (``--run``): ``python -m cpqueens optimize peaceable N --scheduler
   ADDRESS --checkpoint FOLDER/pN.json --json --progress`` against a Dask
   LocalCluster of W one-thread worker processes on 127.0.0.1, the
   checkpoint kept in ``--folder`` (the same command resumes an interrupted
   run). The answer is checked here with code of its own: two armies of the
   size reported, on distinct cells, no queen attacking one of the other army;
   the checkpoint's parts are read back (each 0: no larger armies).

Writes the ``## A250000(N) on a Dask cluster`` section of benchmarks/RESULTS-frontier.md.

    nice -n 10 python benchmarks/bench_peaceable_dask.py 16 --workers 2 --sample 8 \
        --folder ~/peaceable16 --run
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench_peaceable_frontier import children_cpu, peaceful  # noqa: E402

from cpqueens.backends.bitmask import pairs  # noqa: E402
from cpqueens.vocabulary.cells import CellBoard, CellProblem  # noqa: E402

OUT = HERE / "RESULTS-frontier.md"


def markers(n: int) -> tuple[str, str]:
    """The markers of board n's section."""
    return f"<!-- peaceable-dask-{n}: begin -->", f"<!-- peaceable-dask-{n}: end -->"


def niced() -> str:
    """``nice -n N `` as this process runs (empty at the default niceness)."""
    level = os.nice(0)
    return f"nice -n {level} " if level else ""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def project(n: int, sample: int, workers: int) -> tuple[int, list[float], int, float]:
    """(the incumbent, the sampled parts' CPU seconds, the number of parts, projected seconds)."""
    best, _, _ = pairs._incumbent(CellProblem(CellBoard(n, n), armies=2), None, True)
    parts = pairs.plan(n, best, depth=2)  # a cluster's split
    step = max(1, len(parts) // sample)
    times = []
    for part in parts[::step][:sample]:
        began = time.process_time()
        code = pairs.search_part(part.n, part.floor, part.index, part.of, part.symmetry)
        times.append(time.process_time() - began)
        print(f"part {part.index} of {part.of}: {times[-1]:.1f} s CPU, code {code}", flush=True)
    mean = sum(times) / len(times)
    return best, times, len(parts), mean * len(parts) / workers


def run(n: int, workers: int, folder: Path) -> dict[str, object]:
    """The proof on a LocalCluster: the command's answer (checked), wall and CPU seconds."""
    from distributed import LocalCluster

    folder.mkdir(parents=True, exist_ok=True)
    checkpoint = folder / f"p{n}.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    began, cpu = time.perf_counter(), children_cpu()
    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:  # fmt: skip
        command = [
            sys.executable, "-m", "cpqueens", "optimize", "peaceable", str(n), "--json",
            "--progress", "--scheduler", cluster.scheduler_address, "--checkpoint", str(checkpoint),
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env)
    wall, cpu = time.perf_counter() - began, children_cpu() - cpu
    if done.returncode != 0:
        raise AssertionError(f"exit status {done.returncode}: {done.stderr}")
    answer = json.loads(done.stdout)
    white, black = peaceful(n, answer["queens"])
    if not white == black == answer["value"] or answer["status"] != "optimal":
        raise AssertionError(f"armies of {white} and {black}, reported {answer}")
    saved = json.loads(checkpoint.read_text())
    if len(saved["done"]) != saved["subproblems"]:
        raise AssertionError(f"the checkpoint holds {len(saved['done'])} of {saved['subproblems']}")
    return {
        **answer,
        "wall": wall,
        "cpu": cpu,
        "parts": saved["subproblems"],
        "larger": sorted({v for _, v in saved["done"]}),
        "what": saved["backend"],
        "stderr": done.stderr,
    }


def main() -> None:
    """Project, then run if asked; write the section."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sample", type=int, default=8)
    parser.add_argument("--folder", type=Path, default=Path.home() / "peaceable")
    parser.add_argument("--run", action="store_true")
    args = parser.parse_args()
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    before = load()
    best, times, parts, projected = project(args.n, args.sample, args.workers)
    argv = " ".join(sys.argv[1:]).replace(str(args.folder), "FOLDER")
    begin, end = markers(args.n)
    lines = [
        begin,
        f"## A250000({args.n}) on a Dask cluster",
        "",
        f"Command: `{niced()}python benchmarks/bench_peaceable_dask.py {argv}`",
        "",
        f"{when}, Python {platform.python_version()}, 2 cores shared with other sessions' jobs "
        f"(load average before: {before}).",
        "",
        f"Projection for n = {args.n}: the incumbent is {best} (the annealing's); the proof "
        f"asks every one of {parts} parts (a cluster's split) for armies of {best + 1}. "
        f"{len(times)} parts, evenly spaced, searched one after the other in this process: "
        f"{', '.join(f'{t:.1f}' for t in times)} s of CPU (mean {sum(times) / len(times):.2f} s),"
        f" so {sum(times) / len(times) * parts:.0f} CPU seconds in all, {projected:.0f} s on "
        f"{args.workers} workers with the cores to themselves.",
    ]
    if args.run:
        r = run(args.n, args.workers, args.folder)
        lines += [
            "",
            f"The run: `python -m cpqueens optimize peaceable {args.n} --json --progress "
            f"--scheduler ADDRESS --checkpoint FOLDER/p{args.n}.json` against a LocalCluster of "
            f"{args.workers} one-thread workers on 127.0.0.1: **{r['value']} each, "
            f"{r['status']}** in {float(r['wall']):.0f} s wall, {float(r['cpu']):.0f} s of CPU in "
            f"all processes (load average after: {load()}). The checkpoint ('{r['what']}') holds "
            f"all {r['parts']} parts, their values {r['larger']} (0: no larger armies in the "
            "part).",
            "",
            f"The armies (row, column, army): `{r['queens']}`",
        ]
    lines.append(end)
    write("\n".join(lines), begin, end)
    print("\n".join(lines))


def write(text: str, begin: str, end: str) -> None:
    """Replace the section between the markers (or append it), keeping the rest of the file."""
    old = OUT.read_text()
    if begin in old:
        head, _, rest = old.partition(begin)
        _, _, tail = rest.partition(end)
        OUT.write_text(head + text + tail)
    else:
        OUT.write_text(old.rstrip("\n") + "\n\n" + text + "\n")


if __name__ == "__main__":
    main()
