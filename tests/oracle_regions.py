"""An independent brute-force oracle for region models: itertools.permutations, no cpqueens code.

One queen per row and column (a permutation), optionally off each other's
diagonals, one per region, none touching, on free cells, through the placed
ones, meeting an optional predicate; and the classes under the board
symmetries that map the whole statement onto itself, each found here afresh.
"""

from __future__ import annotations

from itertools import permutations

#: The 8 symmetries of the square, as maps of a cell (r, c) of an n x n board.
TRANSFORMS = {
    "identity": lambda r, c, n: (r, c),
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror": lambda r, c, n: (r, n - 1 - c),
    "flip": lambda r, c, n: (n - 1 - r, c),
    "diagonal": lambda r, c, n: (c, r),
    "antidiagonal": lambda r, c, n: (n - 1 - c, n - 1 - r),
}


def solutions(
    n, regions=None, *, diagonals=True, no_touch=False, blocked=(), placed=(), where=None
):
    """Every solution as a column tuple, in lexicographic order."""
    blocked = set(blocked)
    found = []
    for cols in permutations(range(n)):
        if any((r, c) in blocked for r, c in enumerate(cols)):
            continue
        if any(cols[r] != c for r, c in placed):
            continue
        if diagonals and (
            len({c + r for r, c in enumerate(cols)}) < n
            or len({c - r for r, c in enumerate(cols)}) < n
        ):
            continue
        if regions is not None and len({regions[r][c] for r, c in enumerate(cols)}) < n:
            continue
        if no_touch and any(abs(cols[r] - cols[r + 1]) <= 1 for r in range(n - 1)):
            continue
        if where is not None and not where(cols):
            continue
        found.append(cols)
    return found


def _partition(cells_of):
    return {frozenset(cells) for cells in cells_of.values()}


def group(n, regions=None, blocked=(), placed=()):
    """The symmetries mapping the regions (relabelled), holes and placed queens onto themselves."""
    kept = []
    for name, t in TRANSFORMS.items():
        if {t(r, c, n) for r, c in blocked} != set(blocked):
            continue
        if {t(r, c, n) for r, c in placed} != set(placed):
            continue
        if regions is not None:
            parts = {}
            for r in range(n):
                for c in range(n):
                    parts.setdefault(regions[r][c], set()).add((r, c))
            images = {frozenset(t(r, c, n) for r, c in cells) for cells in parts.values()}
            if images != _partition(parts):
                continue
        kept.append(name)
    return kept


def classes(n, found, names):
    """The number of classes of the solutions ``found`` under the symmetries ``names``."""
    seen = set()
    total = 0
    for cols in found:
        if cols in seen:
            continue
        total += 1
        for name in names:
            image = [0] * n
            for r, c in enumerate(cols):
                tr, tc = TRANSFORMS[name](r, c, n)
                image[tr] = tc
            seen.add(tuple(image))
    return total


def random_grid(n, rng):
    """n connected regions grown from n random seeds (a Queens-game-like grid)."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    grid = [[-1] * n for _ in range(n)]
    for label, (r, c) in enumerate(rng.sample(cells, n)):
        grid[r][c] = label
    while any(-1 in row for row in grid):
        r, c = rng.choice([(r, c) for r, c in cells if grid[r][c] >= 0])
        dr, dc = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
        if 0 <= r + dr < n and 0 <= c + dc < n and grid[r + dr][c + dc] < 0:
            grid[r + dr][c + dc] = grid[r][c]
    return [list(row) for row in grid]


def symmetric_grid(n, rng, name):
    """A random grid of n regions that the symmetry ``name`` maps onto itself (labels kept)."""
    t = TRANSFORMS[name]
    while True:
        grid = [[-1] * n for _ in range(n)]
        for r in range(n):
            for c in range(n):
                if grid[r][c] < 0:
                    label = rng.randrange(n)
                    orbit = {(r, c)}
                    while True:
                        more = {t(a, b, n) for a, b in orbit} | orbit
                        if more == orbit:
                            break
                        orbit = more
                    for a, b in orbit:
                        grid[a][b] = label
        if len({v for row in grid for v in row}) == n:
            return grid


__all__ = ["classes", "group", "random_grid", "solutions", "symmetric_grid"]
