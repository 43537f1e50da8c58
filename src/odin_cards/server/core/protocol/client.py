"""What a client sends over its WebSocket (``docs/protocol.md``, Client to server): a closed
set of typed messages, parsed strictly.

Public means hostile: a message is one JSON object of one known ``type`` with exactly its
fields, each of its JSON type (``1.0`` or ``true`` is no integer, ``1`` no boolean) and
within its bounds; anything else is refused ``malformed`` here, saying why, before any of
it reaches a table. Nesting is bounded before the text is parsed (the parser recurses).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.protocol.text import control_character


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message: ``token`` makes the connection that seat's (``None``: a
    spectator); ``version`` is the last version the client saw (``None``: none)."""

    token: str | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """An action for the connection's seat, chosen at ``version``; ``id`` makes it
    idempotent."""

    action: str
    version: int
    id: str


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line: ``text`` or one of the quick ``reaction`` keys; a spectator may give
    ``name`` (``core/features/chat.py`` checks and cleans all three)."""

    text: str | None = None
    reaction: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Mute:
    """Send this connection nothing more from ``author`` (``muted: false`` undoes it)."""

    author: str
    muted: bool = True


@dataclass(frozen=True, slots=True)
class Visibility:
    """The page was shown or hidden (``core/features/presence.py``: online or away)."""

    visible: bool


ClientMessage = Hello | Act | Ping | Chat | Mute | Visibility

MAX_DEPTH = 4
"""Deepest nesting of arrays and objects a client message may have (it needs 1)."""

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def valid_table_id(text: str) -> bool:
    """Whether ``text`` can be a table id at all (URL-safe, short): others are unknown
    tables without asking the store (a NUL byte, say, makes PostgreSQL raise)."""
    return _TABLE_ID.fullmatch(text) is not None


# ---------------------------------------------------------------- fields

Check = Callable[[Any], str | None]
"""A field's check: what is wrong with a value, or ``None``."""


def _text(high: int, low: int = 0) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, str):
            return "a string"
        if not low <= len(value) <= high:
            return f"a string of {low} to {high} characters"
        if control_character(value) is not None:
            return "a string without control characters (such as NUL)"
        return None

    return check


def _count(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return "a whole number"
    return "a whole number of at least 0" if value < 0 else None


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else "true or false"


def _optional(check: Check) -> Check:
    def optional(value: Any) -> str | None:
        return None if value is None else check(value)

    return optional


@dataclass(frozen=True, slots=True)
class _Kind:
    """One message type: its class, its fields' checks, and which fields it needs."""

    build: Callable[..., ClientMessage]
    fields: Mapping[str, Check]
    required: frozenset[str] = frozenset()


KINDS: dict[str, _Kind] = {
    "hello": _Kind(Hello, {"token": _optional(_text(128)), "version": _optional(_count)}),
    "act": _Kind(
        Act,
        {"action": _text(200), "version": _count, "id": _text(64, 1)},
        frozenset({"action", "version", "id"}),
    ),
    "ping": _Kind(Ping, {}),
    "chat": _Kind(
        Chat,
        {
            "text": _optional(_text(1000)),
            "reaction": _optional(_text(32)),
            "name": _optional(_text(200)),
        },
    ),
    "mute": _Kind(Mute, {"author": _text(16), "muted": _flag}, frozenset({"author"})),
    "visibility": _Kind(Visibility, {"visible": _flag}, frozenset({"visible"})),
}
"""Every client message type, by its ``type``."""


def _too_deep(text: str) -> bool:
    """Whether JSON ``text`` nests deeper than :data:`MAX_DEPTH`, found without parsing
    (the parser recurses: thousands of ``[`` would raise ``RecursionError``)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False  # nothing could nest deeper (every message of a client: one object)
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def parse(text: str) -> ClientMessage:
    """Read one client message or raise :class:`DomainError` (``malformed``) saying why."""
    if _too_deep(text):
        raise DomainError("malformed", f"a message nests at most {MAX_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise DomainError("malformed", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise DomainError("malformed", "a message is one JSON object")
    kind = data.pop("type", None)
    spec = KINDS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        shown = repr(kind)[:40]
        raise DomainError("malformed", f"unknown message type {shown}: {', '.join(KINDS)}")
    for name in data:
        if name not in spec.fields:
            raise DomainError("malformed", f"{kind}: {str(name)[:32]}: not a field of {kind}")
    for name in spec.required:
        if name not in data:
            raise DomainError("malformed", f"{kind}: {name}: missing")
    for name, value in data.items():
        problem = spec.fields[name](value)
        if problem is not None:
            raise DomainError("malformed", f"{kind}: {name}: must be {problem}")
    return spec.build(**data)


__all__ = [
    "KINDS",
    "MAX_DEPTH",
    "Act",
    "Chat",
    "ClientMessage",
    "Hello",
    "Mute",
    "Ping",
    "Visibility",
    "parse",
    "valid_table_id",
]
