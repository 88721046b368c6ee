"""OEIS A000170, the number of ways to place n non-attacking queens on an n x n board.

The benchmarks check every timed count against it. The library holds no such
table (its counts are computed, never looked up); the tests keep their own.
"""

from __future__ import annotations

#: A000170(n) for n = 1..22 (Q(18..22) as the frontier issue quotes them).
A000170 = {
    1: 1,
    2: 0,
    3: 0,
    4: 2,
    5: 10,
    6: 4,
    7: 40,
    8: 92,
    9: 352,
    10: 724,
    11: 2680,
    12: 14200,
    13: 73712,
    14: 365596,
    15: 2279184,
    16: 14772512,
    17: 95815104,
    18: 666090624,
    19: 4968057848,
    20: 39029188884,
    21: 314666222712,
    22: 2691008701644,
}
