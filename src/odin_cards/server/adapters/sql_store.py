"""The table store on SQL: tables and seats, and loading tables back with their logs."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from odin_cards.server.adapters import sql_schema as schema
from odin_cards.server.adapters.sql_errors import FAILURES, Refused, committing, storing
from odin_cards.server.core.ports import (
    STATUSES,
    LoggedAction,
    SeatRecord,
    SeatTaken,
    StoredTable,
    TableRecord,
)


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC, aware. SQLite keeps timestamps without their zone: the store
    writes UTC only, so a naive one read back is UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


@asynccontextmanager
async def transaction(engine: AsyncEngine, what: str) -> AsyncIterator[AsyncConnection]:
    """One transaction, committed when the block ends; failures become the ports' errors
    (:class:`StoreUnavailable`, or :class:`CommitUnknown` when the commit itself failed)."""
    with storing(what):
        connection = await engine.connect()
    try:
        with storing(what):
            await connection.begin()
            yield connection
        with committing(what):
            await connection.commit()
    finally:
        with contextlib.suppress(*FAILURES):
            await connection.close()  # rolls back what was not committed


@asynccontextmanager
async def reading(engine: AsyncEngine, what: str) -> AsyncIterator[AsyncConnection]:
    """A connection to read with; failures become :class:`StoreUnavailable`."""
    with storing(what):
        async with engine.connect() as connection:
            yield connection


class SqlTableStore:
    """:class:`~odin_cards.server.core.ports.TableStore` on SQLite or PostgreSQL."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def insert(self, table: TableRecord) -> None:
        async with transaction(self.engine, "store a new table") as connection:
            await _insert(connection, table)

    async def insert_following(self, table: TableRecord, following: TableRecord) -> None:
        async with transaction(self.engine, "store the next table") as connection:
            await _insert(connection, following)
            await connection.execute(_keep_accounts(table.id, following.id))
            linked = await connection.execute(
                sa.update(schema.tables)
                .where(schema.tables.c.id == table.id, schema.tables.c.next_table.is_(None))
                .values(next_table=following.id)
            )
            if linked.rowcount != 1:
                raise Refused(f"table {table.id} is missing or has a next table already")

    async def load(self, table_id: str) -> StoredTable | None:
        if not possible_id(table_id):  # PostgreSQL refuses a NUL in any text it is sent
            return None
        found = await self._load(schema.tables.c.id == table_id)
        return found[0] if found else None

    async def load_resumable(self, waiting_since: datetime) -> list[StoredTable]:
        t = schema.tables.c
        return await self._load(
            (t.status == "playing") | ((t.status == "waiting") & (t.created >= utc(waiting_since)))
        )

    async def waiting(self, game: str, since: datetime, limit: int) -> list[TableRecord]:
        t = schema.tables.c
        newest = (
            sa.select(t.id)
            .where(
                t.status == "waiting",
                t.game == game,
                t.created >= utc(since),
                schema.listed_table(),
            )
            .order_by(t.created.desc(), t.id.desc())
            .limit(limit)
        )
        async with reading(self.engine, "list open tables") as connection:
            ids = [row.id for row in await connection.execute(newest)]
            if not ids:
                return []
            rows = (await connection.execute(sa.select(schema.tables).where(t.id.in_(ids)))).all()
            s = schema.seats.c
            seat_rows = (
                await connection.execute(
                    seats_with_accounts().where(s.table_id.in_(ids)).order_by(s.seat)
                )
            ).all()
        seats: dict[str, list[SeatRecord]] = {}
        for row in seat_rows:
            seats.setdefault(row.table_id, []).append(seat_record(row))
        records = [table_record(row, seats.get(row.id, [])) for row in rows]
        records.sort(key=lambda r: (r.created, r.id), reverse=True)
        return records

    async def take_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        starts: bool,
        account_id: str | None = None,
    ) -> None:
        s = schema.seats.c
        async with transaction(self.engine, "give a seat") as connection:
            # The seat is taken only if it is still free: of two takers at once the
            # database lets one through and the other changes no row.
            given = await connection.execute(
                sa.update(schema.seats)
                .where(
                    s.table_id == table_id,
                    s.seat == seat,
                    s.name.is_(None),
                    s.bot.is_(None),
                    s.locked.is_(False),
                )
                .values(name=name, token_hash=token_hash, account_id=account_id)
            )
            if given.rowcount != 1:
                raise SeatTaken(f"seat {seat} of table {table_id} is not free")
            if starts:
                await connection.execute(
                    sa.update(schema.tables)
                    .where(schema.tables.c.id == table_id, schema.tables.c.status == "waiting")
                    .values(status="playing")
                )

    async def lock_seat(self, table_id: str, seat: int, locked: bool) -> None:
        s = schema.seats.c
        async with transaction(self.engine, "lock a seat") as connection:
            changed = await connection.execute(
                sa.update(schema.seats)
                .where(s.table_id == table_id, s.seat == seat, s.name.is_(None), s.bot.is_(None))
                .values(locked=locked)
            )
            if changed.rowcount != 1:
                raise SeatTaken(f"seat {seat} of table {table_id} is not free")

    async def tables_of(self, token_hashes: Sequence[str], limit: int) -> list[str]:
        if not token_hashes or limit <= 0:
            return []
        s, t = schema.seats.c, schema.tables.c
        async with reading(self.engine, "find a player's tables") as connection:
            ids = await connection.execute(
                sa.select(s.table_id)
                .join(schema.tables, t.id == s.table_id)
                .where(s.token_hash.in_(list(token_hashes)))
                .group_by(s.table_id, t.created)
                .order_by(t.created.desc(), s.table_id)
                .limit(limit)
            )
            return list(ids.scalars())

    async def set_status(self, table_id: str, status: str, reason: str | None = None) -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        if reason is not None:
            reason = reason[: schema.MAX_REASON]
        async with transaction(self.engine, "change a table's status") as connection:
            await connection.execute(
                sa.update(schema.tables)
                .where(schema.tables.c.id == table_id)
                .values(status=status, broken_reason=reason)
            )

    async def expire_waiting(self, before: datetime) -> list[str]:
        t = schema.tables.c
        old = (t.status == "waiting") & (t.created < utc(before))
        expire = sa.update(schema.tables).values(status="expired")
        async with transaction(self.engine, "expire waiting tables") as connection:
            if connection.dialect.update_returning:
                expired = await connection.execute(expire.where(old).returning(t.id))
                return sorted(expired.scalars())
            # SQLite before 3.35 has no RETURNING; its one writer makes this exact too.
            ids = list((await connection.execute(sa.select(t.id).where(old))).scalars())
            if ids:
                await connection.execute(expire.where(old, t.id.in_(ids)))
            return sorted(ids)

    async def broken(self) -> list[TableRecord]:
        return [stored.table for stored in await self._load(schema.tables.c.status == "broken")]

    async def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        async with transaction(self.engine, "store a table's clock") as connection:
            await connection.execute(
                sa.update(schema.tables).where(schema.tables.c.id == table_id).values(clock=clock)
            )

    async def _load(self, where: sa.ColumnElement[bool]) -> list[StoredTable]:
        """The tables ``where`` says, with their seats and logs, oldest table first."""
        t, s, e = schema.tables.c, schema.seats.c, schema.events.c
        ids = sa.select(t.id).where(where).scalar_subquery()
        async with reading(self.engine, "load tables") as connection:
            table_rows = (
                await connection.execute(
                    sa.select(schema.tables).where(where).order_by(t.created, t.id)
                )
            ).all()
            seat_rows = (
                await connection.execute(
                    seats_with_accounts().where(s.table_id.in_(ids)).order_by(s.table_id, s.seat)
                )
            ).all()
            event_rows = (
                await connection.execute(
                    sa.select(schema.events)
                    .where(e.table_id.in_(ids))
                    .order_by(e.table_id, e.number)
                )
            ).all()
        seats: dict[str, list[SeatRecord]] = {}
        for row in seat_rows:
            seats.setdefault(row.table_id, []).append(seat_record(row))
        logs: dict[str, list[LoggedAction]] = {}
        for row in event_rows:
            logs.setdefault(row.table_id, []).append(logged_action(row))
        return [
            StoredTable(table_record(row, seats.get(row.id, [])), logs.get(row.id, []))
            for row in table_rows
        ]


