"""The documentation agrees with the code: every example runs, every shown value holds.

Each page's Python blocks run in one fresh interpreter from a temporary folder
outside the repository (``tests/docblocks.py`` says how comments are
asserted). Blocks marked ``<!-- docs-test: slow -->`` run only with
``CPQUEENS_DOCS_SLOW=1``::

    CPQUEENS_DOCS_SLOW=1 python -m pytest tests/test_docs.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import docblocks

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SLOW = os.environ.get("CPQUEENS_DOCS_SLOW") == "1"


def run_page(page: Path, folder: Path, slow: bool = SLOW) -> subprocess.CompletedProcess[str]:
    """Run ``page``'s blocks in a fresh interpreter in ``folder``; return the finished process."""
    script = folder / "page_blocks.py"
    script.write_text(docblocks.script(page, slow=slow), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(script)], cwd=folder, env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip


def runnable(page: Path) -> bool:
    return any(block.mark != "skip" for block in docblocks.blocks(page.read_text("utf-8")))


@pytest.mark.parametrize(
    "page", [p for p in PAGES if runnable(p)], ids=lambda p: str(p.relative_to(ROOT))
)
@pytest.mark.slow
def test_every_python_block_of_the_page_runs_and_shows_true_values(page, tmp_path):
    result = run_page(page, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_guide_pages_hold_examples():
    names = {p.name for p in PAGES if runnable(p)}
    assert {"getting-started.md", "modelling.md", "solving.md", "scaling-out.md"} <= names


def test_a_page_whose_comment_disagrees_with_the_code_fails(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        textwrap.dedent(
            """\
            ```python
            x = 6
            x * 7  # 42: right
            ```

            Text between blocks; the namespace carries over.

            ```python
            print(x + 1)  # 8, wrong
            ```
            """
        )
    )
    result = run_page(page, tmp_path)
    assert result.returncode == 1
    assert "line 9: x + 1 is 7, the page shows 8" in result.stderr
    assert 'File "' + str(page) + '", line 9' in result.stderr


def test_expected_exceptions_prefixes_and_marks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        textwrap.dedent(
            """\
            ```python
            (1, 2, 3, 4)  # (1, 2, ...): a prefix
            [][0]  # IndexError: must raise
            "ab"  # 'ab'
            len("abc")  # the length, not asserted
            ```

            <!-- docs-test: slow -->
            ```python
            1  # 2
            ```

            <!-- docs-test: skip needs a cluster -->
            ```python
            raise SystemExit(3)
            ```
            """
        )
    )
    assert run_page(page, tmp_path, slow=False).returncode == 0
    slow = run_page(page, tmp_path, slow=True)
    assert slow.returncode == 1 and "1 is 1, the page shows 2" in slow.stderr
    page.write_text("```python\n1 + 1  # ValueError\n```\n")
    result = run_page(page, tmp_path)
    assert result.returncode == 1 and "raised nothing, the page shows ValueError" in result.stderr


@pytest.mark.parametrize(
    ("comment", "claim"),
    [
        ("# 92", ("value", "92")),
        ("# 92, by the fastest exact engine", ("value", "92")),
        ("# 'bitmask': the engine", ("value", "'bitmask'")),
        ("# (1, 3, 5, 0, 2, 4), then", ("value", "(1, 3, 5, 0, 2, 4)")),
        ("# None: proved", ("value", "None")),
        ("# IncompleteSearchError after 10 s", ("raises", "IncompleteSearchError")),
        ("# 2n queens", None),
        ("# 0/1 rows", None),
        ("# ... the model", None),
        ("# the model's constraints", None),
    ],
)
def test_what_a_comment_asserts(comment, claim):
    assert docblocks.expected(comment) == claim


def test_the_pictures_are_drawn_by_the_current_code():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import make_pictures
    finally:
        sys.path.remove(str(ROOT / "docs"))
    assert make_pictures.main(["--check"]) == 0
    assert set(make_pictures.boards()) <= {p.name for p in (ROOT / "docs/pictures").iterdir()}


def test_the_benchmark_plots_read_the_results_tables():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import make_pictures
    finally:
        sys.path.remove(str(ROOT / "docs"))
    rows = make_pictures.table(ROOT / "benchmarks" / "RESULTS-symmetry.md", "n")
    assert [r["n"] for r in rows] == ["14", "15", "16", "17"]
    assert rows[-1]["solutions"] == "95,815,104"  # OEIS A000170, n = 17


def test_the_command_line_page_names_every_option_of_every_command():
    import argparse

    from cpqueens.cli import build_parser

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    (commands,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert {"count", "solve", "exists", "backends"} <= set(commands.choices)
    for name, parser in commands.choices.items():
        if f"## `cpqueens {name}`" not in page:
            continue  # the generated --help reference below covers it (next test)
        section = page.split(f"## `cpqueens {name}`", 1)[1].split("\n## ", 1)[0]
        options = [o for a in parser._actions for o in a.option_strings if o != "--help"]
        missing = [o for o in options if o.startswith("--") and o not in section]
        assert not missing, f"docs/cli.md, cpqueens {name}: {missing}"


@pytest.mark.slow
def test_the_command_line_examples_print_what_the_page_shows(tmp_path):
    """Each ``cpqueens ...  # VALUE ...`` line of docs/cli.md's first block prints VALUE first.

    VALUE is the comment's leading run of numbers (``2 4 6 1 3 5``), or yes/no.
    """
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = page.split("```bash\n", 1)[1].split("```", 1)[0]
    cases = []
    for line in block.splitlines():
        command, _, comment = line.partition("#")
        shown = re.match(r"\s*(\d+(?: \d+)*|yes|no)\b", comment)
        if command.startswith("cpqueens ") and shown:
            cases.append((command.split()[1:], shown.group(1)))
    assert len(cases) >= 8, cases
    script = textwrap.dedent(
        f"""\
        import contextlib, io, json
        from cpqueens.cli import main
        for args, shown in {cases!r}:
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                code = main(args)
            first = out.getvalue().splitlines()[0]
            assert (code, first) == (0, shown), (args, code, first, shown)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_command_line_page_shows_every_commands_help():
    import argparse

    from cpqueens.cli import build_parser

    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import hooks
    finally:
        sys.path.remove(str(ROOT / "docs"))
    assert hooks.CLI_MARKER in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    shown = hooks.cli_help()
    (commands,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    for name, parser in commands.choices.items():
        assert f"### `cpqueens {name} --help`" in shown
        for option in (o for a in parser._actions for o in a.option_strings):
            assert option in shown, (name, option)
    assert "examples:\n  cpqueens count 8 " in shown
