"""Engines from other distributions, found by entry point (``cpqueens.engines``) with no register().

A toy distribution is installed the way pip lays one out (its module and a
``.dist-info`` folder with ``entry_points.txt``) in a temporary folder, and a
user's script runs in a fresh interpreter from another folder with that
folder on its path: the engine is found by name, in each of the three forms
an entry point may name (an ``Engine`` subclass, an instance, a module with
``ENGINE``), and "auto" reaches it for a statement no built-in engine states.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TOY = '''
"""A toy engine: the template's exhaustive search, under other names."""
from dataclasses import dataclass

from cpqueens.backends.template import Exhaustive as Template


class Exhaustive(Template):
    NAME = "toy"
    TITLE = "the toy's search"


class Instance(Template):
    NAME = "toy-instance"


INSTANCE = Instance()


@dataclass(frozen=True)
class Corridor:
    """Row ``row``'s queen in column 0 or n-1: a kind only the toy engines state (no decompose)."""

    row: int

    def violation(self, by_colour, n):
        return None if by_colour[0][self.row] in (0, n - 1) else f"{self} fails"

    def kept_by(self, n):
        return ("identity",)
'''

MODULE_ENGINE = '''
"""A module whose ENGINE is the engine."""
from cpqueens.backends.template import Exhaustive


class Module(Exhaustive):
    NAME = "toy-module"


ENGINE = Module()
'''


@pytest.fixture
def toy_distribution(tmp_path: Path) -> Path:
    """A folder holding the toy distribution as pip installs one: modules and .dist-info."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "toy_engine.py").write_text(TOY)
    (site / "toy_module.py").write_text(MODULE_ENGINE)
    info = site / "toy_engine-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-engine\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        textwrap.dedent(
            """\
            [cpqueens.engines]
            toy = toy_engine:Exhaustive
            toy-instance = toy_engine:INSTANCE
            toy-module = toy_module
            """
        )
    )
    (info / "RECORD").write_text("")
    return site


def run(script: str, site: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``script`` in a fresh interpreter from ``cwd``, with the toy distribution on its path."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *_path()])},
        check=False,
    )


def _path() -> list[str]:
    """The user's own PYTHONPATH, kept after the toy's folder."""
    return [part for part in os.environ.get("PYTHONPATH", "").split(os.pathsep) if part]


@pytest.mark.slow  # installs a distribution and counts in every form: 3.5 s
def test_an_engine_declared_by_entry_point_is_found_by_name_in_every_form(
    toy_distribution, tmp_path
):
    done = run(
        """
        import sys
        import cpqueens
        assert "importlib.metadata" not in sys.modules  # import cpqueens reads no metadata
        assert cpqueens.model(8).count() == 92  # nor does a built-in engine's count
        assert "toy" not in cpqueens.backends.preference()
        for name in ("toy", "toy-instance", "toy-module"):
            assert cpqueens.model(6).count(backend=name) == 4, name
            assert cpqueens.model(6, blocked=[(0, 1)]).count(name) == cpqueens.model(
                6, blocked=[(0, 1)]).count(), name
        print(sorted(n for n in cpqueens.backends() if n.startswith("toy")))
        """,
        toy_distribution,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "['toy', 'toy-instance', 'toy-module']"


@pytest.mark.slow
def test_auto_reaches_an_entry_point_engine_when_no_built_in_one_answers(
    toy_distribution, tmp_path
):
    done = run(
        """
        import cpqueens
        from toy_engine import Corridor
        m = cpqueens.model(6).with_constraints(Corridor(1))
        print(m.engine(), m.count())
        """,
        toy_distribution,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    # the 6-queens solutions whose row-1 queen stands in column 0 or 5: (1, 3, 5, 0, 2, 4) and
    # (4, 2, 0, 5, 3, 1) of the 4
    engine, count = done.stdout.split()
    assert engine.startswith("toy") and count == "2"


@pytest.mark.slow
def test_the_command_line_lists_and_uses_an_entry_point_engine(toy_distribution, tmp_path):
    listed = run(
        "import sys; from cpqueens.cli import main; sys.exit(main(['backends']))",
        toy_distribution,
        tmp_path,
    )
    assert listed.returncode == 0, listed.stderr
    assert any(line.startswith("toy-module") for line in listed.stdout.splitlines())
    counted = run(
        "import sys; from cpqueens.cli import main; "
        "sys.exit(main(['count', '6', '--backend', 'toy']))",
        toy_distribution,
        tmp_path,
    )
    assert (counted.returncode, counted.stdout.strip()) == (0, "4"), counted.stderr


def test_an_unknown_engine_lists_the_entry_point_engines_among_the_choices(
    toy_distribution, tmp_path
):
    done = run(
        """
        import cpqueens
        try:
            cpqueens.model(6).count(backend="toys")
        except ValueError as error:
            print(error)
        """,
        toy_distribution,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("unknown backend 'toys': expected one of 'auto', 'cpsat'")
    assert "'toy-module'" in done.stdout


def test_cpqueens_backends_base_imports_as_a_module():
    import cpqueens
    import cpqueens.backends.base as base

    assert base.Engine.__module__ == "cpqueens.backends.base"
    assert "bitmask" in cpqueens.backends()  # the package is the listing function too
