"""A brute-force oracle for pieces on cells: itertools subsets, no code shared with cpqueens."""

from __future__ import annotations

from itertools import combinations
from math import comb, gcd


def attacks(a, b, rows, cols, attack="queen", toroidal=False, knight=False):
    """Whether a piece on cell a attacks cell b."""
    if a == b:
        return False
    (r1, c1), (r2, c2) = a, b
    if toroidal:
        dr, dc = (r2 - r1) % rows, (c2 - c1) % cols
        steps = [(s * x, t * y) for x, y in ((1, 2), (2, 1)) for s in (1, -1) for t in (1, -1)]
        if knight and any((x % rows, y % cols) == (dr, dc) for x, y in steps):
            return True
        if attack == "king":
            return dr in (0, 1, rows - 1) and dc in (0, 1, cols - 1)
        if dr == 0 or dc == 0:
            return True
        if attack == "rook":
            return False
        period = rows * cols // gcd(rows, cols)
        return any(
            (k % rows, k % cols) == (dr, dc) or (k % rows, -k % cols) == (dr, dc)
            for k in range(period)
        )
    dr, dc = r2 - r1, c2 - c1
    if knight and {abs(dr), abs(dc)} == {1, 2}:
        return True
    if attack == "king":
        return max(abs(dr), abs(dc)) == 1
    if dr == 0 or dc == 0:
        return True
    return attack == "queen" and abs(dr) == abs(dc)


class Board:
    """The cells and the attack relation of a board, computed pair by pair."""

    def __init__(self, rows, cols, blocked=(), attack="queen", toroidal=False, knight=False):
        self.rows, self.cols = rows, cols
        self.blocked = set(blocked)
        self.free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in self.blocked]
        self.all = [(r, c) for r in range(rows) for c in range(cols)]
        self.hit = {
            a: {b for b in self.all if attacks(a, b, rows, cols, attack, toroidal, knight)}
            for a in self.all
        }

    def independent(self, cells):
        return not any(b in self.hit[a] for a in cells for b in cells)

    def dominating(self, cells):
        covered = set(cells).union(*(self.hit[a] for a in cells))
        return set(self.free) <= covered

    def sets(self, size, independent=True, dominating=False):
        """Every set of ``size`` free cells meeting the conditions, as sorted tuples."""
        return [
            cells
            for cells in combinations(self.free, size)
            if (not independent or self.independent(cells))
            and (not dominating or self.dominating(cells))
        ]

    def maps(self):
        """The board's symmetries (functions on cells) that keep the blocked cells."""
        m, n = self.rows, self.cols
        found = [
            lambda r, c: (r, c),
            lambda r, c: (m - 1 - r, n - 1 - c),
            lambda r, c: (r, n - 1 - c),
            lambda r, c: (m - 1 - r, c),
        ]
        if m == n:
            found += [
                lambda r, c: (c, n - 1 - r),
                lambda r, c: (n - 1 - c, r),
                lambda r, c: (c, r),
                lambda r, c: (n - 1 - c, n - 1 - r),
            ]
        return [f for f in found if {f(*cell) for cell in self.blocked} == self.blocked]

    def classes(self, sets):
        """The number of classes of ``sets`` under the board's symmetries."""
        maps = self.maps()
        return len({min(tuple(sorted(f(*c) for c in s)) for f in maps) for s in sets})

    def armies(self, size):
        """The (white, black) placements of ``size`` queens each, none attacking the other army."""
        total = 0
        for white in combinations(self.free, size):
            hit = set(white).union(*(self.hit[a] for a in white))
            total += comb(len([c for c in self.free if c not in hit]), size)
        return total

    def peaceable(self):
        """(the largest k, the number of (white, black) placements with k each)."""
        best, count = 0, 1
        for size in range(1, len(self.free) + 1):
            total = 0
            for white in combinations(self.free, size):
                hit = set(white).union(*(self.hit[a] for a in white))
                total += comb(len([c for c in self.free if c not in hit]), size)
            if total == 0:
                break
            best, count = size, total
        return best, count