def possible_id(table_id: str) -> bool:
    """Whether a table could have this id (an id from a URL may be anything)."""
    return len(table_id) <= schema.ID_LENGTH and "\x00" not in table_id


def table_record(row: Any, seats: list[SeatRecord]) -> TableRecord:
    return TableRecord(
        id=row.id,
        game=row.game,
        rules_version=row.rules_version,
        players=row.players,
        setup=row.setup,
        seed=row.seed,
        status=row.status,
        created=utc(row.created),
        seats=seats,
        previous_table=row.previous_table,
        next_table=row.next_table,
        broken_reason=row.broken_reason,
        settings=dict(row.settings or {}),
        creator_hash=row.creator_hash,
        clock=dict(row.clock or {}),
    )


def seats_with_accounts() -> sa.Select[Any]:
    """Seats with the name of the account holding each (``None``: a guest's, a bot's, a
    free seat, or a deleted account's, whose seats are anonymized anyway)."""
    s, a = schema.seats.c, schema.accounts.c
    return sa.select(schema.seats, a.name.label("account")).select_from(
        schema.seats.outerjoin(schema.accounts, (a.id == s.account_id) & a.deleted.is_(None))
    )


def seat_record(row: Any) -> SeatRecord:
    return SeatRecord(
        row.seat,
        row.name,
        row.bot,
        row.token_hash,
        bool(row.locked),
        row.account_id,
        row.account,
    )


