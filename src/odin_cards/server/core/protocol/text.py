"""One rule for every text a client sends, checked before anything stores or compares it.

A text may hold any character but the control characters: C0 controls (NUL among them)
other than tab, line feed and carriage return, DEL, the C1 controls, and lone surrogates.
PostgreSQL refuses NUL in a text column and no UTF-8 store can hold a lone surrogate: such
a request used to reach the store and fail there as "unavailable" (503, an ERROR logged
each time). Tab and line breaks are white space that every kept free text collapses into
single spaces (names, chat, reports); a password may hold them too, being any printable
text. The HTTP edge (request bodies, paths, query strings) and the WebSocket parser
(:mod:`.client`) both ask :func:`control_character`.
"""

from __future__ import annotations

import unicodedata

WHITE_SPACE_CONTROLS = frozenset("\t\n\r")
"""Controls allowed: white space that free texts collapse."""

RULE = "control characters (such as NUL) are not allowed"
"""What is wrong, in words, whichever control character it was."""


def control_character(text: str) -> str | None:
    """The first refused character of ``text`` as ``U+XXXX``, or ``None`` when it has none."""
    if text.isprintable():  # the common case, at C speed: no control, no surrogate
        return None
    for char in text:
        if char in WHITE_SPACE_CONTROLS:
            continue
        if unicodedata.category(char) in ("Cc", "Cs"):
            return f"U+{ord(char):04X}"
    return None


def text_problem(text: str) -> str | None:
    """What is wrong with ``text`` (:data:`RULE` and the character), or ``None``."""
    found = control_character(text)
    return None if found is None else f"{RULE} ({found})"
