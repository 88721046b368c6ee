"""An outside painter: the Queens game drawn from scratch, sharing no code with cpqueens' own.

``tests/screenshots.py`` (the project's renderer) draws with Pillow's shapes
at three times the size and shrinks the result. This module is a second,
independent painter, so that the reader meets pictures it was not tuned on:

- its own geometry: cells of a fractional number of pixels, the board placed
  to a fraction of a pixel, lines centred on the cell edges;
- its own anti-aliasing: straight edges by their exact pixel coverage,
  rounded shapes by their signed distance;
- its own line widths (thin lines from under a pixel, region borders, an outer
  border or none), margins and rounded corners;
- its own marks: a font's queen and cross (DejaVu) or drawn ones;
- its own frames: a phone page (status bar, header, timer, buttons, text)
  or the board alone on a page, from no margin to a wide one;
- the game's two themes: light (pastel regions, dark lines) and dark (a
  near-black page, muted regions, light thin lines).

Pillow only rasterises the font's glyphs and encodes the result (PNG, JPEG).
:func:`picture` draws one random picture of given regions from a seeded
``random.Random``; :func:`random_regions` makes random boards.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from PIL import Image, ImageDraw, ImageFont

Cell = tuple[int, int]
RGB = tuple[int, int, int]
Regions = Sequence[Sequence[int]]

#: The game's region colours (light theme): lavender, orange, blue, green, grey, orange-red,
#: yellow, beige, pink, teal, cyan, magenta.
GAME: tuple[RGB, ...] = tuple(
    (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    for h in "BBA3E2 FFC992 96BEFF B3DFA0 DFDFDF FF7B60 E6F388 B9B29E DFA0BF A3D2D8 62EFEA "
    "FF93F3".split()
)
#: The reported case (issue 47): a 5x5 board whose orange-red region is an L along the
#: left column and the bottom row, once read as a 4x4 puzzle.
REPORTED: tuple[tuple[int, ...], ...] = (
    (0, 0, 1, 1, 1),
    (2, 0, 0, 3, 3),
    (2, 3, 3, 3, 3),
    (2, 4, 4, 3, 3),
    (2, 2, 2, 2, 3),
)
REPORTED_COLOURS: tuple[RGB, ...] = (
    (0xBB, 0xA3, 0xE2),
    (0x62, 0xEF, 0xEA),
    (0xFF, 0x7B, 0x60),
    (0xB3, 0xDF, 0xA0),
    (0xDF, 0xDF, 0xDF),
)
FONT = "DejaVuSans.ttf"


def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT, max(6, round(size)))
    except OSError:  # no DejaVu on this machine: Pillow's own font (no queen glyph in it)
        return ImageFont.load_default(max(6, round(size)))


# -- the canvas ----------------------------------------------------------------------------


class Canvas:
    """An RGB picture of floats, painted by coverage (0..1 of each pixel a shape covers)."""

    def __init__(self, width: int, height: int, colour: RGB) -> None:
        self.px = np.empty((height, width, 3), dtype=np.float32)
        self.px[:] = colour

    @property
    def size(self) -> tuple[int, int]:
        return self.px.shape[1], self.px.shape[0]

    def _blend(self, x0: int, y0: int, cover: np.ndarray, colour: RGB, alpha: float) -> None:
        h, w = cover.shape
        x1, y1 = min(x0 + w, self.size[0]), min(y0 + h, self.size[1])
        cx, cy = max(0, -x0), max(0, -y0)
        x0, y0 = max(x0, 0), max(y0, 0)
        if x1 <= x0 or y1 <= y0:
            return
        a = (cover[cy : cy + y1 - y0, cx : cx + x1 - x0] * alpha)[..., None]
        part = self.px[y0:y1, x0:x1]
        part += (np.asarray(colour, dtype=np.float32) - part) * a

    def rect(
        self, x0: float, y0: float, x1: float, y1: float, colour: RGB, alpha: float = 1.0
    ) -> None:
        """An axis-aligned rectangle, each pixel covered by the exact share it overlaps."""
        if x1 <= x0 or y1 <= y0:
            return
        i0, j0 = int(np.floor(x0)), int(np.floor(y0))
        i1, j1 = int(np.ceil(x1)), int(np.ceil(y1))
        xs, ys = np.arange(i0, i1, dtype=np.float32), np.arange(j0, j1, dtype=np.float32)
        across = np.clip(np.minimum(xs + 1, x1) - np.maximum(xs, x0), 0, 1)
        down = np.clip(np.minimum(ys + 1, y1) - np.maximum(ys, y0), 0, 1)
        self._blend(i0, j0, down[:, None] * across[None, :], colour, alpha)

    def _distance(self, box: tuple[float, float, float, float], radius: float) -> tuple:
        """The signed distance to a rounded box over its pixels (plus a margin), and the origin."""
        x0, y0, x1, y1 = box
        i0, j0 = int(np.floor(x0)) - 2, int(np.floor(y0)) - 2
        i1, j1 = int(np.ceil(x1)) + 2, int(np.ceil(y1)) + 2
        xs = np.arange(i0, i1, dtype=np.float32) + 0.5
        ys = np.arange(j0, j1, dtype=np.float32) + 0.5
        cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        r = min(radius, hx, hy)
        qx = np.abs(xs - cx)[None, :] - hx + r
        qy = np.abs(ys - cy)[:, None] - hy + r
        outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
        return outside + np.minimum(np.maximum(qx, qy), 0) - r, i0, j0

    def rounded(
        self, box: tuple[float, float, float, float], radius: float, colour: RGB, a: float = 1.0
    ) -> None:
        """A filled box with rounded corners."""
        d, i0, j0 = self._distance(box, radius)
        self._blend(i0, j0, np.clip(0.5 - d, 0, 1), colour, a)

    def corners(self, box: tuple[float, float, float, float], radius: float, colour: RGB) -> None:
        """Within ``box``, what lies outside its rounded corners painted ``colour``."""
        d, i0, j0 = self._distance(box, radius)
        xs = np.arange(i0, i0 + d.shape[1], dtype=np.float32)
        ys = np.arange(j0, j0 + d.shape[0], dtype=np.float32)
        across = np.clip(np.minimum(xs + 1, box[2]) - np.maximum(xs, box[0]), 0, 1)
        down = np.clip(np.minimum(ys + 1, box[3]) - np.maximum(ys, box[1]), 0, 1)
        self._blend(i0, j0, np.clip(0.5 + d, 0, 1) * down[:, None] * across[None, :], colour, 1)

    def outline(
        self, box: tuple[float, float, float, float], radius: float, width: float, colour: RGB
    ) -> None:
        """The outline of a rounded box, ``width`` wide, centred on its edge."""
        d, i0, j0 = self._distance(box, radius)
        self._blend(i0, j0, np.clip(width / 2 + 0.5 - np.abs(d), 0, 1), colour, 1.0)

    def polygon(self, points: Sequence[tuple[float, float]], colour: RGB) -> None:
        """A filled polygon (even-odd), each pixel covered by its share of 4 x 4 samples."""
        xs_p, ys_p = [p[0] for p in points], [p[1] for p in points]
        i0, j0 = int(np.floor(min(xs_p))), int(np.floor(min(ys_p)))
        i1, j1 = int(np.ceil(max(xs_p))), int(np.ceil(max(ys_p)))
        sub = 4
        sx = i0 + (np.arange((i1 - i0) * sub) + 0.5) / sub
        sy = j0 + (np.arange((j1 - j0) * sub) + 0.5) / sub
        gx, gy = np.meshgrid(sx, sy)
        inside = np.zeros(gx.shape, dtype=bool)
        for (ax, ay), (bx, by) in zip(points, [*points[1:], points[0]], strict=True):
            if ay == by:
                continue
            crosses = (ay > gy) != (by > gy)
            at = ax + (gy - ay) * (bx - ax) / (by - ay)
            inside ^= crosses & (gx < at)
        cover = inside.reshape(j1 - j0, sub, i1 - i0, sub).mean(axis=(1, 3))
        self._blend(i0, j0, cover, colour, 1.0)

    def segment(
        self, a: tuple[float, float], b: tuple[float, float], width: float, colour: RGB
    ) -> None:
        """A straight stroke from a to b with round ends."""
        i0, j0 = int(np.floor(min(a[0], b[0]) - width)), int(np.floor(min(a[1], b[1]) - width))
        i1, j1 = int(np.ceil(max(a[0], b[0]) + width)), int(np.ceil(max(a[1], b[1]) + width))
        px = (np.arange(i0, i1) + 0.5)[None, :] - a[0]
        py = (np.arange(j0, j1) + 0.5)[:, None] - a[1]
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = np.clip((px * dx + py * dy) / max(dx * dx + dy * dy, 1e-9), 0, 1)
        d = np.hypot(px - t * dx, py - t * dy)
        self._blend(i0, j0, np.clip(width / 2 + 0.5 - d, 0, 1), colour, 1.0)

    def text(self, x: float, y: float, words: str, size: float, colour: RGB) -> float:
        """``words`` in the font at ``size`` pixels, top-left at (x, y); returns its width."""
        font = _font(size)
        left, top, right, bottom = font.getbbox(words)
        mask = Image.new("L", (max(1, right - left + 2), max(1, bottom - top + 2)), 0)
        ImageDraw.Draw(mask).text((-left + 1, -top + 1), words, fill=255, font=font)
        cover = np.asarray(mask, dtype=np.float32) / 255
        self._blend(round(x + left), round(y + top), cover, colour, 1.0)
        return float(right - left)

    def glyph(self, cx: float, cy: float, char: str, size: float, colour: RGB) -> None:
        """One character centred on (cx, cy)."""
        left, top, right, bottom = _font(size).getbbox(char)
        self.text(cx - (left + right) / 2, cy - (top + bottom) / 2, char, size, colour)

    def image(self) -> Image.Image:
        return Image.fromarray(np.clip(np.round(self.px), 0, 255).astype(np.uint8), "RGB")


# -- how the game draws its board --------------------------------------------------------------


@dataclass
class Theme:
    """The look of a page and its board: colours of the page and lines, widths in pixels."""

    dark: bool
    page: RGB
    ink: RGB  # text, queens
    soft: RGB  # buttons, dividers
    thin: RGB
    thin_alpha: float
    thin_width: float
    thick: RGB
    thick_width: float
    outer: RGB
    outer_width: float  # 0: no outer border, the cells end on the page
    radius: float  # of the board's corners, as a fraction of a cell
    marks: str = "glyph"  # "glyph" (the font's) or "shape" (drawn)
    mute: tuple[float, float] = (0.0, 1.0)  # the dark palette: (towards grey, then scaled by)


def light_theme(rng: random.Random) -> Theme:
    """The game's light theme: a white or warm page, dark lines."""
    page = rng.choice([(255, 255, 255), (243, 242, 239), (250, 250, 250), (248, 246, 240)])
    line = rng.choice([(0, 0, 0), (30, 30, 30), (60, 60, 60)])
    thin = rng.uniform(0.7, 2.0)
    thick = max(1.8, thin * rng.uniform(2.0, 3.5))
    return Theme(
        dark=False,
        page=page,
        ink=(25, 25, 25),
        soft=(222, 222, 222),
        thin=line if rng.random() < 0.6 else (140, 140, 140),
        thin_alpha=rng.uniform(0.15, 0.6) if rng.random() < 0.7 else 1.0,
        thin_width=thin,
        thick=line,
        thick_width=thick,
        outer=line,
        outer_width=rng.choice([thick, thick * 1.5, thick + 1]),
        radius=rng.choice([0.0, 0.05, 0.12, 0.2]),
        marks=rng.choice(["glyph", "shape"]),
    )


