"""Peaceable armies by their line labels: an exact, resumable branch-and-bound.

Two cells attack each other when they share a line, so in a pair of mutually
maximal peaceable armies every line is used by at most one army, and a cell is
white exactly when every line through it is "white" (black likewise): the
armies are a function of one label per line. The search labels lines, one at
a time, and maximises ``min(|W|, |B|)``.

Each free cell lies on at least one line (the caller gives an isolated cell a
line of its own). ``killw[c]`` counts the lines through cell c labelled black
(then c cannot be white), ``killb[c]`` the lines labelled white; ``pw[l]``
and ``pb[l]`` count the cells of line l that may still be white, black.

The bound: the lines of one *family* are pairwise disjoint (the rows, or the
diagonals of one direction); every cell of the family's lines ends up in at
most one army, white only if its line is white. Cells on no line of the
family are items of their own. A knapsack over the family's items says
whether both armies can still reach ``target``: the best black total for each
capped white total. Every family gives a true bound; a node is cut when one
of them says no.

Symmetry: ``u >=lex g(u)`` for each element g of the group (board symmetries,
the colour swap), checked on the labelled prefix. A node where no unlabelled
line may hold both armies is a leaf: labelling each line the side that loses
nothing keeps every possible cell, so ``min(possible white, possible black)``
is reached, and no completion does better (lex-leader keeps the class's
leader, which lies below some such node too).

numba code only; the arrays are made by :mod:`cpqueens.backends.bitmask.lines`.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.jit import kernel

WHITE = 0
BLACK = 1
FREE = -1


@kernel()
def _assign(line, value, label, killw, killb, pw, pb, counts, line_start, line_cells, cell_lines):
    """Label ``line`` with ``value``; update the kills, the per-line counts and ``counts``."""
    label[line] = value
    for k in range(line_start[line], line_start[line + 1]):
        c = line_cells[k]
        if value == WHITE:
            killb[c] += 1
            if killb[c] == 1:
                counts[1] -= 1
                for j in range(cell_lines.shape[1]):
                    other = cell_lines[c, j]
                    if other < 0:
                        break
                    pb[other] -= 1
        else:
            killw[c] += 1
            if killw[c] == 1:
                counts[0] -= 1
                for j in range(cell_lines.shape[1]):
                    other = cell_lines[c, j]
                    if other < 0:
                        break
                    pw[other] -= 1


@kernel()
def _unassign(line, label, killw, killb, pw, pb, counts, line_start, line_cells, cell_lines):
    """Undo :func:`_assign` of ``line``."""
    value = label[line]
    label[line] = FREE
    for k in range(line_start[line], line_start[line + 1]):
        c = line_cells[k]
        if value == WHITE:
            killb[c] -= 1
            if killb[c] == 0:
                counts[1] += 1
                for j in range(cell_lines.shape[1]):
                    other = cell_lines[c, j]
                    if other < 0:
                        break
                    pb[other] += 1
        else:
            killw[c] -= 1
            if killw[c] == 0:
                counts[0] += 1
                for j in range(cell_lines.shape[1]):
                    other = cell_lines[c, j]
                    if other < 0:
                        break
                    pw[other] += 1


@kernel()
def _reach(
    target, label, killw, killb, pw, pb, fam_start, fam_lines, single_start, single_cells, dp, nxt
):
    """Whether every family's knapsack lets both armies reach ``target`` (see the module).

    Items without a choice (a labelled line, a line or cell only one army
    may still use) are summed first; the cells either army may take are
    ``flex`` units split at the end; only the contested lines go through the
    table ``dp[w] = the most black for w white`` (w capped at ``target``).
    ``nxt`` holds the contested lines' (white, black) pairs.
    """
    for f in range(fam_start.shape[0] - 1):
        fa = 0
        fb = 0
        flex = 0
        most_a = 0
        most_b = 0
        contested = 0
        for k in range(fam_start[f], fam_start[f + 1]):
            line = fam_lines[k]
            a = pw[line]
            b = pb[line]
            if label[line] == WHITE:
                b = 0
            elif label[line] == BLACK:
                a = 0
            if a > 0 and b > 0:
                nxt[2 * contested] = a
                nxt[2 * contested + 1] = b
                contested += 1
                most_a += a
                most_b += b
            else:
                fa += a
                fb += b
        for k in range(single_start[f], single_start[f + 1]):
            c = single_cells[k]
            a = 1 if killw[c] == 0 else 0
            b = 1 if killb[c] == 0 else 0
            if a > 0 and b > 0:
                flex += 1
            else:
                fa += a
                fb += b
        if fa + most_a + flex < target or fb + most_b + flex < target:
            return False
        if fa >= target and fb >= target:
            continue
        for j in range(target + 1):
            dp[j] = -1
        dp[min(fa, target)] = fb
        for i in range(contested):
            a = nxt[2 * i]
            b = nxt[2 * i + 1]
            # descending j: dp[j] is read before any write to an index >= j lands
            for j in range(target, -1, -1):
                if dp[j] >= 0:
                    t = min(j + a, target)
                    white = dp[j]  # the line goes white: +a white, +0 black
                    dp[j] = white + b  # the line goes black: +b black
                    if t != j and white > dp[t]:
                        dp[t] = white
        ok = False
        for j in range(target + 1):
            if dp[j] >= 0:
                t = max(0, target - j)
                if t <= flex and dp[j] + flex - t >= target:
                    ok = True
                    break
        if not ok:
            return False
    return True


@kernel()
def _leader(label, perms, swaps):
    """False if some g proves the labelled prefix is not ``>=lex g(u)`` (white before black)."""
    lines = label.shape[0]
    for g in range(perms.shape[0]):
        for i in range(lines):
            a = label[i]
            b = label[perms[g, i]]
            if a < 0 or b < 0:
                break
            if swaps[g]:
                b = 1 - b
            if a != b:
                if a == BLACK:  # u is black (0) where g(u) is white (1): u <lex g(u)
                    return False
                break
    return True


@kernel()
def search(
    state,
    label,
    killw,
    killb,
    pw,
    pb,
    counts,
    depth_line,
    depth_phase,
    best_label,
    line_start,
    line_cells,
    cell_lines,
    fam_start,
    fam_lines,
    single_start,
    single_cells,
    perms,
    swaps,
    budget,
):
    """Run the branch-and-bound for at most ``budget`` nodes; resumable.

    ``state``: [depth, entering (1) or backtracking (0), best value, nodes,
    done (1 when the tree is exhausted)]. ``counts``: [possible white cells,
    possible black cells]. The best labelling found is copied into
    ``best_label`` (unlabelled lines of a leaf get the side that loses nothing).
    Call again while ``state[4] == 0``; the best value is then proved when the
    tree is exhausted.
    """
    lines = label.shape[0]
    # the knapsack's table, indexed up to a target: at most the number of cells (the counts
    # at this slice's first node may be smaller than at a node it backtracks to)
    dp = np.empty(killw.shape[0] + 2, dtype=np.int64)
    nxt = np.empty(2 * lines + 2, dtype=np.int64)
    depth = state[0]
    entering = state[1]
    best = state[2]
    nodes = 0
    while nodes < budget:
        if entering:
            nodes += 1
            entering = 0
            target = best + 1
            cut = counts[0] < target or counts[1] < target
            if not cut:
                cut = not _leader(label, perms, swaps)
            if not cut:
                cut = not _reach(
                    target,
                    label,
                    killw,
                    killb,
                    pw,
                    pb,
                    fam_start,
                    fam_lines,
                    single_start,
                    single_cells,
                    dp,
                    nxt,
                )
            if not cut:
                # branch on the most contested line: the most cells each army would lose
                choice = -1
                score = -1
                for line in range(lines):
                    if label[line] == FREE and pw[line] > 0 and pb[line] > 0:
                        s = min(pw[line], pb[line]) * 1024 + pw[line] + pb[line]
                        if s > score:
                            score = s
                            choice = line
                if choice >= 0:
                    # the side that keeps more slack first
                    first = WHITE if counts[1] - pb[choice] >= counts[0] - pw[choice] else BLACK
                    depth_line[depth] = choice
                    depth_phase[depth] = first
                    depth += 1
                    _assign(
                        choice,
                        first,
                        label,
                        killw,
                        killb,
                        pw,
                        pb,
                        counts,
                        line_start,
                        line_cells,
                        cell_lines,
                    )
                    entering = 1
                    continue
                value = min(counts[0], counts[1])
                if value > best:
                    best = value
                    for line in range(lines):
                        v = label[line]
                        if v == FREE:
                            v = WHITE if pb[line] == 0 else BLACK
                        best_label[line] = v
            # a cut or a leaf: go back up
        # backtrack: undo the deepest label, try its other side, or pop
        if depth == 0:
            state[4] = 1
            break
        line = depth_line[depth - 1]
        phase = label[line]
        _unassign(line, label, killw, killb, pw, pb, counts, line_start, line_cells, cell_lines)
        if phase == depth_phase[depth - 1]:  # the first side was tried: now the second
            _assign(
                line,
                1 - phase,
                label,
                killw,
                killb,
                pw,
                pb,
                counts,
                line_start,
                line_cells,
                cell_lines,
            )
            entering = 1
        else:
            depth -= 1
    state[0] = depth
    state[1] = entering
    state[2] = best
    state[3] += nodes


@kernel()
def open_bound(
    state,
    label,
    depth_line,
    depth_phase,
    lengths,
    line_start,
    line_cells,
    cell_lines,
    fam_start,
    fam_lines,
    single_start,
    single_cells,
    cap,
):
    """A true upper bound on every labelling the stopped search has not ruled out.

    The open subtrees of a stopped depth-first search are the second sides of
    the labels still on their first side, and the node being entered. Each
    is replayed on fresh arrays and bounded by the largest target its
    knapsacks allow, found by bisection (a target reachable implies every
    smaller one is) below ``cap``, a bound known already (symmetry ignored: a
    looser, still true bound); the answer is the largest of these and the
    best value found.
    """
    cells = cell_lines.shape[0]
    lines = lengths.shape[0]
    best = state[2]
    if state[4]:
        return best
    fresh = np.full(lines, FREE, dtype=np.int8)
    killw = np.zeros(cells, dtype=np.int32)
    killb = np.zeros(cells, dtype=np.int32)
    pw = lengths.copy()
    pb = lengths.copy()
    counts = np.array([cells, cells], dtype=np.int64)
    dp = np.empty(2 * cells + 2, dtype=np.int64)
    nxt = np.empty(2 * lines + 2, dtype=np.int64)
    bound = best
    for d in range(state[0] + 1):
        if bound >= cap:  # no open subtree can raise the answer past the bound known
            break
        if d == state[0]:
            if not state[1]:  # the node at this depth was done: nothing open below it
                break
        else:
            line = depth_line[d]
            value = label[line]
            if value != depth_phase[d]:  # on its second side: the first is done
                _assign(
                    line,
                    value,
                    fresh,
                    killw,
                    killb,
                    pw,
                    pb,
                    counts,
                    line_start,
                    line_cells,
                    cell_lines,
                )
                continue
            _assign(
                line,
                1 - value,
                fresh,
                killw,
                killb,
                pw,
                pb,
                counts,
                line_start,
                line_cells,
                cell_lines,
            )
        # bound this open subtree: the largest target both armies may reach
        low = bound  # reachable, or already the answer
        high = min(counts[0], counts[1], cap)
        while low < high:
            target = (low + high + 1) // 2
            if _reach(
                target,
                fresh,
                killw,
                killb,
                pw,
                pb,
                fam_start,
                fam_lines,
                single_start,
                single_cells,
                dp,
                nxt,
            ):
                low = target
            else:
                high = target - 1
        bound = low
        if d < state[0]:
            line = depth_line[d]
            _unassign(line, fresh, killw, killb, pw, pb, counts, line_start, line_cells, cell_lines)
            _assign(
                line,
                label[line],
                fresh,
                killw,
                killb,
                pw,
                pb,
                counts,
                line_start,
                line_cells,
                cell_lines,
            )
    return bound
