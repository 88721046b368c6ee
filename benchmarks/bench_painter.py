"""Screenshots by an outside painter: how many read right, are refused, or are misread (issue 47).

``python benchmarks/bench_painter.py [--count 1000] [--seed 0] [--light-and-dark | --adversarial]``
draws ``count`` pictures with ``tests/painter.py`` (a painter that shares no
code with cpqueens), each of a puzzle ``Puzzle.generate`` makes (5 to 12 cells
a side, one solution), in a random family: light or dark theme, phone frame or
board alone, PNG or JPEG, queens and crosses drawn or not, an edge region
coloured close to the page or not; a share of them are boards with 1-pixel
lines only, and of the reported 5x5 board (its orange-red L along the left
and bottom edges). With ``--light-and-dark`` each seed's puzzle is drawn
twice, on the light theme and on the dark one, with the same frame, JPEG
quality and marks (the same puzzles read light and dark). With
``--adversarial`` each picture is of the adversarial family
(:func:`adversarial`): an L-shaped edge region coloured close to the page
or to the board's outer border. Each is read twice:

- by the reader (``cpqueens.readers.screenshot.read``): **right** when its
  size is the board's and every reading it offers is the painted regions;
  **refused** (``ImageReadError``); **WRONG** otherwise (another size, or a
  reading that is not the board's, whether or not a later check drops it);
- as a puzzle (``Puzzle.read_screenshot``): **right** (the painted puzzle),
  **refused**, or **WRONG** (any other puzzle answered: a misread).

It prints a Markdown table by family, the refusals' reasons (most frequent
first, numbers elided) and every WRONG picture's seed, to draw it again with
``--only SEED``.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cpqueens import Puzzle  # noqa: E402
from cpqueens.errors import ImageReadError  # noqa: E402
from cpqueens.readers import screenshot  # noqa: E402
from tests import painter  # noqa: E402


def same(a: object, b: object) -> bool:
    """Whether two region grids are one partition (regions renamed)."""
    return Puzzle(len(a), a) == Puzzle(len(b), b)  # type: ignore[arg-type]


def draw(seed: int, dark: bool | None = None) -> tuple[painter.Shot, Puzzle]:
    """The picture of seed ``seed``, and the puzzle it shows (``dark``: that theme)."""
    rng = random.Random(seed)
    kind = rng.random()
    if kind < 0.08:  # the reported board, in all its forms
        p = Puzzle(5, painter.REPORTED)
        shot = painter.picture(
            p.regions, rng, dark=dark, colours=painter.REPORTED_COLOURS, solution=p.solve() or ()
        )
        shot.what += " reported"
        return shot, p
    n = rng.randint(5, 12)
    p = Puzzle.generate(n, seed=rng.randrange(10**6))[0]
    solution = p.solve() or ()
    shot = painter.picture(p.regions, rng, dark=dark, one_pixel=kind < 0.16, solution=solution)
    return shot, p


def adversarial(seed: int) -> tuple[painter.Shot, Puzzle]:
    """A picture of the adversarial family: an edge region coloured close to the page or frame.

    5 to 10 cells a side, one region an L along two sides (the reported
    board's shape; the rest random, kept when the puzzle has one solution),
    that region (or, one time in four, another edge region) coloured close to
    the page or to the board's outer border, light or dark, phone or board
    alone, PNG or JPEG, queens and crosses drawn or not.
    """
    rng = random.Random(seed)
    n = rng.randint(5, 10)
    while not (p := Puzzle(n, painter.l_regions(n, rng))).is_unique():
        pass
    shot = painter.picture(
        p.regions,
        rng,
        quality=rng.random() < 0.5,
        marks=rng.random() < 0.5,
        close_edge=True,
        close_to=rng.choice(["page", "frame"]),
        edge_region=0 if rng.random() < 0.75 else None,
        solution=p.solve() or (),
    )
    shot.what += " L"
    return shot, p


def light_and_dark(seed: int) -> list[tuple[painter.Shot, Puzzle]]:
    """The picture of seed ``seed`` drawn light, then dark: the same puzzle, frame, JPEG, marks."""
    return [draw(seed, dark) for dark in (False, True)]


def verdicts(shot: painter.Shot, p: Puzzle) -> tuple[str, str, str]:
    """(the reader's verdict, the puzzle's verdict, the refusal's words or '')."""
    try:
        reading = screenshot.read(shot.data)
        ok = reading.n == p.n and all(same(o, p.regions) for o in reading.options)
        reader = "right" if ok and reading.options else "WRONG"
    except ImageReadError:
        reader = "refused"
    try:
        got = Puzzle.read_screenshot(shot.data).puzzle
        return reader, "right" if got == p else "WRONG", ""
    except ImageReadError as error:
        return reader, "refused", str(error)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", type=int, default=None, help="draw and read one seed")
    parser.add_argument("--theme", choices=["light", "dark"], help="with --only: that theme")
    parser.add_argument("--show", type=int, default=3, help="examples per reason")
    parser.add_argument(
        "--adversarial",
        action="store_true",
        help="the adversarial family: an L-shaped edge region close to the page or frame",
    )
    parser.add_argument(
        "--light-and-dark",
        action="store_true",
        help="draw each seed's puzzle twice, light then dark (the same frame, JPEG and marks)",
    )
    args = parser.parse_args()
    if args.only is not None:
        if args.adversarial:
            shot, p = adversarial(args.only)
        else:
            shot, p = draw(args.only, {"light": False, "dark": True}.get(args.theme))
        Path(f"painted-{args.only}.{'jpg' if 'jpeg' in shot.what else 'png'}").write_bytes(
            shot.data
        )
        print(shot.what, verdicts(shot, p))
        print(p)
        return
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    reasons: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[int]] = collections.defaultdict(list)
    wrong: list[tuple[int, str, str, str]] = []
    seconds = 0.0
    for i in range(args.count):
        seed = args.seed * 1_000_000 + i
        if args.adversarial:
            drawn = [adversarial(seed)]
        else:
            drawn = light_and_dark(seed) if args.light_and_dark else [draw(seed)]
        for shot, p in drawn:
            start = time.process_time()
            reader, whole, words = verdicts(shot, p)
            seconds += time.process_time() - start
            for family in ["all", *shot.what.split()]:
                family = re.sub(r"jpeg\d+", "jpeg", family)
                table[family][f"reader {reader}"] += 1
                table[family][f"puzzle {whole}"] += 1
            if words:
                reason = re.sub(r"\d+", "#", words)
                reasons[reason] += 1
                examples[reason].append(seed)
            if "WRONG" in (reader, whole):
                wrong.append((seed, shot.what, reader, whole))
    verdicts_ = ("right", "refused", "WRONG")
    print("| family | pictures | reader: " + " / ".join(verdicts_), end=" | ")
    print("puzzle: " + " / ".join(verdicts_) + " |\n|---|---|---|---|")
    for family, c in sorted(
        table.items(), key=lambda kv: -sum(kv[1][f"puzzle {v}"] for v in verdicts_)
    ):
        total = sum(c[f"puzzle {v}"] for v in verdicts_)
        cells = [
            " / ".join(str(c[f"{who} {v}"]) for v in ("right", "refused", "WRONG"))
            for who in ("reader", "puzzle")
        ]
        print(f"| {family} | {total} | {cells[0]} | {cells[1]} |")
    pictures = args.count * (2 if args.light_and_dark else 1)
    print(f"\nCPU {seconds:.1f} s for {pictures} pictures ({seconds / pictures:.3f} s each)\n")
    print("Refusals, most frequent first:")
    for reason, k in reasons.most_common():
        print(f"- {k} x {reason} (seeds {examples[reason][: args.show]})")
    print(f"\nWRONG: {len(wrong)}")
    for seed, what, reader, whole in wrong:
        print(f"- seed {seed}: {what}: reader {reader}, puzzle {whole}")


if __name__ == "__main__":
    main()