def dark_theme(rng: random.Random) -> Theme:
    """The game's dark theme: a near-black page, light thin lines, dark or light borders."""
    page = rng.choice([(0, 0, 0), (18, 18, 18), (27, 31, 35), (29, 34, 38), (24, 24, 27)])
    light_borders = rng.random() < 0.5
    thin = rng.uniform(0.8, 2.0)
    thick = max(1.8, thin * rng.uniform(2.0, 3.5))
    border = rng.choice([(225, 225, 225), (205, 208, 212)]) if light_borders else (8, 8, 10)
    return Theme(
        dark=True,
        page=page,
        ink=(232, 232, 232),
        soft=tuple(min(255, v + 38) for v in page),  # type: ignore[arg-type]
        thin=(255, 255, 255),
        thin_alpha=rng.uniform(0.2, 0.45),
        thin_width=thin,
        thick=border,
        thick_width=thick,
        outer=border if rng.random() < 0.7 else (215, 215, 215),
        outer_width=rng.choice([thick, thick + 1]),
        radius=rng.choice([0.0, 0.05, 0.12, 0.2]),
        marks=rng.choice(["glyph", "shape"]),
        mute=(rng.uniform(0.15, 0.35), rng.uniform(0.55, 0.72)),
    )


def one_pixel_theme(dark: bool) -> Theme:
    """A board drawn with 1-pixel lines only: the regions told by their colours alone."""
    page, line = ((20, 20, 20), (200, 200, 200)) if dark else ((255, 255, 255), (40, 40, 40))
    mute = (0.25, 0.62) if dark else (0.0, 1.0)
    return Theme(dark, page, line, line, line, 1.0, 1.0, line, 1.0, line, 1.0, 0.0, mute=mute)


