"""Toroidal queens: the diagonals wrap around the board's edges (OEIS A051906).

Prints n and the number of solutions for n = 1..13, checked against OEIS.
An optional first argument names the backend (bitmask by default).
"""

import sys

import cpqueens

A051906 = [1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524]

backend = sys.argv[1] if len(sys.argv) > 1 else "bitmask"
for n, expected in enumerate(A051906, start=1):
    found = cpqueens.model(n, toroidal=True).count(backend)
    assert found == expected, f"n={n}: counted {found}, OEIS A051906 says {expected}"
    print(f"{n:2} {found}")
