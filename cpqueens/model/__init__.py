"""The model: one statement and its verbs (``Model``), the door that builds it, its shortcuts.

- :mod:`cpqueens.model.facade`: :class:`Model` and :func:`model`, the one door;
- :mod:`cpqueens.model.door`: the door's keywords read into a statement;
- :mod:`cpqueens.model.conditions`: ``where()``'s conditions checked;
- :mod:`cpqueens.model.text`: a statement as mathematics (``print(model)``);
- :mod:`cpqueens.model.shortcuts`: ``cells``, ``independence``, ``domination``, ``peaceable``.
"""

from cpqueens.model.facade import DEFAULT_BACKEND, Model, model
from cpqueens.model.shortcuts import cells, domination, independence, peaceable

__all__ = [
    "DEFAULT_BACKEND",
    "Model",
    "cells",
    "domination",
    "independence",
    "model",
    "peaceable",
]
