"""``odin admin reports``: the reports people made of others, newest first (issue #10,
``docs/matchmaking.md``). Reads the database beside a running ``odin serve``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from odin_cards.cli.app import CommandError
from odin_cards.cli.database import DatabaseUrl, DataDir, database_url_of

Limit = Annotated[
    int, typer.Option("--limit", min=1, max=10_000, help="How many reports, newest first.")
]


async def list_reports(url: str, limit: int) -> list[tuple[str, str, str, str, str, str]]:
    """The newest ``limit`` reports: (when, reporter, reported, reason, table, text)."""
    from odin_cards.server.adapters.sql_errors import storing
    from odin_cards.server.adapters.sql_people import SqlPeopleStore
    from odin_cards.server.adapters.sql_schema import make_engine, schema_revision
    from odin_cards.server.core.ports import StoreUnavailable

    engine = make_engine(url)
    try:
        try:
            with storing("read the database"):
                revision = await schema_revision(engine)
            if revision is None or int(revision) < 11:
                raise CommandError("this database has no reports yet (odin serve upgrades it)")
            store = SqlPeopleStore(engine)
            reports = await store.reports(limit)
            names = await store.names([r.reporter for r in reports] + [r.reported for r in reports])
        except StoreUnavailable as error:
            cause = str(error.__cause__ or "no answer").splitlines()[0]
            raise CommandError(f"{error}: {cause}") from None
    finally:
        await engine.dispose()
    return [
        (
            r.created.strftime("%Y-%m-%d %H:%M:%S"),
            names.get(r.reporter, r.reporter),
            names.get(r.reported, r.reported),
            r.reason,
            r.table_id or "",
            r.text or "",
        )
        for r in reports
    ]


def reports_command(
    data_dir: DataDir = Path("data"), database_url: DatabaseUrl = None, limit: Limit = 50
) -> None:
    """List the reports people made of others, newest first."""
    import asyncio  # here, not at the top: odin --help stays quick

    from rich import box
    from rich.console import Console
    from rich.table import Table

    found = asyncio.run(list_reports(database_url_of(data_dir, database_url), limit))
    console = Console()
    if not found:
        console.print("no reports")
        return
    table = Table(box=box.SIMPLE, title=f"Reports (newest {len(found)})")
    for column in ("when (UTC)", "reporter", "reported", "reason", "table", "text"):
        table.add_column(column, overflow="fold")
    for row in found:
        table.add_row(*row)
    console.print(table)
