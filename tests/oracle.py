"""An independent brute-force oracle: itertools.permutations, no code shared with cpqueens."""

from __future__ import annotations

from itertools import permutations, product


def placements(n, blocked, placed=()):
    """Every one-colour placement as a column tuple, sorted."""
    blocked = set(blocked)
    found = []
    for columns in permutations(range(n)):
        if any((r, c) in blocked for r, c in enumerate(columns)):
            continue
        if any(columns[r] != c for r, c in placed):
            continue
        if len({c + r for r, c in enumerate(columns)}) < n:
            continue
        if len({c - r for r, c in enumerate(columns)}) < n:
            continue
        found.append(columns)
    return sorted(found)


def solutions(n, blocked=(), placed=(), colours=1):
    """Every solution as a tuple of column tuples (one per colour), in lexicographic order."""
    first = placements(n, blocked, placed)
    others = placements(n, blocked)
    found = []
    for combo in product(first, *([others] * (colours - 1))):
        if all(len({columns[r] for columns in combo}) == colours for r in range(n)):
            found.append(combo)
    return sorted(found)
