"""Reading a user's file safely: a regular file (or a stream) of at most so many bytes.

Checkpoints and board files are read through here, so that a path to a
device, a FIFO or a directory is refused before it is opened for reading, a
file is opened without blocking, and no more than its cap is ever read into
memory (``/dev/zero`` or a pipe that never ends included).
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

#: What ``stat`` says a path is, for the ones that are no regular file.
KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefusedError(ValueError):
    """A file that is no regular file, or is larger than its cap; the text says which."""


def kind(mode: int) -> str:
    """What a file of ``stat`` mode ``mode`` is, in words ("a character device", ...)."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((name for test, name in KINDS if test(mode)), "something else")


def read_regular(path: str | os.PathLike[str], most: int) -> bytes:
    """The bytes of regular file ``path``, opened without blocking; refused past ``most``."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # a device, or replaced since it was checked
            raise FileRefusedError(f"it is not a regular file but {kind(mode)}")
        return read_at_most(file, most)


def read_at_most(stream: BinaryIO, most: int) -> bytes:
    """At most ``most`` bytes of ``stream`` (a file or a pipe); refused if there are more."""
    data = stream.read(most + 1)
    if len(data) > most:
        raise FileRefusedError(f"it holds more than {most} bytes")
    return data
