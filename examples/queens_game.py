"""A daily-size Queens puzzle (LinkedIn's game): solve it, prove it unique, explain it, draw it.

    python examples/queens_game.py [--svg queens.svg]

One queen in every row, every column and every coloured region; no two queens
touch, not even diagonally. The grid below was made by ``cpqueens puzzle new
--size 9 --difficulty hard --seed 23`` of an earlier generator (today's seed 23
gives another grid).
"""

import argparse

from cpqueens import Puzzle

GRID = """
AABBBBCCC
ADDBCCCCE
ADDBCCCEE
DDEEEECEE
DFFEEEEEG
FFFEEEGEG
FFFFEGGGG
FHHHIIGGG
HHHIIIGGG
"""

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--svg", metavar="FILE", help="also write the solved puzzle as an SVG picture")
args = parser.parse_args()

puzzle = Puzzle.parse(GRID, connected=True)
queens = puzzle.solve()
unique, _ = puzzle.check()
print(f"{puzzle.n}x{puzzle.n} Queens puzzle: {'unique' if unique else 'NOT unique'} solution")
print(puzzle.draw(queens))
print()
print(puzzle.explain())
if args.svg:
    with open(args.svg, "w", encoding="utf-8") as file:
        file.write(puzzle.svg(queens))
