"""Seed 000: read N, print every solution as N rows of 'Q' and '.', each followed by a blank line.

Run: python examples/all_boards.py [BACKEND] < input
"""

import sys

import cpqueens

backend = sys.argv[1] if len(sys.argv) > 1 else "cpsat"
n = int(sys.stdin.read())
for solution in cpqueens.model(n).solutions(backend):  # lexicographic order
    print(solution, end="\n\n")
