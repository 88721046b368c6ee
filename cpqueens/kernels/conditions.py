"""One compiled DFS for every model with user conditions: tables and postfix programs as data.

A user's conditions reach this kernel as arrays, never as code, so numba
compiles it once (cached on disk) and a fresh model pays no compile time:

- **pair tables**: a condition on exactly two rows i < j is a table
  ``tables[p, col_i]``, the mask of row j's columns that meet it once row i's
  queen stands on ``col_i``. Row j's free cells are cut by it when the search
  enters row j, and when row i's queen is placed the table is checked against
  row j's allowed columns still free (a queen that leaves row j no column is
  refused at once). ``all_different`` over one-row terms arrives as its pairs,
  unless each term is ``q[r] + k_r``: then it is a **shifted set**, a mask of
  the values taken so far, read by each row shifted by its ``k_r`` (like a
  diagonal: ``all_different(q[r] + r)`` is one).
- **programs**: any other condition (three rows or more) is a postfix program
  of (opcode, argument) pairs run on a small stack at the row of its last
  variable; ``ASSERT`` pops a truth value and refuses the queen if it is 0.

The search is the row / ld / rd bitmask DFS (lowest column first, so the
solutions come in lexicographic order) on one colour's allowed masks
(``numpy.uint64``, n <= 64). Its state lives in caller-owned arrays, so a
call can stop after ``limit`` solutions or ``budget`` steps and the next call
goes on where it stopped: solutions are listed in chunks and a deadline is
checked between them.
"""

from __future__ import annotations

import numpy as np

from cpqueens.kernels.bits import live, lowest_index, popcount
from cpqueens.kernels.jit import kernel

# The opcodes of a condition program; the argument column is used by CONST, VAR, AND,
# OR and DISTINCT (a constant, a row, how many values to pop) and ELEMENT (where its
# table starts in ``constants``: the top of the stack is replaced by the entry it indexes).
CONST, VAR, ADD, SUB, NEG, MUL, ABS, MOD = 0, 1, 2, 3, 4, 5, 6, 7
EQ, NE, LT, LE, GT, GE = 8, 9, 10, 11, 12, 13
AND, OR, NOT, DISTINCT, ASSERT, ELEMENT = 14, 15, 16, 17, 18, 19

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel()
def run_programs(code, lo, hi, queen, stack, constants):
    """Whether every ASSERT of ``code[lo:hi]`` holds with ``queen[r]`` the column of row r."""
    top = 0
    for i in range(lo, hi):
        op = code[i, 0]
        arg = code[i, 1]
        if op == CONST:
            stack[top] = arg
            top += 1
        elif op == VAR:
            stack[top] = queen[arg]
            top += 1
        elif op == NEG:
            stack[top - 1] = -stack[top - 1]
        elif op == ABS:
            if stack[top - 1] < 0:
                stack[top - 1] = -stack[top - 1]
        elif op == ELEMENT:
            stack[top - 1] = constants[arg + stack[top - 1]]
        elif op == NOT:
            stack[top - 1] = 1 if stack[top - 1] == 0 else 0
        elif op == ASSERT:
            top -= 1
            if stack[top] == 0:
                return False
        elif op == AND or op == OR:
            result = 1 if op == AND else 0
            for k in range(top - arg, top):
                if op == AND and stack[k] == 0:
                    result = 0
                if op == OR and stack[k] != 0:
                    result = 1
            top -= arg
            stack[top] = result
            top += 1
        elif op == DISTINCT:
            result = 1
            for k in range(top - arg, top):
                for m in range(k + 1, top):
                    if stack[k] == stack[m]:
                        result = 0
            top -= arg
            stack[top] = result
            top += 1
        else:
            top -= 1
            b = stack[top]
            a = stack[top - 1]
            if op == ADD:
                value = a + b
            elif op == SUB:
                value = a - b
            elif op == MUL:
                value = a * b
            elif op == MOD:
                value = a % b
                if value < 0:  # Python's sign rule (the modulus is positive)
                    value += b
            elif op == EQ:
                value = 1 if a == b else 0
            elif op == NE:
                value = 1 if a != b else 0
            elif op == LT:
                value = 1 if a < b else 0
            elif op == LE:
                value = 1 if a <= b else 0
            elif op == GT:
                value = 1 if a > b else 0
            else:
                value = 1 if a >= b else 0
            stack[top - 1] = value
    return True


