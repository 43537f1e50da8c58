"""``odin serve`` refuses a bad port or database URL in one line, before it starts anything."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from odin_cards.cli import app

from .test_errors import one_line_error

runner = CliRunner()


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("bogus://x", "--database-url: not a database URL this server can use"),
        ("no url at all", "--database-url: not a database URL this server can use"),
        ("postgresql://user:secret@127.0.0.1/odin", "--database-url: name an asyncio driver"),
    ],
)
def test_a_database_url_without_a_usable_driver_is_one_line(url: str, message: str) -> None:
    line = one_line_error(runner.invoke(app, ["serve", "--database-url", url]), "serve")
    assert message in line
    assert "secret" not in line  # a URL may hold a password: it is not repeated


@pytest.mark.parametrize("port", ["99999", "-1", "65536"])
def test_a_port_out_of_range_is_refused_before_the_database_is_touched(
    port: str, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    result = runner.invoke(app, ["serve", "--port", port, "--data-dir", str(data)])
    assert "'--port'" in one_line_error(result, "serve")
    assert not data.exists()  # no database made, no migration run


def test_the_urls_may_come_from_the_environment_and_are_checked_alike() -> None:
    """ODIN_DATABASE_URL / ODIN_REDIS_URL keep a password out of the process list."""
    result = runner.invoke(
        app, ["serve"], env={"ODIN_DATABASE_URL": "postgresql://user:secret@127.0.0.1/odin"}
    )
    line = one_line_error(result, "serve")
    assert "--database-url: name an asyncio driver" in line and "secret" not in line
    result = runner.invoke(
        app,
        ["serve"],
        env={
            "ODIN_DATABASE_URL": "sqlite+aiosqlite:///odin.sqlite3",
            "ODIN_REDIS_URL": "redis://127.0.0.1:6379/0",
        },
    )
    line = one_line_error(result, "serve", status=1)
    assert "--redis-url needs a PostgreSQL --database-url" in line
