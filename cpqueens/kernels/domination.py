"""Queens dominating an n x n board: an exact, resumable search for k queens that cover it.

A queen covers the cells of its row, its column and its two diagonals, so a
cell is covered as soon as one of its four lines holds a queen: the search
state is four bit masks of occupied lines (rows, columns, diagonals ``c - r``,
anti-diagonals ``r + c``), and a row's uncovered cells are one expression of
them (``full & ~cols & ~(diagonals >> (n-1-r)) & ~(antis >> r)``). Boards up to
:data:`MOST` = 32 fit (a diagonal index needs 2n - 1 bits).

The search covers the board by lines: at each node it takes the uncovered cell
with the fewest allowed cells that cover it, and branches on those cells; the
i-th branch forbids the cells of the branches before it, so every set of
queens is met once. A node is cut when

- the j queens left cannot cover the uncovered cells: any two lines through a
  cell meet only there, so a cell q covers ``row[q] + col[q] + diag[q] +
  anti[q]`` uncovered cells (less 3 if q is uncovered itself), read from the
  line counts; the j largest of these over the allowed cells must reach the
  number uncovered;
- a line must hold a queen (a queen off a line covers at most 3 of its cells,
  so a line with more than 3j uncovered cells needs one of the j queens) more
  often than j queens allow, or has no allowed cell;
- (``frame``) the frame of the empty rows and columns holds more cells that
  only a diagonal can cover than the j queens left can reach, each at most 4
  (:func:`_framed_out`: Spencer's counting argument, the one behind
  gamma(Q_n) >= (n - 1)/2, applied to the node with the j queens' rows and
  columns chosen at best). It cuts most where the argument has least slack,
  8k - 4n + 4 cells (4 at n = 18 and 20 with k = n/2).

The higher levels of ``frame`` look ahead at the children (:func:`_ahead`): at
:data:`CENTRES`, a child with 2 to 4 queens left is also dropped by the union
bound of two centres (:func:`_centres`: every covering set has a first member
y, and covers at most y's cells plus what each other member adds to y's).

The board's 8 symmetries are used by a split of the root (made by
:mod:`cpqueens.backends.bitmask.domination`): the cells are ordered by their
orbit under the symmetries, and part ``q0`` holds the sets whose first orbit is
``q0``'s and that contain ``q0`` itself, every cell of an earlier orbit
forbidden. Every class of sets has a member in exactly one part; a part counts
a set found only if it is the least (in sorted cell order) of its images that
contain ``q0``, weighted by the size of its class, so the parts' counts add up
to the exact number of sets. A part can also be a path below ``q0`` (the child
indices taken at each level), so that a long proof splits finely.

The whole state lives in arrays the caller owns (:func:`start`); :func:`search`
runs at most ``budget`` nodes per call and returns ``PAUSED`` (call again),
``EXHAUSTED`` or ``FOUND`` (``first`` mode: a set was found, in ``queens``).
numba code only.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import lowest_index, popcount
from cpqueens.kernels.jit import kernel

EXHAUSTED, PAUSED, FOUND, NO_PATH = 0, -1, 1, -2
#: The levels of the cuts (a search's ``frame``): none; the frame of the empty rows and
#: columns (:data:`FRAME`, what the parts are split by); the frame and the look-ahead at each
#: child's cover bound (:data:`AHEAD`, :func:`_ahead`); and (:data:`TARGET`) the branching
#: cell chosen by the cells that can still be in a covering set, a node cut when an
#: uncovered cell has none, and the look-ahead's children cut by their own frame too;
#: and (:data:`CENTRES`) the look-ahead's children cut by the union bound of two centres
#: too (:func:`_centres`).
NONE, FRAME, AHEAD, TARGET, CENTRES = 0, 1, 2, 3, 4
#: The most queens left at a node whose children :func:`_centres` tests (n = 19: at nodes
#: with 6 left too it drops more and costs more than that saves; at 3 and 4 alone it saves
#: nothing, at 5 most of what it saves).
CENTRED = 5
#: What :func:`_evaluate` returns for k queens that cover the board.
LEAF = -1
#: counters[...]: the depth, whether the node there is new, the queens placed at the start,
#: the nodes so far, the sets found (weighted by their class size), their classes.
DEPTH, FRESH, ROOT, NODES, SETS, CLASSES = 0, 1, 2, 3, 4, 5
COUNTERS = 6

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


#: The state of a search: occ, allowed, cand, ncand, nxt, queens, counters.
State = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def start(n: int, k: int, q0: int, orbit: np.ndarray, independent: bool = False) -> State:
    """A fresh state for :func:`search`: queen ``q0`` placed, the cells of earlier orbits forbidden.

    ``orbit[cell]`` is the rank of the cell's orbit (cell = r * n + c); ``q0``
    < 0 starts from the empty board with every cell allowed. ``independent``:
    the cells that ``q0`` attacks are forbidden too (no queen may attack
    another; :func:`search` must be told the same). Returns (occ,
    allowed, cand, ncand, nxt, queens, counters); ``counters[DEPTH]`` is the
    number of queens placed.
    """
    width = n * n  # the children of a node: at most every cell
    occ = np.zeros((k + 1, 4), dtype=np.uint64)
    allowed = np.zeros((k + 1, n), dtype=np.uint64)
    cand = np.zeros((k + 1, width), dtype=np.int64)
    ncand = np.zeros(k + 1, dtype=np.int64)
    nxt = np.zeros(k + 1, dtype=np.int64)
    queens = np.zeros(k + 1, dtype=np.int64)
    counters = np.zeros(COUNTERS, dtype=np.int64)
    counters[FRESH] = 1
    for cell in range(n * n):
        if q0 < 0 or (orbit[cell] >= orbit[q0] and cell != q0):
            allowed[0, cell // n] |= np.uint64(1) << np.uint64(cell % n)
    if q0 >= 0 and k >= 1:
        r, c = divmod(q0, n)
        occ[1] = _lines(n, r, c)
        allowed[1] = allowed[0]
        if independent:
            _unattacked(n, r, c, allowed[1])
        queens[0] = q0
        counters[DEPTH] = 1
        counters[ROOT] = 1
    return occ, allowed, cand, ncand, nxt, queens, counters


def _lines(n: int, r: int, c: int) -> np.ndarray:
    """The four line bits of a queen on (r, c): row, column, diagonal, anti-diagonal."""
    one = np.uint64(1)
    return np.array(
        [
            one << np.uint64(r),
            one << np.uint64(c),
            one << np.uint64(c - r + n - 1),
            one << np.uint64(r + c),
        ],
        dtype=np.uint64,
    )


@kernel()
def _attacked_in(n, r, c, row):
    """The cells of ``row`` (another row than r) that a queen on (r, c) attacks, as a mask."""
    d = row - r
    mask = _ONE << np.uint64(c)
    if 0 <= c + d < n:
        mask |= _ONE << np.uint64(c + d)
    if 0 <= c - d < n:
        mask |= _ONE << np.uint64(c - d)
    return mask


@kernel()
def _unattacked(n, r, c, allowed):
    """Forbid in ``allowed`` (a mask per row) the cells a queen on (r, c) occupies or attacks."""
    allowed[r] = _ZERO
    for row in range(n):
        if row != r:
            allowed[row] &= ~_attacked_in(n, r, c, row)


@kernel()
def _top(values, m, j, heads):
    """The sums of the j and of the j - 1 largest of ``values[:m]`` (0..4n; ``heads``: scratch).

    Counted by value, not sorted: a node has a few hundred allowed cells.
    """
    top = 0
    for i in range(m):
        heads[values[i]] += 1
        top = max(top, values[i])
    total = 0
    rest = 0
    left = min(j, m)
    for value in range(top, -1, -1):
        many = min(heads[value], left)
        if many > 0:
            if left == many:  # the j-th largest is of this value
                rest = total + value * (many - 1)
            total += value * many
            left -= many
        if left == 0:
            break
    for i in range(m):
        heads[values[i]] = 0
    if j > m:
        rest = total
    return total, rest


@kernel()
def _keep_largest(best, keep, filled, total, value):
    """Put ``value`` among the ``keep`` largest in ``best``; return the new ``filled``, ``total``.

    ``best[:filled]`` holds the largest so far, the largest first, and
    ``total`` is their sum. A value no larger than the smallest of a full
    list is left out.
    """
    if filled == keep:
        if value <= best[keep - 1]:
            return filled, total
        total -= best[keep - 1]
        filled -= 1
    i = filled
    while i > 0 and best[i - 1] < value:
        best[i] = best[i - 1]
        i -= 1
    best[i] = value
    return filled + 1, total + value


@kernel()
def _canonical(queens, k, q0, images):
    """The weight of a found set: its class size if it is the least image holding q0, else 0."""
    best = True
    fixed = 0
    image = np.empty(k, dtype=np.int64)
    for g in range(images.shape[0]):
        holds = q0 < 0
        for i in range(k):
            image[i] = images[g, queens[i]]
            if image[i] == q0:
                holds = True
        image.sort()
        order = 0  # the image against the set (sorted), lexicographically
        for i in range(k):
            if image[i] != queens[i]:
                order = -1 if image[i] < queens[i] else 1
                break
        if order == 0:
            fixed += 1
        elif order < 0 and holds:
            best = False
    if not best:
        return 0
    return images.shape[0] // fixed


@kernel()
def _count_lines(n, masks, counts):
    """Count the cells of ``masks`` (one per row) on every line: ``counts[family, line]``.

    The families: 0 rows, 1 columns, 2 diagonals (c - r + n - 1), 3 anti-diagonals (r + c).
    """
    counts[:] = 0
    for r in range(n):
        w = masks[r]
        counts[0, r] = popcount(w)
        while w:
            c = np.int64(lowest_index(w))
            w &= w - _ONE
            counts[1, c] += 1
            counts[2, c - r + n - 1] += 1
            counts[3, r + c] += 1


@kernel()
def _crowded(n, j, uncovered, allowed):
    """Whether the lines that need a queen of their own rule the node out.

    A queen off a line covers at most 3 of its cells, so a line with more
    than 3j uncovered cells needs one of the j queens left: no line of a
    family may need one without an allowed cell on it, nor more of them than j.
    """
    for family in range(4):
        size = n if family < 2 else 2 * n - 1
        needing = 0
        for line in range(size):
            if uncovered[family, line] > 3 * j:
                if allowed[family, line] == 0:
                    return True
                needing += 1
        if needing > j:
            return True
    return False


@kernel()
def _removed(budget, twos, ones):
    """The most ``budget`` removals take from ``twos`` lines worth 2 and ``ones`` worth 1."""
    a = min(budget, twos)
    return 2 * a + min(budget - a, ones)


@kernel()
def _framed_out(n, j, rows, cols, uncovered, columns, empty_rows, empty_cols):
    """Whether the frame of the empty rows and columns rules the node out (j >= 1 queens left).

    Once all k queens are placed, a cell whose row and column are both empty
    is covered only by a diagonal. Take the rectangle spanned by the first
    and last empty rows r1 < r2 and columns c1 < c2: its frame cells (the
    empty-row-and-column cells on its border, (r1, c) and (r2, c) for every
    empty column c in [c1, c2], (r, c1) and (r, c2) for every empty row r
    strictly between) are covered by diagonals only, and a diagonal meets a
    rectangle's border in at most 2 cells (its first and last), so each queen
    covers at most 4 of them (Spencer's argument; Weakley 1995). Here the j
    queens left empty at most j of today's empty rows and j of its columns:
    the node is cut if every such choice leaves a frame with more than 4j
    cells that no placed queen's diagonal covers (``uncovered``: a mask per
    row, those cells exactly on the empty rows; ``columns``: scratch, a mask
    of rows per column).
    """
    full = (_ONE << np.uint64(n)) - _ONE
    free_rows = full & ~rows
    free_cols = full & ~cols
    m_r = 0
    w = free_rows
    while w:
        empty_rows[m_r] = np.int64(lowest_index(w))
        w &= w - _ONE
        m_r += 1
    m_c = 0
    w = free_cols
    while w:
        c = np.int64(lowest_index(w))
        empty_cols[m_c] = c
        columns[c] = _ZERO
        w &= w - _ONE
        m_c += 1
    if m_r - j < 2 or m_c - j < 2:
        return False
    w = free_rows
    while w:
        r = lowest_index(w)
        w &= w - _ONE
        u = uncovered[r]
        while u:
            c = lowest_index(u)
            u &= u - _ONE
            columns[c] |= _ONE << r
    room = 4 * j
    for i1 in range(j + 1):
        r1 = empty_rows[i1]
        for below in range(j + 1 - i1):  # the empty rows below r2, all emptied too
            i2 = m_r - 1 - below
            if i2 <= i1:
                break
            r2 = empty_rows[i2]
            budget_r = j - i1 - below
            inner_rows = free_rows & ((_ONE << np.uint64(r2)) - (_ONE << np.uint64(r1 + 1)))
            top = uncovered[r1]
            bottom = uncovered[r2]
            for h1 in range(j + 1):
                c1 = empty_cols[h1]
                for right in range(j + 1 - h1):
                    h2 = m_c - 1 - right
                    if h2 <= h1:
                        break
                    c2 = empty_cols[h2]
                    budget_c = j - h1 - right
                    span = free_cols & ((_ONE << np.uint64(c2 + 1)) - (_ONE << np.uint64(c1)))
                    inner = free_cols & ((_ONE << np.uint64(c2)) - (_ONE << np.uint64(c1 + 1)))
                    sides = np.int64(popcount(top & span) + popcount(bottom & span))
                    sides -= _removed(
                        budget_c,
                        np.int64(popcount(top & bottom & inner)),
                        np.int64(popcount((top ^ bottom) & inner)),
                    )
                    left = columns[c1]
                    right_side = columns[c2]
                    twos = np.int64(popcount(left & right_side & inner_rows))
                    ones = np.int64(popcount((left ^ right_side) & inner_rows))
                    sides += 2 * twos + ones - _removed(budget_r, twos, ones)
                    if sides <= room:
                        return False
    return True


@kernel()
def _covers(n, counts, uncovered, allowed, cover, values):
    """What each allowed cell covers (``cover[cell]``), also listed in ``values``; how many.

    Any two lines through a cell meet only there: its four lines' uncovered
    counts, less 3 if the cell is uncovered itself (counted four times).
    """
    m = 0
    for r in range(n):
        w = allowed[r]
        while w:
            c = np.int64(lowest_index(w))
            w &= w - _ONE
            value = counts[0, r] + counts[1, c] + counts[2, c - r + n - 1] + counts[3, r + c]
            if (uncovered[r] >> np.uint64(c)) & _ONE:
                value -= 3
            cover[r * n + c] = value
            values[m] = value
            m += 1
    return m


@kernel()
def _fewest(n, uncovered, allowed, counts):
    """The uncovered cell with the fewest allowed cells covering it, and how many cover it."""
    best = n * n + 1
    target = -1
    for r in range(n):
        w = uncovered[r]
        mine = allowed[r]
        while w:
            c = np.int64(lowest_index(w))
            w &= w - _ONE
            value = counts[0, r] + counts[1, c] + counts[2, c - r + n - 1] + counts[3, r + c]
            if (mine >> np.uint64(c)) & _ONE:
                value -= 3
            if value < best:
                best = value
                target = r * n + c
    return target, best


@kernel()
def _branches(n, target, allowed, cover, least, out):
    """The allowed cells covering ``target`` that cover at least ``least``, the most first."""
    tr = target // n
    tc = target % n
    m = 0
    for r in range(n):
        w = allowed[r]
        while w:
            c = np.int64(lowest_index(w))
            w &= w - _ONE
            if r == tr or c == tc or r - c == tr - tc or r + c == tr + tc:
                cell = r * n + c
                if cover[cell] >= least:
                    t = m  # insertion, the largest cover first: a few dozen cells
                    while t > 0 and cover[out[t - 1]] < cover[cell]:
                        out[t] = out[t - 1]
                        t -= 1
                    out[t] = cell
                    m += 1
    return m


@kernel()
def _expand(n, k, depth, total, uncovered, allowed, cand, work, rows, cols, frame, checked):
    """Fill ``cand[depth]`` with the cells to branch on at this node; return how many (0: cut).

    The node has ``total`` > 0 uncovered cells (``uncovered``: one mask per
    row) and j = k - depth queens left; ``rows`` and ``cols`` are the occupied
    ones. The cells are those that cover the uncovered cell with the fewest
    allowed cells covering it, less those that cannot be in a covering set
    (their cover plus the j - 1 largest others falls short), the largest
    cover first. ``frame``: the node is also cut by :func:`_framed_out`;
    from :data:`TARGET` on, the cell is the one with the fewest covering
    cells that can be in a covering set (any uncovered cell is covered by a
    member of every covering set, so branching on any is exact), and the
    node is cut when an uncovered cell has none; the lines that need a queen
    (:func:`_crowded`) are not checked there (they cut 1 node in 5,000 at
    n = 19), nor the frame of a node whose parent's look-ahead did
    (``checked``).
    """
    ucount, acount, cover, values = work[1], work[2], work[3], work[4]
    j = k - depth
    if (
        frame
        and not checked
        and _framed_out(n, j, rows, cols, uncovered, work[5], work[6], work[7])
    ):
        return 0  # first: it needs no line counts, and ends most of the nodes that end
    _count_lines(n, uncovered, ucount)
    if frame < TARGET:
        _count_lines(n, allowed[depth], acount)
        if _crowded(n, j, ucount, acount):
            return 0
    m = _covers(n, ucount, uncovered, allowed[depth], cover, values)
    most, rest = _top(values, m, j, work[10])  # the j and the j - 1 largest covers
    if most < total:  # the j queens left cannot cover what is uncovered
        return 0
    least = total - rest
    if frame >= TARGET:  # the cell with the fewest branches: allowed cells covering >= least
        good = work[8]
        for r in range(n):
            w = allowed[depth, r]
            g = _ZERO
            while w:
                c = np.int64(lowest_index(w))
                w &= w - _ONE
                if cover[r * n + c] >= least:
                    g |= _ONE << np.uint64(c)
            good[r] = g
        _count_lines(n, good, acount)
        target, choices = _fewest(n, uncovered, good, acount)
    else:
        target, choices = _fewest(n, uncovered, allowed[depth], acount)
    if choices == 0:
        return 0
    return _branches(n, target, allowed[depth], cover, least, cand[depth])


@kernel()
def _ahead(n, j, uncovered, allowed, cover, cand, m, scratch, rows, cols, work, level):
    """Keep the children whose j - 1 queens left can still cover what they leave uncovered.

    A child q leaves ``total - cover[q]`` cells uncovered; another cell x
    then covers ``cover[x]`` less those of q's lines' uncovered cells on its
    own lines (read from their line counts, as :func:`_covers` reads
    ``cover``), and the child would be cut by its own bound if the j - 1
    largest of these (over the allowed cells, a superset of the child's)
    fall short. The cells are tried from the largest ``cover`` down, so the
    scan stops as soon as the j - 1 best are known or reach the need. Keeps
    the children's order; returns how many are kept. ``uncovered`` and
    ``cover`` are :func:`_evaluate`'s for this node; ``scratch``:
    :func:`_lookahead`'s arrays. From ``level`` :data:`TARGET` on, a child is
    also dropped when its own node would be cut by the frame
    (:func:`_child_framed`; ``rows`` and ``cols``: the node's occupied ones,
    ``work``: :func:`_workspace`'s arrays); from :data:`CENTRES` on, also when
    the union bound of two centres rules it out (:func:`_centres`; children
    with 2 to :data:`CENTRED` - 1 queens left).
    """
    near, counts, order, best, heads, taken, cells, worths, left, mine, place = scratch
    total = 0
    for r in range(n):
        total += popcount(uncovered[r])
    if total == 0:  # the queens cover the board: every allowed cell completes the set
        return m
    for value in range(heads.shape[0]):
        heads[value] = 0
    top = 0  # the allowed cells, the largest cover first: sorted by counting
    for r in range(n):
        w = allowed[r]
        while w:
            value = cover[r * n + np.int64(lowest_index(w))]
            w &= w - _ONE
            heads[value] += 1
            top = max(top, value)
    size = 0
    for value in range(top, -1, -1):
        many = heads[value]
        heads[value] = size
        size += many
    for r in range(n):
        w = allowed[r]
        while w:
            c = np.int64(lowest_index(w))
            w &= w - _ONE
            cell = r * n + c
            t = heads[cover[cell]]
            order[t] = cell
            if level >= CENTRES:  # no division by n in _centres
                place[0, t] = r
                place[1, t] = c
                place[2, t] = cover[cell]
            heads[cover[cell]] = t + 1
    kept = 0
    for i in range(m):
        q = cand[i]
        need = total - cover[q]
        keep = need <= 0 or _reaches(
            n, j - 1, need, q, uncovered, cover, order, size, near, counts, best, taken
        )
        if keep and need > 0 and level >= TARGET:
            keep = not _child_framed(n, j - 1, q, uncovered, near, rows, cols, work)
        if keep and need > 0 and level >= CENTRES and 3 <= j <= CENTRED:
            keep = _centres(
                n, j - 1, need, q, uncovered, cover, order, size, near, counts, taken, cells,
                worths, best, heads, left, mine, place,
            )  # fmt: skip
        if keep:
            cand[kept] = q
            kept += 1
            taken[q // n] |= _ONE << np.uint64(q % n)
    for i in range(kept):
        taken[cand[i] // n] = _ZERO
    return kept


@kernel()
def _child_framed(n, j, q, uncovered, near, rows, cols, work):
    """Whether child q's node (j queens left) is ruled out by :func:`_framed_out`.

    ``near``: the cells of ``uncovered`` that q covers (:func:`_reaches` leaves them).
    """
    child = work[9]
    for r in range(n):
        child[r] = uncovered[r] & ~near[r]
    r0 = q // n
    child[r0] = _ZERO
    return _framed_out(
        n,
        j,
        rows | (_ONE << np.uint64(r0)),
        cols | (_ONE << np.uint64(q % n)),
        child,
        work[5],
        work[6],
        work[7],
    )


@kernel()
def _reaches(n, j, need, q, uncovered, cover, order, size, near, counts, best, taken):
    """Whether j queens besides q can cover ``need`` cells that q's lines leave uncovered.

    The queens stand on cells of ``order`` (the allowed cells, the largest
    ``cover`` first) other than q and the earlier siblings (``taken``: a
    mask per row), which q's subtree forbids. The scan stops early, with
    False, once even j copies of the next cover could not reach ``need``.
    """
    r0 = q // n
    c0 = q % n
    for family in range(4):
        for line in range(counts.shape[1]):
            counts[family, line] = 0
    for r in range(n):
        if r == r0:
            mask = uncovered[r]
        else:
            mask = _attacked_in(n, r0, c0, r) & uncovered[r]
        near[r] = mask
        while mask:
            c = np.int64(lowest_index(mask))
            mask &= mask - _ONE
            counts[0, r] += 1
            counts[1, c] += 1
            counts[2, c - r + n - 1] += 1
            counts[3, r + c] += 1
    filled = 0
    total = 0
    for t in range(size):
        x = order[t]
        if x == q or (taken[x // n] >> np.uint64(x % n)) & _ONE:
            continue
        if filled == j and cover[x] <= best[j - 1]:
            break  # no later cell can enter the j best
        # every later cell covers at most cover[x]: the j best can reach no more than this
        most = (j - filled) * cover[x]
        for i in range(filled):
            most += max(best[i], cover[x])
        if most < need:
            return False
        r = x // n
        c = x % n
        shared = counts[0, r] + counts[1, c] + counts[2, c - r + n - 1] + counts[3, r + c]
        if (near[r] >> np.uint64(c)) & _ONE:
            shared -= 3
        value = cover[x] - shared
        filled, total = _keep_largest(best, j, filled, total, value)
        if total >= need:
            return True
    return total >= need


@kernel()
def _centres(
    n, j, need, q, uncovered, cover, order, size, near, counts, taken, cells, worths, best, heads,
    left, mine, place,
):  # fmt: skip
    """Whether j >= 2 queens besides q may cover the ``need`` cells q leaves: two centres' bound.

    Child q must cover U (``uncovered`` less ``near``, the cells q covers;
    |U| = ``need``) with a set S of j queens on the cells of ``order`` (the
    allowed cells, the largest cover first) other than q and the kept
    earlier siblings (``taken``), which q's subtree forbids. Write A_x for
    the cells of U that x covers and v(x) = |A_x|: x's cover less q's cells
    on x's lines (``counts``: :func:`_reaches`' line counts of ``near``).

    - The members. S covers at most the sum of its v, so each member z has
      v(z) >= need - T, T the j - 1 largest v (the floor). The scan along
      ``order`` (the cover caps v and falls) stops where no later cell
      reaches the floor; had a later one been among the j - 1 largest, no j
      cells would reach ``need`` at all. The cells of v > 0 at the floor or
      above are listed by v, the largest first (``cells``: their places in
      ``order``; ``worths``); a member of v 0 covers nothing, and S without
      it still covers U.
    - Two centres. Let y be S's member listed first. By the union bound
      ``|U| <= |A_y| + sum over S's other members z of |A_z - A_y|``, where
      ``|A_z - A_y| = v(z) - |A_y & A_z|``, ``|A_y & A_z|`` being A_y's cells
      on z's four lines (``mine``: A_y's line counts) less 3 if z is in A_y
      (counted on each of its lines), and every z is listed after y. So S
      exists only if for some listed y, v(y) plus the j - 1 largest of
      these worths over the cells listed after y reach ``need``.

    No y passes: q has no completion, and is dropped (the first y that
    passes keeps it). A worth is at most v(z), and v falls along the list:
    the first members stop where y and the j - 1 cells after it fall short,
    and each scan stops as :func:`_reaches`' does. ``place``: the row,
    column and cover of each cell of ``order``; ``best``, ``heads``,
    ``left`` (U, a mask per row) and ``mine``: scratch.
    """
    filled = 0  # the j - 1 largest v, and the cells that may beat the floor
    top = 0
    m = 0
    shift = cells.shape[0] // 2  # where the sorted cells go
    for r in range(n):
        left[r] = uncovered[r] & ~near[r]
    rq = q // n
    cq = q % n
    last = -1
    for t in range(size):
        cap = place[2, t]
        if cap != last:  # at the same cap, what the j - 1 largest v can reach only grows
            last = cap
            most = (j - 1 - filled) * cap  # the j - 1 largest v can reach no more than this
            for i in range(filled):
                most += max(best[i], cap)
            if cap < need - most:
                break  # no later cell reaches the floor
        r = place[0, t]
        c = place[1, t]
        if (r == rq and c == cq) or (taken[r] >> np.uint64(c)) & _ONE:
            continue
        value = cap - counts[0, r] - counts[1, c] - counts[2, c - r + n - 1] - counts[3, r + c]
        if (near[r] >> np.uint64(c)) & _ONE:
            value += 3
        if value <= 0:
            continue
        cells[m] = t  # its place in ``order``
        worths[m] = value
        m += 1
        filled, top = _keep_largest(best, j - 1, filled, top, value)
    floor = max(need - top, 1)
    vmax = best[0] if filled > 0 else 0
    for value in range(floor, vmax + 1):
        heads[value] = 0
    for t in range(m):  # the cells at the floor or above, the largest v first: by counting
        if worths[t] >= floor:
            heads[worths[t]] += 1
    kept = 0
    for value in range(vmax, floor - 1, -1):
        many = heads[value]
        heads[value] = kept + shift
        kept += many
    for t in range(m):
        value = worths[t]
        if value >= floor:
            cells[heads[value]] = cells[t]
            worths[heads[value]] = value
            heads[value] += 1
    for a in range(shift, shift + kept):
        first = worths[a]
        if first >= need:
            return True  # y alone
        most = first  # y and the j - 1 next (fewer near the end: S may hold cells left out)
        for b in range(a + 1, min(a + j, shift + kept)):
            most += worths[b]
        if most < need:
            break  # nor from any later first member: the j from here are the largest
        ry = place[0, cells[a]]
        cy = place[1, cells[a]]
        mine[:, :] = 0  # the cells of U that y covers, per line
        for r in range(n):
            if r == ry:
                w = left[r]
            else:
                w = _attacked_in(n, ry, cy, r) & left[r]
            while w:
                c = np.int64(lowest_index(w))
                w &= w - _ONE
                mine[0, r] += 1
                mine[1, c] += 1
                mine[2, c - r + n - 1] += 1
                mine[3, r + c] += 1
        rest = need - first
        filled = 0
        total = 0
        for b in range(a + 1, shift + kept):
            cap = worths[b]
            if filled == j - 1 and cap <= best[j - 2]:
                break  # no later cell can enter the j - 1 best
            most = (j - 1 - filled) * cap
            for i in range(filled):
                most += max(best[i], cap)
            if most < rest:
                break
            r = place[0, cells[b]]
            c = place[1, cells[b]]
            value = cap - mine[0, r] - mine[1, c] - mine[2, c - r + n - 1] - mine[3, r + c]
            if (r == ry or c == cy or r - c == ry - cy or r + c == ry + cy) and (
                left[r] >> np.uint64(c)
            ) & _ONE:
                value += 3  # z itself, counted on its four lines
            if value <= 0:
                continue
            filled, total = _keep_largest(best, j - 1, filled, total, value)
            if total >= rest:
                return True
    return False


@kernel()
def _workspace(n, k):
    """The scratch arrays of :func:`_evaluate`, made once per call of a search."""
    lines = 2 * n - 1
    return (
        np.zeros(n, dtype=np.uint64),  # the uncovered cells, a mask per row
        np.zeros((4, lines), dtype=np.int64),  # uncovered cells per line, by family
        np.zeros((4, lines), dtype=np.int64),  # allowed cells per line, by family
        np.zeros(n * n, dtype=np.int64),  # what each allowed cell covers
        np.zeros(n * n, dtype=np.int64),  # the same, as a list
        np.zeros(n, dtype=np.uint64),  # the frame's uncovered cells, a mask of rows per column
        np.zeros(n, dtype=np.int64),  # the empty rows, in order
        np.zeros(n, dtype=np.int64),  # the empty columns, in order
        np.zeros(n, dtype=np.uint64),  # the allowed cells that cover enough, a mask per row
        np.zeros(n, dtype=np.uint64),  # a child's uncovered cells, a mask per row
        np.zeros(4 * n + 1, dtype=np.int64),  # the cells of each cover (_top)
    )


@kernel()
def _lookahead(n, k):
    """The scratch arrays of :func:`_ahead`, made once per call of a search."""
    lines = 2 * n - 1
    return (
        np.zeros(n, dtype=np.uint64),  # a child's lines' uncovered cells, a mask per row
        np.zeros((4, lines), dtype=np.int64),  # those cells per line, by family
        np.zeros(n * n, dtype=np.int64),  # the allowed cells, the largest cover first
        np.zeros(k + 1, dtype=np.int64),  # the j largest covers a child leaves
        np.zeros(4 * n + 1, dtype=np.int64),  # the cells of each cover, then where they go
        np.zeros(n, dtype=np.uint64),  # the children kept so far, a mask per row
        np.zeros(2 * n * n, dtype=np.int64),  # the cells that may be in a child's set, then sorted
        np.zeros(2 * n * n, dtype=np.int64),  # what each of them covers of the child's need
        np.zeros(n, dtype=np.uint64),  # the cells a child leaves uncovered, a mask per row
        np.zeros((4, lines), dtype=np.int64),  # those a first member covers, per line
        np.zeros((3, n * n), dtype=np.int64),  # row, column and cover of each cell of ``order``
    )


@kernel()
def _evaluate(n, k, depth, occ, allowed, cand, work, frame, checked):
    """Fill ``cand[depth]`` with the node's children; return how many, or ``LEAF``.

    ``checked``: the parent's look-ahead already tried the frame on this node
    (:func:`_child_framed`).

    ``LEAF``: the queens placed (exactly k) cover the board. A node whose
    queens cover the board early branches on every allowed cell (any of them
    completes the set), in order.
    """
    uncovered = work[0]
    full = (_ONE << np.uint64(n)) - _ONE
    rows, cols, diags, antis = occ[depth, 0], occ[depth, 1], occ[depth, 2], occ[depth, 3]
    total = 0
    for r in range(n):
        if (rows >> np.uint64(r)) & _ONE:
            uncovered[r] = _ZERO
        else:
            uncovered[r] = (
                full & ~cols & ~(diags >> np.uint64(n - 1 - r)) & ~(antis >> np.uint64(r))
            )
            total += popcount(uncovered[r])
    if total == 0:
        if depth == k:
            return LEAF
        m = 0
        for r in range(n):
            w = allowed[depth, r]
            while w:
                cand[depth, m] = r * n + np.int64(lowest_index(w))
                w &= w - _ONE
                m += 1
        return m
    if depth == k:
        return 0
    return _expand(n, k, depth, total, uncovered, allowed, cand, work, rows, cols, frame, checked)


@kernel()
def _descend(n, depth, occ, allowed, cand, queens, i, independent):
    """Place the i-th child of the node at ``depth`` (forbidding it to later siblings).

    ``independent``: below it, the cells it attacks are forbidden too.
    """
    q = cand[depth, i]
    r = q // n
    c = q % n
    allowed[depth, r] &= ~(_ONE << np.uint64(c))
    queens[depth] = q
    occ[depth + 1, 0] = occ[depth, 0] | (_ONE << np.uint64(r))
    occ[depth + 1, 1] = occ[depth, 1] | (_ONE << np.uint64(c))
    occ[depth + 1, 2] = occ[depth, 2] | (_ONE << np.uint64(c - r + n - 1))
    occ[depth + 1, 3] = occ[depth, 3] | (_ONE << np.uint64(r + c))
    for row in range(n):
        allowed[depth + 1, row] = allowed[depth, row]
    if independent:
        _unattacked(n, r, c, allowed[depth + 1])


@kernel()
def _follow(n, depth, allowed, cand, ncand, nxt, i):
    """Keep only child i of the node at ``depth`` (a part's path): forbid the children before it."""
    for t in range(i):
        q = cand[depth, t]
        allowed[depth, q // n] &= ~(_ONE << np.uint64(q % n))
    nxt[depth] = i
    ncand[depth] = i + 1


@kernel()
def children(n, k, independent, frame, path, occ, allowed, cand, ncand, nxt, queens, counters):
    """How many children the node at the end of ``path`` has (0: it ends there; -1: no such node).

    The state is :func:`start`'s; the part's planner splits by these, with
    the ``frame`` cut on or off as the parts' :func:`search` will have it.
    """
    work = _workspace(n, k)
    depth = counters[DEPTH]
    for level in range(path.shape[0] + 1):
        m = _evaluate(n, k, depth, occ, allowed, cand, work, frame, False)
        if level == path.shape[0]:
            return max(m, 0)
        if path[level] >= m:
            return -1
        _follow(n, depth, allowed, cand, ncand, nxt, path[level])
        _descend(n, depth, occ, allowed, cand, queens, path[level], independent)
        depth += 1
    return 0


@kernel()
def search(
    n, k, independent, frame, q0, images, path, occ, allowed, cand, ncand, nxt, queens, counters,
    first, budget,
):  # fmt: skip
    """Search the part: the sets of k queens dominating the n x n board below ``path``.

    ``independent``: only sets of which no queen attacks another (the state
    made by :func:`start` with the same flag). ``frame``: cut nodes by the
    frame of the empty rows and columns too (:func:`_framed_out`; the sets
    found are the same, only fewer nodes are searched).
    ``path[i]`` is the child taken at the i-th node below the start (the
    part's prefix; empty: the whole subtree). Counts the sets found (weighted
    by their class size, see the module's docstring) in ``counters[SETS]``
    and their classes in ``counters[CLASSES]``; with ``first`` it stops at the
    first set found (returns ``FOUND``, the set in ``queens[:k]``). Runs at
    most ``budget`` nodes, then returns ``PAUSED``; ``EXHAUSTED`` at the end,
    ``NO_PATH`` if the path names a child that does not exist.
    """
    work = _workspace(n, k)
    scratch = _lookahead(n, k)
    found = np.zeros(k, dtype=np.int64)
    depth = counters[DEPTH]
    nodes = 0
    status = EXHAUSTED
    while depth >= 0:
        if counters[FRESH]:
            if nodes >= budget:
                status = PAUSED
                break
            nodes += 1
            counters[FRESH] = 0
            nxt[depth] = 0
            level = depth - counters[ROOT]  # the node's place along the part's path
            on_path = 0 <= level < path.shape[0]
            # the parent's look-ahead tried this node's frame (the parent is off the path)
            checked = frame >= TARGET and level - 1 >= path.shape[0]
            m = _evaluate(
                n, k, depth, occ, allowed, cand, work,
                min(frame, AHEAD) if on_path else frame, checked,
            )  # fmt: skip
            # a node of the path branches as plan() saw it: on the same cell
            if m > 0 and frame >= AHEAD and not on_path and k - depth >= 2:
                # and with no look-ahead
                m = _ahead(
                    n, k - depth, work[0], allowed[depth], work[3], cand[depth], m, scratch,
                    occ[depth, 0], occ[depth, 1], work, frame,
                )  # fmt: skip
            if m == LEAF:
                for i in range(k):
                    found[i] = queens[i]
                found.sort()
                weight = _canonical(found, k, q0, images)
                depth -= 1
                if weight > 0:
                    counters[SETS] += weight
                    counters[CLASSES] += 1
                    if first:
                        queens[:k] = found
                        status = FOUND
                        break
                continue
            ncand[depth] = m
            if on_path:
                if path[level] >= m:
                    status = NO_PATH
                    break
                _follow(n, depth, allowed, cand, ncand, nxt, path[level])
            continue
        i = nxt[depth]
        if i >= ncand[depth]:
            depth -= 1
            continue
        nxt[depth] = i + 1
        _descend(n, depth, occ, allowed, cand, queens, i, independent)
        depth += 1
        counters[FRESH] = 1
    counters[DEPTH] = depth
    counters[NODES] += nodes
    return status
