"""examples/tour.ipynb runs top to bottom in a fresh kernel and shows its boards as SVG."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def outputs_by_tag(notebook: nbformat.NotebookNode) -> dict[str, list[dict]]:
    return {
        tag: cell.get("outputs", [])
        for cell in notebook.cells
        for tag in cell.get("metadata", {}).get("tags", [])
    }


@pytest.mark.slow
def test_the_tour_notebook_runs_and_shows_svg_boards(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the kernel imports this tree's cpqueens
    notebook = nbformat.read(ROOT / "examples" / "tour.ipynb", as_version=4)
    client = NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    )
    client.execute(env=dict(os.environ))
    outputs = outputs_by_tag(notebook)

    (model,) = outputs["model"]
    assert model["data"]["image/svg+xml"].count('class="coordinate') == 16
    assert model["data"]["image/svg+xml"].count('class="blocked"') == 2
    assert model["data"]["image/svg+xml"].count('class="queen colour-0"') == 1
    assert "Forbidden" in model["data"]["text/html"]
    assert model["data"]["text/html"].count('class="blocked"') == 2  # the board in the HTML too
    assert outputs["count"][0]["data"]["text/plain"] == "5"
    assert outputs["solution"][0]["data"]["image/svg+xml"].count('class="queen colour-0"') == 8
    text, picture = outputs["two-colours"]
    assert text["text"] == "12\n"  # the 2n queens of n = 6
    assert picture["data"]["image/svg+xml"].count('class="queen colour-1"') == 6
    shown, count = outputs["where"]
    assert "q0[0] &lt; q0[7]" in shown["data"]["text/html"]
    assert count["data"]["text/plain"] == "46"
