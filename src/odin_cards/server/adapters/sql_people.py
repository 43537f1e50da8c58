"""The friends' store on SQL (migration 0011): follows, blocks, reports, invitations and
where the people one follows sit. Play now's queue is :mod:`.sql_matches`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from odin_cards.server.adapters import sql_schema as schema
from odin_cards.server.adapters.sql_store import reading, transaction, utc
from odin_cards.server.core.ports.people import (
    Invite,
    Person,
    Report,
    SeatAt,
)


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

    async def tables_of(
        self, account_ids: Sequence[str], viewer: str, invited_since: datetime
    ) -> dict[str, list[SeatAt]]:
        if not account_ids:
            return {}
        s, t, i = schema.seats.c, schema.tables.c, schema.invites.c
        shown = sa.or_(
            schema.listed_table(),
            t.id.in_(sa.select(s.table_id).where(s.account_id == viewer)),
            t.id.in_(
                sa.select(i.table_id).where(i.recipient == viewer, i.created >= utc(invited_since))
            ),
        )
        async with reading(self.engine, "find friends' tables") as connection:
            rows = (
                await connection.execute(
                    sa.select(s.account_id, t.id, t.status, t.settings, t.players)
                    .select_from(schema.seats.join(schema.tables, t.id == s.table_id))
                    .where(
                        s.account_id.in_(list(account_ids)),
                        t.status.in_(("waiting", "playing")),
                        shown,
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
