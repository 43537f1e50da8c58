"""What the server sends a table's subscribers: the protocol's server messages, as JSON text.

Built in the domain (which decides who is told what, and when) and nowhere else; the
transport only delivers them. See ``docs/protocol.md``.
"""

from __future__ import annotations

import json
from typing import Any

from odin_cards.server.core.errors import DomainError


def dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def error(refusal: DomainError) -> str:
    return dump(
        {"type": "error", "code": refusal.code, "message": refusal.message, "id": refusal.id}
    )


def ack(id: str, version: int) -> str:
    return dump({"type": "ack", "id": id, "version": version})


def welcome(seat: int | None, table: dict[str, Any]) -> str:
    return dump({"type": "welcome", "seat": seat, "table": table})


def table(table: dict[str, Any]) -> str:
    return dump({"type": "table", "table": table})


def update(version: int, events_json: str, state_json: str, resync: bool = False) -> str:
    """An update, spliced from JSON encoded once and shared by every connection."""
    extra = ',"resync":true' if resync else ""
    return (
        f'{{"type":"update","version":{version}{extra},'
        f'"events":{events_json},"state":{state_json}}}'
    )


PONG = dump({"type": "pong"})