def muted(colour: RGB, theme: Theme) -> RGB:
    """A region colour as ``theme`` draws it: the light theme's as it is.

    The dark theme mutes every region by one rule (towards grey by
    ``theme.mute[0]``, then scaled by ``theme.mute[1]``): close colours come
    closer still.
    """
    grey = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    d, k = theme.mute
    return tuple(round((v * (1 - d) + grey * d) * k) for v in colour)  # type: ignore[return-value]


def _apart(a: RGB, b: RGB, least: float) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) >= least


def palette(rng: random.Random, n: int, theme: Theme, kind: str) -> list[RGB]:
    """``n`` region colours: the game's (``"game"``) or random pastels (``"random"``).

    On a dark theme all are muted by the theme's one rule; the game's own are
    taken as they come (muted, the closest come to 12-22 grey levels apart),
    random ones at least 24 (light) or 16 (dark) apart in some channel.
    """
    least = 16 if theme.dark else 24
    chosen: list[RGB] = []
    pool = list(GAME)
    rng.shuffle(pool)
    tries = 0
    while len(chosen) < n:
        tries += 1
        game = kind == "game" and bool(pool) and tries < 200
        if game:
            base = pool.pop()
        else:
            base = tuple(rng.randint(90, 255) for _ in range(3))  # type: ignore[assignment]
        colour = muted(base, theme)
        if (game or all(_apart(colour, other, least) for other in chosen)) and _apart(
            colour, theme.page, 6
        ):
            chosen.append(colour)
    return chosen


