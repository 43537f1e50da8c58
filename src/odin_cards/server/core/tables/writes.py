"""Writes of the table store whose outcome may be unknown, settled by reading the table back.

A commit can fail after the database applied it (the connection died while it answered):
the store says :class:`~..ports.CommitUnknown`. Rather than guess, the core reads the table
back and asks whether what is stored includes the write (each caller says what that means
for its write); a write that is not stored, or cannot be settled now, is refused
``unavailable`` and changes nothing in memory. The log's appends are settled the same way
by the move pipeline (``core/tables/moves.py``), from the log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import CommitUnknown, StoredTable, StoreUnavailable, TableStore

log = logging.getLogger(__name__)

Holds = Callable[[StoredTable], bool]


def unavailable(id: str | None = None) -> DomainError:
    return DomainError("unavailable", "the server cannot store this now; try again", id)


class StoreWrites:
    """Runs the table store's writes for the core's commands (see the module doc)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    async def write(
        self,
        write: Coroutine[Any, Any, None],
        table_id: str,
        holds: Holds = lambda _: True,
    ) -> None:
        """Run one write of the table store. An unknown outcome is settled by reading the
        table back (``holds`` says whether what is stored includes the write); a write that
        is not stored, or cannot be settled now, is ``unavailable``."""
        try:
            await write
        except CommitUnknown:
            stored = await self.read_back(table_id)
            if stored is None or not holds(stored):
                raise unavailable() from None
        except StoreUnavailable:
            raise unavailable() from None

    async def read_back(self, table_id: str) -> StoredTable | None:
        """The stored table, to settle a write whose commit's outcome is unknown
        (``None`` also when it cannot be read now: the write counts as refused)."""
        try:
            return await self.store.load(table_id)
        except StoreUnavailable:
            return None

    async def status(self, table_id: str, status: str) -> None:
        """Store a status that the log already implies (a finished game): a failure is
        logged and left for the next load to repeat."""
        try:
            await self.store.set_status(table_id, status)
        except StoreUnavailable:
            log.warning("table %s: status %s not stored (store unavailable)", table_id, status)
