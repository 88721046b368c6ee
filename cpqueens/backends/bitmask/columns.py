"""The bitmask engine on the column form: counts, solutions and decisions over a plan.

``count`` hands big searches on boards of at most 64 columns to the numba
kernels in :mod:`cpqueens.kernels.placements` (imported only then, so small
boards never pay for loading numba); two colours that share no cell are
counted as pairs of one-colour placements instead of one search of the second
colour per placement of the first. Conditions run in the compiled conditions
kernel where it fits, Queens-game models in the compiled regions kernel, the
rest in the Python DFS (:mod:`cpqueens.backends.bitmask.dfs`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from cpqueens.backends.bitmask import search as bitmask_search
from cpqueens.backends.bitmask.dfs import count_placements, placements
from cpqueens.backends.bitmask.plan import (
    PAIR_LIST_LIMIT,
    QUEEN_LINES,
    Plan,
    compile_plan,
    compiled_conditions,
    lowered,
    native_plan,
    regions_grid,
    regions_plan,
    wants_native,
)
from cpqueens.backends.translate import tight_regions
from cpqueens.clock import Deadline
from cpqueens.kernels import MAX_COLUMNS

if TYPE_CHECKING:
    from cpqueens.vocabulary.problem import Problem


def _placements(
    plan: Plan,
    colour: int,
    masks: Sequence[int],
    earlier: tuple[tuple[int, ...], ...],
    deadline: Deadline | None = None,
) -> Iterator[tuple[int, ...]]:
    """Colour ``colour``'s placements under ``masks``, with its variants and conditions."""
    return placements(
        plan.n,
        masks,
        plan.offsets[colour],
        toroidal=colour in plan.toroidal,
        knight=colour in plan.knight,
        checks=plan.row_checks(colour),
        earlier=earlier,
        deadline=deadline,
    )


