"""Independent dominating queens, searched by their empty rows and columns.

k independent queens on an n x n board take k distinct rows R and k
distinct columns C (a bijection R -> C), so they cover every cell of R and
of C; the m = n - k empty rows ER and empty columns EC meet in m^2 cells that
only diagonals can cover. The search chooses ER (given by the caller) and EC
(here, column by column), then the bijection:

- **the empty columns**: the cells ER x EC are edges of a bipartite graph
  between the diagonals (``c - r``) and the anti-diagonals (``r + c``) through
  them; a queen's two lines have the parity of its cell's colour, so if e
  queens stand on one colour, that colour's cells need a cover by at most e
  diagonals and e anti-diagonals, at least half a maximum matching of the
  colour's graph (Konig). A choice of EC (or a part of it) is cut when the
  two colours need more than k queens. The matching grows with each column.
  A whole pair is then cut unless each colour's cells can be covered by
  that colour's own independent queens on R x C, as many as the colour can
  have (the colours' split is fixed by parity, :func:`_colours_cover`).
- **the queens**: one per row of R, on the columns of C, no two on a line,
  every cell of ER x EC on a queen's diagonal. The search branches on the
  tightest constraint: the uncovered cell with the fewest (row, column)
  choices, or the row with the fewest columns left (each later branch
  forbids the choices before it, so each set is met once), and cuts a node
  when a row has no column left or when the same colour test fails on the
  uncovered cells and the rows left (each at its allowed columns).

The board's 8 symmetries act on the pairs (ER, EC): the row and column
reflections reverse ER or EC, the transpose swaps them. A pair is searched
only if it is the least of its images (as masks), and its sets count as
many times as the pair has images; a count of classes counts the sets of
the pair that are the least of their images under the pair's stabiliser.
numba code only.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import lowest_index, popcount
from cpqueens.kernels.jit import kernel

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
#: counters[...]: the pairs (ER, EC) searched, the lattice nodes, the sets (weighted), classes.
PAIRS, NODES, SETS, CLASSES = 0, 1, 2, 3
COUNTERS = 4


@kernel()
def reverse(mask, n):
    """The mask of lines ``n - 1 - i`` for the lines i of ``mask``."""
    out = _ZERO
    w = mask
    while w:
        i = np.int64(lowest_index(w))
        w &= w - _ONE
        out |= _ONE << np.uint64(n - 1 - i)
    return out


@kernel()
def _image(g, rows, cols, n):
    """The image of the pair (rows, cols) of masks under symmetry g (4: transpose, 1, 2: flips)."""
    a, b = rows, cols
    if g & 4:
        a, b = cols, rows
    if g & 1:
        a = reverse(a, n)
    if g & 2:
        b = reverse(b, n)
    return a, b


@kernel()
def _stabiliser(n, rows, cols, stab):
    """The symmetries that fix the pair, in ``stab``; how many (0: the pair is not the least)."""
    h = 0
    for g in range(8):
        a, b = _image(g, rows, cols, n)
        if a < rows or (a == rows and b < cols):
            return 0
        if a == rows and b == cols:
            stab[h] = g
            h += 1
    return h


@kernel()
def _augment(n, adj, mate_d, mate_s, parent, queue):
    """Grow the matching by one alternating path from any free diagonal; whether there was one.

    One breadth-first search from every free diagonal at once: its cost is
    the edges', however many diagonals are free.
    """
    lines = 2 * n - 1
    seen = _ZERO
    head = 0
    tail = 0
    for d in range(lines):
        if mate_d[d] < 0 and adj[d] != _ZERO:
            queue[tail] = d
            tail += 1
    while head < tail:
        d = queue[head]
        head += 1
        w = adj[d] & ~seen
        while w:
            s = np.int64(lowest_index(w))
            w &= w - _ONE
            seen |= _ONE << np.uint64(s)
            parent[s] = d
            if mate_s[s] < 0:
                while True:
                    dd = parent[s]
                    before = mate_d[dd]
                    mate_d[dd] = s
                    mate_s[s] = dd
                    if before < 0:
                        return True
                    s = before
            queue[tail] = mate_s[s]
            tail += 1
    return False


@kernel()
def _queens_needed(n, adj, mate_d, mate_s, parent, queue):
    """Complete the matching (a column's edges were added); the queens the two colours need."""
    while _augment(n, adj, mate_d, mate_s, parent, queue):
        pass
    lines = 2 * n - 1
    even = 0
    odd = 0
    for d in range(lines):
        if mate_d[d] >= 0:
            if (d - (n - 1)) % 2 == 0:
                even += 1
            else:
                odd += 1
    return (even + 1) // 2 + (odd + 1) // 2


@kernel()
def _colour_matched(n, mate_d):
    """The diagonals matched in ``mate_d``, of each colour: (r + c even, odd)."""
    even = 0
    odd = 0
    for d in range(2 * n - 1):
        if mate_d[d] >= 0:
            if (d - (n - 1)) % 2 == 0:
                even += 1
            else:
                odd += 1
    return even, odd


@kernel()
def _colour_covered(
    n, k, rows, allow, cells, ncells, used_d, used_s, colour, cap, work, cov, hit, conf
):
    """Whether at most ``cap`` independent queens of one colour cover that colour's open cells.

    The open cells (``cells[:ncells]``, each ``a * n + b``, off the diagonals of
    ``used_d`` and the anti-diagonals of ``used_s``) of ``colour``
    ((a + b) % 2) lie only on lines of their colour, so the queens of that
    colour (row ``rows[i]`` at a column of ``allow[i]``, no two on a line)
    must cover them alone. A search over the queens that cover the cell with
    the fewest of them, to depth ``cap`` (each later branch forbids the
    queens before it). Cells or queens beyond 64: True (not tested).
    ``work``: a (9, 2n - 1) uint64 scratch array; ``cov``, ``hit``, ``conf``:
    64 uint64 each.
    """
    lines = 2 * n - 1
    dcell = work[0]
    scell = work[1]
    qd = work[2]
    qs = work[3]
    qr = work[4]
    qc = work[5]
    for t in range(6):
        for d in range(lines):
            work[t, d] = 0
    nc = 0
    for t in range(ncells):
        a = cells[t] // n
        b = cells[t] % n
        if (a + b) % 2 != colour:
            continue
        if (used_d >> np.uint64(b - a + n - 1)) & _ONE or (used_s >> np.uint64(a + b)) & _ONE:
            continue
        if nc == 64:
            return True
        bit = _ONE << np.uint64(nc)
        dcell[b - a + n - 1] |= bit
        scell[a + b] |= bit
        nc += 1
    if nc == 0:
        return True
    if cap <= 0:
        return False
    nq = 0
    for i in range(k):
        r = rows[i]
        w = allow[i]
        while w:
            c = np.int64(lowest_index(w))
            w &= w - _ONE
            if (r + c) % 2 != colour:
                continue
            v = dcell[c - r + n - 1] | scell[r + c]
            if v == _ZERO:
                continue  # covers none: the cover does not need it
            if nq == 64:
                return True
            cov[nq] = v
            bit = _ONE << np.uint64(nq)
            qd[c - r + n - 1] |= bit
            qs[r + c] |= bit
            qr[r] |= bit
            qc[c] |= bit
            hit[nq] = np.uint64(r * n + c)  # the cell, until the conflicts are known
            nq += 1
    for q in range(nq):  # a queen's conflicts: the queens on its four lines
        cell = np.int64(hit[q])
        r = cell // n
        c = cell % n
        conf[q] = qd[c - r + n - 1] | qs[r + c] | qr[r] | qc[c]
    # the queens that cover each cell, by the cell's diagonal and anti-diagonal
    for d in range(lines):
        w = dcell[d]
        while w:
            j = np.int64(lowest_index(w))
            w &= w - _ONE
            hit[j] = qd[d]
    for s in range(lines):
        w = scell[s]
        while w:
            j = np.int64(lowest_index(w))
            w &= w - _ONE
            hit[j] |= qs[s]
    everything = _ZERO - _ONE if nc == 64 else (_ONE << np.uint64(nc)) - _ONE
    covered = work[6]  # by depth: the cells covered, the queens left, the branches left
    avail = work[7]
    todo = work[8]
    covered[0] = 0
    avail[0] = _ZERO - _ONE if nq == 64 else (_ONE << np.uint64(nq)) - _ONE
    t = 0
    fresh = True
    while t >= 0:
        if fresh:
            fresh = False
            left = everything & ~covered[t]
            if left == _ZERO:
                return True
            if t == cap:
                t -= 1
                continue
            # the cell with the fewest queens, and cells no two of which one queen covers
            fewest = 65
            choice = _ZERO
            apart = 0
            taken = _ZERO
            w = left
            while w:
                j = np.int64(lowest_index(w))
                w &= w - _ONE
                o = hit[j] & avail[t]
                size = popcount(o)
                if size < fewest:
                    fewest = size
                    choice = o
                    if size == 0:
                        break
                if o & taken == _ZERO:
                    apart += 1
                    taken |= o
            if fewest == 0 or apart > cap - t:
                t -= 1
                continue
            if t + 1 == cap:  # the last queen must cover every cell left
                w = choice
                while w:
                    q = np.int64(lowest_index(w))
                    w &= w - _ONE
                    if left & ~cov[q] == _ZERO:
                        return True
                t -= 1
                continue
            todo[t] = choice
        if todo[t] == _ZERO:
            t -= 1
            continue
        q = np.int64(lowest_index(todo[t]))
        bit = _ONE << np.uint64(q)
        todo[t] &= ~bit
        avail[t] &= ~bit
        covered[t + 1] = covered[t] | cov[q]
        avail[t + 1] = avail[t] & ~conf[q]
        t += 1
        fresh = True
    return False


@kernel()
def _cover_scratch(n):
    """The scratch arrays of :func:`_colours_cover` for an n x n board."""
    work = np.zeros((9, 2 * n - 1), dtype=np.uint64)
    return (
        work,
        np.zeros(64, dtype=np.uint64),
        np.zeros(64, dtype=np.uint64),
        np.zeros(64, dtype=np.uint64),
    )


@kernel()
def _colours_cover(n, k, rows, allow, cells, ncells, used_d, used_s, need_even, need_odd, scratch):
    """Whether the queens still to place, split by colour, can cover the open cells.

    The rows ``rows[i]`` with ``allow[i]`` non-zero take a queen each, at a
    column of ``allow[i]``, on distinct columns (every one of their union,
    when the union has as many columns as rows). The e of them
    on cells with r + c even take e = 2x + |rows odd| - |columns even| (x of
    them on even rows): e has one parity and a range, and each colour needs
    at least ``need_even`` / ``need_odd`` queens (the caller's bound) and,
    searched exactly, a cover of its open cells by its own independent
    queens (:func:`_colour_covered`). ``scratch``: (work, cov, hit, conf) as
    that function takes them.
    """
    work, cov, hit, conf = scratch
    even_rows = 0
    odd_rows = 0
    cols = _ZERO
    for i in range(k):
        if allow[i]:
            cols |= allow[i]
            if rows[i] % 2 == 0:
                even_rows += 1
            else:
                odd_rows += 1
    total = even_rows + odd_rows
    taken = np.int64(popcount(cols))
    if taken < total:
        return False  # a column that no row can take
    lo = -1
    hi = -1
    if taken == total:  # every column takes a queen
        even_cols = np.int64(popcount(cols & np.uint64(0x5555555555555555)))
        for x in range(max(0, even_cols - odd_rows), min(even_rows, even_cols) + 1):
            e = 2 * x + odd_rows - even_cols
            if e >= need_even and total - e >= need_odd:
                if lo < 0:
                    lo = e
                hi = e
    elif need_even + need_odd <= total:
        lo = need_even
        hi = total - need_odd
    if lo < 0:
        return False
    for colour in range(2):  # one call: each call inlined is compiled again
        cap = hi if colour == 0 else total - lo
        if not _colour_covered(
            n, k, rows, allow, cells, ncells, used_d, used_s, colour, cap, work, cov, hit, conf
        ):
            return False
    return True


@kernel()
def _class_least(n, k, rows, col_of, stab, h, image):
    """Whether the set (``rows[i]``, ``col_of[i]``) is the least of its images under ``stab``."""
    for t in range(1, h):
        g = stab[t]
        for i in range(k):
            a, b = rows[i], col_of[i]
            if g & 4:
                a, b = b, a
            if g & 1:
                a = n - 1 - a
            if g & 2:
                b = n - 1 - b
            cell = a * n + b
            j = i  # insertion sort (numba's sort costs seconds of compile time)
            while j > 0 and image[j - 1] > cell:
                image[j] = image[j - 1]
                j -= 1
            image[j] = cell
        # the set itself, sorted: rows are increasing, so its cells are in order
        for i in range(k):
            own = rows[i] * n + col_of[i]
            if image[i] != own:
                if image[i] < own:
                    return False
                break
    return True


@kernel()
def _cell_choices(n, k, rows, col_of, allow, a, b, pick_i, pick_c, fill):
    """The (row, column) choices of a queen on a line of the cell (a, b); ``fill``: listed too.

    The rows without a queen yet, each at the columns of ``allow[i]`` on the
    cell's diagonal (``r - a + b``) or anti-diagonal (``a + b - r``); with
    ``fill``, choice t is row index ``pick_i[t]`` at column ``pick_c[t]``.
    """
    choices = 0
    for i in range(k):
        if col_of[i] >= 0:
            continue
        r = rows[i]
        c1 = r - a + b
        c2 = a + b - r
        if 0 <= c1 < n and (allow[i] >> np.uint64(c1)) & _ONE:
            if fill:
                pick_i[choices] = i
                pick_c[choices] = c1
            choices += 1
        if c2 != c1 and 0 <= c2 < n and (allow[i] >> np.uint64(c2)) & _ONE:
            if fill:
                pick_i[choices] = i
                pick_c[choices] = c2
            choices += 1
    return choices


@kernel()
def lattice(n, k, rows, cols, first, stab, h, found, counters):
    """Count (or find) the independent queens on rows x cols that cover the cells off them.

    ``rows`` (k rows, increasing) and ``cols`` (a mask of k columns); the
    cells left, off both, must lie on a queen's diagonal or anti-diagonal.
    Adds the sets to ``counters[SETS]`` (each weighted 8 / h, the size of
    the pair's orbit) and the least of each orbit under ``stab[:h]`` to
    ``counters[CLASSES]``. ``first``: stops at the first set, its columns
    in ``found`` (``found[i]`` the column of ``rows[i]``); returns whether
    one was found.
    """
    weight = 8 // h
    full = (_ONE << np.uint64(n)) - _ONE
    on_row = np.zeros(n, dtype=np.bool_)
    for i in range(k):
        on_row[rows[i]] = True
    left = np.zeros(n * n, dtype=np.int64)
    cells = 0
    for a in range(n):
        if on_row[a]:
            continue
        for b in range(n):
            if not (cols >> np.uint64(b)) & _ONE:
                left[cells] = a * n + b
                cells += 1
    col_of = np.full(k, -1, dtype=np.int64)
    forb = np.zeros((k + 1, k), dtype=np.uint64)
    allow = np.zeros(k, dtype=np.uint64)
    width = 2 * k + n
    pick_i = np.zeros((k + 1, width), dtype=np.int64)
    pick_c = np.zeros((k + 1, width), dtype=np.int64)
    count = np.zeros(k + 1, dtype=np.int64)
    nxt = np.zeros(k + 1, dtype=np.int64)
    image = np.zeros(k, dtype=np.int64)
    scratch = _cover_scratch(n)
    used_c = _ZERO
    used_d = _ZERO
    used_s = _ZERO
    depth = 0
    fresh = True
    nodes = 0
    while depth >= 0:
        if fresh:
            fresh = False
            nodes += 1
            count[depth] = 0
            nxt[depth] = 0
            if depth == k:
                # every row has its queen; the cells left are covered (checked before)
                counters[SETS] += weight
                if h == 1 or _class_least(n, k, rows, col_of, stab, h, image):
                    counters[CLASSES] += 1
                if first:
                    for i in range(k):
                        found[i] = col_of[i]
                    counters[NODES] += nodes
                    return True
                depth -= 1
                continue
            uncovered = 0
            for t in range(cells):
                a = left[t] // n
                b = left[t] % n
                if not ((used_d >> np.uint64(b - a + n - 1)) & _ONE) and not (
                    (used_s >> np.uint64(a + b)) & _ONE
                ):
                    uncovered += 1
            dead = False
            best_row = -1
            best_row_size = n + 1
            for i in range(k):
                if col_of[i] >= 0:
                    allow[i] = 0  # no queen to place: the cover test skips the row
                    continue
                r = rows[i]
                w = (
                    cols
                    & ~used_c
                    & ~(used_d >> np.uint64(n - 1 - r))
                    & ~(used_s >> np.uint64(r))
                    & ~forb[depth, i]
                    & full
                )
                allow[i] = w
                size = popcount(w)
                if size == 0:
                    dead = True
                    break
                if size < best_row_size:
                    best_row_size = size
                    best_row = i
            if dead:
                depth -= 1
                continue
            if uncovered > 2 and depth > 0:  # each colour's open cells by its own queens
                if not _colours_cover(
                    n, k, rows, allow, left, cells, used_d, used_s, 0, 0, scratch
                ):
                    depth -= 1
                    continue
            m = 0
            if uncovered:
                fewest = 2 * k + 1
                target = -1
                for t in range(cells):
                    a = left[t] // n
                    b = left[t] % n
                    if (used_d >> np.uint64(b - a + n - 1)) & _ONE or (
                        used_s >> np.uint64(a + b)
                    ) & _ONE:
                        continue
                    choices = _cell_choices(
                        n, k, rows, col_of, allow, a, b, pick_i[depth], pick_c[depth], False
                    )
                    if choices < fewest:
                        fewest = choices
                        target = left[t]
                        if choices == 0:
                            break
                if fewest == 0:
                    depth -= 1
                    continue
                if fewest <= best_row_size:
                    a = target // n
                    b = target % n
                    m = _cell_choices(
                        n, k, rows, col_of, allow, a, b, pick_i[depth], pick_c[depth], True
                    )
            if m == 0:  # branch on the row with the fewest columns
                w = allow[best_row]
                while w:
                    c = np.int64(lowest_index(w))
                    w &= w - _ONE
                    pick_i[depth, m] = best_row
                    pick_c[depth, m] = c
                    m += 1
            count[depth] = m
            continue
        if nxt[depth] > 0:  # take back the last branch, and forbid it to the next ones
            t = nxt[depth] - 1
            i = pick_i[depth, t]
            c = pick_c[depth, t]
            r = rows[i]
            col_of[i] = -1
            used_c &= ~(_ONE << np.uint64(c))
            used_d &= ~(_ONE << np.uint64(c - r + n - 1))
            used_s &= ~(_ONE << np.uint64(r + c))
            forb[depth, i] |= _ONE << np.uint64(c)
        if nxt[depth] >= count[depth]:
            depth -= 1
            continue
        t = nxt[depth]
        nxt[depth] += 1
        i = pick_i[depth, t]
        c = pick_c[depth, t]
        r = rows[i]
        col_of[i] = c
        used_c |= _ONE << np.uint64(c)
        used_d |= _ONE << np.uint64(c - r + n - 1)
        used_s |= _ONE << np.uint64(r + c)
        for i in range(k):
            forb[depth + 1, i] = forb[depth, i]
        depth += 1
        fresh = True
    counters[NODES] += nodes
    return False


@kernel()
def _outside_in(n):
    """The columns from the edges in (n - 1, 0, n - 2, 1, ...), and after each the decided blocks.

    ``high[p]``: the mask of the columns above the lowest column all of whose
    upper neighbours are decided once ``order[:p + 1]`` are; ``low[p]`` the
    same from below.
    """
    order = np.zeros(n, dtype=np.int64)
    high = np.zeros(n, dtype=np.uint64)
    low = np.zeros(n, dtype=np.uint64)
    top = n - 1
    bottom = 0
    for p in range(n):
        if p % 2 == 0:
            order[p] = top
            top -= 1
        else:
            order[p] = bottom
            bottom += 1
        decided = _ZERO
        for q in range(p + 1):
            decided |= _ONE << np.uint64(order[q])
        h = n
        while h > 0 and (decided >> np.uint64(h - 1)) & _ONE:
            h -= 1
        lo = 0
        while lo < n and (decided >> np.uint64(lo)) & _ONE:
            lo += 1
        full = (_ONE << np.uint64(n)) - _ONE
        high[p] = full & ~((_ONE << np.uint64(h)) - _ONE)
        low[p] = (_ONE << np.uint64(lo)) - _ONE
    return order, high, low


@kernel()
def search(n, k, empty_rows, first, found, counters):
    """Search the pairs (ER, EC) with ER = ``empty_rows`` (a mask of n - k rows), EC least.

    The columns are decided from the edges in (:func:`_outside_in`), so that
    EC's highest columns and its lowest ones (its reflection's highest) are
    known early: a pair is the least of its images only if ER is at most EC
    and EC reversed. Every mask EC of n - k columns whose cells ER x EC two
    colours of queens can cover (the matching bound) and whose pair is the
    least of its images is searched by :func:`lattice`. ``first``: stops at
    the first set (``found[i]`` the column of the queen on the i-th row off
    ER, ``found[k]`` the mask EC); returns whether one was found.
    """
    m = n - k
    lines = 2 * n - 1
    er = np.zeros(m, dtype=np.int64)
    rows = np.zeros(k, dtype=np.int64)
    e = 0
    q = 0
    for a in range(n):
        if (empty_rows >> np.uint64(a)) & _ONE:
            er[e] = a
            e += 1
        else:
            rows[q] = a
            q += 1
    # the matching with c columns chosen is kept at index c
    adj = np.zeros((m + 1, lines), dtype=np.uint64)
    mate_d = np.full((m + 1, lines), -1, dtype=np.int64)
    mate_s = np.full((m + 1, lines), -1, dtype=np.int64)
    parent = np.zeros(lines, dtype=np.int64)
    queue = np.zeros(2 * lines + 1, dtype=np.int64)
    stab = np.zeros(8, dtype=np.int64)
    scratch = _cover_scratch(n)
    cells = np.zeros(m * m, dtype=np.int64)
    allow = np.zeros(k, dtype=np.uint64)
    full = (_ONE << np.uint64(n)) - _ONE
    order, high, low = _outside_in(n)
    tried = np.zeros(n + 1, dtype=np.int64)
    chosen = np.zeros(n + 1, dtype=np.int64)
    ecm = np.zeros(n + 1, dtype=np.uint64)
    p = 0
    while p >= 0:
        c = chosen[p]
        if c == m:  # the other columns are all taken: a pair
            counters[PAIRS] += 1
            h = _stabiliser(n, empty_rows, ecm[p], stab)
            cols = full & ~ecm[p]
            good = h > 0
            if good:
                t = 0
                for x in range(m):
                    w = ecm[p]
                    while w:
                        b = np.int64(lowest_index(w))
                        w &= w - _ONE
                        cells[t] = er[x] * n + b
                        t += 1
                for i in range(k):
                    allow[i] = cols
                need_even, need_odd = _colour_matched(n, mate_d[m])
                need_even = (need_even + 1) // 2
                need_odd = (need_odd + 1) // 2
                good = _colours_cover(
                    n, k, rows, allow, cells, t, _ZERO, _ZERO, need_even, need_odd, scratch
                )
            if good and lattice(n, k, rows, cols, first, stab, h, found, counters):
                found[k] = np.int64(ecm[p])
                return True
            p -= 1
            continue
        if p == n or tried[p] == 2:
            p -= 1
            continue
        option = tried[p]
        tried[p] += 1
        b = order[p]
        if option == 0:  # b is an empty column
            mask = ecm[p] | (_ONE << np.uint64(b))
        else:  # b holds a queen
            if n - p - 1 < m - c:
                continue
            mask = ecm[p]
        hi = high[p]
        lo = low[p]
        if mask & hi < empty_rows & hi:
            continue
        if reverse(mask & lo, n) < empty_rows & reverse(lo, n):
            continue
        if option == 0:
            adj[c + 1] = adj[c]
            mate_d[c + 1] = mate_d[c]
            mate_s[c + 1] = mate_s[c]
            for x in range(m):
                a = er[x]
                adj[c + 1, b - a + n - 1] |= _ONE << np.uint64(a + b)
            if _queens_needed(n, adj[c + 1], mate_d[c + 1], mate_s[c + 1], parent, queue) > k:
                continue
            chosen[p + 1] = c + 1
        else:
            chosen[p + 1] = c
        ecm[p + 1] = mask
        tried[p + 1] = 0
        p += 1
    return False


def empty_row_masks(n: int, k: int) -> list[int]:
    """The masks of n - k rows that are not above their reflection: one per pair {ER, reversed}."""
    from itertools import combinations

    out = []
    for rows in combinations(range(n), n - k):
        mask = sum(1 << a for a in rows)
        flipped = sum(1 << (n - 1 - a) for a in rows)
        if mask <= flipped:
            out.append(mask)
    return out
