"""Shared fixtures: every test that takes ``backend`` runs once per installed backend.

The suite has two tiers: ``python -m pytest`` runs every test; ``python -m pytest -m
"not slow"`` leaves out the tests marked ``slow`` (over ~2 s each). A doctest cannot carry
a marker, so the slow ones are named in ``SLOW_DOCTESTS``. Both tiers run one test process
per core (pytest-xdist, ``addopts`` in pyproject.toml), so no test may rely on having the
machine to itself: "at once" is measured in CPU seconds, waits are for events.
"""

from __future__ import annotations

import pytest

import cpqueens

#: Doctests over ~2 s, by their item name: proving 8x8 queens domination optimal takes CP-SAT
#: about 20 s.
SLOW_DOCTESTS = frozenset(
    {"cpqueens.model.shortcuts.domination", "cpqueens.model.facade.Model.minimize"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the doctests of ``SLOW_DOCTESTS`` slow."""
    for item in items:
        if isinstance(item, pytest.DoctestItem) and item.name in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(params=cpqueens.backends())
def backend(request: pytest.FixtureRequest) -> str:
    """The name of one installed backend."""
    return request.param
