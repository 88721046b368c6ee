"""Luogu P1562 (seed 004): N, then N rows of '*' and '.' ('.' = no queen there); print the count.

Run: python examples/blocked_queens.py [BACKEND] < input
"""

import sys
from itertools import islice

import cpqueens

backend = sys.argv[1] if len(sys.argv) > 1 else "cpsat"
n = int(sys.stdin.readline())
board = cpqueens.Board.parse("".join(islice(sys.stdin, n)), format="p1562")
print(cpqueens.model(board).count(backend))
