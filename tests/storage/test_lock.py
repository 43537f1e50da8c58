"""One server process owns a database: a second owner is refused at once, on SQLite and
PostgreSQL, in the same process or another one."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from odin_cards.server.adapters import acquire_database, open_database
from odin_cards.server.core.ports import DatabaseInUse

ODIN = Path(sys.executable).with_name("odin")

HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from odin_cards.server.adapters import acquire_database

    async def main() -> None:
        async with acquire_database(sys.argv[1]):
            print("owned", flush=True)
            sys.stdin.readline()  # hold the database until told to stop

    asyncio.run(main())
    """
)


async def test_a_second_acquisition_is_refused_until_the_first_ends(database_url: str) -> None:
    async with acquire_database(database_url):
        with pytest.raises(DatabaseInUse):
            async with acquire_database(database_url):
                pass
    async with acquire_database(database_url):  # free again
        pass


async def test_a_second_open_database_is_refused(database_url: str) -> None:
    async with open_database(database_url):
        with pytest.raises(DatabaseInUse, match="another odin serve"):
            async with open_database(database_url):
                pass


async def test_another_process_owns_the_database_until_it_is_killed(database_url: str) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, database_url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert await asyncio.to_thread(holder.stdout.readline) == "owned\n"
        with pytest.raises(DatabaseInUse):
            async with acquire_database(database_url):
                pass
    finally:
        holder.kill()  # as kill -9: no clean-up runs in the holder
        await asyncio.to_thread(holder.wait, 30)
    if database_url.startswith("postgresql"):
        # PostgreSQL ends the dead client's session a moment later: wait until it has.
        for _ in range(100):
            try:
                async with acquire_database(database_url):
                    return
            except DatabaseInUse:
                await asyncio.sleep(0.05)
        raise AssertionError("the killed owner's lock was never released")
    async with acquire_database(database_url):
        pass


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def odin_serve(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(ODIN), "serve", "--port", str(free_port()), "--workers", "0", *args]
    return await asyncio.to_thread(
        subprocess.run, command, capture_output=True, text=True, timeout=60
    )


async def test_a_second_odin_serve_exits_at_once_with_one_line(
    database_url: str, tmp_path: Path
) -> None:
    where = ["--data-dir", str(tmp_path)]  # the fixture's SQLite file is tmp_path/odin.sqlite3
    if not database_url.startswith("sqlite"):
        where = ["--database-url", database_url]
    async with acquire_database(database_url):
        done = await odin_serve(*where)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("odin serve: another odin serve is using the ")
    assert done.stderr.count("\n") == 1 and done.stdout == ""


async def test_odin_serve_without_its_database_exits_with_one_line() -> None:
    done = await odin_serve("--database-url", "postgresql+asyncpg://odin:secret@127.0.0.1:1/x")
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("odin serve: the database could not be reached")
    assert done.stderr.count("\n") == 1 and "secret" not in done.stderr
