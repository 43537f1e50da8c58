"""Play now's queue and the friends' store on SQL (migration 0011).

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
from odin_cards.server.core.ports.people import (
    Blocked,
    Choice,
    Invite,
    Person,
    Report,
    SeatAt,
    Ticket,
)

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


def _person(row: Any) -> Person:
    seen = row.last_seen
    return Person(row.id, row.name, utc(seen) if seen is not None else None)


class SqlPeopleStore:
    """:class:`~odin_cards.server.core.ports.PeopleStore` on SQLite or PostgreSQL."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def person(self, name_key: str) -> Person | None:
        a = schema.accounts.c
        async with reading(self.engine, "find a person") as connection:
            row = (
                await connection.execute(
                    sa.select(a.id, a.name, a.last_seen).where(
                        a.name_key == name_key, a.deleted.is_(None)
                    )
                )
            ).first()
        return _person(row) if row is not None else None

    async def follow(self, follower: str, followed: str, when: datetime, limit: int) -> bool:
        f = schema.follows.c
        async with transaction(self.engine, "follow a person") as connection:
            known = await connection.scalar(
                sa.select(sa.func.count()).where(f.follower == follower, f.followed == followed)
            )
            if known:
                return True
            count = await connection.scalar(
                sa.select(sa.func.count()).where(f.follower == follower)
            )
            if int(count or 0) >= limit:
                return False
            await connection.execute(
                sa.insert(schema.follows).values(
                    follower=follower, followed=followed, created=utc(when)
                )
            )
        return True

    async def unfollow(self, follower: str, followed: str) -> None:
        f = schema.follows.c
        async with transaction(self.engine, "unfollow a person") as connection:
            await connection.execute(
                sa.delete(schema.follows).where(f.follower == follower, f.followed == followed)
            )

    async def following(self, follower: str, limit: int) -> list[Person]:
        f, a = schema.follows.c, schema.accounts.c
        async with reading(self.engine, "list friends") as connection:
            rows = await connection.execute(
                sa.select(a.id, a.name, a.last_seen)
                .select_from(schema.follows.join(schema.accounts, a.id == f.followed))
                .where(f.follower == follower, a.deleted.is_(None))
                .order_by(a.name_key)
                .limit(limit)
            )
            return [_person(row) for row in rows]

    async def follows(self, follower: str, followed: str) -> bool:
        f = schema.follows.c
        async with reading(self.engine, "read a follow") as connection:
            count = await connection.scalar(
                sa.select(sa.func.count()).where(f.follower == follower, f.followed == followed)
            )
        return bool(count)

    async def block(self, blocker: str, blocked: str, when: datetime, limit: int) -> bool:
        b, f = schema.blocks.c, schema.follows.c
        async with transaction(self.engine, "block a person") as connection:
            known = await connection.scalar(
                sa.select(sa.func.count()).where(b.blocker == blocker, b.blocked == blocked)
            )
            if not known:
                count = await connection.scalar(
                    sa.select(sa.func.count()).where(b.blocker == blocker)
                )
                if int(count or 0) >= limit:
                    return False
                await connection.execute(
                    sa.insert(schema.blocks).values(
                        blocker=blocker, blocked=blocked, created=utc(when)
                    )
                )
            await connection.execute(
                sa.delete(schema.follows).where(f.follower == blocked, f.followed == blocker)
            )
            i = schema.invites.c
            await connection.execute(
                sa.delete(schema.invites).where(i.sender == blocked, i.recipient == blocker)
            )
        return True

    async def unblock(self, blocker: str, blocked: str) -> None:
        b = schema.blocks.c
        async with transaction(self.engine, "unblock a person") as connection:
            await connection.execute(
                sa.delete(schema.blocks).where(b.blocker == blocker, b.blocked == blocked)
            )

    async def blocked_by(self, blocker: str, limit: int) -> list[Person]:
        b, a = schema.blocks.c, schema.accounts.c
        async with reading(self.engine, "list blocked people") as connection:
            rows = await connection.execute(
                sa.select(a.id, a.name, a.last_seen)
                .select_from(schema.blocks.join(schema.accounts, a.id == b.blocked))
                .where(b.blocker == blocker)
                .order_by(a.name_key)
                .limit(limit)
            )
            return [_person(row) for row in rows]

    async def blocks_between(self, first: str, second: str) -> bool:
        b = schema.blocks.c
        async with reading(self.engine, "read blocks") as connection:
            count = await connection.scalar(
                sa.select(sa.func.count()).where(
                    ((b.blocker == first) & (b.blocked == second))
                    | ((b.blocker == second) & (b.blocked == first))
                )
            )
        return bool(count)

    async def blocked_ids(self, blocker: str) -> set[str]:
        b = schema.blocks.c
        async with reading(self.engine, "read blocks") as connection:
            rows = await connection.execute(sa.select(b.blocked).where(b.blocker == blocker))
            return {row.blocked for row in rows}

    async def seat_accounts(self, table_id: str) -> dict[int, str]:
        s = schema.seats.c
        async with reading(self.engine, "read a table's accounts") as connection:
            rows = await connection.execute(
                sa.select(s.seat, s.account_id).where(
                    s.table_id == table_id, s.account_id.is_not(None)
                )
            )
            return {row.seat: row.account_id for row in rows}

    async def seen(self, account_id: str, when: datetime) -> None:
        a = schema.accounts.c
        async with transaction(self.engine, "note a person is here") as connection:
            await connection.execute(
                sa.update(schema.accounts).where(a.id == account_id).values(last_seen=utc(when))
            )

    async def tables_of(self, account_ids: Sequence[str]) -> dict[str, list[SeatAt]]:
        if not account_ids:
            return {}
        s, t = schema.seats.c, schema.tables.c
        async with reading(self.engine, "find friends' tables") as connection:
            rows = (
                await connection.execute(
                    sa.select(s.account_id, t.id, t.status, t.settings, t.players)
                    .select_from(schema.seats.join(schema.tables, t.id == s.table_id))
                    .where(
                        s.account_id.in_(list(account_ids)),
                        t.status.in_(("waiting", "playing")),
                    )
                    .order_by(t.created.desc(), t.id, s.seat)
                    .limit(20 * len(account_ids))
                )
            ).all()
            open_seats = await _open_seats(connection, {row.id for row in rows})
        found: dict[str, list[SeatAt]] = {}
        for row in rows:
            mine = found.setdefault(row.account_id, [])
            if len(mine) < 10:
                mine.append(_seat_at(row, open_seats))
        return found

    async def table_seated(self, table_id: str, account_id: str) -> SeatAt | None:
        s, t = schema.seats.c, schema.tables.c
        async with reading(self.engine, "find a seat") as connection:
            row = (
                await connection.execute(
                    sa.select(s.account_id, t.id, t.status, t.settings, t.players)
                    .select_from(schema.seats.join(schema.tables, t.id == s.table_id))
                    .where(
                        s.account_id == account_id,
                        t.id == table_id,
                        t.status.in_(("waiting", "playing")),
                    )
                )
            ).first()
            if row is None:
                return None
            return _seat_at(row, await _open_seats(connection, {row.id}))

    async def invite(
        self, invite_id: str, sender: str, recipient: str, table_id: str, when: datetime
    ) -> None:
        i = schema.invites.c
        async with transaction(self.engine, "invite a friend") as connection:
            await connection.execute(
                sa.delete(schema.invites).where(
                    i.sender == sender, i.recipient == recipient, i.table_id == table_id
                )
            )
            await connection.execute(
                sa.insert(schema.invites).values(
                    id=invite_id,
                    sender=sender,
                    recipient=recipient,
                    table_id=table_id,
                    created=utc(when),
                )
            )

    async def invites_to(self, recipient: str, since: datetime, limit: int) -> list[Invite]:
        i, a = schema.invites.c, schema.accounts.c
        async with reading(self.engine, "list invitations") as connection:
            rows = await connection.execute(
                sa.select(i.id, i.table_id, i.created, a.id.label("sender"), a.name, a.last_seen)
                .select_from(schema.invites.join(schema.accounts, a.id == i.sender))
                .where(i.recipient == recipient, i.created >= utc(since), a.deleted.is_(None))
                .order_by(i.created.desc(), i.id)
                .limit(limit)
            )
            return [
                Invite(
                    row.id,
                    Person(row.sender, row.name, None),
                    row.table_id,
                    utc(row.created),
                )
                for row in rows
            ]

    async def invited(self, recipient: str, since: datetime) -> set[str]:
        i = schema.invites.c
        async with reading(self.engine, "read invitations") as connection:
            rows = await connection.execute(
                sa.select(i.table_id).where(i.recipient == recipient, i.created >= utc(since))
            )
            return {row.table_id for row in rows}

    async def answer_invite(self, invite_id: str, recipient: str) -> str | None:
        i = schema.invites.c
        async with transaction(self.engine, "answer an invitation") as connection:
            table_id = await connection.scalar(
                sa.select(i.table_id).where(i.id == invite_id, i.recipient == recipient)
            )
            if table_id is None:
                return None
            await connection.execute(sa.delete(schema.invites).where(i.id == invite_id))
        return str(table_id)

    async def report(
        self,
        reporter: str,
        reported: str,
        reason: str,
        text: str | None,
        table_id: str | None,
        when: datetime,
    ) -> None:
        async with transaction(self.engine, "store a report") as connection:
            await connection.execute(
                sa.insert(schema.reports).values(
                    reporter=reporter,
                    reported=reported,
                    reason=reason,
                    text=text,
                    table_id=table_id,
                    created=utc(when),
                )
            )

    async def reports(self, limit: int) -> list[Report]:
        r = schema.reports.c
        async with reading(self.engine, "list reports") as connection:
            rows = await connection.execute(
                sa.select(schema.reports).order_by(r.created.desc(), r.id.desc()).limit(limit)
            )
            return [
                Report(
                    row.id,
                    row.reporter,
                    row.reported,
                    row.reason,
                    row.text,
                    row.table_id,
                    utc(row.created),
                )
                for row in rows
            ]

    async def names(self, account_ids: Sequence[str]) -> dict[str, str]:
        """Account id -> name (for the operators' lists)."""
        if not account_ids:
            return {}
        a = schema.accounts.c
        async with reading(self.engine, "read names") as connection:
            rows = await connection.execute(
                sa.select(a.id, a.name).where(a.id.in_(list(set(account_ids))))
            )
            return {row.id: row.name for row in rows}


async def _open_seats(connection: AsyncConnection, table_ids: set[str]) -> dict[str, int]:
    if not table_ids:
        return {}
    s = schema.seats.c
    rows = await connection.execute(
        sa.select(s.table_id, sa.func.count())
        .where(s.table_id.in_(table_ids), s.name.is_(None), s.bot.is_(None), s.locked.is_(False))
        .group_by(s.table_id)
    )
    return {row[0]: int(row[1]) for row in rows}


def _seat_at(row: Any, open_seats: Mapping[str, int]) -> SeatAt:
    settings = row.settings if isinstance(row.settings, dict) else {}
    return SeatAt(
        row.id,
        row.status,
        settings.get("visibility") == "private",
        open_seats.get(row.id, 0),
        row.players,
    )