def near(colour: RGB, rng: random.Random) -> RGB:
    """A colour close to ``colour`` (a page or frame): 8 to 30 grey levels towards mid-grey."""
    step = rng.randint(8, 30)
    sign = 1 if sum(colour) < 3 * 128 else -1
    return tuple(min(255, max(0, v + sign * step + rng.randint(-4, 4))) for v in colour)  # type: ignore[return-value]


@dataclass
class Board:
    """What is drawn: the regions, their colours, the marks; where and how big (pixels)."""

    regions: Regions
    colours: Sequence[RGB]
    theme: Theme
    cell: float
    queens: Sequence[Cell] = ()
    crosses: Sequence[Cell] = ()
    stars: bool = False  # marks drawn as stars (Star Battle)


def draw_board(canvas: Canvas, board: Board, x0: float, y0: float) -> None:
    """The board with its top-left cell corner at (x0, y0)."""
    t, n, s = board.theme, len(board.regions), board.cell
    side = n * s
    radius = t.radius * s
    if t.outer_width > 0:  # the outer border, drawn under the cells' edge
        w = t.outer_width
        canvas.rounded((x0 - w, y0 - w, x0 + side + w, y0 + side + w), radius + w, t.outer)
    for r in range(n):
        for c in range(n):
            colour = board.colours[board.regions[r][c]]
            canvas.rect(x0 + c * s, y0 + r * s, x0 + (c + 1) * s, y0 + (r + 1) * s, colour)
    if radius > 0:  # the rounded corners: the border (or the page) outside the curve
        canvas.corners((x0, y0, x0 + side, y0 + side), radius, t.outer if t.outer_width else t.page)
    half = t.thin_width / 2
    for k in range(1, n):  # thin lines between every two cells
        at = k * s
        canvas.rect(x0 + at - half, y0, x0 + at + half, y0 + side, t.thin, t.thin_alpha)
        canvas.rect(x0, y0 + at - half, x0 + side, y0 + at + half, t.thin, t.thin_alpha)
    half = t.thick_width / 2
    for r in range(n):  # thick borders between regions
        for c in range(n):
            x, y = x0 + c * s, y0 + r * s
            if c + 1 < n and board.regions[r][c] != board.regions[r][c + 1]:
                canvas.rect(x + s - half, y - half, x + s + half, y + s + half, t.thick)
            if r + 1 < n and board.regions[r][c] != board.regions[r + 1][c]:
                canvas.rect(x - half, y + s - half, x + s + half, y + s + half, t.thick)
    for r, c in board.queens:
        _queen(canvas, x0 + (c + 0.5) * s, y0 + (r + 0.5) * s, s, t, board.stars)
    for r, c in board.crosses:
        _cross(canvas, x0 + (c + 0.5) * s, y0 + (r + 0.5) * s, s, t)


