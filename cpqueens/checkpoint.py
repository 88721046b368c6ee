"""Checkpoints: a file that records each finished subproblem's weighted count, so a count resumes.

The file is JSON: what was counted (the model, the backend, the split) and,
for each finished subproblem, its index in the split and its weighted count.
Every change is written whole to a temporary file beside it, fsynced, renamed
over the old one and the directory fsynced, so a crash at any moment leaves
either the old file or the new one, never a torn one. A resumed count skips
the finished subproblems, so none is counted twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from math import factorial
from pathlib import Path

from cpqueens.errors import CheckpointError
from cpqueens.model import Model
from cpqueens.split import Subproblem

FORMAT = "cpqueens-checkpoint"
VERSION = 1


def describe(model: Model) -> str:
    """An exact one-line description of ``model``, the identity a checkpoint records.

    >>> from cpqueens import model
    >>> describe(model(6, blocked=[(0, 1)], colours=2))
    'n=6 colours=2 blocked=[(0, 1)] placed=[]'
    """
    text = (
        f"n={model.n} colours={model.colours} "
        f"blocked={list(model.board.blocked)} placed={list(model.placed)}"
    )
    if model.extra:
        text += f" extra={list(model.extra)!r}"
    return text


def split_digest(parts: Sequence[Subproblem]) -> str:
    """A SHA-256 of the subproblems in order: two splits with one digest are the same split."""
    text = "\n".join(f"{p.weight} {p.model.placed!r} {p.model.extra!r}" for p in parts)
    return hashlib.sha256(text.encode()).hexdigest()


def most_solutions(model: Model) -> int:
    """An upper bound on the number of solutions of ``model``.

    Colour 0 completes its placed queens (one per row) to a permutation, and
    every other colour is some permutation.

    >>> from cpqueens import model
    >>> most_solutions(model(4, placed=[(0, 1)], colours=2))
    144
    """
    n = model.n
    return factorial(n - len(model.placed)) * factorial(n) ** (model.colours - 1)


def holds(part: Subproblem, value: int) -> bool:
    """Whether ``value`` can be the weighted count of ``part``: its weight times 0..most.

    The weight may be negative (CP-SAT's lex-leader split subtracts the
    solutions fixed by a rotation), so the count may be too.
    """
    weight = part.weight
    if weight == 0 or value % weight:
        return False
    return 0 <= value // weight <= most_solutions(part.model)


class Checkpoint:
    """The finished subproblems of one count, kept in a file that survives a crash."""

    def __init__(self, path: str | os.PathLike[str], model: Model, backend: str) -> None:
        """Read the checkpoint at ``path`` if there is one, refusing one for another count."""
        self.path = Path(path)
        self.model = describe(model)
        self.backend = backend
        #: The split depth the file records, or None for a new checkpoint.
        self.split_depth: int | None = None
        #: Subproblem index -> weighted count, for every finished subproblem saved in the file.
        self.done: dict[int, int] = {}
        self._subproblems: int | None = None
        self._digest: str | None = None
        if self.path.exists():
            self._load()

    def _refuse(self, what: str, theirs: object, ours: object) -> CheckpointError:
        return CheckpointError(
            f"checkpoint {str(self.path)!r} was written for another count: its {what} is "
            f"{theirs}, this count's is {ours}; resume it with the command that wrote it, "
            "or pass another checkpoint file"
        )

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError(f"no {FORMAT!r} format tag")
            if data.get("version") != VERSION:
                raise ValueError(f"version {data.get('version')!r}, expected {VERSION}")
            model, backend = str(data["model"]), str(data["backend"])
            depth, total, digest = int(data["split_depth"]), int(data["subproblems"]), data["split"]
            done = {int(key): int(value) for key, value in data["done"]}
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
            raise CheckpointError(
                f"checkpoint {str(self.path)!r} is not a readable cpqueens checkpoint: {error}"
            ) from error
        if model != self.model:
            raise self._refuse("model", model, self.model)
        if backend != self.backend:
            raise self._refuse("backend", repr(backend), repr(self.backend))
        if any(not 0 <= key < total for key in done):
            raise CheckpointError(
                f"checkpoint {str(self.path)!r} is not a readable cpqueens checkpoint: "
                f"a subproblem index outside 0..{total - 1}"
            )
        self.split_depth, self._subproblems, self._digest, self.done = depth, total, digest, done

    def bind(self, depth: int, parts: Sequence[Subproblem]) -> dict[int, int]:
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
            if not holds(parts[index], value):
                raise CheckpointError(
                    f"checkpoint {str(self.path)!r} is not a readable cpqueens checkpoint: "
                    f"subproblem {index} cannot have the weighted count {value} "
                    f"(its weight is {parts[index].weight})"
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
            return len(json.loads(self.path.read_text(encoding="utf-8"))["done"])
        except (OSError, ValueError, KeyError, TypeError):
            return len(self.done)

    def _save(self, done: Mapping[int, int]) -> None:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "model": self.model,
            "backend": self.backend,
            "split_depth": self.split_depth,
            "subproblems": self._subproblems,
            "split": self._digest,
            "done": [[key, value] for key, value in done.items()],
        }
        try:
            write_atomically(self.path, json.dumps(data, separators=(",", ":")) + "\n")
        except OSError as error:
            raise CheckpointError(
                f"cannot write checkpoint {str(self.path)!r}: {error.strerror or error}"
            ) from error


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