@kernel(inline="always")
def tail_count(f0, c, d, a, row1, row2, row3, row4, row5, row6):
    """The placements of a board's last seven rows: ``f0`` the free cells of the first.

    ``c``, ``d``, ``a`` are the lines the queens above take from that row,
    ``row1``..``row6`` the allowed cells of the six rows below it. Five nested
    loops and a popcount, with the look-ahead from the third row on (as
    ``placements.count_placements`` ends a board).
    """
    total = _ZERO
    while f0 != _ZERO:
        b0 = f0 & (~f0 + _ONE)
        f0 ^= b0
        c0 = c | b0
        d0 = (d | b0) << _ONE
        a0 = (a | b0) >> _ONE
        f1 = row1 & ~(c0 | d0 | a0)
        while f1 != _ZERO:
            b1 = f1 & (~f1 + _ONE)
            f1 ^= b1
            c1 = c0 | b1
            d1 = (d0 | b1) << _ONE
            a1 = (a0 | b1) >> _ONE
            f2 = live(row2 & ~(c1 | d1 | a1), row3 & ~(c1 | (d1 << _ONE) | (a1 >> _ONE)))
            while f2 != _ZERO:
                b2 = f2 & (~f2 + _ONE)
                f2 ^= b2
                c2 = c1 | b2
                d2 = (d1 | b2) << _ONE
                a2 = (a1 | b2) >> _ONE
                f3 = live(row3 & ~(c2 | d2 | a2), row4 & ~(c2 | (d2 << _ONE) | (a2 >> _ONE)))
                while f3 != _ZERO:
                    b3 = f3 & (~f3 + _ONE)
                    f3 ^= b3
                    c3 = c2 | b3
                    d3 = (d2 | b3) << _ONE
                    a3 = (a2 | b3) >> _ONE
                    f4 = live(row4 & ~(c3 | d3 | a3), row5 & ~(c3 | (d3 << _ONE) | (a3 >> _ONE)))
                    while f4 != _ZERO:
                        b4 = f4 & (~f4 + _ONE)
                        f4 ^= b4
                        c4 = c3 | b4
                        d4 = (d3 | b4) << _ONE
                        a4 = (a3 | b4) >> _ONE
                        total += popcount(
                            live(
                                row5 & ~(c4 | d4 | a4),
                                row6 & ~(c4 | (d4 << _ONE) | (a4 >> _ONE)),
                            )
                        )
    return np.int64(total)


