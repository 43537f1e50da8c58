"""Sessions of the core for tests: each keeps what its connection is sent, decoded."""

from __future__ import annotations

import json
from typing import Any

from odin_cards.server.core.tables.sessions import Session


class Inbox:
    """A connection's outbox that keeps what it is sent (decoded)."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.closed: int | None = None

    def send(self, text: str) -> None:
        self.received.append(json.loads(text))

    def close(self, code: int) -> None:
        self.closed = code


class Listener(Session):
    """A session of the core whose outbox keeps what it is sent (decoded)."""

    def __init__(self, account: str | None = None) -> None:
        self.inbox = Inbox()
        super().__init__(self.inbox, account)

    @property
    def received(self) -> list[dict[str, Any]]:
        return self.inbox.received

    @property
    def closed(self) -> int | None:
        return self.inbox.closed

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m["type"] == kind]
