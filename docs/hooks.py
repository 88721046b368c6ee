"""MkDocs hooks: the benchmark result files of the repository become pages of the site.

Each ``benchmarks/RESULTS*.md`` is served as ``benchmarks/RESULTS*.md`` under
the site, as committed (the docs are versioned with the code, and nothing is
copied by hand).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    """Add every benchmarks/RESULTS*.md of the repository as a generated page."""
    for path in sorted((ROOT / "benchmarks").glob("RESULTS*.md")):
        text = path.read_text(encoding="utf-8")
        files.append(File.generated(config, f"benchmarks/{path.name}", content=text))
    return files