@kernel()
def search(
    allowed,
    pair_source,
    pair_target,
    pair_start,
    forward,
    forward_start,
    tables,
    code,
    code_start,
    shift,
    constants,
    stack,
    free,
    cols,
    ld,
    rd,
    queen,
    used,
    meta,
    out,
    limit,
    budget,
    tail,
    watched,
):
    """Go on with the DFS held in the state arrays; return the solutions found by this call.

    ``pair_start[j]..pair_start[j+1]`` are the pairs whose target is row j
    (sorted so), ``tables[p, c]`` the columns of row ``pair_target[p]`` allowed
    with row ``pair_source[p]``'s queen on c; ``forward[forward_start[i]..]``
    the pairs whose source is row i. ``code_start[r]..code_start[r+1]`` is the
    program checked at row r. ``shift[g, r]`` is row r's place in shifted set
    g (-1: none), ``used[r, g]`` the set's values taken above row r.
    ``meta[0]`` is the row being searched (-1: the search is over),
    ``meta[1]`` 0 before the first call. With ``out`` of
    shape (0, n) the call counts (the last row by popcount where it can),
    else it writes each solution's columns into ``out`` and stops after
    ``limit`` of them. It also stops after ``budget`` placements, so that the
    caller can look at a clock. ``tail`` true says that the last seven rows
    hold no condition but pair tables cutting the last row from rows above
    them: a count then ends each search there with :func:`tail_count`.
    ``watched`` lists the rows that pair tables cut (when there are few
    pairs): each placement checks that every one of them below the next row
    keeps a cell, with the lines taken and the cuts of the rows placed so far.
    """
    n = allowed.shape[0]
    last = n - 1
    counting = out.shape[0] == 0
    full = allowed[0] | ~allowed[0]
    if n < 64:
        full = (_ONE << np.uint64(n)) - _ONE
    found = np.int64(0)
    if meta[1] == 0:
        meta[1] = 1
        meta[0] = 0
        free[0] = allowed[0]
        cols[0] = _ZERO
        for g in range(shift.shape[0]):
            used[0, g] = _ZERO
        ld[0] = _ZERO
        rd[0] = _ZERO
    row = meta[0]
    last_programs = code_start[last] < code_start[n]
    steps = 0
    while row >= 0:
        f = free[row]
        if f == _ZERO:
            row -= 1
            continue
        if steps >= budget:
            meta[0] = row
            return found
        steps += 1
        bit = f & (~f + _ONE)
        free[row] = f ^ bit
        col = np.int64(lowest_index(bit))
        queen[row] = col
        if code_start[row] < code_start[row + 1]:
            if not run_programs(
                code, code_start[row], code_start[row + 1], queen, stack, constants
            ):
                continue
        c = cols[row] | bit
        dead = False
        for k in range(forward_start[row], forward_start[row + 1]):
            p = forward[k]
            if tables[p, col] & allowed[pair_target[p]] & ~c == _ZERO:
                dead = True
                break
        if dead:
            continue
        if row == last:
            if not counting:
                for r in range(n):
                    out[found, r] = queen[r]
            found += 1
            if not counting and found == limit:
                meta[0] = row
                return found
            continue
        d = ((ld[row] | bit) << _ONE) & full
        a = (rd[row] | bit) >> _ONE
        nxt = allowed[row + 1] & ~(c | d | a)
        for p in range(pair_start[row + 1], pair_start[row + 2]):
            nxt &= tables[p, queen[pair_source[p]]]
        for g in range(shift.shape[0]):
            taken = used[row, g]
            if shift[g, row] >= 0:
                taken |= _ONE << np.uint64(col + shift[g, row])
            used[row + 1, g] = taken
            if shift[g, row + 1] >= 0:
                nxt &= ~(taken >> np.uint64(shift[g, row + 1]))
        if row + 2 <= last:  # look-ahead: no queen that leaves the row after next no cell
            nxt = live(nxt, allowed[row + 2] & ~(c | (d << _ONE) | (a >> _ONE)))
        if nxt == _ZERO:
            continue
        for w in range(watched.shape[0]):
            t = watched[w]
            if t <= row + 1:
                continue
            k = np.uint64(t - row - 1)
            ahead = allowed[t] & ~c
            if k < np.uint64(64):
                ahead &= ~((d << k) | (a >> k))
            for p in range(pair_start[t], pair_start[t + 1]):
                if pair_source[p] <= row:
                    ahead &= tables[p, queen[pair_source[p]]]
            if ahead == _ZERO:
                nxt = _ZERO
                break
        if nxt == _ZERO:
            continue
        if counting and row + 1 == last and not last_programs:
            found += np.int64(popcount(nxt))
            continue
        if counting and tail and row + 1 == last - 6:
            final = allowed[last]
            for p in range(pair_start[last], pair_start[last + 1]):
                final &= tables[p, queen[pair_source[p]]]
            found += tail_count(
                nxt,
                c,
                d,
                a,
                allowed[last - 5],
                allowed[last - 4],
                allowed[last - 3],
                allowed[last - 2],
                allowed[last - 1],
                final,
            )
            continue
        row += 1
        free[row] = nxt
        cols[row] = c
        ld[row] = d
        rd[row] = a
    meta[0] = -1
    return found
