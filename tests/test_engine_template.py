"""The engine recipe from outside the package: copy the template, register it, ask every verb.

``cpqueens/backends/template.py`` is copied as a user's own module into a
temporary folder, imported from there and registered by its module path; the
planner then offers it to every verb, and its answers agree with the
brute-force oracle and with the built-in engines.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

import cpqueens
from cpqueens.backends import register, unregister
from tests import oracle, oracle_statements

TEMPLATE = Path(__file__).resolve().parents[1] / "cpqueens" / "backends" / "template.py"


@pytest.fixture
def copied_engine(tmp_path, monkeypatch):
    """The template copied to ``my_engine.py`` outside the package, registered as "mine"."""
    (tmp_path / "my_engine.py").write_text(TEMPLATE.read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    register("mine", "my_engine")
    yield "mine"
    unregister("mine")
    sys.modules.pop("my_engine", None)


def test_the_copied_template_answers_every_verb_of_a_column_statement(copied_engine):
    m = cpqueens.model(6, blocked=[(0, 1)], placed=[(2, 0)])
    expected = [s[0] for s in oracle.solutions(6, [(0, 1)], [(2, 0)])]
    assert m.count(copied_engine) == len(expected) == m.count("bitmask")
    assert [s.columns for s in m.solutions(copied_engine)] == expected
    assert m.first(copied_engine).columns == expected[0]
    assert m.exists(copied_engine) is bool(expected)
    assert m.find(copied_engine).columns in expected
    assert m.engine(copied_engine) == copied_engine
    assert copied_engine in {name for name in cpqueens.backends()}


def test_the_copied_template_answers_a_cell_statement_and_refuses_what_it_cannot(copied_engine):
    m = cpqueens.cells(3, 4, [(1, 1)], attack="king")
    spec = oracle_statements.Spec(
        3, 4, frozenset({(1, 1)}), attack="king", per_row=None, per_column=None
    )
    found = oracle_statements.solutions(spec)
    assert m.count(copied_engine) == len(found) == m.count("cpsat")
    assert {frozenset(s) for s in m.solutions(copied_engine)} == found
    assert m.count(copied_engine, queens=3) == sum(oracle_statements.size(p) == 3 for p in found)
    with pytest.raises(cpqueens.NotSupportedError, match=r"use backend 'cpsat'$"):
        m.maximize(copied_engine)  # it only counts and lists: the planner names one that can
    big = cpqueens.model(5, per_row=None, per_column=None)
    with pytest.raises(cpqueens.NotSupportedError, match="more than the 16 it tries"):
        big.count(copied_engine)