def _queen(canvas: Canvas, x: float, y: float, s: float, t: Theme, star: bool) -> None:
    ink = (20, 20, 20) if not t.dark else t.ink
    if t.marks == "glyph":
        canvas.glyph(x, y, "★" if star else "♛", 0.62 * s, ink)
        return
    w = 0.5 * s
    h = 0.4 * s
    top, bottom = y - h / 2, y + h / 2
    points = [(x - w / 2, top + 0.1 * h)]
    for i in range(1, 5):  # a crown of five points
        xi = x - w / 2 + i * w / 4
        points += [(xi - w / 8, top + 0.5 * h), (xi, top + (0.0 if i % 2 == 0 else 0.1) * h)]
    points += [(x + w / 2, bottom), (x - w / 2, bottom)]
    canvas.polygon(points, ink)


def _cross(canvas: Canvas, x: float, y: float, s: float, t: Theme) -> None:
    ink = (90, 90, 90) if not t.dark else (190, 190, 190)
    if t.marks == "glyph":
        canvas.glyph(x, y, "✕", 0.3 * s, ink)
        return
    h, w = 0.13 * s, max(1.0, 0.04 * s)
    canvas.segment((x - h, y - h), (x + h, y + h), w, ink)
    canvas.segment((x - h, y + h), (x + h, y - h), w, ink)


# -- frames ----------------------------------------------------------------------------------


def frameless(board: Board, margins: tuple[float, float, float, float]) -> Canvas:
    """The board alone on its page; ``margins`` (left, top, right, bottom) from the cells."""
    n, s = len(board.regions), board.cell
    left, top, right, bottom = margins
    width = round(left + n * s + right)
    height = round(top + n * s + bottom)
    canvas = Canvas(width, height, board.theme.page)
    draw_board(canvas, board, left, top)
    return canvas


PHONES = ((1080, 2400), (1170, 2532), (720, 1600), (1284, 2778), (1080, 2340))


