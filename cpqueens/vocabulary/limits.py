"""How big a problem may be: the sizes whose preparation a time limit still bounds.

Every verb (``count``, ``first``, ``exists``, ``solutions``, ``find``) honours
its time limit at every board size up to ``MAX_N``: the masks, plans, splits
and constructions built before a search count against the limit too. Beyond,
preparing a model alone takes seconds and gigabytes, so such a model is
refused at once, in one line, before anything is allocated. More colours
than columns is no such refusal: it is a fact known at once, that the model
has no solution (``no_room``).
"""

from __future__ import annotations

from collections.abc import Iterator

#: The widest board a model may have: every verb stays within its time limit up to here.
MAX_N = 1_000_000
#: The most work a model's queens may take: n rows times colours squared (each queen of a
#: colour is checked against every other colour's, as the local search does).
MAX_WORK = 10_000_000
#: The most colours of a toroidal or superqueens model (one variant constraint per colour;
#: more colours than columns has no solution, but each constraint is still an object).
MAX_VARIANT_COLOURS = 10_000
#: The largest magnitude a constant, or any part of a condition, may reach in ``where``:
#: CP-SAT holds 64-bit integers, and sums of such parts must not overflow them.
MAX_CONSTANT = 2**53


def check_n(size: int) -> int:
    """Return ``size`` if a model of that width can be prepared within a time limit, else raise.

    >>> check_n(8)
    8
    """
    if size > MAX_N:
        shown = f"{size:,}" if size < 10**60 else f"a number of {size.bit_length()} bits"
        raise ValueError(
            f"board size n must be at most {MAX_N:,}: a time limit cannot bound preparing "
            f"a wider board, got {shown}"
        )
    return size


def no_room(n: int, colours: int) -> bool:
    """Whether ``colours`` queens per row cannot fit on an n x n board: no solution, at once.

    >>> no_room(8, 9), no_room(8, 8)
    (True, False)
    """
    return colours > n


def check_queens(n: int, colours: int) -> None:
    """Refuse a model with more queens than any verb can place within a time limit.

    A model with more colours than columns is fine: it plainly has no solution.

    >>> check_queens(1000, 100)
    """
    if not no_room(n, colours) and n * colours * colours > MAX_WORK:
        raise ValueError(
            f"colours={colours:,} on a {n:,}x{n:,} board: expected n x colours² at most "
            f"{MAX_WORK:,} (each of the {n * colours:,} queens meets every other colour), "
            f"got {n * colours * colours:,}"
        )


def constants_beyond(node: object, n: int) -> Iterator[tuple[object, int]]:
    """Each integer node of a condition (and the node itself) that can exceed ``MAX_CONSTANT``.

    Yields ``(node, value)``: the node, and the largest magnitude it reaches
    when every variable is in 0..n-1.
    """
    from cpqueens.expressions import Comparison, Distinct, Logic, Operator, bounds

    if isinstance(node, (Logic, Distinct)):
        for arg in node.args:
            yield from constants_beyond(arg, n)
        return
    if isinstance(node, Comparison):
        yield from constants_beyond(node.lhs, n)
        yield from constants_beyond(node.rhs, n)
        return
    if isinstance(node, Operator):
        for arg in node.args:
            yield from constants_beyond(arg, n)
    if isinstance(node, (int, Operator)):
        low, high = bounds(node, n)  # type: ignore[arg-type]
        most = max(abs(low), abs(high))
        if most > MAX_CONSTANT:
            yield node, most


#: The largest board file read (a grid of about 4,000 x 4,000 cells): read whole, then parsed.
MAX_BOARD_BYTES = 16 * 2**20
