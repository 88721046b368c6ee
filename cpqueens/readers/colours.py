"""The cells' colours: sampled from a ring inside each cell, grouped into regions.

A cell's colour is the median of the brightest 40% of a square ring between
8% and 20% of the cell's side in from its edges: clear of the lines (and
their anti-aliasing) and of a queen or an X drawn in the middle, even one
that reaches into the ring. Colours are grouped by single
linkage: two cells are one colour when no channel differs by more than a
threshold (10 grey levels; the game's closest region colours are about 25
apart). A cell the game draws darker or lighter (selected, hinted) is a group
of its own at first; :func:`readings` then merges each such group into the
colour it is a darker (scaled towards black) or lighter (blended towards
white) copy of, in every way that leaves exactly n groups, cheapest first.
Whether a reading is a puzzle (connected regions, one solution) is for the
caller to check.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product

import numpy as np

from cpqueens.readers.lattice import Grid, median

#: The ring a cell's colour is sampled from: between these fractions of its side from its edges.
RING = (0.08, 0.20)
#: The share (percent) of a ring's pixels, brightest first, whose median is the cell's colour:
#: a queen or X reaching into the ring, and the lines' anti-aliasing, are darker.
BRIGHTEST = 40
#: Grey levels from red, green and blue.
LUMA = np.array([0.299, 0.587, 0.114])
#: The middle a drawn queen or X is looked for in: this fraction of the side in from each edge.
MIDDLE = 0.28
#: Two cells are one colour when no channel differs by more than this (then less, if too few).
THRESHOLDS = (10.0, 7.0, 5.0)
#: A darker or lighter copy of a colour fits it to within this many grey levels per channel.
TONE_FIT = 9.0
#: Readings costing more than the cheapest plus this are not considered.
MARGIN = 5.0
#: The most ways of merging copies into their colours weighed; past it, no reading is given.
MAX_MERGES = 20_000
#: A cell this far (grey levels, any channel) from its group's median colour is in doubt.
OFF_TONE = 6.0
#: The most cells in doubt whose alternatives are all tried together.
MAX_DOUBTS = 4
#: A plain cell's ring has this share of its pixels within ``PLAIN_SPREAD`` of their median.
PLAIN_SHARE, PLAIN_SPREAD = 0.8, 24.0
#: The most extra colour groups (tones) tried: beyond, the picture is not a clean board.
MAX_EXTRA = 6

Regions = tuple[tuple[int, ...], ...]


def _ring(rgb: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The pixels of the square ring ``RING`` in from the edges of ``box``, as an (m, 3) array."""
    h, w, _ = rgb.shape
    left, top, right, bottom = box
    side = min(right - left, bottom - top)
    a, b = RING[0] * side, RING[1] * side
    x0, x1, x2, x3 = (round(v) for v in (left + a, left + b, right - b, right - a))
    y0, y1, y2, y3 = (round(v) for v in (top + a, top + b, bottom - b, bottom - a))
    strips = [
        rgb[max(y0, 0) : min(y1, h), max(x0, 0) : min(x3, w)],
        rgb[max(y2, 0) : min(y3, h), max(x0, 0) : min(x3, w)],
        rgb[max(y1, 0) : min(y2, h), max(x0, 0) : min(x1, w)],
        rgb[max(y1, 0) : min(y2, h), max(x2, 0) : min(x3, w)],
    ]
    pixels = np.concatenate([s.reshape(-1, 3) for s in strips])
    if len(pixels) == 0:
        pixels = rgb[
            max(round(top), 0) : min(round(bottom), h),
            max(round(left), 0) : min(round(right), w),
        ].reshape(-1, 3)
    return pixels


