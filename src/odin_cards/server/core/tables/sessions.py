"""Sessions: each connection to a table as the core knows it, and who listens to which table.

The transport hands the core an :class:`~..ports.Outbox` per connection (``send`` a text,
``close`` with a code) and nothing else; what the connection speaks for (its seat, or a
spectator), the last version it was sent and the account behind it are the core's, kept
here and written only by the core (``hello`` and the fan-out). A session outlives its
``hello``s: saying hello again with another token changes its seat.
"""

from __future__ import annotations

from collections.abc import Collection

from odin_cards.server.core.ports import Outbox
from odin_cards.server.core.protocol.server import ServerMessage, encode


class Session:
    """One connection to one table: a seat (``seat``) or a spectator (``seat is None``)."""

    __slots__ = ("__weakref__", "account", "outbox", "seat", "version")

    def __init__(self, outbox: Outbox, account: str | None = None) -> None:
        self.outbox = outbox
        self.seat: int | None = None
        """The seat its ``hello`` token holds; ``None``: a spectator (or no hello yet)."""
        self.version = 0
        """The last version this connection was sent (the fan-out sends what follows)."""
        self.account = account
        """The signed-in account behind the connection (its session cookie), if any: the
        chat holds back what people it blocked write (``core/features/chat.py``)."""

    def send(self, message: ServerMessage) -> None:
        self.outbox.send(encode(message))

    def send_text(self, text: str) -> None:
        """Send a message encoded once for many sessions."""
        self.outbox.send(text)

    def close(self, code: int) -> None:
        self.outbox.close(code)


class Sessions:
    """Who listens to which table, in this process: a set of sessions per table id (a table
    with none has no entry)."""

    def __init__(self) -> None:
        self._tables: dict[str, set[Session]] = {}

    def join(self, table_id: str, session: Session) -> None:
        self._tables.setdefault(table_id, set()).add(session)

    def leave(self, table_id: str, session: Session) -> None:
        listeners = self._tables.get(table_id)
        if listeners is not None:
            listeners.discard(session)
            if not listeners:
                del self._tables[table_id]

    def at(self, table_id: str) -> Collection[Session]:
        """The table's sessions now (a copy: sending may make one leave)."""
        return tuple(self._tables.get(table_id, ()))

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables
