"""Luogu P1219 (seed 004): the first 3 solutions as 1-based columns, then the count.

Input 6 prints 2 4 6 1 3 5 / 3 6 2 5 1 4 / 4 1 5 2 6 3 / 4.

Run: python examples/checker_challenge.py [BACKEND] < input
"""

import sys

import cpqueens

backend = sys.argv[1] if len(sys.argv) > 1 else "cpsat"
model = cpqueens.model(int(sys.stdin.read()))
for solution in model.solutions(backend, limit=3):  # lexicographic order
    print(solution.draw("columns"))
print(model.count(backend))
