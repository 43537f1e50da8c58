"""The WebSocket messages of ``docs/protocol.md``: a closed set of typed models.

Client messages are parsed strictly (no extra fields, no type coercion); anything else
is ``malformed``. Server messages are built here and nowhere else.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.tables.updates import PONG, ack, dump, error, table, update, welcome


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=128)] | None = None
    version: Annotated[int, Field(ge=0)] | None = None


class Act(_Message):
    type: Literal["act"]
    action: Annotated[str, Field(max_length=200)]
    version: Annotated[int, Field(ge=0)]
    id: Annotated[str, Field(min_length=1, max_length=64)]


class Ping(_Message):
    type: Literal["ping"]


class Chat(_Message):
    """A chat line: ``text`` or one of the quick ``reaction`` keys; a spectator may give
    ``name`` (``core/features/chat.py`` checks and cleans all three)."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=1000)] | None = None
    reaction: Annotated[str, Field(max_length=32)] | None = None
    name: Annotated[str, Field(max_length=200)] | None = None


class Mute(_Message):
    """Send this connection nothing more from ``author`` (``muted: false`` undoes it)."""

    type: Literal["mute"]
    author: Annotated[str, Field(max_length=16)]
    muted: bool = True


class Visibility(_Message):
    """The page was shown or hidden (``core/features/presence.py``: online or away)."""

    type: Literal["visibility"]
    visible: bool


ClientMessage = Annotated[
    Hello | Act | Ping | Chat | Mute | Visibility, Field(discriminator="type")
]
_client = TypeAdapter(ClientMessage)

KINDS = ("hello", "act", "ping", "chat", "mute", "visibility")

MAX_DEPTH = 4
"""Deepest nesting of arrays and objects a client message may have (it needs 1)."""

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def valid_table_id(text: str) -> bool:
    """Whether ``text`` can be a table id at all (URL-safe, short): others are unknown
    tables without asking the store (a NUL byte, say, makes PostgreSQL raise)."""
    return _TABLE_ID.fullmatch(text) is not None


def _too_deep(text: str) -> bool:
    """Whether JSON ``text`` nests deeper than :data:`MAX_DEPTH`, found without parsing
    (the parser recurses: thousands of ``[`` would raise ``RecursionError``)."""
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


def parse(text: str) -> Hello | Act | Ping | Chat | Mute | Visibility:
    """Read one client message or raise :class:`DomainError` (``malformed``) saying why."""
    if _too_deep(text):
        raise DomainError("malformed", f"a message nests at most {MAX_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise DomainError("malformed", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise DomainError("malformed", "a message is one JSON object")
    kind = data.get("type")
    if kind not in KINDS:
        raise DomainError("malformed", f"unknown message type {kind!r}: {', '.join(KINDS)}")
    try:
        return _client.validate_python(data)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"][1:]) or "message"
        raise DomainError("malformed", f"{kind}: {where}: {problem['msg']}") from None


__all__ = [
    "PONG",
    "Act",
    "Chat",
    "Hello",
    "Mute",
    "Ping",
    "Visibility",
    "ack",
    "dump",
    "error",
    "parse",
    "table",
    "update",
    "valid_table_id",
    "welcome",
]
