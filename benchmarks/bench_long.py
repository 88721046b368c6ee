"""Side by side, whole CLI processes: long kernel counts with checkpoint, progress, Dask, resume.

The options that used to send a free board away from the symmetry kernels
(checkpoint, progress, a Dask cluster) against the plain count, and a killed
count resumed.

Rows (each a fresh ``cpqueens count`` process, repeats interleaved, best kept):

- plain: ``cpqueens count N --workers 2 --quiet``, the yardstick;
- checkpoint: the same with ``--checkpoint`` (a new file each run);
- progress: the same with ``--progress`` (the bar drawn on a pipe);
- dask: ``cpqueens count N --scheduler ADDRESS`` on a LocalCluster of 2 single-threaded
  worker processes on 127.0.0.1, against the plain row's local pool of 2;
- resume: ``cpqueens count M --workers 2 --checkpoint F`` killed with SIGKILL once
  about half its pieces are saved, then the same command again: its time against a full
  plain count of M.

Writes benchmarks/RESULTS-long.md.

    python benchmarks/bench_long.py [--n 17] [--resume-n 18] [--repeats 3]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from distributed import LocalCluster
from oeis import A000170

HERE = Path(__file__).resolve().parent
GOALS = {"checkpoint": 1.2, "progress": 1.2, "dask": 1.3}


def cpqueens(*args: str) -> list[str]:
    """The command line of ``cpqueens ARGS`` in this interpreter."""
    return [sys.executable, "-m", "cpqueens", *args]


def timed(argv: list[str]) -> tuple[float, int]:
    """Run ``argv``; return its wall time and the count it printed."""
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, int(done.stdout.split()[0])


def saved(path: Path) -> int:
    """How many pieces the checkpoint at ``path`` holds (0 before it exists)."""
    try:
        return len(json.loads(path.read_text())["done"])
    except (OSError, ValueError, KeyError):
        return 0


def killed_and_resumed(n: int, folder: Path) -> tuple[int, int, float, int]:
    """Count n, SIGKILL it at about half its pieces, resume; (saved, total, resume s, count)."""
    path = folder / f"killed{n}.json"
    command = cpqueens("count", str(n), "--workers", "2", "--quiet", "--checkpoint", str(path))
    job = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = 0
    while job.poll() is None:
        time.sleep(0.05)
        if path.exists() and not total:
            total = json.loads(path.read_text())["subproblems"]
        if total and saved(path) >= total // 2:
            job.send_signal(signal.SIGKILL)
            break
    job.wait()
    before = saved(path)
    seconds, count = timed(command)
    return before, total, seconds, count


def main() -> None:
    """Run the rows, print the table, write RESULTS-long.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=17)
    parser.add_argument("--resume-n", type=int, default=18)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n = str(args.n)
    started = datetime.datetime.now().astimezone()
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {k: [] for k in ("plain", "checkpoint", "progress", "dask")}
    with (
        tempfile.TemporaryDirectory() as folder,
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
    ):
        address = cluster.scheduler_address

        def with_checkpoint() -> list[str]:
            path = tempfile.mktemp(dir=folder, suffix=".json")
            return cpqueens("count", n, "--workers", "2", "--quiet", "--checkpoint", path)

        rows = {
            "plain": lambda: cpqueens("count", n, "--workers", "2", "--quiet"),
            "checkpoint": with_checkpoint,
            "progress": lambda: cpqueens("count", n, "--workers", "2", "--progress"),
            "dask": lambda: cpqueens("count", n, "--quiet", "--scheduler", address),
        }
        timed(cpqueens("count", "12"))  # compile or load the kernels once
        for repeat in range(args.repeats):
            for name, argv in rows.items():
                seconds, count = timed(argv())
                assert count == A000170[args.n], (name, count)
                times[name].append(seconds)
                print(f"repeat {repeat + 1} {name}: {seconds:.2f} s", flush=True)
        full, full_count = timed(cpqueens("count", str(args.resume_n), "--workers", "2", "--quiet"))
        before, pieces, resumed, count = killed_and_resumed(args.resume_n, Path(folder))
    assert full_count == count == A000170[args.resume_n], (full_count, count)
    load_after = os.getloadavg()
    best = {name: min(values) for name, values in times.items()}
    lines = [
        "# Long counts on the symmetry kernels: checkpoint, progress, Dask, resume",
        "",
        f"- command: `python benchmarks/bench_long.py {' '.join(sys.argv[1:])}`".rstrip() + "",
        f"- date: {started.isoformat(timespec='seconds')}",
        f"- machine: {os.cpu_count()} CPUs, {platform.machine()}, Python "
        f"{platform.python_version()}; load average before {load_before[0]:.2f}, "
        f"after {load_after[0]:.2f} (shared machine: other jobs ran beside this one)",
        f"- each time: a whole `cpqueens count` process, best of {args.repeats} interleaved",
        "",
        "| row | command | best (s) | ratio to plain | goal | met |",
        "| --- | --- | ---: | ---: | --- | --- |",
        f"| plain | `cpqueens count {n} --workers 2` | {best['plain']:.2f} | 1.00x | | |",
    ]
    shown = {
        "checkpoint": f"`cpqueens count {n} --workers 2 --checkpoint F`",
        "progress": f"`cpqueens count {n} --workers 2 --progress`",
        "dask": f"`cpqueens count {n} --scheduler ADDRESS` (LocalCluster 2 x 1 thread)",
    }
    for name, goal in GOALS.items():
        ratio = best[name] / best["plain"]
        met = "yes" if ratio <= goal else "**no**"
        lines.append(
            f"| {name} | {shown[name]} | {best[name]:.2f} | {ratio:.2f}x | <= {goal}x | {met} |"
        )
    lines += [
        "",
        f"Killed and resumed: `cpqueens count {args.resume_n} --workers 2 --checkpoint F` "
        f"was SIGKILLed with {before} of {pieces} pieces saved; the same command then "
        f"printed {count:,} (OEIS A000170) in {resumed:.2f} s, against {full:.2f} s for a "
        f"full count: {resumed / full:.2f}x "
        f"({'less' if resumed < full else '**not less**'} than a full one).",
        "",
        "All runs (s): " + json.dumps({k: [round(t, 3) for t in v] for k, v in times.items()}),
        "",
    ]
    text = "\n".join(lines)
    (HERE / "RESULTS-long.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
