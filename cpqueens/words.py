"""Words for messages: a count with its noun in the singular or the plural, as English has it."""

from __future__ import annotations

#: Nouns whose plural is not the noun and an "s".
_IRREGULAR = {"army": "armies"}


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and ``noun``, plural unless the count is one, with thousands separators.

    >>> plural(1, "blocked cell"), plural(2, "colour"), plural(0, "army"), plural(1500, "solution")
    ('1 blocked cell', '2 colours', '0 armies', '1,500 solutions')
    """
    if count == 1:
        return f"1 {noun}"
    many = nouns or _IRREGULAR.get(noun) or f"{noun}s"
    return f"{count:,} {many}"
