"""Who listens to which table, in one process: the in-memory :class:`~.ports.Broadcaster`."""

from __future__ import annotations

from collections.abc import Collection

from odin_cards.server.core.ports import Subscriber


class MemoryBroadcaster:
    """A set of subscribers per table id; a table with none has no entry."""

    def __init__(self) -> None:
        self._tables: dict[str, set[Subscriber]] = {}

    def join(self, table_id: str, subscriber: Subscriber) -> None:
        self._tables.setdefault(table_id, set()).add(subscriber)

    def leave(self, table_id: str, subscriber: Subscriber) -> None:
        listeners = self._tables.get(table_id)
        if listeners is not None:
            listeners.discard(subscriber)
            if not listeners:
                del self._tables[table_id]

    def subscribers(self, table_id: str) -> Collection[Subscriber]:
        return tuple(self._tables.get(table_id, ()))
