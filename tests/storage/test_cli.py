"""``odin tables broken``: the broken tables of a database, one line each."""

from __future__ import annotations

import asyncio
from pathlib import Path

from typer.testing import CliRunner, Result

from odin_cards.cli import app
from odin_cards.server.adapters import open_database

from .data import a_table


async def odin(*args: str) -> Result:
    # The command runs its own event loop: in a thread, beside the test's.
    return await asyncio.to_thread(CliRunner().invoke, app, list(args), prog_name="odin")


def where(database_url: str, tmp_path: Path) -> list[str]:
    if database_url.startswith("sqlite"):
        return ["--data-dir", str(tmp_path)]
    return ["--database-url", database_url]


async def test_broken_tables_are_listed_with_their_reasons(
    database_url: str, tmp_path: Path
) -> None:
    async with open_database(database_url) as database:
        for table_id in ("fine", "bad1", "bad2"):
            await database.store.insert(a_table(table_id, "playing", players=3))
        await database.store.set_status("bad1", "broken", "action 7 (play R9)\ndoes not replay")
        await database.store.set_status("bad2", "broken", "rules version 9 is unknown")
        result = await odin("tables", "broken", *where(database_url, tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("bad1  odin (rules version 1), 3 players, created 2026-11-22")
    assert lines[0].endswith(": action 7 (play R9) does not replay")
    assert lines[1].startswith("bad2  ") and lines[1].endswith(": rules version 9 is unknown")


async def test_no_broken_table_is_said_plainly(database_url: str, tmp_path: Path) -> None:
    async with open_database(database_url) as database:
        await database.store.insert(a_table("fine", "playing"))
        result = await odin("tables", "broken", *where(database_url, tmp_path))
    assert (result.exit_code, result.output) == (0, "no broken tables\n")


async def test_a_missing_database_is_one_line_and_creates_nothing(tmp_path: Path) -> None:
    result = await odin("tables", "broken", "--data-dir", str(tmp_path / "none"))
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "no database in" in result.output
    assert not (tmp_path / "none").exists()
    result = await odin(
        "tables", "broken", "--database-url", "postgresql+asyncpg://x@127.0.0.1:1/x"
    )
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert result.output.startswith("odin tables broken: the database could not")
