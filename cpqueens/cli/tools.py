"""``cpqueens backends`` and ``cpqueens warm``: the engines installed, the kernels compiled."""

from __future__ import annotations

import argparse
import time
from typing import Any

import cpqueens
from cpqueens.backends import distribution, is_installed, known, preference


def run_backends(args: argparse.Namespace) -> int:
    """``cpqueens backends``: every backend, installed or not, with its package's version."""
    for name in known(every=True):  # the engines other distributions declare too
        dist = distribution(name)
        if not is_installed(name):
            status = f"missing    pip install {dist}"
        else:
            status = f"installed  {dist} {version(dist)}"
        order = preference().index(name) + 1 if name in preference() else "-"
        print(f"{name:<18} {status}  (auto's choice {order})")
    return 0


def version(dist: str) -> str:
    """The installed version of distribution ``dist`` (cpqueens itself even when not installed)."""
    if dist == "cpqueens":
        return cpqueens.__version__
    from importlib import metadata  # 30 ms of imports (email, zipfile): only for --version

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "(version unknown)"


#: One small question per kernel family, by the name ``cpqueens warm --only`` takes: (what it
#: warms, the question). Each is answered by the compiled kernels once numba is loaded (small
#: questions take plain Python only while it is not).
WARM_UP: dict[str, tuple[str, str]] = {
    "classes": ("symmetry classes", "cpqueens.model(12).count()"),
    "turns": ("turn-fixed solutions", "cpqueens.model(16).count(unique=True) and None"),
    "holes": ("hole sums and completions", "cpqueens.model(12, blocked=[(0, 1), (3, 5)]).count()"),
    "colours": ("two colours", "cpqueens.model(8, colours=2).count()"),
    "variants": ("toroidal boards", "cpqueens.model(7, toroidal=True).count()"),
    "conditions": ("conditions", "(m := cpqueens.model(12)).where(m.q[0] < m.q[11]).count()"),
    "first": ("first", "cpqueens.model(12, blocked=[(0, 0)]).first()"),
    "exists": ("exists", "cpqueens.model(12, blocked=[(0, 0)]).exists()"),
    "find": ("any solution", "cpqueens.model(60, blocked=[(0, 1)]).find()"),
    "puzzles": ("region puzzles", "cpqueens.Puzzle.generate(8, seed=0)"),
    "stars": ("star battle", "cpqueens.Puzzle.generate(10, 2, seed=0)"),
    "cells": ("cell counts", "cpqueens.cells(5).count(queens=5)"),
    "domination": (
        "domination",
        "cpqueens.domination(5, count=True) and local_search()",
    ),
    "peaceable": ("peaceable armies", "cpqueens.peaceable(5)"),
}


def local_search() -> None:
    """The domination's local search, which no small question reaches (boards over 16 only)."""
    from cpqueens.backends.bitmask.covering import warm_local

    warm_local()


def run_warm(args: argparse.Namespace) -> int:
    """``cpqueens warm``: compile (or load) the families named (default: all) into the cache.

    A line per family as it goes: its title at once, its time when it is done.
    ``--list`` prints the families instead.
    """
    if args.list:
        for name, (title, question) in WARM_UP.items():
            print(f"{name:<11} {title:<26} {question}")
        return 0
    names = list(dict.fromkeys(args.only)) if args.only else list(WARM_UP)
    start = time.perf_counter()
    # Loaded kernels are always chosen: small questions then take them, not plain Python.
    from cpqueens.kernels import bits, conditions, regions  # noqa: F401
    from cpqueens.kernels.jit import cache_folder

    for name in names:
        title, question = WARM_UP[name]
        print(f"{title:<26}", end=" ", flush=True)  # seen while it compiles
        began = time.perf_counter()
        eval(question, {"cpqueens": cpqueens, "local_search": local_search})  # fixed text above
        print(f"{time.perf_counter() - began:6.2f} s", flush=True)
    folder = cache_folder()
    where = (
        "no writable cache folder: kernels compile in every process" if folder is None else folder
    )
    which = (
        "every kernel" if len(names) == len(WARM_UP) else f"{len(names)} of {len(WARM_UP)} families"
    )
    print(f"{which} compiled or loaded in {time.perf_counter() - start:.1f} s; cache: {where}")
    return 0


def add_tools(commands: Any) -> None:
    """The ``backends`` and ``warm`` commands."""
    listing = commands.add_parser("backends", help="list the backends and their versions")
    listing.set_defaults(run=run_backends)
    warm = commands.add_parser(
        "warm",
        help="compile the kernels into the on-disk cache (once, e.g. in a container image)",
        description="Compile (or load) each kernel family into the on-disk cache by asking it "
        "one small question, a line per family as it goes.",
    )
    choice = warm.add_mutually_exclusive_group()
    choice.add_argument(
        "--only",
        nargs="+",
        action="extend",
        choices=list(WARM_UP),
        metavar="FAMILY",
        help=f"warm only these families ({', '.join(WARM_UP)}); default: every one",
    )
    choice.add_argument(
        "--list", action="store_true", help="list the families and their questions, warm nothing"
    )
    warm.set_defaults(run=run_warm)
