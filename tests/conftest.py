"""Shared fixtures: every test that takes ``backend`` runs once per installed backend."""

from __future__ import annotations

import pytest

import cpqueens


@pytest.fixture(params=cpqueens.backends())
def backend(request: pytest.FixtureRequest) -> str:
    """The name of one installed backend."""
    return request.param
