"""Seeds 000, 002, 003: read N, print the number of solutions and the time the count took.

The bitmask backend is the seeds' row / ld / rd DFS; name another to compare.

Run: python examples/count_timed.py [BACKEND] < input
"""

import sys
import time

import cpqueens

backend = sys.argv[1] if len(sys.argv) > 1 else "bitmask"
n = int(sys.stdin.read())
start = time.perf_counter()
count = cpqueens.model(n).count(backend)
print(count)
print(f"time: {time.perf_counter() - start:.6f} s")
