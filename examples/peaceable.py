"""Peaceable queens: the most queens of each of two armies with no attack between the armies.

Prints, for n = 1..N (default 10; n = 11 takes a few seconds, 12 under a
minute), the largest m (OEIS A250000) proved optimal, the seconds it took
and the board of one solution for the last n (W and B the armies), checked
against OEIS.
"""

import sys
import time

import cpqueens

A250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32]

last = int(sys.argv[1]) if len(sys.argv) > 1 else 10
print(" n   m  seconds")
for n in range(1, last + 1):
    start = time.perf_counter()
    result = cpqueens.peaceable(n)
    assert (result.value, result.status) == (A250000[n - 1], "optimal"), (n, result)
    print(f"{n:2} {result.value:3} {time.perf_counter() - start:8.2f}")
marks = {(r, c): "WB"[army] for r, c, army in result.queens}
for row in range(last):
    print(" ".join(marks.get((row, col), ".") for col in range(last)))
