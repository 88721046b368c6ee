"""Run the Python code blocks of a Markdown page, asserting the values their comments show.

A page's ```` ```python ```` blocks run in order in one fresh interpreter, in
one namespace (a page reads like one session), from a temporary folder. A
top-level expression statement whose trailing comment starts with a Python
literal asserts that its value equals it::

    cpqueens.model(8).count()  # 92, by the fastest exact engine
    s.columns  # (1, 3, 5, ...): a tuple ending in ... is a prefix
    print(cpqueens.model(13).count())  # 73712   (print(x): x is checked)
    m.find(time_limit=1)  # IncompleteSearchError ...: the call must raise it

The literal is the shortest prefix of the comment, ending at a space, ',', ':'
or ';' (or the comment's end), that ``ast.literal_eval`` reads; a comment that
starts with no literal (``# the model's constraints``) asserts nothing. A
comment that starts with a name ending in ``Error`` or ``Interrupted`` asserts
that the statement raises that exception.

An HTML comment on the line before a block marks it: ``<!-- docs-test: slow -->``
blocks run only when ``CPQUEENS_DOCS_SLOW=1`` is set; ``<!-- docs-test: skip
REASON -->`` blocks never run (they need something the suite does not have).
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^```(\w+)?\s*$")
MARK = re.compile(r"^<!--\s*docs-test:\s*(slow|skip)\b.*-->\s*$")
RAISES = re.compile(r"^([A-Z]\w*(?:Error|Interrupted|Exception))\b")
BOUNDARY = re.compile(r"[\s,:;]")


@dataclass(frozen=True)
class Block:
    """One fenced Python block: its first code line (1-based), its code and its mark."""

    line: int
    code: str
    mark: str = ""  # "", "slow" or "skip"


def blocks(text: str) -> list[Block]:
    """The ```python blocks of a Markdown text, at the start of a line, in order."""
    found: list[Block] = []
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        match = FENCE.match(lines[k])
        if match is None:
            k += 1
            continue
        language, start = match.group(1) or "", k + 1
        end = start
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if language in ("python", "py"):
            before = next((lines[j] for j in range(k - 1, -1, -1) if lines[j].strip()), "")
            mark = MARK.match(before.strip())
            found.append(
                Block(start + 1, "\n".join(lines[start:end]), mark.group(1) if mark else "")
            )
        k = end + 1
    return found


def expected(comment: str) -> tuple[str, str] | None:
    """What a comment asserts: ("value", literal source), ("raises", name) or None."""
    text = comment.lstrip("#").strip()
    raises = RAISES.match(text)
    if raises:
        return "raises", raises.group(1)
    ends = [m.start() for m in BOUNDARY.finditer(text)] + [len(text)]
    for end in ends:
        candidate = text[:end]
        try:
            value = ast.literal_eval(candidate)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if value is Ellipsis:
            return None
        return "value", candidate
    return None


def checked(block: Block) -> str:
    """The block's code with each asserted statement replaced by a check, on the same lines."""
    lines = block.code.split("\n")
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(block.code).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string
    tree = ast.parse(block.code)
    for statement in tree.body:
        if not isinstance(statement, ast.Expr) or statement.end_lineno is None:
            continue
        claim = expected(comments.get(statement.end_lineno, ""))
        if claim is None:
            continue
        node = statement.value
        shown = node
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "print"
            and len(node.args) == 1
            and not node.keywords
        ):
            shown = node.args[0]
        source = ast.get_source_segment(block.code, shown)
        where = f"line {block.line + statement.lineno - 1}"
        if claim[0] == "raises":
            call = f"__docs_raises({where!r}, {claim[1]!r}, lambda: ({source}))"
        else:
            echo = "True" if shown is not node else "False"
            call = f"__docs_check({where!r}, {source!r}, ({source}), ({claim[1]}), {echo})"
        first, last = statement.lineno - 1, statement.end_lineno - 1
        lines[first : last + 1] = [call] + [""] * (last - first)
    return "\n".join(lines)


PRELUDE = """
def __docs_same(value, shown):
    if isinstance(shown, (tuple, list)) and shown and shown[-1] is Ellipsis:
        head = tuple(shown[:-1])
        return tuple(value)[: len(head)] == head
    return value == shown


def __docs_check(where, source, value, shown, echo):
    if echo:
        print(value)
    if not __docs_same(value, shown):
        raise AssertionError(f"{where}: {source} is {value!r}, the page shows {shown!r}")


def __docs_raises(where, name, thunk):
    try:
        thunk()
    except Exception as error:
        if type(error).__name__ != name and name not in [c.__name__ for c in type(error).__mro__]:
            raise AssertionError(f"{where}: raised {error!r}, the page shows {name}") from error
        return
    raise AssertionError(f"{where}: raised nothing, the page shows {name}")
"""


def script(page: Path, slow: bool = False) -> str:
    """A Python script running every block of ``page`` (slow ones too if ``slow``) in order."""
    runs = []
    for block in blocks(page.read_text(encoding="utf-8")):
        if block.mark == "skip" or (block.mark == "slow" and not slow):
            continue
        # Padding puts each statement on its line of the page in tracebacks.
        code = "\n" * (block.line - 1) + checked(block)
        runs.append(f"exec(compile({code!r}, {str(page)!r}, 'exec'), __docs_namespace)")
    head = "__docs_namespace = {'__name__': '__main__'}\n"
    names = "__docs_namespace.update(__docs_check=__docs_check, __docs_raises=__docs_raises)\n"
    return PRELUDE + head + names + "\n".join(runs) + "\n"


if __name__ == "__main__":  # print the script of one page: python tests/docblocks.py PAGE
    import sys

    print(
        script(
            Path(sys.argv[1]), slow=bool(json.loads(sys.argv[2])) if len(sys.argv) > 2 else False
        )
    )
