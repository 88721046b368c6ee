"""A brute-force oracle for pieces on cells: itertools subsets, no code shared with cpqueens."""

from __future__ import annotations

from itertools import combinations, product
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


def queen_covers(n, cell):
    """The cells a queen on ``cell`` (numbered r * n + c) covers on n x n, as an int bit mask."""
    r, c = divmod(cell, n)
    mask = 0
    for a in range(n):
        for b in range(n):
            if a == r or b == c or a - b == r - c or a + b == r + c:
                mask |= 1 << (a * n + b)
    return mask


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


def quota_sets(
    board,
    per_row=None,
    per_column=None,
    regions=None,
    per_region=None,
    independent=True,
    dominating=False,
):
    """Every set of free cells with exactly the quotas' pieces per row, column and region.

    The cells are filled part by part (itertools product of each part's
    combinations): by rows with ``per_row``, else by columns with
    ``per_column``, else by regions; the other quotas are then checked.
    Sorted tuples of (row, col), in no particular order.
    """
    if per_row is not None:
        parts, k = [[c for c in board.free if c[0] == r] for r in range(board.rows)], per_row
    elif per_column is not None:
        parts, k = [[c for c in board.free if c[1] == col] for col in range(board.cols)], per_column
    else:
        numbers = sorted({g for row in regions for g in row})
        parts = [[c for c in board.free if regions[c[0]][c[1]] == g] for g in numbers]
        k = per_region
    candidates = (
        tuple(sorted(cell for part in chosen for cell in part))
        for chosen in product(*(combinations(part, k) for part in parts))
    )
    found = []
    for cells in candidates:
        if per_column is not None and any(
            sum(1 for _, col in cells if col == c) != per_column for c in range(board.cols)
        ):
            continue
        if per_region is not None:
            tally = {}
            for r, c in cells:
                tally[regions[r][c]] = tally.get(regions[r][c], 0) + 1
            numbers = {g for row in regions for g in row}
            if any(tally.get(g, 0) != per_region for g in numbers):
                continue
        if independent and not board.independent(cells):
            continue
        if dominating and not board.dominating(cells):
            continue
        found.append(cells)
    return found


def quota_classes(board, sets, per_row=None, per_column=None, regions=None):
    """The classes of ``sets`` under the board maps that keep the regions and the quotas.

    A map that sends a row onto a column keeps the quotas only when
    ``per_row == per_column``; a map keeps the regions when it sends each
    region onto one region.
    """

    def kept(f):
        r0, _ = f(0, 0)
        r1, _ = f(0, 1) if board.cols > 1 else f(0, 0)
        swaps = r0 != r1  # the cells of row 0 land in different rows: rows became columns
        if swaps and per_row != per_column:
            return False
        if regions is None:
            return True
        image = {}
        for r in range(board.rows):
            for c in range(board.cols):
                a, b = f(r, c)
                image.setdefault(regions[r][c], set()).add(regions[a][b])
        return all(len(v) == 1 for v in image.values()) and len(
            {next(iter(v)) for v in image.values()}
        ) == len(image)

    maps = [f for f in board.maps() if kept(f)]
    return len({min(tuple(sorted(f(*c) for c in s)) for f in maps) for s in sets})