def sample(rgb: np.ndarray, grid: Grid) -> np.ndarray:
    """Each cell's colour: the per-channel median of its ring, as an (n, n, 3) float array."""
    n = grid.n
    out = np.zeros((n, n, 3))
    for r in range(n):
        for c in range(n):
            pixels = _ring(rgb, grid.box(r, c))
            shade = pixels @ LUMA
            out[r, c] = median(pixels[shade >= np.percentile(shade, 100 - BRIGHTEST)], axis=0)
    return out


def plain(rgb: np.ndarray, grid: Grid) -> float:
    """The share of cells whose ring is one colour (most of its pixels near their median).

    A board's cells are plain; the lattice that the gaps between lines of
    light text on a dark page make is not (its "cells" hold letters).
    """
    n = grid.n
    found = 0
    for r in range(n):
        for c in range(n):
            pixels = _ring(rgb, grid.box(r, c)).astype(np.float64)
            if len(pixels) == 0:
                continue
            off = np.abs(pixels - median(pixels, axis=0)).max(axis=1)
            found += float((off <= PLAIN_SPREAD).mean()) >= PLAIN_SHARE
    return found / (n * n)


def marks(grey: np.ndarray, grid: Grid, colours: np.ndarray) -> np.ndarray:
    """What each cell holds: 0 nothing, 1 an X, 2 a queen (dark ink in its middle, by area)."""
    h, w = grey.shape
    n = grid.n
    held = np.zeros((n, n), dtype=np.int8)
    shade = colours @ LUMA
    for r in range(n):
        for c in range(n):
            left, top, right, bottom = grid.box(r, c)
            side = min(right - left, bottom - top)
            m = MIDDLE * side
            y0, y1 = max(round(top + m), 0), min(round(bottom - m), h)
            x0, x1 = max(round(left + m), 0), min(round(right - m), w)
            middle = grey[y0:y1, x0:x1]
            if middle.size == 0:
                continue
            ink = float((middle < shade[r, c] - 70).mean())
            held[r, c] = 2 if ink >= 0.2 else 1 if ink >= 0.02 else 0
    return held


def _groups(colours: np.ndarray, threshold: float) -> np.ndarray:
    """Single-linkage groups of ``colours`` (m, 3): labels 0.. in order of first cell."""
    m = len(colours)
    near = np.abs(colours[:, None, :] - colours[None, :, :]).max(axis=2) <= threshold
    labels = np.full(m, -1)
    count = 0
    for start in range(m):
        if labels[start] >= 0:
            continue
        labels[start] = count
        todo = [start]
        while todo:
            i = todo.pop()
            for j in np.nonzero(near[i] & (labels < 0))[0].tolist():
                labels[j] = count
                todo.append(j)
        count += 1
    return labels


def tone_cost(copy: np.ndarray, base: np.ndarray) -> float:
    """How far ``copy`` is from the nearest darker or lighter version of ``base`` (grey levels).

    Darker: ``base * s`` for s in [0.55, 0.98]; lighter: ``base + t * (255 - base)`` for
    t in [0.02, 0.6]. Infinity when neither fits within ``TONE_FIT``.

    >>> tone_cost(np.array([160.0, 120.0, 80.0]), np.array([200.0, 150.0, 100.0]))
    0.0
    """
    best = float("inf")
    s = float(copy @ base) / max(float(base @ base), 1e-9)
    if 0.55 <= s <= 0.98:
        best = min(best, float(np.abs(copy - s * base).max()))
    room = 255.0 - base
    t = float((copy - base) @ room) / max(float(room @ room), 1e-9)
    if 0.02 <= t <= 0.6:
        best = min(best, float(np.abs(copy - base - t * room).max()))
    return best if best <= TONE_FIT else float("inf")


@dataclass(frozen=True)
class Readings:
    """The ways the colours read as n regions, cheapest first, and what the grouping saw."""

    options: tuple[Regions, ...]
    groups: int
    threshold: float


