"""The rules a player names past the first ones: shapes, and a lookahead whose depth is named.

Both work on a :class:`~cpqueens.tasks.deduce.Deducer`'s grid (queens and
crossed cells as bitmasks) and record one step in words when they move:

- **shape**: a unit (a region, or a row or column) that still needs one
  queen and has at most :data:`SHAPE_CELLS` free cells: a cell that every one
  of them would rule out (touching it, in its row or column, or in a unit it
  would fill) is crossed out. "Region C's free cells form an L-tromino:
  wherever its queen stands it rules out (2, 3)". The 27 shape rules
  players learn (a domino crosses the four cells along its long sides, ...)
  are this one rule, named by the shape.
- **lookahead d**: a cell whose queen would, after at most ``d`` rounds of
  the first rules (the last cells of a row, column or region; a unit
  confined to one unit of another kind claims it), leave some unit without
  room or two queens touching or in one unit, is crossed out. Depth 1 and 2
  are what players call a short lookahead; "would empty" (depth 0: the
  queen's own rule-outs leave a unit without room) is the deducer's.

Both are sound: what they cross out holds no queen in any solution.
"""

from __future__ import annotations

from typing import Any

from cpqueens.vocabulary.shapes import shape_name

#: The deducer whose grid the rules work on (:class:`cpqueens.tasks.deduce.Deducer`, which
#: imports this module: named here by what it is, not imported).
Deducer = Any

#: The most free cells of a unit the shape rule looks at (a hexomino, as players see shapes).
SHAPE_CELLS = 6
#: The deepest lookahead tried (rounds of the first rules after the trial queen).
DEPTH = 2


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _rules_out(d: Deducer, cell: int, need: list[int]) -> int:
    """What a queen on ``cell`` rules out: what it touches (or attacks), every unit it fills."""
    out = d.attacks[cell]
    for u in d.of[cell]:
        if need[u] == 1:
            out |= d.units[u]
    return out & ~(1 << cell)


def shape(d: Deducer) -> bool:
    """The shape rule: cross out what every free cell of a one-queen unit rules out (one step)."""
    unknown = d.all & ~d.queens & ~d.crossed
    n = d.n
    need = [d.need(i) for i in range(len(d.units))]
    for i in [*range(2 * n, 3 * n), *range(2 * n)]:  # regions first: their shapes are the ones seen
        free = d.units[i] & unknown
        if need[i] != 1 or not 2 <= free.bit_count() <= SHAPE_CELLS:
            continue
        common = unknown & ~free
        for cell in _bits(free):
            common &= _rules_out(d, cell, need)
            if not common:
                break
        if not common:
            continue
        d.crossed |= common
        text = ""
        if d.recording:
            cells = d.cells(free)
            out = d.cells(common)
            text = (
                f"the free cells of {d.label(i)} form {shape_name(cells)}: wherever its queen "
                f"stands it rules out {_names(out)}: cross {'it' if len(out) == 1 else 'them'} out"
            )
        d.record("shape", 3, text, crossed=common)
        return True
    return False


def _names(cells: list[tuple[int, int]]) -> str:
    """Cells in words: ``(0, 1)``, ``(0, 1) and (2, 3)``, ``(0, 1), (2, 3) and (4, 5)``."""
    words = [f"({r}, {c})" for r, c in cells]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _first_rules(
    d: Deducer, queens: int, crossed: int, forced: list[int]
) -> tuple[int, int, bool, str | None]:
    """One round of the first rules: (queens, crossed, whether anything moved, what broke or None).

    The last cells of each unit get their queens (``forced`` collects them);
    then each unit confined to one unit of another kind that needs as many
    queens claims it.
    """
    k = d.k
    moved = False
    for unit in d.units:
        unknown = d.all & ~queens & ~crossed
        need = k - (unit & queens).bit_count()
        free = unit & unknown
        if need > 0 and free.bit_count() == need:
            for cell in _bits(free):
                if crossed >> cell & 1:
                    return (
                        queens,
                        crossed,
                        moved,
                        (f"{_cell(d, cell)} would need a queen, and a queen above rules it out"),
                    )
                queens, crossed, _ = d.place(cell, queens, crossed)
                forced.append(cell)
            moved = True
    unknown = d.all & ~queens & ~crossed
    for i, unit in enumerate(d.units):
        need = k - (unit & queens).bit_count()
        free = unit & unknown
        if need <= 0 or not free:
            continue
        low = (free & -free).bit_length() - 1
        for j in d.of[low]:
            if j == i or free & ~d.units[j]:
                continue
            if k - (d.units[j] & queens).bit_count() != need:
                continue
            out = d.units[j] & unknown & ~free
            if out:
                crossed |= out
                unknown &= ~out
                moved = True
    return queens, crossed, moved, None


def _cell(d: Deducer, index: int) -> str:
    r, c = divmod(index, d.n)
    return f"({r}, {c})"


def refuted(d: Deducer, cell: int, depth: int) -> tuple[str, list[int]] | None:
    """Why a queen on ``cell`` breaks a rule within ``depth`` rounds of the first rules, or None.

    Returns (what breaks, the queens the rounds forced on the way).
    """
    queens, crossed, _ = d.place(cell, d.queens, d.crossed)
    forced: list[int] = []
    broken = d.broken(queens, crossed)
    for _ in range(depth):
        if broken is not None:
            break
        queens, crossed, moved, why = _first_rules(d, queens, crossed, forced)
        if why is not None:
            return why, forced
        broken = d.broken(queens, crossed)
        if not moved:
            break
    if broken is not None:
        return f"leave {d.label(broken)} without room", forced
    return None


def lookahead(d: Deducer, depth: int) -> bool:
    """The lookahead of ``depth`` rounds: cross out a cell whose queen breaks a rule (one step).

    Recording, the first such cell in row order; not recording, every such
    cell of this sweep (the rules are sound, so the end does not depend on it).
    """
    unknown = d.all & ~d.queens & ~d.crossed
    found = 0
    for cell in _bits(unknown):
        d.tick()
        answer = refuted(d, cell, depth)
        if answer is None:
            continue
        found |= 1 << cell
        if not d.recording:
            continue
        why, forced = answer
        chain = ""
        if forced:
            chain = (
                " the first rules then place " + _names([divmod(f, d.n) for f in forced]) + " and"
            )
        d.crossed |= found
        d.record(
            f"lookahead {depth}",
            4,
            f"a queen at {_cell(d, cell)}:{chain} would {why} "
            f"(a lookahead of {depth} round{'s' if depth > 1 else ''}): cross it out",
            crossed=found,
        )
        return True
    if found:
        d.crossed |= found
        d.record(f"lookahead {depth}", 4, "", crossed=found)
        return True
    return False
