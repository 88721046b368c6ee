"""Large peaceable armies fast: simulated annealing on line labels, beside the exact search.

The branch-and-bound of :mod:`cpqueens.backends.bitmask.lines` finds the
optimum of small boards at once, but from n = 14 on its depth-first order
stays for minutes in the first subtrees (25 armies at n = 14 in 110 s, where
Stephen Ainley's 1977 constructions have 28). The annealing of
:mod:`cpqueens.kernels.peaceable_anneal` labels the same lines: a run of
``MOVES_PER_LINE`` flips per line from random labels reaches Ainley's values
for n = 14..30 in about a second each. It never proves anything: its armies
raise the incumbent of the exact search (which then cuts more) and are
checked like every answer.

:class:`Anneal` runs restart after restart (a seed per run: the answers are
reproducible), in slices of about ``seconds``, and retires after
``STALE_RUNS`` runs in a row that did not beat the best armies known then.
"""

from __future__ import annotations

import time
from typing import Any

#: Moves of one run, per line of the board.
MOVES_PER_LINE = 50_000
#: Runs in a row without better armies than the best known, after which the annealing stops.
STALE_RUNS = 8
#: The generator's seed of run i: i + 1 times the golden ratio's 64-bit fraction.
_GOLDEN = 0x9E3779B97F4A7C15


def seed(run: int) -> int:
    """The random generator's state for run ``run`` (nonzero, as a signed 64-bit integer).

    >>> seed(0) == 0x9E3779B97F4A7C15 - 2**64
    True
    """
    value = (run + 1) * _GOLDEN % 2**64 or 1
    return value - 2**64 if value >= 2**63 else value


class Anneal:
    """Restarts of the annealing kernel on one board's lines, slice by slice.

    ``shared`` holds the line arrays of :func:`cpqueens.backends.bitmask.lines._shared`
    (``line_start``, ``line_cells``, ``cell_lines``). ``value`` is the best
    ``min(W, B)`` of every run so far (-1 before the first), ``best_label``
    its labels (0 white, 1 black per line).
    """

    def __init__(self, shared: dict[str, Any], seconds: float, moves: int | None = None) -> None:
        """Arrays for the runs; the first starts at the first slice."""
        import numpy as np

        from cpqueens.kernels import peaceable_anneal as kernel

        self.shared = shared
        self.seconds = seconds
        cell_lines = shared["cell_lines"]
        lines = len(shared["line_start"]) - 1
        self.degree = (cell_lines >= 0).sum(axis=1).astype(np.int32)
        self.label = np.zeros(lines, dtype=np.int8)
        self.whites = np.zeros(len(cell_lines), dtype=np.int32)
        self.run_label = np.zeros(lines, dtype=np.int8)  # the best labels of the current run
        self.best_label = np.zeros(lines, dtype=np.int8)
        self.state = np.zeros(6, dtype=np.int64)
        self.state[kernel.ITERS] = MOVES_PER_LINE * lines if moves is None else moves
        self.value = -1
        self.runs = 0  # runs started
        self.stale = 0 if lines else STALE_RUNS  # finished runs in a row that beat nothing known
        self.running = False
        self.beat = False  # whether the current run beat the best armies known
        self.budget = 4096
        self.spent = 0.0

    @property
    def retired(self) -> bool:
        """Whether ``STALE_RUNS`` runs in a row found nothing better than what was known."""
        return self.stale >= STALE_RUNS

    def run(self, known: int) -> bool:
        """One slice; True if it found armies larger than ``known`` (then in ``best_label``)."""
        from cpqueens.kernels import peaceable_anneal as kernel

        a = self.shared
        clock = time.perf_counter()
        if not self.running:
            self.state[kernel.RANDOM] = seed(self.runs)
            self.runs += 1
            self.running = True
            self.beat = False
            kernel.start(self.state, self.label, self.whites, self.run_label, a["cell_lines"])
        ended = kernel.run(
            self.state, self.label, self.whites, self.degree, self.run_label, a["line_start"],
            a["line_cells"], self.budget,
        )  # fmt: skip
        spent = time.perf_counter() - clock
        self.spent += spent
        if spent > self.seconds:
            self.budget = max(1024, int(self.budget * self.seconds / spent))
        elif spent < self.seconds / 2 and not ended:
            self.budget *= 2
        found = int(self.state[kernel.BEST])
        better = found > max(known, self.value)
        if found > self.value:
            self.value = found
            self.best_label[:] = self.run_label
        self.beat = self.beat or better
        if ended:
            self.running = False
            self.stale = 0 if self.beat else self.stale + 1
        return better
