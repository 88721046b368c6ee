"""Opening a picture safely: PNG, JPEG or WebP told by its first bytes, bounded before decoding.

A file is an image when its content says so (the magic bytes), whatever its
name. Its size is read from the header and refused past ``MAX_PIXELS`` before
a single pixel is decoded, so a small file declaring 30000 x 30000 pixels (a
decompression bomb) costs nothing; a truncated or corrupt file is refused
with the decoder's reason. Pillow is imported here, on the first picture.
"""

from __future__ import annotations

import io
import os
import warnings
from typing import Any

from cpqueens.errors import ImageReadError

#: The most pixels a picture may have: a 3x phone screenshot (3240 x 7200) and a 8K screen fit.
MAX_PIXELS = 40_000_000
#: The largest image file read, in bytes.
MAX_IMAGE_BYTES = 64 * 2**20


def image_kind(data: bytes) -> str | None:
    r"""Which image ``data`` is, by its first bytes: "PNG", "JPEG", "WebP", or None.

    >>> image_kind(b"\x89PNG\r\n\x1a\n..."), image_kind(b"AAB\nBBA")
    ('PNG', None)
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    return None


def _bytes(source: Any) -> bytes:
    """The bytes of a path, a bytes-like object or a binary file object, at most the cap."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as file:
                data = file.read(MAX_IMAGE_BYTES + 1)
        except OSError as error:
            raise ImageReadError(f"cannot read image {str(source)!r}: {error.strerror}") from None
    elif hasattr(source, "read"):
        data = source.read(MAX_IMAGE_BYTES + 1)
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(
                f"an image file must be opened in binary mode, got {type(data).__name__}"
            )
    else:
        raise TypeError(
            "an image must be a path, bytes, a binary file or a PIL image, "
            f"got {type(source).__name__}"
        )
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageReadError(f"the image file holds more than {MAX_IMAGE_BYTES:,} bytes")
    return bytes(data)


def load(source: Any) -> Any:
    """``source`` (path, bytes, binary file or PIL image) as a decoded RGB PIL image.

    Raises :class:`~cpqueens.errors.ImageReadError` for what is not a PNG,
    JPEG or WebP image, a picture of more than ``MAX_PIXELS`` pixels, or
    one that cannot be decoded (truncated, corrupt).
    """
    from PIL import Image

    if isinstance(source, Image.Image):
        _check_size(source.width, source.height)
        return source.convert("RGB")
    data = _bytes(source)
    kind = image_kind(data)
    if kind is None:
        start = data[:8]
        raise ImageReadError(
            f"not a PNG, JPEG or WebP image (it starts with {start!r})"
            if data
            else "not an image: the file is empty"
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=[kind.upper()])
            _check_size(image.width, image.height)
            image.load()
        except ImageReadError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise ImageReadError(
                f"the {kind} image declares more than {MAX_PIXELS:,} pixels "
                "(a decompression bomb?): not decoded"
            ) from None
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            reason = str(error) or type(error).__name__
            raise ImageReadError(f"cannot decode the {kind} image: {reason}") from None
    return image if image.mode == "RGB" else image.convert("RGB")


def _check_size(width: int, height: int) -> None:
    if width * height > MAX_PIXELS:
        raise ImageReadError(
            f"the image is {width}x{height} pixels: more than {MAX_PIXELS:,} pixels are not decoded"
        )
    if width < 20 or height < 20:
        raise ImageReadError(f"the image is {width}x{height} pixels: too small to hold a board")
