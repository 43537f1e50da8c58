"""Accounts, sessions and login attempts on SQL
(:class:`~odin_cards.server.core.ports.AccountStore`, migration 0009)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from odin_cards.server.adapters import sql_schema as schema
from odin_cards.server.adapters.sql_errors import Refused
from odin_cards.server.adapters.sql_store import possible_id, reading, transaction, utc
from odin_cards.server.core.ports import NameTaken, StoreUnavailable
from odin_cards.server.core.ports.people import (
    Account,
    AccountRecord,
    Attempts,
    HeldSeat,
    SessionRecord,
)


def _record(row: Any) -> AccountRecord:
    return AccountRecord(
        Account(
            row.id,
            row.name,
            utc(row.created),
            None if row.banned is None else utc(row.banned),
            None if row.deleted is None else utc(row.deleted),
        ),
        row.name_key,
        row.password_hash,
        row.look_alike,
    )


def _attempts(row: Any) -> Attempts:
    return Attempts(
        row.failures,
        utc(row.first),
        None if row.locked_until is None else utc(row.locked_until),
    )


class SqlAccountStore:
    """:class:`~odin_cards.server.core.ports.AccountStore` on SQLite or PostgreSQL."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(self, record: AccountRecord) -> None:
        account = record.account
        try:
            async with transaction(self.engine, "store a new account") as connection:
                await connection.execute(
                    sa.insert(schema.accounts).values(
                        id=account.id,
                        name=account.name,
                        name_key=record.name_key,
                        look_alike=record.look_alike,
                        password_hash=record.password_hash,
                        created=utc(account.created),
                    )
                )
        except Refused:
            raise NameTaken(record.name_key) from None

    async def by_key(self, key: str) -> AccountRecord | None:
        a = schema.accounts.c
        async with reading(self.engine, "read an account") as connection:
            row = (
                await connection.execute(
                    sa.select(schema.accounts).where(a.name_key == key, a.deleted.is_(None))
                )
            ).first()
        return None if row is None else _record(row)

    async def by_look_alike(self, key: str) -> AccountRecord | None:
        a = schema.accounts.c
        async with reading(self.engine, "read an account") as connection:
            row = (
                await connection.execute(
                    sa.select(schema.accounts)
                    .where(a.look_alike == key, a.deleted.is_(None))
                    .order_by(a.created)
                    .limit(1)
                )
            ).first()
        return None if row is None else _record(row)

    async def by_id(self, account_id: str) -> AccountRecord | None:
        a = schema.accounts.c
        async with reading(self.engine, "read an account") as connection:
            row = (
                await connection.execute(sa.select(schema.accounts).where(a.id == account_id))
            ).first()
        return None if row is None else _record(row)

    async def set_password(self, account_id: str, password_hash: str) -> None:
        a = schema.accounts.c
        async with transaction(self.engine, "change a password") as connection:
            await connection.execute(
                sa.update(schema.accounts)
                .where(a.id == account_id)
                .values(password_hash=password_hash)
            )

    async def add_session(self, session: SessionRecord) -> None:
        async with transaction(self.engine, "open a session") as connection:
            await connection.execute(
                sa.insert(schema.account_sessions).values(
                    id=session.id,
                    account_id=session.account_id,
                    csrf=session.csrf,
                    created=utc(session.created),
                    expires=utc(session.expires),
                    last_used=utc(session.last_used),
                )
            )

    async def session(self, session_id: str) -> tuple[SessionRecord, AccountRecord] | None:
        s, a = schema.account_sessions.c, schema.accounts.c
        async with reading(self.engine, "read a session") as connection:
            row = (
                await connection.execute(
                    sa.select(
                        s.id.label("session_id"),
                        s.csrf,
                        s.created.label("session_created"),
                        s.expires,
                        s.last_used,
                        schema.accounts,
                    )
                    .join(schema.accounts, a.id == s.account_id)
                    .where(s.id == session_id)
                )
            ).first()
        if row is None:
            return None
        record = SessionRecord(
            row.session_id,
            row.id,
            row.csrf,
            utc(row.session_created),
            utc(row.expires),
            utc(row.last_used),
        )
        return record, _record(row)

    async def touch_session(self, session_id: str, when: datetime) -> None:
        s, a = schema.account_sessions.c, schema.accounts.c
        async with transaction(self.engine, "touch a session") as connection:
            await connection.execute(
                sa.update(schema.account_sessions)
                .where(s.id == session_id)
                .values(last_used=utc(when))
            )
            owner = sa.select(s.account_id).where(s.id == session_id).scalar_subquery()
            await connection.execute(
                sa.update(schema.accounts).where(a.id == owner).values(last_seen=utc(when))
            )

    async def end_session(self, session_id: str) -> None:
        s = schema.account_sessions.c
        async with transaction(self.engine, "end a session") as connection:
            await connection.execute(sa.delete(schema.account_sessions).where(s.id == session_id))

    async def end_sessions(self, account_id: str, keep: str | None = None) -> None:
        s = schema.account_sessions.c
        where = s.account_id == account_id
        if keep is not None:
            where = sa.and_(where, s.id != keep)
        async with transaction(self.engine, "end an account's sessions") as connection:
            await connection.execute(sa.delete(schema.account_sessions).where(where))

    async def attempts(self, key: str) -> Attempts | None:
        t = schema.login_attempts.c
        async with reading(self.engine, "read login attempts") as connection:
            row = (
                await connection.execute(sa.select(schema.login_attempts).where(t.key == key))
            ).first()
        return None if row is None else _attempts(row)

    async def count_failure(
        self, key: str, now: datetime, window: timedelta, limit: int, lock: timedelta
    ) -> Attempts:
        t = schema.login_attempts.c
        table = schema.login_attempts
        for _ in range(3):  # a concurrent first failure of the same key: count again
            try:
                async with transaction(self.engine, "count a failed login") as connection:
                    counted = await connection.execute(
                        sa.update(table)
                        .where(t.key == key, t.first > utc(now - window))
                        .values(failures=t.failures + 1)
                    )
                    if counted.rowcount == 0:
                        await connection.execute(sa.delete(table).where(t.key == key))
                        await connection.execute(
                            sa.insert(table).values(key=key, failures=1, first=utc(now))
                        )
                    await connection.execute(
                        sa.update(table)
                        .where(t.key == key, t.failures >= limit, t.locked_until.is_(None))
                        .values(locked_until=utc(now + lock))
                    )
                    row = (await connection.execute(sa.select(table).where(t.key == key))).one()
                return _attempts(row)
            except Refused:
                continue
        raise StoreUnavailable("login attempts could not be counted")

    async def clear_attempts(self, key: str) -> None:
        t = schema.login_attempts.c
        async with transaction(self.engine, "clear login attempts") as connection:
            await connection.execute(sa.delete(schema.login_attempts).where(t.key == key))

    async def link_seats(self, account_id: str, token_hashes: Sequence[str]) -> int:
        s = schema.seats.c
        async with transaction(self.engine, "link seats to an account") as connection:
            linked = await connection.execute(
                sa.update(schema.seats)
                .where(s.token_hash.in_(list(token_hashes)), s.account_id.is_(None))
                .values(account_id=account_id)
            )
        return int(linked.rowcount or 0)

    async def seats_of(self, account_id: str, limit: int) -> list[HeldSeat]:
        s, t = schema.seats.c, schema.tables.c
        async with reading(self.engine, "read an account's seats") as connection:
            rows = await connection.execute(
                sa.select(s.table_id, s.seat)
                .join(schema.tables, t.id == s.table_id)
                .where(s.account_id == account_id)
                .order_by(t.created.desc(), s.table_id, s.seat)
                .limit(limit)
            )
            return [HeldSeat(row.table_id, row.seat) for row in rows]

    async def set_seat_token(
        self, table_id: str, seat: int, account_id: str, token_hash: str
    ) -> bool:
        if not possible_id(table_id):
            return False
        s = schema.seats.c
        async with transaction(self.engine, "give a seat a new token") as connection:
            changed = await connection.execute(
                sa.update(schema.seats)
                .where(s.table_id == table_id, s.seat == seat, s.account_id == account_id)
                .values(token_hash=token_hash)
            )
        return bool(changed.rowcount)

    async def delete(self, account_id: str, when: datetime, neutral_name: str) -> list[HeldSeat]:
        a, s, c = schema.accounts.c, schema.seats.c, schema.chat_lines.c
        async with transaction(self.engine, "delete an account") as connection:
            held = (
                await connection.execute(
                    sa.select(s.table_id, s.seat)
                    .where(s.account_id == account_id)
                    .order_by(s.table_id, s.seat)
                )
            ).all()
            await connection.execute(
                sa.update(schema.accounts)
                .where(a.id == account_id)
                .values(
                    # The name is freed: the key can never clash with a real name's key
                    # ('~' is not allowed in names), and the old name is not kept.
                    name=neutral_name[:32],
                    name_key=f"~{account_id}"[:32],
                    look_alike="",
                    password_hash="",
                    deleted=utc(when),
                    last_seen=None,
                )
            )
            await connection.execute(
                sa.delete(schema.account_sessions).where(
                    schema.account_sessions.c.account_id == account_id
                )
            )
            await connection.execute(
                sa.update(schema.seats)
                .where(s.account_id == account_id)
                .values(account_id=None, name=neutral_name)
            )
            for table_id, seat in held:
                await connection.execute(
                    sa.update(schema.chat_lines)
                    .where(c.table_id == table_id, c.author == f"s{seat}")
                    .values(name=neutral_name)
                )
        return [HeldSeat(row.table_id, row.seat) for row in held]

    async def set_banned(self, account_id: str, when: datetime | None) -> None:
        a = schema.accounts.c
        async with transaction(self.engine, "ban an account") as connection:
            await connection.execute(
                sa.update(schema.accounts)
                .where(a.id == account_id)
                .values(banned=None if when is None else utc(when))
            )
            if when is not None:
                await connection.execute(
                    sa.delete(schema.account_sessions).where(
                        schema.account_sessions.c.account_id == account_id
                    )
                )
