"""MkDocs hooks: the benchmark result files of the repository become pages of the site.

Each ``benchmarks/RESULTS*.md`` is served as ``benchmarks/RESULTS*.md`` under
the site, as committed (the docs are versioned with the code, and nothing is
copied by hand), and the marker ``<!-- results-pages -->`` in a page becomes
a list of links to all of them, so a new result file is listed by itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- results-pages -->"


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


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files, **kwargs: Any) -> str:
    """Replace the results marker with a link to each result page."""
    if MARKER not in markdown:
        return markdown
    here = Path(page.file.src_uri).parent
    links = [
        f"- [{title}]({Path('benchmarks', name).relative_to(here).as_posix()}) (`{name}`)"
        for name, title in results()
    ]
    return markdown.replace(MARKER, "\n".join(links))
