"""Draw the site's pictures: boards by cpqueens' own drawing code, plots from the benchmark results.

Run from the repository's root after a change to the drawing code or to a
``benchmarks/RESULTS*.md`` file, and commit what it writes to ``docs/pictures/``::

    python docs/make_pictures.py            # boards and plots (matplotlib: the docs extra)
    python docs/make_pictures.py --boards   # the boards alone
    python docs/make_pictures.py --check    # exit 1 if a committed board picture is out of date

``tests/test_docs.py`` runs the check, so the pictures cannot drift from the code.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cpqueens

ROOT = Path(__file__).resolve().parent.parent
PICTURES = ROOT / "docs" / "pictures"
BENCHMARKS = ROOT / "benchmarks"


def boards() -> dict[str, str]:
    """Each board picture's file name and SVG text, drawn by cpqueens."""
    two_colours = cpqueens.model(6, colours=2).first()
    assert two_colours is not None
    eight = cpqueens.model(8).first()
    assert eight is not None
    blocked = cpqueens.model(8, blocked=[(0, 1), (3, 3), (5, 6)]).first()
    assert blocked is not None
    return {
        "eight-queens.svg": eight.draw("svg", coordinates=True),
        "two-colours.svg": two_colours.draw("svg", coordinates=True),
        "blocked.svg": blocked.draw("svg", coordinates=True),
        "model.svg": cpqueens.model(
            6, blocked=[(0, 0), (5, 5)], colours=2, placed=[(1, 2), (2, 4, 1)]
        )._repr_svg_(),
    }


def table(path: Path, first_header: str) -> list[dict[str, str]]:
    """The rows of the Markdown table in ``path`` whose first header cell is ``first_header``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for k, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_header:
            rows = []
            for body in lines[k + 2 :]:
                if not body.startswith("|"):
                    break
                values = [c.strip() for c in body.strip().strip("|").split("|")]
                row: dict[str, str] = {}
                for header, value in zip(cells, values, strict=False):
                    row.setdefault(header, value)  # a repeated header: its first column
                rows.append(row)
            return rows
    raise ValueError(f"{path}: no table whose first header is {first_header!r}")


def seconds(text: str) -> float:
    """A time cell such as '0.816' or '1.105 s' as a float."""
    return float(text.split()[0].replace(",", ""))


def plots() -> dict[str, bytes]:
    """The benchmark plots as SVG bytes: time against n (log scale), and each engine's speed-up."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "cpqueens"  # the same file for the same data
    matplotlib.rcParams["svg.fonttype"] = "none"
    out: dict[str, bytes] = {}

    rows = table(BENCHMARKS / "RESULTS-symmetry.md", "n")
    ns = [int(r["n"]) for r in rows]
    series = {
        "cpqueens (symmetry-reduced kernels)": "symmetry-reduced (s)",
        "plain numba DFS, mirror trick": "plain mirror DFS (s)",
        "mirror-only engine (speed issue)": "mirror engine, speed issue (s)",
        "the kernels' DFS on the mirror split": "mirror, symmetry kernels' DFS (s)",
    }
    figure, axes = plt.subplots(figsize=(6.4, 4))
    for label, column in series.items():
        axes.plot(ns, [seconds(r[column]) for r in rows], marker="o", label=label)
    axes.set_yscale("log")
    axes.set_xticks(ns)
    axes.set_xlabel("n (free n x n board)")
    axes.set_ylabel("seconds to count, one worker (log scale)")
    axes.set_title("Counting every solution, side by side in one run")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    plt.close(figure)
    out["time-against-n.svg"] = buffer.getvalue()

    goals = [r for r in table(BENCHMARKS / "RESULTS.md", "goal") if r["ratio"].endswith("x")]
    goals = [r for r in goals if "of one worker" not in r["ratio"]]
    labels = [
        f"{r['goal'].split(' ', 1)[1]}: {r['workload']}\nagainst {r['anchor'].replace('`', '')}"
        for r in goals
    ]
    ratios = [float(r["ratio"].rstrip("x")) for r in goals]
    figure, axes = plt.subplots(figsize=(8, 0.8 * len(goals) + 1.2))
    bars = axes.barh(range(len(goals)), ratios, color="#b58863")
    axes.bar_label(bars, labels=[f"{x:g}x" for x in ratios], padding=3)
    axes.set_yticks(range(len(goals)), labels, fontsize="x-small")
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_xlim(1, max(ratios) * 3)
    axes.set_xlabel("speed-up: anchor's time / cpqueens' time (log scale)")
    figure.suptitle("Each engine against its anchor, side by side")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    plt.close(figure)
    out["speed-ups.svg"] = buffer.getvalue()
    return out


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the pictures; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", action="store_true", help="draw the boards only")
    parser.add_argument("--check", action="store_true", help="compare the boards, write nothing")
    args = parser.parse_args(argv)
    drawn = {name: text.encode() for name, text in boards().items()}
    if args.check:
        stale = [n for n, data in drawn.items() if (PICTURES / n).read_bytes() != data]
        for name in stale:
            print(f"docs/pictures/{name} is out of date: run python docs/make_pictures.py")
        return 1 if stale else 0
    if not args.boards:
        drawn.update(plots())
    PICTURES.mkdir(exist_ok=True)
    for name, data in drawn.items():
        (PICTURES / name).write_bytes(data)
        print(f"wrote docs/pictures/{name} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
