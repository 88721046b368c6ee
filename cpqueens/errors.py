"""The library's own exceptions.

Bad input is reported with the built-in ``ValueError`` and ``TypeError``; the
classes here name what is specific to solving.
"""

from __future__ import annotations


class CpqueensError(Exception):
    """Base class of every exception raised by cpqueens itself."""


class NotSupportedError(CpqueensError):
    """A backend was handed a constraint it cannot translate."""


class BackendUnavailableError(CpqueensError, ImportError):
    """A known backend whose solver package is not installed."""


class IncompleteSearchError(CpqueensError):
    """A search stopped before it had seen every solution, so no count exists."""


class CrossCheckError(CpqueensError):
    """Two backends disagree on a count."""
