"""Superqueens: queens that also move as knights (OEIS A051223, and A051224 up to symmetry).

Prints n, the number of solutions and the number of classes under the board's
8 symmetries for n = 10..13, checked against OEIS (n = 2..9 have none).
An optional first argument names the backend (bitmask by default).
"""

import sys

import cpqueens

A051223 = {10: 4, 11: 44, 12: 156, 13: 1876}
A051224 = {10: 1, 11: 6, 12: 22, 13: 239}

backend = sys.argv[1] if len(sys.argv) > 1 else "bitmask"
for n in A051223:
    model = cpqueens.model(n, knight=True)
    total, unique = model.count(backend), model.count(backend, unique=True)
    assert (total, unique) == (A051223[n], A051224[n]), f"n={n}: counted {total}, {unique}"
    print(f"{n:2} {total} {unique}")
