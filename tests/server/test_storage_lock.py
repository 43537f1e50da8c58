"""One server process owns a database: a second owner is refused at once, on SQLite and
PostgreSQL, in the same process or another one."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap

import pytest

from odin_cards.server.adapters import acquire_database, open_database
from odin_cards.server.domain.ports import DatabaseInUse

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
