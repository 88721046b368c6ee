"""Checkpoints: a file that records each finished subproblem's weighted count, so a count resumes.

The file is JSON: what was counted (the model, the backend, the split) and,
for each finished subproblem, its index in the split and its weighted count,
sealed by a SHA-256 of all of it (``content_digest``). Reading it checks every
field and the seal, and binding it to a split checks each count against what
its subproblem can hold, so a damaged or edited file is refused, never resumed
into a wrong total.
Every change is written whole to a temporary file beside it, fsynced, renamed
over the old one and the directory fsynced, so a crash at any moment leaves
either the old file or the new one, never a torn one. A resumed count skips
the finished subproblems, so none is counted twice.

The path must be a regular file (or a symlink to one, written through to its
target) of at most ``MAX_BYTES``; anything else is refused before it is read.
An open checkpoint holds an exclusive lock on ``.NAME.lock`` beside it until
``close()``, so a second count on the same file is refused at once; holding
it, it removes the ``.NAME.*.tmp`` files a killed count left behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TypeGuard

try:
    import fcntl
except ImportError:  # Windows: no flock, so checkpoints are not locked there
    fcntl = None  # type: ignore[assignment]

from cpqueens.errors import CheckpointError
from cpqueens.execution.files import kind, read_regular
from cpqueens.vocabulary.problem import Problem

FORMAT = "cpqueens-checkpoint"
VERSION = 2

#: The fields of a checkpoint file, in the order it writes them.
FIELDS = ("format", "version", "model", "backend", "split_depth", "subproblems", "split", "done")
#: The field holding the seal, the SHA-256 of the others (``content_digest``).
SEAL = "sha256"
HEX_DIGITS = frozenset("0123456789abcdef")
#: The largest checkpoint file read or written: far more than a split's results take.
MAX_BYTES = 16 * 2**20


def column_form(model: Any) -> Problem:
    """The column form a checkpoint identifies: ``model`` itself, or a model's ``columns()``."""
    columns = getattr(model, "columns", None)
    return columns() if callable(columns) else model  # type: ignore[no-any-return]


def describe(model: Any) -> str:
    """An exact one-line description of ``model`` (or its column form): a checkpoint's identity.

    >>> from cpqueens import model
    >>> describe(model(6, blocked=[(0, 1)], colours=2))
    'n=6 colours=2 blocked=[(0, 1)] placed=[]'
    """
    model = column_form(model)
    text = (
        f"n={model.n} colours={model.colours} "
        f"blocked={list(model.board.blocked)} placed={list(model.placed)}"
    )
    if not model.diagonals:
        text += " diagonals=False"
    if model.extra:
        text += f" extra={list(model.extra)!r}"
    return text


