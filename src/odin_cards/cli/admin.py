"""``odin admin``: the server's person in charge acts on accounts (issue #10).

``odin admin ban NAME`` bans an account: it cannot log in any more, its sessions end at
once (every server process reads sessions from the database) and it can no longer take
seats as that account. ``odin admin unban NAME`` lifts the ban. The commands write to the
database beside a running ``odin serve`` (SQLite or PostgreSQL); the schema must be
current (``odin serve`` upgrades it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from odin_cards.cli.admin_reports import reports_command
from odin_cards.cli.app import CommandError, OdinCommand, OdinGroup
from odin_cards.cli.database import DatabaseUrl, DataDir, database_url_of

admin = typer.Typer(
    name="admin",
    cls=OdinGroup,
    help="The server's accounts: ban or unban a person (odin admin ban NAME).",
    no_args_is_help=True,
    rich_markup_mode=None,
)

Name = Annotated[str, typer.Argument(help="The account's user name (any case).")]


async def set_ban(url: str, name: str, banned: bool) -> str:
    """Ban or unban the named account; the line to print."""
    from odin_cards.server.adapters.sql_accounts import SqlAccountStore
    from odin_cards.server.adapters.sql_errors import storing
    from odin_cards.server.adapters.sql_schema import make_engine, schema_revision
    from odin_cards.server.core.clock import SystemClock
    from odin_cards.server.core.people.accounts import AccountError, Accounts
    from odin_cards.server.core.ports import StoreUnavailable
    from odin_cards.server.settings import Settings

    engine = make_engine(url)
    try:
        try:
            with storing("read the database"):
                revision = await schema_revision(engine)
            if revision is None or int(revision) < 9:
                raise CommandError("this database has no accounts yet (odin serve upgrades it)")
            accounts = Accounts(SqlAccountStore(engine), SystemClock(), Settings(url))
            account = await accounts.ban(name, banned)
        except AccountError as error:
            raise CommandError(error.message) from None
        except StoreUnavailable as error:
            cause = str(error.__cause__ or "no answer").splitlines()[0]
            raise CommandError(f"{error}: {cause}") from None
    finally:
        await engine.dispose()
    if banned:
        return f"banned {account.name}: it cannot log in; its sessions ended"
    return f"unbanned {account.name}: it may log in again"


def ban_command(
    name: Name, data_dir: DataDir = Path("data"), database_url: DatabaseUrl = None
) -> None:
    """Ban an account: no login, its sessions end, no seats taken as that account."""
    import asyncio  # here, not at the top: odin --help stays quick

    typer.echo(asyncio.run(set_ban(database_url_of(data_dir, database_url), name, True)))


def unban_command(
    name: Name, data_dir: DataDir = Path("data"), database_url: DatabaseUrl = None
) -> None:
    """Lift an account's ban: it may log in again."""
    import asyncio

    typer.echo(asyncio.run(set_ban(database_url_of(data_dir, database_url), name, False)))


def register(app: typer.Typer) -> None:
    admin.command("ban", cls=OdinCommand)(ban_command)
    admin.command("unban", cls=OdinCommand)(unban_command)
    admin.command("reports", cls=OdinCommand)(reports_command)  # people (matchmaking)
    app.add_typer(admin)
