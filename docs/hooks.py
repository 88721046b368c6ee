"""MkDocs hooks: the benchmark result files of the repository become pages of the site.

Each ``benchmarks/RESULTS*.md`` is served as ``benchmarks/RESULTS*.md`` under
the site, as committed (the docs are versioned with the code, and nothing is
copied by hand), and the marker ``<!-- results-pages -->`` in a page becomes
a list of links to all of them, so a new result file is listed by itself.
The marker ``<!-- cli-help -->`` becomes the ``--help`` text of ``cpqueens``
and of each of its commands, read from the parser itself. The docstrings'
Sphinx roles (``:class:`Board```), which mkdocstrings leaves as text, are
shown as the code they name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- results-pages -->"
CLI_MARKER = "<!-- cli-help -->"
#: A Sphinx role as rendered into HTML: ``:class:`` then the code it names.
ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):(<code>)")


def results() -> list[tuple[str, str]]:
    """Each result file's name and title (its first heading, else its name), sorted by name."""
    found = []
    for path in sorted((ROOT / "benchmarks").glob("RESULTS*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        title = next((line[2:].strip() for line in lines if line.startswith("# ")), path.stem)
        found.append((path.name, title))
    return found


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    """Add every benchmarks/RESULTS*.md of the repository as a generated page."""
    for name, title in results():
        text = (ROOT / "benchmarks" / name).read_text(encoding="utf-8")
        if not text.lstrip().startswith("# "):
            text = f"# {title}\n\n{text}"
        files.append(File.generated(config, f"benchmarks/{name}", content=text))
    return files


def cli_help() -> str:
    """Markdown of ``cpqueens --help`` and every ``cpqueens COMMAND --help``, 88 columns wide."""
    import argparse
    import os
    import sys

    if str(ROOT) not in sys.path[:1]:  # this checkout's cpqueens, whatever is installed
        sys.path.insert(0, str(ROOT))
    from cpqueens.cli import build_parser

    os.environ["COLUMNS"] = "88"  # argparse wraps to the terminal's width
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    parts = [("cpqueens --help", parser.format_help())]
    for name, sub in commands.choices.items():
        parts.append((f"cpqueens {name} --help", sub.format_help()))
    return "\n\n".join(f"### `{title}`\n\n```text\n{text.rstrip()}\n```" for title, text in parts)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files, **kwargs: Any) -> str:
    """Replace the results marker with a link to each result page, the CLI marker with --help."""
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_help())
    if MARKER not in markdown:
        return markdown
    here = Path(page.file.src_uri).parent
    links = [
        f"- [{title}]({Path('benchmarks', name).relative_to(here).as_posix()}) (`{name}`)"
        for name, title in results()
    ]
    return markdown.replace(MARKER, "\n".join(links))


def on_page_content(html: str, page: Any, config: Any, files: Files, **kwargs: Any) -> str:
    """Drop the Sphinx role prefixes (``:class:``) that docstrings carry into the API pages."""
    return ROLE.sub(r"\1", html)
