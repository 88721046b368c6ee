"""A Star Battle puzzle, 10 x 10 with 2 stars: solve it, prove it unique, draw it.

    python examples/star_battle.py [--svg stars.svg]

Two stars in every row, every column and every region; no two stars touch,
not even diagonally. The grid below was made by ``cpqueens puzzle new --size
10 --stars 2 --seed 23`` of an earlier generator (today's seed 23 gives
another grid); the compiled search and CP-SAT
must agree that it has one solution, and so must its cell model (the stars
as quotas: ``cpqueens.model(puzzle)``, two per row, column and region).
"""

import argparse

import cpqueens
from cpqueens import Puzzle

GRID = """
stars 2
AABBCCCCDD
AABBBCCCCD
AABBBEEEED
FAAAAEEDDD
FFGGAAADDD
HFGGGADDII
HHGGAAADDI
HHHGJJJIII
GHGGJJIIII
GGGGJJJJII
"""

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--svg", metavar="FILE", help="also write the solved puzzle as an SVG picture")
args = parser.parse_args()

puzzle = Puzzle.parse(GRID, connected=True)
stars = puzzle.solve()
found = puzzle.cross_check(limit=2, backends=("bitmask", "cpsat"))
as_cells = [tuple(q[:2] for q in s) for s in cpqueens.model(puzzle).solutions()]
if as_cells != [stars] or found != 1:
    raise SystemExit(f"the engines disagree: {found} solutions, the statement's {as_cells}")
print(
    f"{puzzle.n}x{puzzle.n}, {puzzle.stars} stars: {found} solution{'' if found == 1 else 's'} "
    "(the compiled search, CP-SAT and the statement agree)"
)
print(puzzle.draw(stars))
print(f"difficulty: {puzzle.rate()}")
if args.svg:
    with open(args.svg, "w", encoding="utf-8") as file:
        file.write(puzzle.svg(stars))
