"""The library's own exceptions.

Bad input is reported with the built-in ``ValueError`` and ``TypeError``; the
classes here name what is specific to solving.
"""

from __future__ import annotations


class CpqueensError(Exception):
    """Base class of every exception raised by cpqueens itself."""


class NotSupportedError(CpqueensError, ValueError):
    """A backend was handed a statement it cannot state or a verb it cannot answer.

    Its message names an engine that can, where one is installed. It is a
    ``ValueError`` too: the backend asked for is a value this statement does not take.
    """


class BackendUnavailableError(CpqueensError, ImportError):
    """A known backend whose solver package is not installed."""


class IncompleteSearchError(CpqueensError):
    """A search stopped before it had seen every solution, so no count exists."""


class CrossCheckError(CpqueensError):
    """Two backends disagree on a count."""


class CheckpointError(CpqueensError):
    """A checkpoint file that cannot be resumed: unreadable, or written for another count."""


class WorkerLostError(CpqueensError):
    """The processes or the cluster counting a model were lost before the count was complete."""


class CountInterrupted(KeyboardInterrupt):
    """A count stopped by Ctrl-C after a clean shutdown; its finished subproblems are saved.

    It is a ``KeyboardInterrupt``, so code that stops on Ctrl-C still does.
    ``done`` of ``total`` subproblems are recorded in ``checkpoint`` (None: no
    checkpoint was asked for, and nothing is saved). A count that is one search
    (the compiled cell counter) gives ``detail`` instead: what it had done.
    """

    def __init__(
        self, done: int, total: int, checkpoint: str | None, detail: str | None = None
    ) -> None:
        super().__init__(done, total, checkpoint)
        self.done = done
        self.total = total
        self.checkpoint = checkpoint
        self.detail = detail

    def __str__(self) -> str:
        if self.detail is not None:
            return f"interrupted: {self.detail}"
        if self.checkpoint is None:
            return (
                f"interrupted after {self.done} of {self.total} subproblems; nothing is saved "
                "(count with a checkpoint file to be able to resume)"
            )
        return (
            f"interrupted: {self.done} of {self.total} subproblems are saved in "
            f"{self.checkpoint}; run the same command again to resume"
        )


class LongCountWarning(UserWarning):
    """A count may run long: every size of a statement whose pieces may attack each other.

    Its message says why and how to ask for less (``queens=k``, one size).
    """


class InvalidSolutionError(CpqueensError):
    """A search produced a solution that breaks its model: a bug, caught before it is returned."""


class ImageReadError(CpqueensError):
    """A screenshot the reader cannot turn into one puzzle it is sure of; the text says what it saw.

    ``reading`` is what was read before the reader stopped (a
    :class:`cpqueens.readers.screenshot.Reading`, or None when no grid was
    found): the grid's size, its cells and the colour groups, for a caller
    that wants to show or correct it.
    """

    def __init__(self, message: str, reading: object = None) -> None:
        super().__init__(message)
        self.reading = reading