def phone(board: Board, rng: random.Random) -> Canvas:
    """A phone screenshot: status bar, header and title, timer, the board, buttons, text."""
    t = board.theme
    width, height = rng.choice(PHONES)
    u = width / 1080  # the phone's scale
    canvas = Canvas(width, height, t.page)
    canvas.text(50 * u, 28 * u, "9:41", 38 * u, t.ink)
    canvas.outline((width - 130 * u, 34 * u, width - 60 * u, 66 * u), 6 * u, 3 * u, t.ink)
    canvas.rect(width - 125 * u, 39 * u, width - 90 * u, 61 * u, t.ink)
    canvas.text(40 * u, 150 * u, "<", 64 * u, t.ink)
    title = canvas.text(-1000, -1000, "Queens", 62 * u, t.ink)
    canvas.text((width - title) / 2, 150 * u, "Queens", 62 * u, t.ink)
    canvas.rect(0, 262 * u, width, 264 * u, t.soft)
    canvas.rounded((width / 2 - 110 * u, 300 * u, width / 2 + 110 * u, 372 * u), 36 * u, t.soft)
    canvas.text(width / 2 - 52 * u, 312 * u, "0:37", 42 * u, t.ink)
    n = len(board.regions)
    side_margin = rng.uniform(16, 60) * u
    board.cell = (width - 2 * side_margin) / n
    top = rng.uniform(400, 440) * u
    draw_board(canvas, board, side_margin, top)
    y = top + n * board.cell + rng.uniform(30, 70) * u
    labels = rng.choice([("Undo", "Hint"), ("Undo", "Hint", "Clear")])
    gap = 30 * u
    wide = (width - 2 * side_margin - gap * (len(labels) - 1)) / len(labels)
    filled = rng.random() < 0.5
    for i, label in enumerate(labels):
        x = side_margin + i * (wide + gap)
        box = (x, y, x + wide, y + 100 * u)
        if filled:
            canvas.rounded(box, 50 * u, t.soft)
        else:
            canvas.outline(box, 50 * u, 3 * u, t.ink)
        canvas.text(x + wide / 2 - 50 * u, y + 25 * u, label, 44 * u, t.ink)
    y += 170 * u
    words = "each row column and colour holds one queen and no two queens touch".split()
    size = rng.uniform(28, 44) * u
    while y + size * 2 < height - 140 * u:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(5, 9)))
        canvas.text(50 * u, y, line, size, t.ink)
        y += size * rng.uniform(1.3, 1.8)
    canvas.rect(0, height - 120 * u, width, height - 118 * u, t.soft)
    for i in range(4):  # a bottom bar of icons
        cx = width * (i + 0.5) / 4
        canvas.rounded((cx - 24 * u, height - 90 * u, cx + 24 * u, height - 42 * u), 24 * u, t.soft)
    return canvas


# -- random pictures -------------------------------------------------------------------------