def _keep_accounts(previous: str, following: str) -> sa.Update:
    """A following table's person seats keep the account of the seat their token held at
    the previous table, as stored: accounts link seats in the database (sign-up, log-in,
    claim, deletion), possibly after the table was read into memory."""
    s = schema.seats.c
    before = schema.seats.alias("before")
    held = (
        sa.select(before.c.account_id)
        .where(before.c.table_id == previous, before.c.token_hash == s.token_hash)
        .scalar_subquery()
    )
    return (
        sa.update(schema.seats)
        .where(s.table_id == following, s.token_hash.is_not(None))
        .values(account_id=held)
    )


def logged_action(row: Any) -> LoggedAction:
    return LoggedAction(row.number, row.seat, row.action, row.client_id, utc(row.created), row.by)


def event_row(table_id: str, action: LoggedAction) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "number": action.number,
        "seat": action.seat,
        "action": action.action,
        "client_id": action.client_id,
        "created": utc(action.created),
        "by": action.by,
    }


async def _insert(connection: AsyncConnection, table: TableRecord) -> None:
    if table.status not in STATUSES:
        raise ValueError(f"unknown table status {table.status!r}")
    await connection.execute(
        sa.insert(schema.tables).values(
            id=table.id,
            game=table.game,
            rules_version=table.rules_version,
            players=table.players,
            setup=table.setup,
            seed=table.seed,
            status=table.status,
            created=utc(table.created),
            previous_table=table.previous_table,
            next_table=table.next_table,
            broken_reason=table.broken_reason,
            settings=table.settings,
            creator_hash=table.creator_hash,
            clock=table.clock,
        )
    )
    if table.seats:
        await connection.execute(
            sa.insert(schema.seats),
            [
                {
                    "table_id": table.id,
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "token_hash": s.token_hash,
                    "locked": s.locked,
                    "account_id": s.account_id,
                }
                for s in table.seats
            ],
        )