def readings(colours: np.ndarray) -> Readings:
    """The region grids ``colours`` (n, n, 3) can be read as: n groups, tones merged."""
    n = colours.shape[0]
    flat = colours.reshape(-1, 3)
    labels, threshold = np.zeros(len(flat), dtype=int), THRESHOLDS[0]
    for threshold in THRESHOLDS:
        labels = _groups(flat, threshold)
        if labels.max() + 1 >= n:
            break
    k = int(labels.max()) + 1
    if k < n or k - n > MAX_EXTRA:
        return Readings((), k, threshold)
    if k == n:
        return Readings(
            tuple(dict.fromkeys(_grid(x, n) for x in _doubts(flat, labels) if _count(x) == n)),
            k,
            threshold,
        )
    means = np.array([flat[labels == g].mean(axis=0) for g in range(k)])
    cost = np.array(
        [[tone_cost(means[i], means[j]) if i != j else np.inf for j in range(k)] for i in range(k)]
    )
    copies = [i for i in range(k) if np.isfinite(cost[i]).any()]
    found: list[tuple[float, np.ndarray]] = []
    for chosen in combinations(copies, k - n):
        kept = [g for g in range(k) if g not in chosen]
        choices = [[j for j in kept if np.isfinite(cost[i, j])] for i in chosen]
        if len(found) >= MAX_MERGES:  # too many ways to weigh them all: not sure of any
            return Readings((), k, threshold)
        for bases in product(*choices):
            total = float(sum(cost[i, j] for i, j in zip(chosen, bases, strict=True)))
            merged = labels.copy()
            for i, j in zip(chosen, bases, strict=True):
                merged[labels == i] = j
            found.append((total, merged))
    if not found:
        return Readings((), k, threshold)
    found.sort(key=lambda item: item[0])
    cheapest = found[0][0]
    options: list[Regions] = []
    for total, merged in found:
        if total <= cheapest + MARGIN:
            for labels_read in _doubts(flat, merged):
                if _count(labels_read) != n:
                    continue
                regions = _grid(labels_read, n)
                if regions not in options:
                    options.append(regions)
    return Readings(tuple(options), k, threshold)


def _doubts(flat: np.ndarray, labels: np.ndarray) -> list[np.ndarray]:
    """``labels``, then the same with each off-tone cell moved to another group it could be.

    A cell more than ``OFF_TONE`` from its group's median is a darker or
    lighter cell that the grouping may have put with a neighbouring colour
    it happens to resemble; each other group it is a tone copy of (or as
    near to) is another reading, for the caller's checks to rule out.
    """
    labels = np.unique(labels, return_inverse=True)[1]  # numbered 0 .. groups - 1
    groups = int(labels.max()) + 1
    medians = np.array([median(flat[labels == g], axis=0) for g in range(groups)])
    alternatives = []
    for i in range(len(flat)):
        own = labels[i]
        if np.abs(flat[i] - medians[own]).max() <= OFF_TONE:
            continue
        others = [
            g
            for g in range(groups)
            if g != own
            and (
                np.isfinite(tone_cost(flat[i], medians[g]))
                or np.abs(flat[i] - medians[g]).max() <= THRESHOLDS[0]
            )
        ]
        if others:
            alternatives.append((i, [own, *others]))
    out = [labels]
    for picks in product(*(choices for _, choices in alternatives[:MAX_DOUBTS])):
        moved = labels.copy()
        for (i, _), g in zip(alternatives, picks, strict=False):
            moved[i] = g
        out.append(moved)
    return out


def _count(labels: np.ndarray) -> int:
    """How many distinct groups ``labels`` name."""
    return len(np.unique(labels))


def _grid(labels: np.ndarray, n: int) -> Regions:
    """Labels of n * n cells as an n x n grid of regions numbered in order of first appearance."""
    order: dict[int, int] = {}
    for value in labels.tolist():
        order.setdefault(value, len(order))
    return tuple(tuple(order[v] for v in labels[r * n : (r + 1) * n].tolist()) for r in range(n))
