"""``odin tables``: what the server's database holds, for the person who runs the server.

``odin tables broken`` lists the tables whose stored log does not replay (the server marks
them ``broken`` at start instead of dropping them), one line each with the reason. It only
reads: it may run beside ``odin serve`` and never upgrades or locks the database.
"""

from __future__ import annotations

from pathlib import Path

import typer

from odin_cards.cli.app import CommandError, OdinCommand, OdinGroup
from odin_cards.cli.database import DatabaseUrl, DataDir, check_database_url

tables_app = typer.Typer(
    name="tables",
    cls=OdinGroup,
    help="The server's stored tables (odin tables broken).",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def broken_command(
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
) -> None:
    """List the tables marked broken (their log does not replay), one line each."""
    import asyncio  # here, not at the top: odin --help stays quick

    from odin_cards.server.settings import sqlite_url

    if database_url is None:
        if not (data_dir / "odin.sqlite3").is_file():
            raise CommandError(f"no database in {data_dir} (odin serve creates odin.sqlite3)")
        database_url = sqlite_url(data_dir)
    else:
        check_database_url(database_url)
    for line in asyncio.run(broken_lines(database_url)):
        typer.echo(line)


async def broken_lines(url: str) -> list[str]:
    """One line per broken table of the database at ``url``, or one line saying none is."""
    from odin_cards.server.adapters.sql_errors import storing
    from odin_cards.server.adapters.sql_schema import head_revision, make_engine, schema_revision
    from odin_cards.server.adapters.sql_store import SqlTableStore
    from odin_cards.server.core.ports import StoreUnavailable

    engine = make_engine(url)
    try:
        try:
            with storing("read the database"):
                revision = await schema_revision(engine)
            if revision is None:
                raise CommandError("this database holds no odin tables (odin serve sets it up)")
            if revision != head_revision():
                return [
                    "no broken tables: the database was written by an older odin-cards "
                    "(odin serve upgrades it and checks every table)"
                ]
            tables = await SqlTableStore(engine).broken()
        except StoreUnavailable as error:
            cause = str(error.__cause__ or "no answer").splitlines()[0]
            raise CommandError(f"{error}: {cause}") from None
    finally:
        await engine.dispose()
    if not tables:
        return ["no broken tables"]
    return [
        f"{t.id}  {t.game} (rules version {t.rules_version}), {t.players} players, "
        f"created {t.created:%Y-%m-%d %H:%M} UTC: {' '.join((t.broken_reason or '?').split())}"
        for t in tables
    ]


def register(app: typer.Typer) -> None:
    tables_app.command("broken", cls=OdinCommand)(broken_command)
    app.add_typer(tables_app)
