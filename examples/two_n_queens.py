"""Seed 001, "2n queens": cases until end of input, each N and N rows of 0/1; print each count.

n black and n white queens, each colour non-attacking, no cell holds two
queens, and queens only where the grid says 1. Rows may have spaces between
the digits.

Run: python examples/two_n_queens.py [BACKEND] < input
"""

import sys
from itertools import islice

import cpqueens

backend = sys.argv[1] if len(sys.argv) > 1 else "cpsat"
lines = (line for line in sys.stdin if line.strip())
for first in lines:
    board = cpqueens.Board.parse("".join(islice(lines, int(first))), format="01")
    print(cpqueens.model(board, colours=2).count(backend))
