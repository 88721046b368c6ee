"""Reading screenshots, family by family: how many are read exactly, refused, or misread (issue 40).

``python benchmarks/bench_screenshots.py [--per 30] [--families a,b]`` renders
puzzles the project generates with the tests' renderer (tests/screenshots.py)
in each family of pictures players send, reads each with
``Puzzle.read_screenshot`` and checks the answer against the drawn truth:
"exact" (the same regions and star count), "refused" (an ImageReadError) or
"WRONG" (any other answer, or an answer where only a refusal is right: two
boards in one picture, a board whose regions are not drawn). It prints one
Markdown row per family, then the refusals' messages, most frequent first.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from cpqueens import Puzzle  # noqa: E402
from cpqueens.errors import ImageReadError  # noqa: E402
from tests import screenshots as shots  # noqa: E402

CACHE = json.loads((ROOT / "benchmarks" / "puzzles_generated.json").read_text())


def cached(key: str, count: int) -> list[Puzzle]:
    """The first ``count`` puzzles of ``benchmarks/puzzles_generated.json``'s set ``key``."""
    return [Puzzle.loads(text) for text in list(CACHE[key].values())[:count]]


def queens_puzzles(count: int) -> list[Puzzle]:
    """``count`` one-star puzzles of 5 to 11 cells a side, in turn."""
    pools = [
        [Puzzle.generate(5, seed=s)[0] for s in range(count)],
        [Puzzle.generate(6, seed=s)[0] for s in range(count)],
        cached("7x7, 1 star(s)", count),
        cached("8x8, 1 star(s)", count),
        cached("9x9, 1 star(s)", count),
        cached("11x11, 1 star(s)", count),
    ]
    return [pools[i % len(pools)][i // len(pools)] for i in range(count)]


def star_puzzles(stars: int, count: int) -> list[Puzzle]:
    """``count`` Star Battle puzzles: 8x8 and 10x10 with 2 stars, 14x14 with 3."""
    if stars == 3:
        return cached("14x14, 3 star(s)", min(count, 10))
    eights = [Puzzle.generate(8, 2, seed=s)[0] for s in range(count // 2)]
    return eights + cached("10x10, 2 star(s)", count - len(eights))


Case = tuple[bytes, Puzzle | None]  # the picture, and the puzzle drawn (None: only a refusal)


def light(ps: list[Puzzle]) -> Iterator[Case]:
    for i, p in enumerate(ps):
        yield shots.png(shots.phone(p.regions, seed=i)), p


def dark(ps: list[Puzzle]) -> Iterator[Case]:
    for i, p in enumerate(ps):
        yield shots.png(shots.phone(p.regions, dark=True, seed=i)), p


def near_black(ps: list[Puzzle]) -> Iterator[Case]:
    pages = [(18, 18, 18), (24, 26, 30), (32, 32, 36)]
    for i, p in enumerate(ps):
        shot = shots.phone(p.regions, dark=True, seed=i, page=pages[i % 3])
        yield shots.jpeg(shots.scaled(shot, (1, 0.75, 0.5)[i % 3]), 85), p


def dense(dark_page: bool) -> Callable[[list[Puzzle]], Iterator[Case]]:
    """Phones whose screen below the board is full of small text (light on dark, or dark)."""

    def family(ps: list[Puzzle]) -> Iterator[Case]:
        for i, p in enumerate(ps):
            size = (22, 28, 34)[i % 3]
            shot = shots.phone(
                p.regions,
                dark=dark_page,
                seed=i,
                page=(20, 20, 22) if dark_page else None,
                text=(size, 1.3),
            )
            yield shots.jpeg(shot, 85), p

    return family


def rotated(ps: list[Puzzle]) -> Iterator[Case]:
    rng = random.Random(40)
    for p in ps:
        angle = rng.choice([0.2, 0.3, 0.5, 0.7, 1.0]) * rng.choice([-1, 1])
        look = shots.Look(cell=rng.randint(36, 70))
        yield shots.png(shots.rotated(shots.board(p.regions, look), angle)), p


def rotated_phone(ps: list[Puzzle]) -> Iterator[Case]:
    rng = random.Random(41)
    for i, p in enumerate(ps):
        angle = rng.choice([0.2, 0.3, 0.5, 0.7, 1.0]) * rng.choice([-1, 1])
        shot = shots.phone(p.regions, dark=i % 2 == 1, seed=i)
        yield shots.png(shots.rotated(shot, angle)), p


def two(across: bool) -> Callable[[list[Puzzle]], Iterator[Case]]:
    def family(ps: list[Puzzle]) -> Iterator[Case]:
        rng = random.Random(42 + across)
        for i, p in enumerate(ps):
            q = ps[(i + 1) % len(ps)]
            look = shots.Look(cell=rng.randint(36, 60))
            first = shots.board(p.regions, look)
            second = shots.board(q.regions, shots.Look(cell=rng.randint(36, 60)))
            yield shots.png(shots.together(first, second, across, gap=rng.randint(0, 80))), None

    return family


def stars(ps: list[Puzzle]) -> Iterator[Case]:
    for i, p in enumerate(ps):
        if i % 2:
            yield shots.png(shots.phone(p.regions, dark=i % 4 == 3, seed=i)), p
        else:
            yield shots.png(shots.board(p.regions, shots.Look(cell=44))), p


def thin_only(ps: list[Puzzle]) -> Iterator[Case]:
    """Drawings with thin lines only: coloured cells (read), or all cells alike (refused)."""
    for i, p in enumerate(ps):
        if i % 2:
            yield shots.png(shots.board(p.regions, shots.Look(thick=1, cell=44))), p
        else:
            white = shots.Look(thick=1, cell=44, palette=[(255, 255, 255)] * p.n)
            yield shots.png(shots.board(p.regions, white)), None


def rotated_shared(ps: list[Puzzle]) -> Iterator[Case]:
    """Turned 0.2-3 degrees, then scaled and saved as JPEG, as a messenger does."""
    rng = random.Random(43)
    for i, p in enumerate(ps):
        angle = rng.uniform(0.2, 3.0) * rng.choice([-1, 1])
        if i % 3 == 0:
            shot = shots.phone(p.regions, dark=i % 2 == 1, seed=i, page=(24, 26, 30))
        elif i % 3 == 1:
            shot = shots.desktop(p.regions, dark=i % 2 == 1, seed=i)
        else:
            look = shots.Look(
                cell=rng.randint(30, 70), background=(20, 20, 20) if i % 2 else (255,) * 3
            )
            shot = shots.board(p.regions, look)
        shot = shots.scaled(shots.rotated(shot, angle), rng.choice([0.5, 0.75, 1, 1.5]))
        yield shots.jpeg(shot, rng.randint(65, 95)), p


def cut(ps: list[Puzzle]) -> Iterator[Case]:
    """Tight crops that cut the edge cells, some to a sliver (then only a refusal is right)."""
    rng = random.Random(44)
    for p in ps:
        look = shots.Look(cell=rng.randint(36, 64))
        left, top, right, bottom = shots.board_box(p.regions, look)
        picture = shots.board(p.regions, look)
        sliver = rng.random() < 0.5
        cuts = [rng.randint(0, look.cell // 3) for _ in range(4)]
        if sliver:  # one side cut to less than half a cell: that row or column is not there
            side = rng.randrange(4)
            cuts[side] = rng.randint(look.cell * 6 // 10, look.cell * 85 // 100)
        box = (left + cuts[0], top + cuts[1], right - cuts[2], bottom - cuts[3])
        yield shots.png(picture.crop(box)), None if sliver else p


def two_touching(ps: list[Puzzle]) -> Iterator[Case]:
    """Two tight crops side by side or stacked, touching (no page between them)."""
    for i, p in enumerate(ps):
        q = ps[(i + 3) % len(ps)]
        look, other = shots.Look(cell=44), shots.Look(cell=44)
        first = shots.board(p.regions, look).crop(shots.board_box(p.regions, look))
        second = shots.board(q.regions, other).crop(shots.board_box(q.regions, other))
        yield shots.png(shots.together(first, second, i % 2 == 0)), None


def two_in_a_phone(ps: list[Puzzle]) -> Iterator[Case]:
    """A phone screenshot with a second, smaller board below (a shared post's preview)."""
    for i, p in enumerate(ps):
        q = ps[(i + 1) % len(ps)]
        shot = shots.phone(p.regions, dark=i % 2 == 1, seed=i)
        page = shot.getpixel((0, 0))
        small = shots.board(q.regions, shots.Look(cell=24, background=page))
        at = (60, shot.height - small.height - 40)
        clear = Image.new("RGB", (small.width + 40, small.height + 40), page)
        shot.paste(clear, (at[0] - 20, at[1] - 20))  # laid out in its own space
        shot.paste(small, at)
        yield shots.png(shot), None


def dark_stars(ps: list[Puzzle]) -> Iterator[Case]:
    for i, p in enumerate(ps):
        shot = shots.phone(p.regions, dark=True, seed=i, page=(24, 26, 30))
        yield shots.jpeg(shots.scaled(shot, 0.75), 85), p


FAMILIES: dict[str, tuple[str, Callable[[list[Puzzle]], Iterator[Case]]]] = {
    "light phone": ("queens", light),
    "dark phone on a black page": ("queens", dark),
    "dark phone on a near-black page, JPEG": ("queens", near_black),
    "light phone full of small text, JPEG": ("queens", dense(False)),
    "dark phone full of small text, JPEG": ("queens", dense(True)),
    "board rotated 0.2-1 deg": ("queens", rotated),
    "phone rotated 0.2-1 deg": ("queens", rotated_phone),
    "two boards side by side": ("queens", two(True)),
    "two boards stacked": ("queens", two(False)),
    "Star Battle 2 stars (8x8, 10x10)": ("stars2", stars),
    "Star Battle 3 stars (14x14)": ("stars3", stars),
    "thin lines only": ("queens", thin_only),
    "turned 0.2-3 deg then scaled JPEG, any frame": ("queens", rotated_shared),
    "tight crops, some cut to a sliver": ("queens", cut),
    "two tight crops touching": ("queens", two_touching),
    "phone with a second small board": ("queens", two_in_a_phone),
    "Star Battle 2 stars on a dark phone, JPEG": ("stars2", dark_stars),
}


def judge(data: bytes, truth: Puzzle | None) -> tuple[str, str]:
    """("exact" | "refused" | "WRONG", the message or what was answered)."""
    try:
        got = Puzzle.read_screenshot(data).puzzle
    except ImageReadError as error:
        return "refused", str(error)
    if truth is not None and got == truth:
        return "exact", ""
    return "WRONG", f"answered a {got.n}x{got.n} puzzle of {got.stars} star(s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=30, help="pictures per family")
    parser.add_argument("--families", help="a subset of the families, separated by ';'")
    args = parser.parse_args()
    chosen = args.families.split(";") if args.families else list(FAMILIES)
    sets = {
        "queens": lambda: queens_puzzles(args.per),
        "stars2": lambda: star_puzzles(2, args.per),
        "stars3": lambda: star_puzzles(3, args.per),
    }
    made: dict[str, list[Puzzle]] = {}
    print("| family | pictures | exact | refused | WRONG | seconds per picture |")
    print("|---|---|---|---|---|---|")
    messages: dict[str, collections.Counter[str]] = {}
    for name in chosen:
        kind, family = FAMILIES[name]
        if kind not in made:
            made[kind] = sets[kind]()
        tally: collections.Counter[str] = collections.Counter()
        said: collections.Counter[str] = collections.Counter()
        spent = 0.0
        for data, truth in family(made[kind]):
            start = time.perf_counter()
            verdict, words = judge(data, truth)
            spent += time.perf_counter() - start
            tally[verdict] += 1
            if words:
                said[f"{verdict}: {words}"] += 1
        total = sum(tally.values())
        print(
            f"| {name} | {total} | {tally['exact']} | {tally['refused']} | {tally['WRONG']} "
            f"| {spent / max(total, 1):.2f} |",
            flush=True,
        )
        messages[name] = said
    for name, said in messages.items():
        if said:
            print(f"\n{name}:")
            for words, times in said.most_common(6):
                print(f"  {times} x {words}")


if __name__ == "__main__":
    main()
