"""Progress: the callback's (done, total), the tqdm bar on stderr (terminal only, not --quiet)."""

from __future__ import annotations

import io
import sys
from itertools import pairwise

import pytest

import cpqueens
from cpqueens import cli
from cpqueens.execution import progress
from cpqueens.execution.checkpoint import content_digest
from cpqueens.strategies.split import subproblems
from cpqueens.strategies.symmetry import split_depth


def total_for(model, workers):
    columns = model.columns()
    return len(subproblems(columns, split_depth(columns, workers)))


# Blocked boards: a free board without a progress option goes to the symmetry kernels.
NINE = cpqueens.model(9, blocked=[(4, 4)])
NINE_COUNT = 312  # the oracle's count


def test_the_callback_sees_every_subproblem_finish():
    model = cpqueens.model(9, blocked=[(2, 2)])
    seen = []
    assert model.count("bitmask", workers=1, progress=lambda *p: seen.append(p)) == (
        model.count("bitmask", workers=1, progress=False)
    )
    total = total_for(model, 1)
    assert total > 1
    assert seen == [(done, total) for done in range(total + 1)]


def test_the_callback_on_a_process_pool():
    model = cpqueens.model(10, blocked=[(0, 0)])
    seen = []
    expected = model.count("bitmask", workers=1, progress=False)
    assert model.count("bitmask", workers=2, progress=lambda *p: seen.append(p)) == expected
    total = total_for(model, 2)
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert all(a[0] < b[0] for a, b in pairwise(seen))


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.slow
def test_the_symmetry_kernels_report_progress_too(workers):
    from cpqueens.strategies.class_count import pieces

    seen = []
    assert cpqueens.model(14).count(workers=workers, progress=lambda *p: seen.append(p)) == 365596
    total = len(pieces(14, 1))
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert all(a[0] < b[0] for a, b in pairwise(seen))
    seen.clear()
    assert cpqueens.model(14).count(unique=True, progress=lambda *p: seen.append(p)) == 45752
    assert seen[-1] == (total, total)


def test_a_resumed_count_starts_from_what_the_checkpoint_holds(tmp_path):
    import json

    path = tmp_path / "q9.json"
    model = cpqueens.model(9)
    model.count("bitmask", workers=1, checkpoint=path)
    data = json.loads(path.read_text())
    data["done"] = data["done"][:3]
    path.write_text(json.dumps({**data, "sha256": content_digest(data)}))
    seen = []
    assert model.count("bitmask", checkpoint=path, progress=lambda *p: seen.append(p)) == 352
    total = data["subproblems"]
    assert seen == [(done, total) for done in range(3, total + 1)]


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self):
        return True


@pytest.fixture
def no_delay(monkeypatch):
    monkeypatch.setattr(progress, "BAR_DELAY", 0)


def test_a_bar_on_a_terminal(monkeypatch, no_delay):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert NINE.count("bitmask", workers=1) == NINE_COUNT
    total = total_for(NINE, 1)
    drawn = terminal.getvalue()
    assert "counting:" in drawn
    assert f"| 0/{total} [" in drawn  # tqdm may skip later redraws of so short a count
    assert "subproblem/s" in drawn


def test_no_bar_when_stderr_is_not_a_terminal(capsys, no_delay):
    assert NINE.count("bitmask", workers=1) == NINE_COUNT
    assert capsys.readouterr().err == ""
    NINE.count("bitmask", workers=1, progress=True)  # unless asked for
    assert "counting:" in capsys.readouterr().err


def test_no_bar_for_a_short_count(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cpqueens.model(8, [(0, 0)]).count("bitmask", workers=1) == 88  # well under BAR_DELAY
    assert terminal.getvalue() == ""


def test_the_cli_bar_and_quiet(monkeypatch, capsys, no_delay):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["count", "9", "--backend", "bitmask", "--placed", "4,4"]) == 0
    assert capsys.readouterr().out == "40\n"
    assert "counting:" in terminal.getvalue()

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["count", "9", "--backend", "bitmask", "--placed", "4,4", "--quiet"]) == 0
    assert capsys.readouterr().out == "40\n"
    assert terminal.getvalue() == ""


def test_bad_progress():
    expected = r"^progress must be None, a bool or a callable\(done, total\), got 'yes'$"
    with pytest.raises(TypeError, match=expected):
        cpqueens.model(6).count("bitmask", progress="yes")


# progress=True means a bar, always (issue 40): from the start, however short the count,
# whatever stderr is, and for a count searched in one go (a region puzzle, a cell model).
def test_progress_true_draws_a_bar_for_the_shortest_count(capsys):
    assert cpqueens.model(8, [(0, 0)]).count("bitmask", workers=1, progress=True) == 88
    total = total_for(cpqueens.model(8, [(0, 0)]), 1)
    err = capsys.readouterr().err
    assert "counting:   0%|" in err  # drawn at once
    assert f"| {total}/{total} [" in err  # and its last state kept: stderr is no terminal
    assert err.endswith("\n")


def test_progress_true_on_a_terminal_draws_at_once_too(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cpqueens.model(8, [(0, 0)]).count("bitmask", workers=1, progress=True) == 88
    assert "counting:" in terminal.getvalue()


def test_counts_of_one_search_are_one_piece(capsys):
    assert cpqueens.model(3, colours=5).count(progress=True) == 0  # more colours than columns
    assert "| 1/1 [" in capsys.readouterr().err
    assert cpqueens.cells(4).count(queens=4, progress=True) == 2  # the cell form (A000170)
    assert "| 1/1 [" in capsys.readouterr().err
    blocks = [[2 * (r // 2) + c // 4 for c in range(8)] for r in range(8)]  # 2x4 blocks
    star = cpqueens.cells(8, attack="king", per_row=2, per_column=2, regions=blocks, per_region=2)
    expected = star.count(progress=False)  # the bitmask engine's region search
    assert star.count(progress=True) == expected
    assert "| 1/1 [" in capsys.readouterr().err
    seen = []
    assert cpqueens.cells(4).count(queens=4, progress=lambda *p: seen.append(p)) == 2
    assert seen == [(0, 1), (1, 1)]


def test_the_cli_progress_flag_on_a_short_count(capsys):
    assert cli.main(["count", "8", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert out == "92\n"
    assert "counting:" in err and "subproblem" in err
