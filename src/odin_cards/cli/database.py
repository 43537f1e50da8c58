"""The flags that name the server's database, shared by ``odin serve`` and ``odin tables``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from odin_cards.cli.app import CommandError

DataDir = Annotated[
    Path, typer.Option("--data-dir", help="Where the embedded SQLite database lives.")
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        envvar="ODIN_DATABASE_URL",
        show_envvar=True,
        help="Use this database instead, e.g. postgresql+asyncpg://user@host/db. From the "
        "environment, a password in it stays out of the process list.",
    ),
]


def database_url_of(data_dir: Path, database_url: str | None) -> str:
    """The database the admin commands act on (the embedded SQLite file by default)."""
    from odin_cards.server.settings import sqlite_url

    if database_url is None:
        if not (data_dir / "odin.sqlite3").is_file():
            raise CommandError(f"no database in {data_dir} (odin serve creates odin.sqlite3)")
        return sqlite_url(data_dir)
    check_database_url(database_url)
    return database_url


def check_database_url(url: str) -> None:
    """Refuse, before anything starts, a URL that names no database driver this server has.

    The URL is not repeated in the message: it may hold a password.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    example = "e.g. postgresql+asyncpg://user@host/db or sqlite+aiosqlite:///odin.sqlite3"
    try:
        dialect = make_url(url).get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError):
        raise typer.BadParameter(
            f"not a database URL this server can use ({example})", param_hint="--database-url"
        ) from None
    if not getattr(dialect, "is_async", False):
        raise typer.BadParameter(
            f"name an asyncio driver ({example})", param_hint="--database-url"
        ) from None
