"""The chat and rematch store in memory (:class:`~odin_cards.server.core.ports.SocialStore`),
with the faults of its database (:class:`~.memory_data.Faults`)."""

from __future__ import annotations

import copy
from typing import Any

from odin_cards.server.adapters.memory_data import MemoryData
from odin_cards.server.core.ports import ChatLine, StoreUnavailable


class MemorySocialStore:
    """Chat lines and rematch answers of the database's tables; survives a new hall on the
    same database (a restart in tests)."""

    def __init__(self, database: MemoryData) -> None:
        self.db = database
        self.chat = database.chat
        """Table id -> its lines, in the order they were stored."""
        self.rematches = database.rematches

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        async with self.db.writing() as kept:
            if table_id not in self.db.tables:
                raise StoreUnavailable(f"no table {table_id} to chat at")
            lines = self.chat.get(table_id, [])
            if any(known.number == line.number for known in lines):
                raise StoreUnavailable(f"chat line {line.number} of {table_id} is stored already")
            if kept:
                self.chat.setdefault(table_id, []).append(line)

    async def chat_of(self, table_id: str, limit: int) -> list[ChatLine]:
        self.db.reading()
        lines = sorted(self.chat.get(table_id, []), key=lambda line: line.number)
        return lines[max(len(lines) - limit, 0) :] if limit > 0 else []

    async def save_rematch(self, table_id: str, rematch: dict[str, Any]) -> None:
        async with self.db.writing() as kept:
            if table_id not in self.db.tables:
                raise StoreUnavailable(f"no table {table_id} to store a rematch of")
            if kept:
                self.rematches[table_id] = copy.deepcopy(rematch)

    async def rematch_of(self, table_id: str) -> dict[str, Any] | None:
        self.db.reading()
        state = self.rematches.get(table_id)
        return copy.deepcopy(state) if state is not None else None
