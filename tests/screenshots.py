"""Screenshots of the Queens game, rendered by the tests from puzzles the project generates.

The look follows the game's: soft pastel region colours, thin dark lines
between cells, thick dark borders between regions and around the board, a
rounded board corner, queens drawn as black crowns and X marks as thin
crosses. :func:`board` draws the board alone; :func:`phone` and
:func:`desktop` put it in a frame (status bar, title, buttons, text, light or
dark); :func:`crop`, :func:`scaled` and :func:`jpeg` do what sharing a
screenshot does to it. Nothing here is copied from any real screenshot.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

Cell = tuple[int, int]
RGB = tuple[int, int, int]

#: Soft region colours in the game's manner (lavender, peach, sky, sage, grey, coral, ...).
PALETTE: tuple[RGB, ...] = (
    (187, 163, 226),
    (255, 201, 146),
    (150, 190, 255),
    (179, 223, 160),
    (223, 223, 223),
    (255, 123, 96),
    (230, 243, 136),
    (185, 178, 158),
    (223, 160, 191),
    (163, 210, 216),
    (98, 239, 234),
    (255, 147, 243),
    # for the larger Star Battle boards: each at least 38 from every colour above, and no
    # darker or lighter copy of any of them
    (198, 97, 225),
    (137, 251, 165),
    (245, 91, 188),
    (138, 108, 250),
    (166, 254, 91),
    (98, 253, 184),
    (247, 91, 148),
    (100, 201, 246),
)
#: Colours that pair up about 25 apart per channel: the hardest palette to separate.
CLOSE: tuple[RGB, ...] = (
    (187, 163, 226),
    (212, 188, 251),
    (255, 201, 146),
    (230, 176, 121),
    (150, 190, 255),
    (175, 215, 230),
    (179, 223, 160),
    (154, 198, 135),
    (223, 223, 223),
    (198, 198, 198),
    (255, 123, 96),
    (230, 98, 121),
)

LINE = (40, 40, 40)
BORDER = (0, 0, 0)


@dataclass
class Look:
    """How one board is drawn: sizes in pixels, marks, highlights, palette."""

    cell: int = 60
    thin: int = 1
    thick: int = 3
    radius: int = 8
    palette: Sequence[RGB] = PALETTE
    queens: Iterable[Cell] = ()
    crosses: Iterable[Cell] = ()
    #: cell -> factor: below 1 darker (a selected cell), above 1 lighter (a hint).
    highlights: dict[Cell, float] = field(default_factory=dict)
    background: RGB = (255, 255, 255)
    supersample: int = 3
    #: the thin lines' colour; None draws none (only the region borders)
    line: RGB | None = LINE
    #: if set, thin lines are black this opaque over the cells instead (0.2: faint)
    line_alpha: float | None = None
    #: a queen's width, as a fraction of the cell
    queen_size: float = 0.55
    #: the partition the thick lines are drawn for (None: the regions coloured)
    borders: Sequence[Sequence[int]] | None = None


def _tone(colour: RGB, factor: float) -> RGB:
    """``colour`` darker (factor < 1, scaled) or lighter (factor > 1, towards white)."""
    if factor <= 1:
        return tuple(round(v * factor) for v in colour)  # type: ignore[return-value]
    t = factor - 1
    return tuple(round(v + (255 - v) * t) for v in colour)  # type: ignore[return-value]


def _crown(draw: ImageDraw.ImageDraw, x: float, y: float, size: float) -> None:
    """A black crown (the game's queen) centred on (x, y), ``size`` wide."""
    h = size * 0.8
    left, right, top, bottom = x - size / 2, x + size / 2, y - h / 2, y + h / 2
    points = [
        (left, top + h * 0.25),
        (left + size * 0.25, top + h * 0.55),
        (x, top),
        (right - size * 0.25, top + h * 0.55),
        (right, top + h * 0.25),
        (right - size * 0.1, bottom - h * 0.2),
        (left + size * 0.1, bottom - h * 0.2),
    ]
    draw.polygon(points, fill=(0, 0, 0))
    draw.rectangle([left + size * 0.1, bottom - h * 0.12, right - size * 0.1, bottom], fill=0)
    for px, py in ((left, top + h * 0.25), (x, top), (right, top + h * 0.25)):
        r = size * 0.07
        draw.ellipse([px - r, py - r, px + r, py + r], fill=(0, 0, 0))


def board(regions: Sequence[Sequence[int]], look: Look | None = None) -> Image.Image:
    """The board alone on ``look.background``, with a margin of half a cell."""
    look = look or Look()
    s = look.supersample
    n = len(regions)
    cell, thin, thick = look.cell * s, max(1, look.thin * s), look.thick * s
    margin = (look.cell // 2) * s
    side = n * cell
    size = side + 2 * margin
    image = Image.new("RGB", (size, size), look.background)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        [
            margin - thick // 2,
            margin - thick // 2,
            margin + side + thick // 2,
            margin + side + thick // 2,
        ],
        radius=look.radius * s,
        fill=BORDER,
    )
    for r in range(n):
        for c in range(n):
            colour = look.palette[regions[r][c]]
            if (r, c) in look.highlights:
                colour = _tone(colour, look.highlights[(r, c)])
            x, y = margin + c * cell, margin + r * cell
            draw.rectangle([x, y, x + cell - 1, y + cell - 1], fill=colour)
    faint = Image.new("L", (size, size), 0)
    alpha = round(255 * (look.line_alpha or 1.0))
    for k in range(1, n if look.line else 1):  # thin lines between every two cells
        at = margin + k * cell
        ends = (at - thin // 2, at - thin // 2 + thin - 1)
        for target, fill in ((draw, look.line), (ImageDraw.Draw(faint), alpha)):
            if (target is draw) == (look.line_alpha is None):
                target.rectangle([ends[0], margin, ends[1], margin + side], fill=fill)
                target.rectangle([margin, ends[0], margin + side, ends[1]], fill=fill)
    if look.line_alpha is not None:
        image = Image.composite(Image.new("RGB", image.size, 0), image, faint)
        draw = ImageDraw.Draw(image)
    drawn = look.borders or regions
    for r in range(n):  # thick borders between regions
        for c in range(n):
            x, y = margin + c * cell, margin + r * cell
            if c + 1 < n and drawn[r][c] != drawn[r][c + 1]:
                at = x + cell
                draw.rectangle(
                    [at - thick // 2, y - thick // 2, at + thick // 2, y + cell + thick // 2],
                    fill=BORDER,
                )
            if r + 1 < n and drawn[r][c] != drawn[r + 1][c]:
                at = y + cell
                draw.rectangle(
                    [x - thick // 2, at - thick // 2, x + cell + thick // 2, at + thick // 2],
                    fill=BORDER,
                )
    # the outer border, its corners rounded: the frame's colour outside the rounded rectangle
    mask = Image.new("L", (size, size), 255)
    ImageDraw.Draw(mask).rounded_rectangle(
        [margin - thick, margin - thick, margin + side + thick, margin + side + thick],
        radius=look.radius * s,
        fill=0,
    )
    image.paste(look.background, mask=mask)
    ring = ImageDraw.Draw(image)
    ring.rounded_rectangle(
        [margin - thick, margin - thick, margin + side + thick, margin + side + thick],
        radius=look.radius * s,
        outline=BORDER,
        width=thick,
    )
    for r, c in look.queens:
        _crown(draw, margin + (c + 0.5) * cell, margin + (r + 0.5) * cell, cell * look.queen_size)
    for r, c in look.crosses:
        x, y, h = margin + (c + 0.5) * cell, margin + (r + 0.5) * cell, cell * 0.12
        width = max(1, round(cell * 0.035))
        draw.line([x - h, y - h, x + h, y + h], fill=(0, 0, 0), width=width)
        draw.line([x - h, y + h, x + h, y - h], fill=(0, 0, 0), width=width)
    if s > 1:
        image = image.resize((size // s, size // s), Image.Resampling.BOX)
    return image


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def _text_lines(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    lines: int,
    ink: RGB,
    size: int,
    rng: random.Random,
    spacing: float = 1.5,
) -> int:
    words = (
        "Queens crown each row column and colour region once no two touch diagonally solve "
        "puzzle daily streak"
    ).split()
    for _ in range(lines):
        text, used = [], 0
        while True:
            word = rng.choice(words)
            used += (len(word) + 1) * size * 0.55
            if used > width:
                break
            text.append(word)
        draw.text((x, y), " ".join(text), fill=ink, font=_font(size))
        y += int(size * spacing)
    return y


PHONE = (1080, 2400)


def phone_cells(n: int) -> tuple[int, int, int]:
    """Where :func:`phone` draws an n x n board's cells: (left, top, side of a cell)."""
    cell = (PHONE[0] - 80) // n
    margin = cell // 2
    side = n * cell + 2 * margin
    return (PHONE[0] - side) // 2 + margin, 470 + margin, cell


def phone(
    regions: Sequence[Sequence[int]],
    look: Look | None = None,
    dark: bool = False,
    seed: int = 0,
    page: RGB | None = None,
    text: tuple[int, float] | None = None,
) -> Image.Image:
    """A 1080 x 2400 phone screenshot: status bar, title, timer, the board, buttons, text.

    ``dark`` draws light text on a black page, or on ``page`` (a near-black grey).
    ``text`` (a font size, and the line spacing as a multiple of it) fills the
    screen below the buttons with paragraphs; by default, six lines of 40 pixels.
    """
    look = look or Look()
    rng = random.Random(seed)
    n = len(regions)
    width, height = PHONE
    back = page or ((0, 0, 0) if dark else (255, 255, 255))
    ink = (235, 235, 235) if dark else (30, 30, 30)
    soft = tuple(min(255, v + 40) for v in back) if dark else (225, 225, 225)
    look.background = back
    look.cell = phone_cells(n)[2]
    look.thin = max(look.thin, 2)
    look.thick = max(look.thick, 6)
    look.radius = max(look.radius, 20)
    shot = Image.new("RGB", (width, height), back)
    draw = ImageDraw.Draw(shot)
    draw.text((60, 30), "9:41", fill=ink, font=_font(40))
    draw.rectangle([940, 40, 1010, 75], outline=ink, width=4)
    draw.text((60, 160), "<", fill=ink, font=_font(60))
    draw.text((420, 160), "Queens", fill=ink, font=_font(70))
    draw.line([0, 280, width, 280], fill=soft, width=3)
    draw.rounded_rectangle([420, 330, 660, 410], radius=30, fill=soft)
    draw.text((480, 345), "0:42", fill=ink, font=_font(44))
    picture = board(regions, look)
    top = 470
    shot.paste(picture, ((width - picture.width) // 2, top))
    assert phone_cells(n)[:2] == (
        (width - picture.width) // 2 + look.cell // 2,
        top + look.cell // 2,
    )
    y = top + picture.height + 20
    for i, label in enumerate(("Undo", "Hint")):
        x = 80 + i * 480
        draw.rounded_rectangle([x, y, x + 440, y + 110], radius=55, outline=ink, width=4)
        draw.text((x + 160, y + 30), label, fill=ink, font=_font(48))
    if text is None:
        _text_lines(draw, 60, y + 180, width - 120, 6, ink, 40, rng)
    else:
        size, spacing = text
        lines = max(0, (height - 40 - (y + 180)) // int(size * spacing))
        _text_lines(draw, 60, y + 180, width - 120, lines, ink, size, rng, spacing)
    return shot


def desktop(
    regions: Sequence[Sequence[int]], look: Look | None = None, dark: bool = False, seed: int = 0
) -> Image.Image:
    """A 1920 x 1080 browser window: tabs, address bar, side panels, the board in a card."""
    look = look or Look()
    rng = random.Random(seed)
    n = len(regions)
    width, height = 1920, 1080
    page = (27, 31, 35) if dark else (244, 242, 238)
    card = (29, 34, 38) if dark else (255, 255, 255)
    ink = (230, 230, 230) if dark else (40, 40, 40)
    chrome = (53, 54, 58) if dark else (222, 225, 230)
    look.background = card
    look.cell = min(64, 560 // n)
    shot = Image.new("RGB", (width, height), page)
    draw = ImageDraw.Draw(shot)
    draw.rectangle([0, 0, width, 90], fill=chrome)
    for i in range(4):
        draw.rounded_rectangle(
            [10 + i * 250, 8, 250 + i * 250, 44],
            radius=8,
            fill=card if i == 1 else chrome,
            outline=ink,
        )
        draw.text((30 + i * 250, 14), f"Tab {i + 1}", fill=ink, font=_font(18))
    draw.rounded_rectangle([120, 52, 1500, 84], radius=16, fill=card)
    draw.text((140, 58), "https://www.example.com/games/queens", fill=ink, font=_font(18))
    draw.rectangle([0, 90, width, 150], fill=card)
    draw.text((300, 105), "Games", fill=ink, font=_font(28))
    draw.rounded_rectangle([40, 180, 400, 700], radius=10, fill=card)
    _text_lines(draw, 60, 200, 320, 12, ink, 20, rng)
    picture = board(regions, look)
    side = picture.width + 120
    left = (width - side) // 2
    draw.rounded_rectangle([left, 180, left + side, 180 + side + 180], radius=10, fill=card)
    draw.text((left + 40, 200), "Queens  #312", fill=ink, font=_font(30))
    draw.text((left + side - 140, 200), "1:07", fill=ink, font=_font(30))
    shot.paste(picture, (left + 60, 260))
    y = 260 + picture.height + 10
    draw.rounded_rectangle([left + 60, y, left + 260, y + 50], radius=25, outline=ink, width=2)
    draw.text((left + 120, y + 12), "Undo", fill=ink, font=_font(22))
    draw.rounded_rectangle(
        [left + side - 260, y, left + side - 60, y + 50], radius=25, outline=ink, width=2
    )
    draw.text((left + side - 200, y + 12), "Hint", fill=ink, font=_font(22))
    draw.rounded_rectangle([width - 420, 180, width - 40, 600], radius=10, fill=card)
    _text_lines(draw, width - 400, 200, 340, 10, ink, 20, rng)
    return shot


def rotated(shot: Image.Image, degrees: float) -> Image.Image:
    """``shot`` turned ``degrees`` anticlockwise (bicubic), the corners filled with its page."""
    page = shot.getpixel((0, 0))
    return shot.rotate(degrees, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=page)


def together(first: Image.Image, second: Image.Image, across: bool, gap: int = 0) -> Image.Image:
    """Two pictures in one: ``second`` right of ``first`` (``across``) or below it, on its page."""
    page = first.getpixel((0, 0))
    if across:
        size = (first.width + gap + second.width, max(first.height, second.height))
        at = (first.width + gap, 0)
    else:
        size = (max(first.width, second.width), first.height + gap + second.height)
        at = (0, first.height + gap)
    out = Image.new("RGB", size, page)
    out.paste(first, (0, 0))
    out.paste(second, at)
    return out


def crop(shot: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    """The part of ``shot`` inside ``box`` (left, top, right, bottom)."""
    return shot.crop(box)


def board_box(regions: Sequence[Sequence[int]], look: Look) -> tuple[int, int, int, int]:
    """Where :func:`board` puts the cells: (left, top, right, bottom) in its picture."""
    margin = look.cell // 2
    return margin, margin, margin + len(regions) * look.cell, margin + len(regions) * look.cell


def scaled(shot: Image.Image, factor: float) -> Image.Image:
    """``shot`` resized by ``factor`` (bicubic, as viewers and messengers scale)."""
    size = (max(1, round(shot.width * factor)), max(1, round(shot.height * factor)))
    return shot.resize(size, Image.Resampling.BICUBIC)


def png(shot: Image.Image) -> bytes:
    """``shot`` as PNG bytes."""
    out = io.BytesIO()
    shot.save(out, "PNG")
    return out.getvalue()


def jpeg(shot: Image.Image, quality: int) -> bytes:
    """``shot`` as JPEG bytes at ``quality`` (with the usual 4:2:0 colour subsampling)."""
    out = io.BytesIO()
    shot.save(out, "JPEG", quality=quality)
    return out.getvalue()


def same_regions(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]) -> bool:
    """Whether two region grids are equal up to renaming the regions."""
    if len(a) != len(b) or any(len(x) != len(y) for x, y in zip(a, b, strict=True)):
        return False
    forward: dict[int, int] = {}
    backward: dict[int, int] = {}
    for row_a, row_b in zip(a, b, strict=True):
        for x, y in zip(row_a, row_b, strict=True):
            if forward.setdefault(x, y) != y or backward.setdefault(y, x) != x:
                return False
    return True
