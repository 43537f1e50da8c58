"""Play now's queue on SQL (migrations 0011, 0012).

:class:`SqlMatchStore` claims a group of tickets in one transaction. On PostgreSQL the
candidate rows are read ``FOR UPDATE SKIP LOCKED``: two processes matching at once never
pick the same ticket (each sees only rows the other does not hold), and the claim's
``UPDATE ... WHERE state = 'waiting'`` must change every row of the group or nothing is
kept. On SQLite one server process owns the file (``db_lock``); the transaction begins
with a write, so it holds SQLite's write lock from its first statement.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from odin_cards.server.adapters import sql_schema as schema
from odin_cards.server.adapters.sql_store import reading, transaction, utc
from odin_cards.server.core.ports import StoreUnavailable
from odin_cards.server.core.ports.people import Blocked, Choice, Ticket

CANDIDATES = 200
"""Waiting tickets of one choice read per match (the oldest first)."""


def _ticket(row: Any) -> Ticket:
    return Ticket(
        id=row.id,
        token_hash=row.token_hash,
        choice=Choice(row.players, row.target, row.clock, row.game),
        name=row.name,
        account_id=row.account_id,
        rating=row.rating,
        address=row.address,
        created=utc(row.created),
        seen=utc(row.seen),
        state=row.state,
        table_id=row.table_id,
        seat=row.seat,
        claimed=utc(row.claimed) if row.claimed is not None else None,
    )


class SqlMatchStore:
    """:class:`~odin_cards.server.core.ports.MatchStore` on SQLite or PostgreSQL."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"

    async def add(self, ticket: Ticket, replaces: str | None) -> None:
        m = schema.match_tickets.c
        async with transaction(self.engine, "queue for a game") as connection:
            if replaces is not None:
                await connection.execute(
                    sa.update(schema.match_tickets)
                    .where(
                        m.state == "waiting",
                        (m.account_id == replaces) | (m.token_hash == replaces),
                    )
                    .values(state="cancelled")
                )
            await connection.execute(
                sa.insert(schema.match_tickets).values(
                    id=ticket.id,
                    token_hash=ticket.token_hash,
                    account_id=ticket.account_id,
                    name=ticket.name,
                    address=ticket.address,
                    game=ticket.choice.game,
                    players=ticket.choice.players,
                    target=ticket.choice.target,
                    clock=ticket.choice.clock,
                    rating=ticket.rating,
                    state="waiting",
                    created=utc(ticket.created),
                    seen=utc(ticket.seen),
                )
            )

    async def by_token(self, token_hash: str) -> Ticket | None:
        m = schema.match_tickets.c
        async with reading(self.engine, "read a ticket") as connection:
            row = (
                await connection.execute(
                    sa.select(schema.match_tickets).where(m.token_hash == token_hash)
                )
            ).first()
        return _ticket(row) if row is not None else None

    async def seen(self, ticket_id: str, now: datetime) -> None:
        m = schema.match_tickets.c
        async with transaction(self.engine, "keep a ticket") as connection:
            await connection.execute(
                sa.update(schema.match_tickets)
                .where(m.id == ticket_id, m.state == "waiting")
                .values(seen=utc(now))
            )

    async def cancel(self, ticket_id: str) -> bool:
        m = schema.match_tickets.c
        async with transaction(self.engine, "cancel a ticket") as connection:
            done = await connection.execute(
                sa.update(schema.match_tickets)
                .where(m.id == ticket_id, m.state == "waiting")
                .values(state="cancelled")
            )
        return bool(done.rowcount == 1)

    async def counts(self, choice: Choice, stale_before: datetime) -> tuple[int, int]:
        m = schema.match_tickets.c
        fresh = (m.state == "waiting") & (m.seen >= utc(stale_before))
        same = (
            (m.game == choice.game)
            & (m.players == choice.players)
            & (m.target == choice.target)
            & (m.clock == choice.clock)
        )
        async with reading(self.engine, "count waiting people") as connection:
            row = (
                await connection.execute(
                    sa.select(
                        sa.func.count().filter(same),
                        sa.func.count(),
                    ).where(fresh)
                )
            ).one()
        return int(row[0]), int(row[1])

    async def waiting_of(self, address: str, stale_before: datetime) -> int:
        m = schema.match_tickets.c
        async with reading(self.engine, "count an address's tickets") as connection:
            count = await connection.scalar(
                sa.select(sa.func.count()).where(
                    m.state == "waiting", m.address == address, m.seen >= utc(stale_before)
                )
            )
        return int(count or 0)

    async def claim(
        self,
        anchor_id: str,
        stale_before: datetime,
        now: datetime,
        pick: Callable[[Ticket, list[Ticket], Blocked], list[Ticket] | None],
    ) -> list[Ticket] | None:
        m = schema.match_tickets.c
        table = schema.match_tickets
        async with transaction(self.engine, "match players") as connection:
            if self.postgres:
                query = sa.select(table).where(m.id == anchor_id, m.state == "waiting")
                anchor_row = (
                    await connection.execute(query.with_for_update(skip_locked=True))
                ).first()
            else:  # a write first: SQLite's write lock is held from here on
                touched = await connection.execute(
                    sa.update(table)
                    .where(m.id == anchor_id, m.state == "waiting")
                    .values(seen=m.seen)
                )
                anchor_row = None
                if touched.rowcount == 1:
                    anchor_row = (
                        await connection.execute(sa.select(table).where(m.id == anchor_id))
                    ).first()
            if anchor_row is None:
                return None  # matched, cancelled, or being matched by another process
            anchor = _ticket(anchor_row)
            if anchor.account_id is not None and await _banned(connection, anchor.account_id):
                await connection.execute(
                    sa.update(table).where(m.id == anchor_id).values(state="cancelled")
                )
                return None
            choice = anchor.choice
            candidates = (
                sa.select(table)
                .where(
                    m.state == "waiting",
                    m.game == choice.game,
                    m.players == choice.players,
                    m.target == choice.target,
                    m.clock == choice.clock,
                    m.seen >= utc(stale_before),
                    m.id != anchor_id,
                )
                .order_by(m.created, m.id)
                .limit(CANDIDATES)
            )
            if self.postgres:
                candidates = candidates.with_for_update(skip_locked=True)
            others = [_ticket(row) for row in await connection.execute(candidates)]
            accounts = {t.account_id for t in [anchor, *others] if t.account_id is not None}
            banned = await _banned_among(connection, accounts)
            others = [t for t in others if t.account_id not in banned]
            blocked = await _blocked_pairs(connection, accounts)
            group = pick(anchor, others, blocked)
            if not group:
                return None
            ids = [t.id for t in group]
            claimed = await connection.execute(
                sa.update(table)
                .where(m.id.in_(ids), m.state == "waiting")
                .values(state="matching", claimed=utc(now))
            )
            if claimed.rowcount != len(ids):
                raise StoreUnavailable("a ticket of the group changed meanwhile; try again")
        return group

    async def seated(self, seats: Mapping[str, int], table_id: str) -> None:
        m = schema.match_tickets.c
        async with transaction(self.engine, "seat matched players") as connection:
            for ticket_id, seat in seats.items():
                await connection.execute(
                    sa.update(schema.match_tickets)
                    .where(m.id == ticket_id)
                    .values(state="matched", table_id=table_id, seat=seat)
                )

    async def release(self, ticket_ids: Sequence[str]) -> None:
        m = schema.match_tickets.c
        async with transaction(self.engine, "release a group") as connection:
            await connection.execute(
                sa.update(schema.match_tickets)
                .where(m.id.in_(list(ticket_ids)), m.state == "matching")
                .values(state="waiting", claimed=None)
            )

    async def sweep(self, stale_before: datetime, stuck_before: datetime, now: datetime) -> int:
        m = schema.match_tickets.c
        async with transaction(self.engine, "expire tickets") as connection:
            expired = await connection.execute(
                sa.update(schema.match_tickets)
                .where(m.state == "waiting", m.seen < utc(stale_before))
                .values(state="expired")
            )
            stuck = await connection.execute(
                sa.update(schema.match_tickets)
                .where(m.state == "matching", m.claimed < utc(stuck_before))
                .values(state="waiting", claimed=None, seen=utc(now))
            )
        return int(expired.rowcount or 0) + int(stuck.rowcount or 0)


async def _banned(connection: AsyncConnection, account_id: str) -> bool:
    return bool(await _banned_among(connection, {account_id}))


async def _banned_among(connection: AsyncConnection, accounts: set[str]) -> set[str]:
    """Accounts of the queue that were banned (or deleted) since they joined it."""
    if not accounts:
        return set()
    a = schema.accounts.c
    rows = await connection.execute(
        sa.select(a.id).where(
            a.id.in_(accounts), (a.banned.is_not(None)) | (a.deleted.is_not(None))
        )
    )
    return {row.id for row in rows}


async def _blocked_pairs(connection: AsyncConnection, accounts: set[str]) -> set[frozenset[str]]:
    if len(accounts) < 2:
        return set()
    b = schema.blocks.c
    rows = await connection.execute(
        sa.select(b.blocker, b.blocked).where(b.blocker.in_(accounts), b.blocked.in_(accounts))
    )
    return {frozenset((row.blocker, row.blocked)) for row in rows}
