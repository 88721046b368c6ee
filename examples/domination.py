"""Queen domination: the fewest queens that occupy or attack every cell, proved optimal.

Prints, for n = 1..N (default 8; up to 11 in about the minutes the README
gives), the domination number (OEIS A075458), the number of minimum
dominating sets (A002564, counted for n <= 10 by the compiled domination
search), the independent domination number (A075324) and the seconds each
took, checked against OEIS.
"""

import sys
import time

import cpqueens

A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5]
A002564 = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8]
A075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5]

last = int(sys.argv[1]) if len(sys.argv) > 1 else 8
print(" n  gamma  sets  seconds  independent  seconds")
for n in range(1, last + 1):
    start = time.perf_counter()
    best = cpqueens.domination(n)
    assert (best.value, best.status) == (A075458[n - 1], "optimal"), (n, best)
    sets = ""
    if n <= len(A002564):
        model = cpqueens.cells(n, independent=False, dominating=True)
        sets = model.count(queens=best.value)  # the compiled domination search
        assert sets == A002564[n - 1], (n, sets)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    independent = cpqueens.domination(n, independent=True)
    assert (independent.value, independent.status) == (A075324[n - 1], "optimal"), n
    print(
        f"{n:2} {best.value:6} {sets!s:>5} {seconds:8.2f} {independent.value:12}"
        f" {time.perf_counter() - start:8.2f}"
    )
