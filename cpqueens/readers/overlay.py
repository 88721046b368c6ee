"""Drawing queens over a screenshot: a crown on each cell, as the game draws its queens.

The crown is black with a white rim, centred on the cell the reading located,
about half the cell wide, so that it stands out on any region colour and in
dark mode. The picture is written as PNG.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

Cell = tuple[int, int]


def crown(draw: Any, x: float, y: float, size: float, rim: float) -> None:
    """A crown ``size`` wide centred on (x, y): black, with a white rim ``rim`` pixels wide."""
    h = size * 0.8
    left, right, top, bottom = x - size / 2, x + size / 2, y - h / 2, y + h / 2
    outline = [
        (left, top + h * 0.2),
        (left + size * 0.27, top + h * 0.5),
        (x, top),
        (right - size * 0.27, top + h * 0.5),
        (right, top + h * 0.2),
        (right - size * 0.1, bottom),
        (left + size * 0.1, bottom),
    ]
    draw.polygon(outline, fill=(0, 0, 0), outline=(255, 255, 255), width=max(1, round(rim)))


def png(image: Any, boxes: Iterable[tuple[float, float, float, float]]) -> bytes:
    """``image`` (a PIL image) with a crown in each box (left, top, right, bottom), as PNG bytes."""
    from PIL import ImageDraw

    picture = image.convert("RGB")
    draw = ImageDraw.Draw(picture)
    for left, top, right, bottom in boxes:
        side = min(right - left, bottom - top)
        crown(draw, (left + right) / 2, (top + bottom) / 2, side * 0.55, side * 0.03)
    out = io.BytesIO()
    picture.save(out, "PNG")
    return out.getvalue()