def content_digest(data: Mapping[str, Any]) -> str:
    """The SHA-256 sealing a checkpoint: of its fields in order, its (index, count) pairs sorted.

    >>> fields = {"format": FORMAT, "version": VERSION, "model": "n=4 colours=1 blocked=[] "
    ...     "placed=[]", "backend": "bitmask", "split_depth": 1, "subproblems": 2,
    ...     "split": "0" * 64, "done": [[0, 0], [1, 2]]}
    >>> sealed = content_digest(fields)
    >>> content_digest({**fields, "done": [[1, 2], [0, 0]]}) == sealed  # order does not matter
    True
    >>> content_digest({**fields, "done": [[0, 0], [1, 4]]}) == sealed  # a count does
    False
    """
    canonical = [data[field] for field in FIELDS[:-1]]
    canonical.append(sorted([index, value] for index, value in data["done"]))
    text = json.dumps(canonical, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


class Part(Protocol):
    """A part of a split, as a checkpoint records it: a label and the counts it may have.

    The counting strategies' parts (``Subproblem``, ``Piece``) carry these.
    """

    def label(self) -> str:
        """The exact text that identifies the part within its split."""
        ...

    def admits(self, value: int, n: int) -> bool:
        """Whether ``value`` can be the part's count on an n x n board."""
        ...

    def expects(self, n: int) -> str:
        """What :meth:`admits` expects, for an error message."""
        ...


def split_digest(parts: Sequence[Part]) -> str:
    """A SHA-256 of the parts in order: two splits with one digest are the same split."""
    return hashlib.sha256("\n".join(part.label() for part in parts).encode()).hexdigest()


class Checkpoint:
    """The finished subproblems of one count, kept in a file that survives a crash."""

    def __init__(self, path: str | os.PathLike[str], model: Any, backend: str) -> None:
        """Open the checkpoint at ``path``: lock it, and read it if there is one.

        Refused (``CheckpointError``) if another count holds it, if ``path``
        is not a regular file, or if the file is damaged or for another count.
        """
        self.path = Path(path)
        model = column_form(model)
        self.model = describe(model)
        self.n = model.n
        self.backend = backend
        #: The split depth the file records, or None for a new checkpoint.
        self.split_depth: int | None = None
        #: Subproblem index -> weighted count, for every finished subproblem saved in the file.
        self.done: dict[int, int] = {}
        self._subproblems: int | None = None
        self._digest: str | None = None
        #: The file written: the target of a symlink, so that the link stays a link.
        self._target = Path(os.path.realpath(self.path))
        self._lock_path = self._target.with_name(f".{self._target.name}.lock")
        self._lock: int | None = None
        exists = self._check_kind()
        self._lock = self._acquire()
        try:
            self._remove_temporaries()
            if exists:
                self._load()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release the lock (removing its file); the checkpoint itself stays. Idempotent."""
        if self._lock is None:
            return
        fd, self._lock = self._lock, None
        try:
            with contextlib.suppress(OSError):
                os.unlink(self._lock_path)  # still held: nobody else is using this lock file
        finally:
            os.close(fd)

    def __enter__(self) -> Checkpoint:
        """The checkpoint itself; leaving the block closes it."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the checkpoint, releasing its lock."""
        self.close()

    def _check_kind(self) -> bool:
        """Whether the file exists; refuse a path that is no regular file, or is too large."""
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            return False  # a new checkpoint (or a link to a file still to be written)
        except OSError as error:
            raise CheckpointError(
                f"cannot read checkpoint {str(self.path)!r}: {error.strerror or error}"
            ) from error
        if not stat.S_ISREG(status.st_mode):
            raise CheckpointError(
                f"checkpoint {str(self.path)!r} is not a regular file but {kind(status.st_mode)}; "
                "pass the path of a checkpoint file"
            )
        if status.st_size > MAX_BYTES:
            raise self._too_large(status.st_size)
        return True

    def _too_large(self, size: int | str) -> CheckpointError:
        return CheckpointError(
            f"checkpoint {str(self.path)!r} is {size} bytes, more than a checkpoint can be "
            f"({MAX_BYTES} bytes); pass another checkpoint file"
        )

    def _acquire(self) -> int | None:
        """Lock ``.NAME.lock`` beside the file written, without waiting; return its descriptor."""
        if fcntl is None:
            return None
        while True:
            try:
                fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:
                raise CheckpointError(
                    f"cannot write checkpoint {str(self.path)!r}: {error.strerror or error}"
                ) from error
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise CheckpointError(
                    f"checkpoint {str(self.path)!r} is in use by another count, which holds "
                    f"{str(self._lock_path)!r}; wait for it to end or pass another checkpoint file"
                ) from None
            except OSError as error:
                os.close(fd)
                raise CheckpointError(
                    f"cannot lock checkpoint {str(self.path)!r}: {error.strerror or error}"
                ) from error
            # A count closing between our open and flock unlinks the file we locked: retry.
            with contextlib.suppress(FileNotFoundError):
                here, held = os.stat(self._lock_path), os.fstat(fd)
                if (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino):
                    return fd
            os.close(fd)

    def _remove_temporaries(self) -> None:
        """Remove the temporary files a killed count left (none is live: we hold the lock)."""
        pattern = re.compile(re.escape(f".{self._target.name}.") + r"[a-z0-9_]{8}\.tmp")
        with contextlib.suppress(OSError), os.scandir(self._target.parent) as entries:
            for entry in entries:
                if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)

    def _read(self) -> str:
        """The file's text: opened without blocking, refused if it is no regular file or too big."""
        data = read_regular(
            self._target, MAX_BYTES
        )  # FileRefusedError: a ValueError, said in one line
        return data.decode("utf-8")

    def _refuse(self, what: str, theirs: object, ours: object) -> CheckpointError:
        return CheckpointError(
            f"checkpoint {str(self.path)!r} was written for another count: its {what} is "
            f"{theirs}, this count's is {ours}; resume it with the command that wrote it, "
            "or pass another checkpoint file"
        )

    def _load(self) -> None:
        try:
            data = json.loads(self._read(), object_pairs_hook=_object)
            model, backend, depth, total, digest, done = _fields(data)
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
            if isinstance(error, RecursionError):  # brackets nested thousands deep
                error = ValueError("its JSON is nested too deeply")
            raise CheckpointError(
                f"checkpoint {str(self.path)!r} is not a readable cpqueens checkpoint: {error}"
            ) from error
        if model != self.model:
            raise self._refuse("model", model, self.model)
        if backend != self.backend:
            raise self._refuse("backend", repr(backend), repr(self.backend))
        self.split_depth, self._subproblems, self._digest, self.done = depth, total, digest, done

    def bind(self, depth: int, parts: Sequence[Part]) -> dict[int, int]:
        """Tie the checkpoint to the split ``parts`` (refused if it recorded another split).

        Return a copy of the finished subproblems. A new checkpoint is written at once.
        """
        digest = split_digest(parts)
        if self._digest is None:
            self.split_depth, self._subproblems, self._digest = depth, len(parts), digest
            self._save(self.done)
        elif (self.split_depth, self._subproblems, self._digest) != (depth, len(parts), digest):
            raise self._refuse(
                "split",
                f"{self._subproblems} subproblems at depth {self.split_depth} "
                f"(digest {self._digest[:12]})",
                f"{len(parts)} subproblems at depth {depth} (digest {digest[:12]})",
            )
        for index, value in sorted(self.done.items()):
            if not parts[index].admits(value, self.n):
                raise CheckpointError(
                    f"checkpoint {str(self.path)!r} is not a readable cpqueens checkpoint: "
                    f"subproblem {index} cannot have the weighted count {value} "
                    f"({parts[index].expects(self.n)})"
                )
        return dict(self.done)

    def record(self, results: Mapping[int, int]) -> None:
        """Save the weighted counts of more finished subproblems (one atomic write)."""
        again = sorted(set(results) & set(self.done))
        if again:
            raise CheckpointError(f"subproblems {again} are already recorded in {self.path}")
        done = {**self.done, **results}
        self._save(done)
        self.done = done

    def saved(self) -> int:
        """How many finished subproblems the file on disk holds, read back from it.

        Ctrl-C may stop a save after its rename, before this object took note of it.
        """
        try:
            return len(json.loads(self._read())["done"])
        except (OSError, ValueError, KeyError, TypeError, CheckpointError):
            return len(self.done)

    def _save(self, done: Mapping[int, int]) -> None:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "model": self.model,
            "backend": self.backend,
            "split_depth": self.split_depth,
            "subproblems": self._subproblems,
            "split": self._digest,
            "done": [[key, value] for key, value in sorted(done.items())],
        }
        data[SEAL] = content_digest(data)
        text = json.dumps(data, separators=(",", ":")) + "\n"
        if len(text) > MAX_BYTES:
            raise CheckpointError(
                f"cannot write checkpoint {str(self.path)!r}: {len(text)} bytes, more than a "
                f"checkpoint can be ({MAX_BYTES} bytes)"
            )
        try:
            write_atomically(self._target, text)
        except OSError as error:
            raise CheckpointError(
                f"cannot write checkpoint {str(self.path)!r}: {error.strerror or error}"
            ) from error


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused if it names a field twice (JSON would keep the last silently)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"field {key!r} appears twice")
        data[key] = value
    return data