def random_regions(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A random partition of the n x n grid into n connected regions (grown from n seeds)."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    grid = [[-1] * n for _ in range(n)]
    for g, (r, c) in enumerate(rng.sample(cells, n)):
        grid[r][c] = g
    free = n * n - n
    while free:
        r, c = rng.choice(cells)
        if grid[r][c] >= 0:
            continue
        around = [
            grid[a][b]
            for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= a < n and 0 <= b < n and grid[a][b] >= 0
        ]
        if around:
            grid[r][c] = rng.choice(around)
            free -= 1
    return tuple(tuple(row) for row in grid)


def l_regions(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A board of n regions whose region 0 is an L: a whole column and row meeting at a corner.

    The rest is a random partition of the other (n - 1) x (n - 1) cells
    (:func:`random_regions`); the L is the reported board's shape, an edge
    region along two sides of the board.
    """
    inner = random_regions(n - 1, rng)
    top, left = rng.random() < 0.5, rng.random() < 0.5
    grid = [[0] * n for _ in range(n)]
    for r in range(n - 1):
        for c in range(n - 1):
            grid[r + (1 if top else 0)][c + (1 if left else 0)] = inner[r][c] + 1
    return tuple(tuple(row) for row in grid)


def edge_regions(regions: Regions) -> list[int]:
    """The regions with a cell on the board's edge."""
    n = len(regions)
    return sorted(
        {regions[r][c] for r in range(n) for c in range(n) if r in (0, n - 1) or c in (0, n - 1)}
    )


@dataclass
class Shot:
    """A picture drawn, and what it shows."""

    data: bytes
    regions: tuple[tuple[int, ...], ...]
    what: str  # the family, in words: "dark phone jpeg marks"
    board: Board = field(repr=False)


def encode(image: Image.Image, quality: int | None) -> bytes:
    """PNG bytes, or JPEG at ``quality`` (4:2:0, as phones and messengers send)."""
    out = io.BytesIO()
    if quality is None:
        image.save(out, "PNG", compress_level=1)
    else:
        image.save(out, "JPEG", quality=quality)
    return out.getvalue()


def picture(
    regions: Regions,
    rng: random.Random,
    *,
    dark: bool | None = None,
    frame: str | None = None,
    quality: int | bool | None = None,
    marks: bool | None = None,
    colours: Sequence[RGB] | None = None,
    close_edge: bool | None = None,
    close_to: str = "page",
    edge_region: int | None = None,
    one_pixel: bool = False,
    solution: Sequence[Cell] = (),
    stars: bool = False,
) -> Shot:
    """A random picture of ``regions``; each choice left None is drawn from ``rng``.

    ``frame`` "phone" or "frameless"; ``quality`` a JPEG quality, False for
    PNG (True: a random quality); ``marks`` queens (on ``solution``'s cells, or
    anywhere) and crosses; ``close_edge`` colours an edge region (``edge_region``,
    or one at random) close to the page (``close_to="page"``) or to the board's
    outer border (``"frame"``; the page if it has none); ``colours`` are the
    regions' colours as the light theme draws them.
    """
    n = len(regions)
    dark = rng.random() < 0.5 if dark is None else dark
    frame = frame or rng.choice(["phone", "frameless"])
    if quality is None or quality is True:
        quality = rng.randint(55, 95) if quality or rng.random() < 0.4 else False
    marks = rng.random() < 0.4 if marks is None else marks
    close_edge = rng.random() < 0.25 if close_edge is None else close_edge
    theme = one_pixel_theme(dark) if one_pixel else dark_theme(rng) if dark else light_theme(rng)
    if colours is None:
        chosen = palette(rng, n, theme, rng.choice(["game", "random"]))
    else:
        chosen = [muted(c, theme) for c in colours]
    if close_edge:
        target = rng.choice(edge_regions(regions)) if edge_region is None else edge_region
        base = theme.outer if close_to == "frame" and theme.outer_width > 0 else theme.page
        for _ in range(50):
            colour = near(base, rng)
            others = [c for g, c in enumerate(chosen) if g != target]
            if all(_apart(colour, c, 16 if dark else 24) for c in others):
                chosen[target] = colour
                break
    queens: list[Cell] = []
    crosses: list[Cell] = []
    if marks:
        cells = [(r, c) for r in range(n) for c in range(n)]
        pool = list(solution) or rng.sample(cells, n)
        queens = rng.sample(pool, rng.randint(1, len(pool)))
        crosses = [cell for cell in rng.sample(cells, rng.randint(1, 2 * n)) if cell not in queens]
    board = Board(regions, chosen, theme, rng.uniform(34, 90), queens, crosses, stars)
    if frame == "phone":
        canvas = phone(board, rng)
    else:
        pick = [0.0, rng.uniform(1, 6), rng.uniform(0.15, 1.5) * board.cell]
        margins = tuple(rng.choice(pick) + theme.outer_width for _ in range(4))
        canvas = frameless(board, margins)  # type: ignore[arg-type]
    image = canvas.image()
    if frame == "phone" and rng.random() < 0.3:
        factor = rng.uniform(0.5, 0.9)
        image = image.resize((round(image.width * factor), round(image.height * factor)))
    data = encode(image, quality or None)
    words = [
        "dark" if dark else "light",
        frame,
        f"jpeg{quality}" if quality else "png",
        *(["marks"] if marks else []),
        *([f"close-to-{close_to}"] if close_edge else []),
        *(["1px"] if one_pixel else []),
    ]
    return Shot(data, tuple(tuple(row) for row in regions), " ".join(words), board)


def with_colours(board: Board, colours: Sequence[RGB]) -> Board:
    """``board`` with other region colours."""
    return replace(board, colours=list(colours))
