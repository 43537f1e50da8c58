"""The database: schema, engine, migrations, and loading tables back after a restart.

SQLAlchemy Core on its async engine, the same code for SQLite (aiosqlite) and PostgreSQL
(asyncpg). Three tables: ``tables`` (a game's definition and status), ``seats`` (names,
bots and SHA-256 hashes of seat tokens) and ``events`` (the append-only log of accepted
actions, one row per action, keyed by the table's version before it).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

MIGRATIONS = Path(__file__).parent / "migrations"

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("previous_table", sa.String(16), nullable=True),
    sa.Column("next_table", sa.String(16), nullable=True),
)
sa.Index("tables_status", tables.c.status)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(32), nullable=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)
sa.Index("seats_token_hash", seats.c.token_hash)

events = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("result_version", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(64), nullable=False),
    sa.Column("client_id", sa.String(64), nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("table_id", "client_id", name="events_client_id"),
)


def _sqlite_pragmas(dbapi_connection: Any, _: Any) -> None:
    """WAL and ``synchronous=NORMAL``: commits survive a killed process, and are cheap."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """The server's async engine (aiosqlite or asyncpg)."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})
        sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=10)


def make_sqlite_writer(engine: AsyncEngine) -> sa.Engine | None:
    """For SQLite, a plain engine on the same file for the event log's writer thread.

    aiosqlite hops to its thread for every statement, begin and commit; a batch written
    by one function in one thread hops once. ``None`` for other databases.
    """
    if engine.dialect.name != "sqlite":
        return None
    writer = sa.create_engine(
        engine.url.set(drivername="sqlite"),
        connect_args={"timeout": 30, "check_same_thread": False},
        poolclass=sa.pool.StaticPool,
    )
    sa.event.listen(writer, "connect", _sqlite_pragmas)
    sa.event.listen(writer, "connect", _no_autocheckpoint)
    return writer


def _no_autocheckpoint(dbapi_connection: Any, _: Any) -> None:
    # The writer's commits never wait for a checkpoint's fsync; see ``checkpoint``.
    dbapi_connection.execute("PRAGMA wal_autocheckpoint=0")


def checkpoint(engine: AsyncEngine) -> None:
    """Copy the SQLite WAL into the database file, from a connection of its own.

    Run in a thread, away from the writer: a PASSIVE checkpoint never blocks commits,
    so the fsync it needs never delays an action.
    """
    with sa.create_engine(
        engine.url.set(drivername="sqlite"), poolclass=sa.pool.NullPool
    ).connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


def alembic_config() -> Config:
    """Alembic's configuration, pointing at the migrations shipped inside the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to revision 0001, the one this module's tables describe.

    Transitional: the server moves to :mod:`.adapters`, whose schema is the newest
    revision; until then this module keeps the 0.1 schema it is written for.
    """
    config = alembic_config()

    def upgrade(connection: sa.Connection) -> None:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")

    async with engine.begin() as connection:
        await connection.run_sync(upgrade)


def run_migrations(url: str) -> None:
    """Synchronous entry point (for scripts): migrate the database at ``url``."""

    async def main() -> None:
        engine = make_engine(url)
        try:
            await migrate(engine)
        finally:
            await engine.dispose()

    asyncio.run(main())