def _show(value: object) -> str:
    """A value as JSON wrote it, cut short: ``true``, ``null``, ``"x"``."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_digest(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= HEX_DIGITS


def _fields(data: object) -> tuple[str, str, int, int, str, dict[int, int]]:
    """Check every field of a parsed checkpoint and its seal; return what it records.

    Raise ``ValueError`` saying what is wrong.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"no {FORMAT!r} format tag")
    version = data.get("version")
    if version != VERSION:
        older = _is_int(version) and version < VERSION
        hint = " (written by an older cpqueens; count again with a new file)" if older else ""
        raise ValueError(f"version {_show(version)}, expected {VERSION}{hint}")
    for field in (*FIELDS, SEAL):
        if field not in data:
            raise ValueError(f"no field {field!r}")
    unknown = sorted(set(data) - {*FIELDS, SEAL})
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}")
    for field in ("model", "backend"):
        if not (isinstance(data[field], str) and data[field].isprintable()):
            raise ValueError(f"field {field!r} is {_show(data[field])}, expected one line of text")
    for field, least in (("split_depth", 0), ("subproblems", 1)):
        if not _is_int(data[field]) or data[field] < least:
            raise ValueError(f"field {field!r} is {_show(data[field])}, expected an int >= {least}")
    for field in ("split", SEAL):
        if not _is_digest(data[field]):
            raise ValueError(
                f"field {field!r} is {_show(data[field])}, expected 64 lowercase hex digits"
            )
    total, pairs = data["subproblems"], data["done"]
    if not isinstance(pairs, list):
        raise ValueError(f"field 'done' is {_show(pairs)}, expected a list of [index, count]")
    done: dict[int, int] = {}
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and all(map(_is_int, pair))):
            raise ValueError(f"'done' holds {_show(pair)}, expected [index, count] (two ints)")
        index, value = pair
        if not 0 <= index < total:
            raise ValueError(f"subproblem index {index} is outside 0..{total - 1}")
        if index in done:
            raise ValueError(f"subproblem {index} is recorded twice")
        done[index] = value
    if data[SEAL] != content_digest(data):
        raise ValueError(
            f"its content does not match its {SEAL} digest (the file was damaged or edited)"
        )
    return data["model"], data["backend"], data["split_depth"], total, data["split"], done


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text``: write a temporary file, fsync, rename, fsync the directory."""
    directory = path.parent
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    if os.name == "posix":  # a directory cannot be opened for fsync on Windows
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
