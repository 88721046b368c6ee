"""The package type-checks: ``mypy cpqueens`` passes with the project's settings.

The settings are ``[tool.mypy]`` in pyproject.toml (every function of the
package annotated, the numba kernels aside); mypy runs as a user runs it, from
the project's root, so the README's test command checks the types too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_passes_on_the_package() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "cpqueens"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stdout
    assert result.stdout.startswith("Success: no issues found in "), result.stdout