def _nested(
    plan: Plan, earlier: tuple[tuple[int, ...], ...], deadline: Deadline | None = None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    colour = len(earlier)
    masks = plan.colour_masks(colour, earlier)
    for columns in _placements(plan, colour, masks, earlier, deadline):
        found = (*earlier, columns)
        if len(found) == len(plan.allowed):
            yield found
        else:
            yield from _nested(plan, found, deadline)


def solutions(
    model: Problem, deadline: Deadline | None = None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Lazily yield every solution, one column tuple per colour, in lexicographic order.

    A ``deadline`` that passes ends the search with ``IncompleteSearchError``.
    """
    plan = compile_plan(model)
    grid = regions_grid(plan)
    if grid is not None:
        found_all = _regions_solutions(plan, grid, deadline)
    elif compiled_conditions(plan):
        from cpqueens.backends.bitmask import conditions

        found_all = ((columns,) for columns in conditions.solutions(plan, deadline))
    else:
        found_all = _nested(plan, (), deadline)
    if not plan.symmetric:
        yield from found_all
        return

    for found in found_all:
        if all(constraint.violation(found, plan.n) is None for constraint in plan.symmetric):
            yield found


def describe(model: Problem) -> str:
    """What counts ``model`` on this engine: which kernel, or the Python DFS and why."""
    from cpqueens.backends.bitmask.conditions import fits

    plan = compile_plan(model)
    if regions_grid(plan) is not None:
        if plan.symmetric:
            return "the compiled regions kernel (each solution checked against its images)"
        return "the compiled regions kernel"
    if plan.checks:
        if compiled_conditions(plan):
            return "the compiled conditions kernel"
        if fits(plan):
            return "the Python DFS (a small board: over before numba loads)"
        return (
            "the Python DFS (conditions on two rows or more of a model the compiled "
            "conditions kernel does not take: several colours, no diagonals, a variant or "
            "over 64 columns)"
        )
    if plan.symmetric:
        return "the Python DFS (each solution checked against its images)"
    if wants_native(plan):
        return "the native kernels" if plan.plain else "the variant kernel"
    return "the Python DFS (a small board: over before numba loads)"


def warm(model: Problem) -> None:
    """Load the compiled kernel that would count ``model`` whole, from numba's disk cache.

    Once a kernel's module is loaded, every search of this process takes it
    (:func:`~cpqueens.backends.bitmask.plan.compiled_conditions`,
    :func:`~cpqueens.backends.bitmask.plan.wants_native`), however few its
    rows. A small count of the same kind loads its machine code now.
    """
    from cpqueens.backends.bitmask.conditions import fits
    from cpqueens.vocabulary.board import Board
    from cpqueens.vocabulary.problem import Problem

    plan = compile_plan(model)
    if plan.symmetric or plan.n > MAX_COLUMNS or regions_grid(plan) is not None:
        return  # checked in Python, or the regions kernel (loaded by its first search)
    if plan.checks and fits(plan):
        from cpqueens.expressions import Comparison, Var
        from cpqueens.kernels import conditions  # noqa: F401  # compiled_conditions holds now
        from cpqueens.vocabulary.kinds import Where

        count(Problem(Board(8), extra=(Where(Comparison("<", Var(0, 0), Var(0, 7))),)))
    elif not plan.checks and all(offsets == QUEEN_LINES for offsets in plan.offsets):
        from cpqueens.kernels import bits  # noqa: F401  # wants_native holds now

        count(Problem(Board(8), placed=((0, 0),)))


def _native_count(plan: Plan, earlier: tuple[tuple[int, ...], ...] = ()) -> int:
    """Count ``plan`` with the numba kernels; colours before the last two are enumerated."""
    import numpy as np

    from cpqueens.kernels import placements as native

    colours = len(plan.allowed)
    colour = len(earlier)
    if not plan.plain:  # toroidal or superqueens: each colour but the last enumerated
        return _native_variant_count(plan, earlier)
    if colours - colour > 2:
        return sum(
            _native_count(plan, (*earlier, columns))
            for columns in placements(
                plan.n, plan.colour_masks(colour, earlier), plan.offsets[colour]
            )
        )
    first = np.array(plan.colour_masks(colour, earlier), dtype=np.uint64)
    if colour == colours - 1:
        return int(native.count_placements(first))
    second = np.array(plan.colour_masks(colour + 1, earlier), dtype=np.uint64)
    if (colour, colour + 1) not in plan.disjoint:
        return int(native.count_placements(first)) * int(native.count_placements(second))
    sizes = int(native.count_placements(first)), int(native.count_placements(second))
    if not all(sizes):
        return 0
    if plan.n > native.MAX_PACKED_N or max(sizes) > PAIR_LIST_LIMIT:
        return int(native.count_nested_pairs(first, second))
    return int(
        native.count_disjoint_pairs(
            native.list_placements(first, sizes[0]),
            native.list_placements(second, sizes[1]),
            plan.n,
        )
    )


def _native_variant_count(plan: Plan, earlier: tuple[tuple[int, ...], ...]) -> int:
    """Count a plan with toroidal or knight colours: the last colour natively, the rest listed."""
    import numpy as np

    from cpqueens.kernels.variants import count_variant

    colour = len(earlier)
    masks = plan.colour_masks(colour, earlier)
    if colour < len(plan.allowed) - 1:
        return sum(
            _native_variant_count(plan, (*earlier, columns))
            for columns in _placements(plan, colour, masks, earlier)
        )
    array = np.array(masks, dtype=np.uint64)
    return int(count_variant(array, colour in plan.toroidal, colour in plan.knight))


def count(model: Problem) -> int:
    """The exact number of solutions."""
    plan = compile_plan(model)
    if plan.symmetric:
        return sum(1 for _ in solutions(model))
    grid = regions_grid(plan)
    if grid is not None:
        return _regions_search(plan, grid, None, 0)[0]
    if compiled_conditions(plan):
        from cpqueens.backends.bitmask import conditions

        return conditions.count(plan)
    if wants_native(plan):
        return _native_count(plan)
    return _python_count(plan)


def _python_count(plan: Plan) -> int:
    """Count ``plan`` in pure Python: every placement of each colour but the last, nested."""
    last = len(plan.allowed) - 1

    def nested_count(earlier: tuple[tuple[int, ...], ...]) -> int:
        colour = len(earlier)
        masks = plan.colour_masks(colour, earlier)
        if colour == last and not plan.row_checks(colour):
            return count_placements(
                plan.n,
                masks,
                plan.offsets[colour],
                toroidal=colour in plan.toroidal,
                knight=colour in plan.knight,
            )
        if colour == last:
            return sum(1 for _ in _placements(plan, colour, masks, earlier))
        return sum(
            nested_count((*earlier, columns))
            for columns in _placements(plan, colour, masks, earlier)
        )

    return nested_count(())


def decides(model: Problem) -> bool:
    """Whether the compiled searches decide ``model`` (``first``): a plain or a regions model."""
    return native_plan(model) is not None or regions_plan(model) is not None


def first(
    model: Problem, clock: Deadline | None, lexicographic: bool
) -> tuple[tuple[int, ...], ...] | None:
    """The first solution (lexicographic, or any) of a model :func:`decides` holds; None if none.

    Raises ValueError for a model the compiled searches do not hold.
    """
    regions = regions_plan(model)
    if regions is not None:  # the first solution in lexicographic order either way
        found = _regions_search(*regions, 1, 1, clock)[1]
        return (found[0],) if found else None
    plan = native_plan(model)
    if plan is None:
        raise ValueError(f"the compiled searches do not decide {model}")
    return bitmask_search.checked(plan, bitmask_search.search(plan, clock, lexicographic))


def line_search(model: Problem) -> bitmask_search.LineSearch | None:
    """The fewest-free-row search of a one-colour plain model the kernels hold, else None."""
    if model.colours != 1 or model.n > MAX_COLUMNS:
        return None
    plan = compile_plan(model)
    if not plan.plain or plan.offsets[0] != QUEEN_LINES:
        return None
    return bitmask_search.LineSearch(list(plan.allowed[0]))  # one colour: no other's cells


def _regions_search(
    plan: Plan,
    grid: tuple[tuple[int, ...], ...],
    limit: int | None,
    keep: int,
    deadline: Deadline | None = None,
) -> tuple[int, list[tuple[int, ...]]]:
    """The regions kernel on ``plan``'s masks: the count (to ``limit``) and ``keep`` solutions."""
    from cpqueens.backends.bitmask.regions import search_masks

    diagonals = plan.offsets[0] == QUEEN_LINES
    return search_masks(grid, list(plan.allowed[0]), diagonals, limit, keep, deadline)


#: The most solutions the regions kernel lists in one call for ``solutions``; beyond, the
#: Python DFS enumerates them lazily.
REGIONS_LIST_LIMIT = 1 << 18


def _regions_solutions(
    plan: Plan, grid: tuple[tuple[int, ...], ...], deadline: Deadline | None
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every solution by the regions kernel, or lazily by the Python DFS when there are many."""
    total = _regions_search(plan, grid, REGIONS_LIST_LIMIT + 1, 0, deadline)[0]
    if total > REGIONS_LIST_LIMIT:
        yield from _nested(lowered(plan), (), deadline)
        return
    for columns in _regions_search(plan, grid, total, total, deadline)[1]:
        yield (columns,)


def counts_whole(model: Problem) -> bool:
    """Whether one search counts ``model`` best: a Queens-game model (``tight_regions``).

    One colour of them on at most 62 columns is the compiled regions kernel's;
    any other (conditions, colours) is checked in one DFS, as short.
    """
    return tight_regions(model)
