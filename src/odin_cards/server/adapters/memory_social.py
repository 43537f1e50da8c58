"""The chat and rematch store in memory (:class:`~..domain.ports.SocialStore`), with the
faults of its :class:`~.memory.MemoryDatabase` (tests of the domain): writes can be held
or refused; an unknown outcome (``unknown_next``) is not modelled here."""

from __future__ import annotations

import copy
from typing import Any

from odin_cards.server.adapters.memory import MemoryDatabase
from odin_cards.server.core.ports import ChatLine, StoreUnavailable


class MemorySocialStore:
    """Chat lines and rematch answers, per table id; survives a new hall on the same
    instance (a restart in tests)."""

    def __init__(self, database: MemoryDatabase) -> None:
        self.db = database
        self.chat: dict[str, list[ChatLine]] = {}
        self.rematches: dict[str, dict[str, Any]] = {}

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        await self.db.faults.before_write()
        lines = self.chat.setdefault(table_id, [])
        if any(known.number == line.number for known in lines):
            raise StoreUnavailable(f"chat line {line.number} of {table_id} is stored already")
        lines.append(line)

    async def chat_of(self, table_id: str, limit: int) -> list[ChatLine]:
        self.db.faults.check_read()
        return list(self.chat.get(table_id, [])[-limit:])

    async def save_rematch(self, table_id: str, rematch: dict[str, Any]) -> None:
        await self.db.faults.before_write()
        self.rematches[table_id] = copy.deepcopy(rematch)

    async def rematch_of(self, table_id: str) -> dict[str, Any] | None:
        self.db.faults.check_read()
        state = self.rematches.get(table_id)
        return copy.deepcopy(state) if state is not None else None
