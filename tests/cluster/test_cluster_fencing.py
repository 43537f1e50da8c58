"""Fencing: a process that lost a table's lease can never write it again.

At the adapters: an append carrying an old fencing token is refused in the transaction
that checks it, whatever that process believes. End to end: the owner is stopped with
SIGSTOP past its lease, the other process takes the table over and the game goes on;
resumed with SIGCONT, the old owner steps down and the log has no action twice.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Awaitable
from datetime import UTC, datetime

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from odin_cards.games import rules_of
from odin_cards.server.adapters.sql_leases import SqlLeaseStore
from odin_cards.server.adapters.sql_log import SqlEventLog
from odin_cards.server.adapters.sql_schema import make_engine, migrate
from odin_cards.server.adapters.sql_store import SqlTableStore
from odin_cards.server.core.ports import Fenced, LoggedAction
from odin_cards.server.core.tables.table import new_record

from .checks import check_game, logged, owner_pid
from .conftest import Cluster
from .harness import Player, create_table, metric, take_seat, wait_for

pytestmark = [pytest.mark.multiprocess, pytest.mark.postgres, pytest.mark.redis]


async def test_an_append_with_an_old_token_is_refused(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        await playing_tables(engine, "fenced")
        old = SqlLeaseStore(engine, "old-1-a", 0.5)
        new = SqlLeaseStore(engine, "new-2-b", 5.0)
        old_log, new_log = SqlEventLog(engine, old.owner), SqlEventLog(engine, new.owner)
        old_log.start()
        new_log.start()
        await old.renew()
        await new.renew()
        first = await old.acquire("fenced")
        assert first is not None
        assert await new.acquire("fenced") is None  # the old owner is alive
        moves = [
            LoggedAction(number, seat, action, None, datetime.now(UTC))
            for number, (seat, action) in enumerate(first_moves(3))
        ]
        await old_log.append("fenced", moves[0], False, first)
        # The old owner's loop stops renewing: its heartbeat thread gives up after the
        # watchdog's time, the heartbeat expires and the lease moves on.
        second = await wait_for(lambda: new.acquire("fenced"), 10, "the lease to expire")
        assert second == first + 1
        with pytest.raises(Fenced):
            await old_log.append("fenced", moves[1], False, first)
        await new_log.append("fenced", moves[1], False, second)
        # Even renewing its heartbeat gives the old owner nothing back.
        assert await old.renew() is False
        with pytest.raises(Fenced):
            await old_log.append("fenced", moves[2], False, first)
        assert [row.number for row in await logged(database_url, "fenced")] == [0, 1]
        await old_log.stop()
        await new_log.stop()
        await old.stop()
        await new.stop()
    finally:
        await engine.dispose()


async def test_a_busy_event_loop_keeps_its_heartbeat_and_its_leases(database_url: str) -> None:
    """A loop held for three lease lengths (a server under load) loses nothing: the
    heartbeat is renewed from its own thread. Renewed from the loop, it expired and the
    other process took the table."""
    engine = make_engine(database_url)
    try:
        await playing_tables(engine, "busy")
        busy = SqlLeaseStore(engine, "busy-1-a", 1.0)
        other = SqlLeaseStore(engine, "other-2-b", 5.0)
        await busy.renew()
        await other.renew()
        assert await busy.acquire("busy") is not None
        time.sleep(3.0)  # the stimulus: this process's loop does nothing else for 3 s
        assert await other.acquire("busy") is None
        assert await busy.renew() is True
        await busy.stop()
        await other.stop()
    finally:
        await engine.dispose()


async def test_one_batch_writes_the_tables_still_held_and_refuses_the_others(
    database_url: str,
) -> None:
    engine = make_engine(database_url)
    try:
        await playing_tables(engine, "kept", "lost")
        old = SqlLeaseStore(engine, "old-1-a", 5.0)
        new = SqlLeaseStore(engine, "new-2-b", 5.0)
        old_log = SqlEventLog(engine, old.owner)
        old_log.start()
        await old.renew()
        await new.renew()
        kept, lost = await old.acquire("kept"), await old.acquire("lost")
        assert kept is not None and lost is not None
        await old.release("lost", lost)
        assert await new.acquire("lost") == lost + 1
        seat, action = first_moves(1)[0]
        move = LoggedAction(0, seat, action, None, datetime.now(UTC))
        # Appended together, the two rows are written in one batch (or two: either way
        # the table still held is written and the other refused).
        results = await asyncio.gather(
            old_log.append("kept", move, False, kept),
            old_log.append("lost", move, False, lost),
            return_exceptions=True,
        )
        assert results[0] is None
        assert isinstance(results[1], Fenced)
        assert [row.number for row in await logged(database_url, "kept")] == [0]
        assert await logged(database_url, "lost") == []
        await old_log.stop()
        await old.stop()
        await new.stop()
    finally:
        await engine.dispose()


async def playing_tables(engine: AsyncEngine, *table_ids: str) -> None:
    """The schema, and these two-seat tables stored as playing."""
    await migrate(engine)
    for table_id in table_ids:
        record = new_record(table_id, "odin", 2, {}, 7, {}, datetime.now(UTC))
        record.status = "playing"
        await SqlTableStore(engine).insert(record)


def first_moves(count: int) -> list[tuple[int, str]]:
    """The first moves (seat, action) of the table's game, each the first legal one."""
    game = rules_of("odin").new_game(2, {}, 7)
    moves = []
    for _ in range(count):
        seat = game.current_player
        assert seat is not None
        action = game.legal_actions()[0].text
        game.apply(action)
        moves.append((seat, action))
    return moves


async def test_a_stopped_owner_is_replaced_and_steps_down_when_it_wakes(
    cluster: Cluster, database_url: str
) -> None:
    a, b = await cluster(2, lease_seconds=1.5, bot_delay=0.3)
    table = await create_table(a, 3, {1: "random", 2: "random"}, {"target": 10})
    token = await take_seat(b, table["id"], 0, "Ann")
    player = Player([b, a], table["id"], token)
    game = asyncio.ensure_future(player.play())
    await wait_for(lambda: player.version > 3, 30, "the game to be under way")
    assert await owner_pid(database_url, table["id"]) == a.pid
    a.signal(signal.SIGSTOP)
    try:
        await wait_for(
            lambda: _is(owner_pid(database_url, table["id"]), b.pid), 20, "b to take over"
        )
        moved = player.version
        await wait_for(lambda: player.version > moved or game.done(), 30, "play to go on")
    finally:
        a.signal(signal.SIGCONT)

    async def stepped_down() -> bool:
        text = await a.metrics()
        lost = metric(text, "odin_lease_changes_total", event="fenced") + metric(
            text, "odin_lease_changes_total", event="renewed-lost"
        )
        return lost >= 1 and metric(text, "odin_leases_held") == 0

    await wait_for(stepped_down, 20, "the old owner to step down")
    await game
    await check_game(database_url, b, table["id"], [player])
    assert await owner_pid(database_url, table["id"]) == b.pid
    assert "stepping down" in a.log_text()
    numbers = [row.number for row in await logged(database_url, table["id"])]
    assert numbers == sorted(set(numbers))


async def _is(pid: Awaitable[int | None], expected: int) -> bool:
    return await pid == expected
