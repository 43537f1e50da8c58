"""The chat and rematch store on SQL (:class:`~odin_cards.server.core.ports.SocialStore`,
migration 0007)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from odin_cards.server.adapters import sql_schema as schema
from odin_cards.server.adapters.sql_store import possible_id, reading, transaction, utc
from odin_cards.server.core.ports import ChatLine


class SqlSocialStore:
    """:class:`~odin_cards.server.core.ports.SocialStore` on SQLite or PostgreSQL."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        async with transaction(self.engine, "store a chat line") as connection:
            await connection.execute(
                sa.insert(schema.chat_lines).values(
                    table_id=table_id,
                    number=line.number,
                    author=line.author,
                    name=line.name,
                    seat=line.seat,
                    text=line.text,
                    reaction=line.reaction,
                    action=line.action,
                    created=utc(line.created),
                )
            )

    async def chat_of(self, table_id: str, limit: int) -> list[ChatLine]:
        if not possible_id(table_id):
            return []
        c = schema.chat_lines.c
        async with reading(self.engine, "read a table's chat") as connection:
            rows = await connection.execute(
                sa.select(schema.chat_lines)
                .where(c.table_id == table_id)
                .order_by(c.number.desc())
                .limit(limit)
            )
            lines = [
                ChatLine(
                    row.number,
                    row.author,
                    row.name,
                    row.seat,
                    row.text,
                    row.reaction,
                    row.action,
                    utc(row.created),
                )
                for row in rows
            ]
        lines.reverse()
        return lines

    async def save_rematch(self, table_id: str, rematch: dict[str, Any]) -> None:
        r = schema.rematches.c
        async with transaction(self.engine, "store a rematch") as connection:
            await connection.execute(sa.delete(schema.rematches).where(r.table_id == table_id))
            await connection.execute(
                sa.insert(schema.rematches).values(table_id=table_id, state=rematch)
            )

    async def rematch_of(self, table_id: str) -> dict[str, Any] | None:
        if not possible_id(table_id):
            return None
        r = schema.rematches.c
        async with reading(self.engine, "read a rematch") as connection:
            state = await connection.scalar(sa.select(r.state).where(r.table_id == table_id))
        return dict(state) if state is not None else None
