"""Table leases on PostgreSQL: which process owns each running table, with fencing tokens.

Several ``odin serve`` processes share one database (``--redis-url``). Each process keeps
a heartbeat row in ``processes`` (renewed every third of ``lease_seconds`` from a thread of
its own, :mod:`.heartbeat`, expiring ``lease_seconds`` after the last renewal, by the
database's clock so machines need not agree on the time). ``table_leases`` names each
table's owner and a fencing token that grows by one on every takeover. A lease is live
while its owner's heartbeat is: one write per process per renewal, however many tables it
owns.

The event log writes a row only while the table's lease still carries the writer's token
(checked in the same transaction, with the lease row locked ``FOR SHARE``): a takeover's
``UPDATE`` waits for an append in flight and every later append of the old owner sees
the new token and is refused. The new owner reads the log after its takeover committed,
so it sees every row the old owner managed to write.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from odin_cards.server.adapters import sql_schema as schema
from odin_cards.server.adapters.heartbeat import HeartbeatThread
from odin_cards.server.adapters.sql_store import reading, transaction, utc

_ALIVE = "EXISTS (SELECT 1 FROM processes p WHERE p.id = {owner} AND p.expires_at > now())"

_ACQUIRE = sa.text(
    "INSERT INTO table_leases (table_id, owner, token) VALUES (:table, :me, 1) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = :me, token = table_leases.token + 1 "
    "WHERE table_leases.owner IS NULL OR table_leases.owner = :me OR NOT "
    + _ALIVE.format(owner="table_leases.owner")
    + " RETURNING token"
)

_HOLDER = sa.text(
    "SELECT l.owner FROM table_leases l JOIN processes p ON p.id = l.owner "
    "WHERE l.table_id = :table AND p.expires_at > now()"
)

_ORPHANS = sa.text(
    "SELECT t.id FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id "
    "WHERE (t.status = 'playing' OR (t.status = 'waiting' AND t.created >= :since)) "
    "AND (l.owner IS NULL OR NOT " + _ALIVE.format(owner="l.owner") + ") "
    # A table without a lease row that is seconds old is being leased by its creator.
    "AND (l.table_id IS NOT NULL OR t.created < now() - interval '10 seconds') "
    "ORDER BY t.created, t.id LIMIT :limit"
)


WATCHDOG = 4.0
"""Leases of a process whose event loop has not ticked its heartbeat thread for this many
times ``lease_seconds`` are let expire (:mod:`.heartbeat`)."""


async def _beat(engine: AsyncEngine, owner: str, seconds: float) -> bool:
    """Extend ``owner``'s heartbeat by ``seconds``; ``False`` if it had expired (or never
    existed) and was registered anew."""
    p = schema.processes.c
    expires = sa.text("now() + make_interval(secs => :seconds)").bindparams(seconds=seconds)
    async with transaction(engine, "renew this process's heartbeat") as connection:
        renewed = await connection.execute(
            sa.update(schema.processes)
            .where(p.id == owner, p.expires_at > sa.func.now())
            .values(expires_at=expires)
        )
        if renewed.rowcount == 1:
            return True
        await connection.execute(
            sa.text(
                "INSERT INTO processes (id, expires_at) VALUES "
                "(:me, now() + make_interval(secs => :seconds)) ON CONFLICT (id) "
                "DO UPDATE SET expires_at = excluded.expires_at"
            ),
            {"me": owner, "seconds": seconds},
        )
        # Heartbeats of processes gone for an hour are of no use to anybody.
        await connection.execute(
            sa.delete(schema.processes).where(
                p.expires_at < sa.func.now() - sa.text("interval '1 hour'")
            )
        )
    return False


class SqlLeaseStore:
    """:class:`~odin_cards.server.core.ports.LeaseStore` on PostgreSQL (see the module
    docstring)."""

    def __init__(self, engine: AsyncEngine, owner: str, lease_seconds: float) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("several processes need PostgreSQL")
        self.engine = engine
        self.owner = owner[: schema.PROCESS_ID_LENGTH]
        self.seconds = lease_seconds
        self._registered = False
        self._thread: HeartbeatThread | None = None

    async def renew(self) -> bool:
        """Extend the heartbeat, from the heartbeat thread while the server's loop keeps
        calling this (each call is the loop's tick), else here (the first call, or the
        thread gave up on a silent loop: then the truth is learnt here and now).

        ``False`` too while the thread has not renewed for a whole lease (its renewals fail
        or hang): the heartbeat may have expired and the tables been taken over, though the
        thread cannot have seen it yet."""
        thread = self._thread
        if thread is not None and thread.is_alive():
            thread.tick()
            lost = thread.take_lost()
            return not lost and thread.renewed_ago() < self.seconds
        started = time.monotonic()
        extended = await _beat(self.engine, self.owner, self.seconds)
        first, self._registered = not self._registered, True
        self._thread = HeartbeatThread(
            self.engine.url,
            lambda engine: _beat(engine, self.owner, self.seconds),
            period=self.seconds / 3,
            watchdog=WATCHDOG * self.seconds,
            renewed=started,
        )
        self._thread.start()
        return extended or first

    async def acquire(self, table_id: str) -> int | None:
        async with transaction(self.engine, "take a table's lease") as connection:
            token = await connection.scalar(_ACQUIRE, {"table": table_id, "me": self.owner})
        return None if token is None else int(token)

    async def release(self, table_id: str, token: int) -> None:
        lease = schema.table_leases.c
        async with transaction(self.engine, "release a table's lease") as connection:
            await connection.execute(
                sa.update(schema.table_leases)
                .where(lease.table_id == table_id, lease.token == token, lease.owner == self.owner)
                .values(owner=None)
            )

    async def holder(self, table_id: str) -> str | None:
        async with reading(self.engine, "find a table's owner") as connection:
            owner = await connection.scalar(_HOLDER, {"table": table_id})
        return None if owner is None else str(owner)

    async def tokens(self, table_ids: Collection[str]) -> dict[str, tuple[str | None, int]]:
        if not table_ids:
            return {}
        lease = schema.table_leases.c
        async with reading(self.engine, "read table leases") as connection:
            rows = await connection.execute(
                sa.select(lease.table_id, lease.owner, lease.token).where(
                    lease.table_id.in_(list(table_ids))
                )
            )
            return {row.table_id: (row.owner, int(row.token)) for row in rows}

    async def orphans(self, waiting_since: datetime, limit: int) -> list[str]:
        async with reading(self.engine, "find tables without an owner") as connection:
            rows = await connection.execute(_ORPHANS, {"since": utc(waiting_since), "limit": limit})
            return [str(row.id) for row in rows]

    async def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.stop()
            await asyncio.to_thread(thread.join)
        lease = schema.table_leases.c
        async with transaction(self.engine, "end this process's heartbeat") as connection:
            await connection.execute(
                sa.update(schema.table_leases).where(lease.owner == self.owner).values(owner=None)
            )
            await connection.execute(
                sa.delete(schema.processes).where(schema.processes.c.id == self.owner)
            )
