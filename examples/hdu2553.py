"""HDU 2553 (seed 004): one N per line until a line with 0; print each count on its own line.

Input 1 8 5 0 prints 1 92 10. Each size is counted once, as the judge's solution caches.

Run: python examples/hdu2553.py [BACKEND] < input
"""

import functools
import sys

import cpqueens

backend = sys.argv[1] if len(sys.argv) > 1 else "cpsat"


@functools.cache
def count(n: int) -> int:
    """The number of n-queens solutions."""
    return cpqueens.model(n).count(backend)


for line in sys.stdin:
    if line.strip():
        if int(line) == 0:
            break
        print(count(int(line)))
