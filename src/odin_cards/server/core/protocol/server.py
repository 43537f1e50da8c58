"""What a connection is sent (``docs/protocol.md``, Server to client): a closed set of typed
messages, each encoded to its JSON text here and nowhere else.

The core decides who is told what, and when; the transport only delivers the text. An
update is spliced from JSON encoded once and shared by every connection of a table (the
events since a version, a seat's state), never encoded per connection: the fan-out's cost
is one string join per connection.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from odin_cards.server.core.errors import DomainError


def dump(data: Any) -> str:
    """Compact JSON, as every message and every part of one is sent."""
    return json.dumps(data, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Welcome:
    """The answer to ``hello``: the connection's seat (``None``: a spectator) and the table."""

    seat: int | None
    table: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Update:
    """The events since the connection's version and its seat's state, both already JSON
    (``events``: an array; ``state``: the game presenter's ``State``)."""

    version: int
    events: str
    state: str
    resync: bool = False


@dataclass(frozen=True, slots=True)
class Ack:
    """The connection's action ``id`` is applied; the version after it."""

    id: str
    version: int


@dataclass(frozen=True, slots=True)
class Error:
    """A refusal (:class:`~..errors.DomainError`): nothing changed."""

    code: str
    message: str
    id: str | None = None

    @classmethod
    def of(cls, refusal: DomainError) -> Error:
        return cls(refusal.code, refusal.message, refusal.id)


@dataclass(frozen=True, slots=True)
class TableShown:
    """The table as the lobby's API shows it, after a change of seats, status or next game."""

    table: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class PresenceShown:
    """Each seat's presence (``online``, ``away``, ``offline``; ``None``: a bot or free)."""

    seats: Sequence[str | None]


@dataclass(frozen=True, slots=True)
class ChatLines:
    """Chat lines the connection may see (``history``: those before it connected)."""

    lines: Sequence[Mapping[str, Any]]
    history: bool = False


@dataclass(frozen=True, slots=True)
class RematchShown:
    """A finished table's rematch so far (``core/features/rematch.py``)."""

    rematch: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ClockShown:
    """The table's clock, its turn's deadline and the seats bots play
    (``core/features/stand_ins.py``)."""

    clock: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Pong:
    pass


ServerMessage = (
    Welcome
    | Update
    | Ack
    | Error
    | TableShown
    | PresenceShown
    | ChatLines
    | RematchShown
    | ClockShown
    | Pong
)

_PONG = dump({"type": "pong"})


def encode(message: ServerMessage) -> str:
    """The JSON text of ``message``, exactly as ``docs/protocol.md`` shows it."""
    match message:
        case Update(version, events, state, resync):
            return update_text(version, events, state, resync)
        case Ack(id, version):
            return dump({"type": "ack", "id": id, "version": version})
        case Error(code, text, id):
            return dump({"type": "error", "code": code, "message": text, "id": id})
        case Welcome(seat, table):
            return dump({"type": "welcome", "seat": seat, "table": table})
        case TableShown(table):
            return dump({"type": "table", "table": table})
        case PresenceShown(seats):
            return dump({"type": "presence", "seats": list(seats)})
        case ChatLines(lines, history):
            said: dict[str, Any] = {"type": "chat", "lines": list(lines)}
            if history:
                said["history"] = True
            return dump(said)
        case RematchShown(rematch):
            return dump({"type": "rematch", "rematch": rematch})
        case ClockShown(clock):
            return dump({"type": "clock", "clock": clock})
        case Pong():
            return _PONG
    raise TypeError(f"not a server message: {message!r}")  # pragma: no cover (closed set)


def update_text(version: int, events: str, state: str, resync: bool = False) -> str:
    """An :class:`Update`'s text, spliced from JSON encoded once (``events``, ``state``):
    the fan-out's path, one string join per session."""
    extra = ',"resync":true' if resync else ""
    return f'{{"type":"update","version":{version}{extra},"events":{events},"state":{state}}}'


def error(refusal: DomainError) -> str:
    """The ``error`` message of a refusal."""
    return encode(Error.of(refusal))


PONG = _PONG

__all__ = [
    "PONG",
    "Ack",
    "ChatLines",
    "ClockShown",
    "Error",
    "Pong",
    "PresenceShown",
    "RematchShown",
    "ServerMessage",
    "TableShown",
    "Update",
    "Welcome",
    "dump",
    "encode",
    "error",
    "update_text",
]
