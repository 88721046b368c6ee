"""A puzzle's level as a player feels it: the techniques its solution needs, and how often.

The deducer takes the easiest rule that moves at each step, so the steps of
an explanation are what a solution needs. Each technique has a weight:

========================  ======  ==========================================
technique (``Step.rule``)  weight  what the player does
========================  ======  ==========================================
last cells, confined      0       the last cell of a row, column or region; a
                                  region confined to one line claims it (and
                                  a line confined to one region)
shape                     1       a region's free cells form a small shape
                                  (a domino, an L-tromino, ...): the cells
                                  every one of them rules out are crossed out
confined pair             1       2 regions in 2 lines (or 2 lines in 2
                                  regions) claim them
confined group            2       k regions in k lines, k >= 3
would empty               2       a cell whose queen would leave a row,
                                  column or region without room
lookahead 1, lookahead 2  3, 4    a queen tried, followed for 1 or 2 rounds
                                  of the first rules, breaks a rule
========================  ======  ==========================================

The level:

- **easy**: the first rules alone (last cells and confined lines);
- **medium**: shapes and pairs, at most :data:`MEDIUM_WEIGHT` in all;
- **hard**: more of them, or a group of 3 or more, or a cell that would
  empty a unit: at most :data:`HARD_WEIGHT` in all;
- **expert**: a lookahead, or more than :data:`HARD_WEIGHT` of the above;
- **needs search**: the rules (lookahead of 2 rounds included) stop short.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal

#: A level, or why a puzzle has none.
Level = Literal["easy", "medium", "hard", "expert", "needs search"]
#: Each technique's weight (the rules not named here weigh nothing: givens, last cells, ...).
WEIGHTS: dict[str, int] = {
    "shape": 1,
    "confined pair": 1,
    "confined group": 2,
    "would empty": 2,
    "lookahead 1": 3,
    "lookahead 2": 4,
}
#: The most weight a medium puzzle's steps carry.
MEDIUM_WEIGHT = 4
#: The most weight a hard puzzle's steps carry.
HARD_WEIGHT = 12
#: The techniques that make a puzzle hard at least, however few times, and expert.
HARD = ("confined group", "would empty")
EXPERT = ("lookahead 1", "lookahead 2")


def techniques(rules: Iterable[str]) -> Counter[str]:
    """How many steps use each weighed technique."""
    return Counter(rule for rule in rules if rule in WEIGHTS)


def level(rules: Iterable[str], solved: bool = True) -> Level:
    """The level of a solution whose steps use ``rules`` (``Step.rule``, in order).

    >>> level(["last cells", "confined", "last cells"])
    'easy'
    >>> level(["shape", "last cells", "confined pair"])
    'medium'
    >>> level(["lookahead 1", "last cells"])
    'expert'
    """
    if not solved:
        return "needs search"
    used = techniques(rules)
    weight = sum(WEIGHTS[rule] * times for rule, times in used.items())
    if any(used[rule] for rule in EXPERT) or weight > HARD_WEIGHT:
        return "expert"
    if any(used[rule] for rule in HARD) or weight > MEDIUM_WEIGHT:
        return "hard"
    return "medium" if weight else "easy"
