"""Presence (``core/features/presence.py``): online, away (page hidden), offline after a grace.

The domain with in-memory ports and the fake clock: every transition is driven by the
test (a connection says hello, hides its page, goes) and time moves only when it says so.
The last test runs the real server: a hidden page, seen by the other player and the lobby.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from odin_cards.server.adapters.memory import MemoryDatabase
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.settings import Settings

from .fake_clock import FakeClock, settle
from .harness import Server, open_client, sit
from .listeners import Listener as BaseListener

TWO_PROCESSES = True

GRACE = 10.0


class Listener(BaseListener):
    """A session that keeps what it is sent (decoded)."""

    def presences(self) -> list[list[str | None]]:
        return [m["seats"] for m in self.received if m["type"] == "presence"]


class NoBots:
    async def move(self, request: Any) -> str:
        raise AssertionError("no bot plays at these tables")

    def cancel(self, table_id: str) -> None:
        pass

    def close(self) -> None:
        pass


class World:
    def __init__(self, clock: FakeClock | None = None) -> None:
        self.clock = clock or FakeClock()
        self.db = MemoryDatabase()
        self.settings = Settings(database_url="memory:", bot_delay=0, presence_grace=GRACE)
        self.hall = Hall(self.db.store, self.db.log, NoBots(), self.clock, self.settings)

    async def table(self, players: int = 3) -> tuple[LiveTable, list[str]]:
        """A waiting table with people at every seat but the last."""
        table = await self.hall.create(players, {}, {})
        tokens = [await self.hall.take_seat(table, s, f"P{s}") for s in range(players - 1)]
        return table, tokens

    async def connect(self, table: LiveTable, token: str | None = None) -> Listener:
        listener = Listener()
        await self.hall.hello(listener, table, token, None)
        return listener

    def seen(self, table: LiveTable) -> list[str]:
        return [self.hall.presence.seat_presence(table, s) for s in range(table.players)]


@pytest.fixture
async def world() -> AsyncIterator[World]:
    world = World()
    yield world
    await world.hall.stop()


async def test_a_seat_is_online_while_its_page_shows_and_away_while_hidden(world: World) -> None:
    table, tokens = await world.table()
    assert world.seen(table) == ["offline", "offline", "offline"]
    ann = await world.connect(table, tokens[0])
    watcher = await world.connect(table)  # spectators have no presence
    assert world.seen(table) == ["online", "offline", "offline"]
    world.hall.presence.visibility(table, ann, visible=False)
    assert world.seen(table) == ["away", "offline", "offline"]
    assert watcher.presences()[-1] == ["away", "offline", None]  # the free seat: null
    world.hall.presence.visibility(table, ann, visible=True)
    assert world.seen(table) == ["online", "offline", "offline"]
    assert watcher.presences()[-1] == ["online", "offline", None]


async def test_one_shown_page_of_a_seat_is_enough_to_be_online(world: World) -> None:
    table, tokens = await world.table()
    phone, laptop = await world.connect(table, tokens[1]), await world.connect(table, tokens[1])
    world.hall.presence.visibility(table, phone, visible=False)
    assert world.seen(table)[1] == "online"
    world.hall.presence.visibility(table, laptop, visible=False)
    assert world.seen(table)[1] == "away"


async def test_a_closed_page_is_offline_only_after_the_grace(world: World) -> None:
    table, tokens = await world.table()
    ann = await world.connect(table, tokens[0])
    ben = await world.connect(table, tokens[1])
    world.hall.leave(table, ann)
    await settle()
    assert world.seen(table)[0] == "online"  # a reload is not "gone"
    await world.clock.advance(GRACE - 1)
    assert world.seen(table)[0] == "online"
    await world.clock.advance(1)
    assert world.seen(table)[0] == "offline"
    assert ben.presences()[-1] == ["offline", "online", None]
    # Told once per change: no message for the grace's first part.
    assert ben.presences().count(["offline", "online", None]) == 1


async def test_a_reload_within_the_grace_never_shows_offline(world: World) -> None:
    table, tokens = await world.table()
    ann = await world.connect(table, tokens[0])
    ben = await world.connect(table, tokens[1])
    world.hall.leave(table, ann)
    await world.clock.advance(GRACE / 2)
    await world.connect(table, tokens[0])
    await world.clock.advance(GRACE * 2)
    assert world.seen(table)[0] == "online"
    assert all(states[0] != "offline" for states in ben.presences())


async def test_a_hidden_page_that_closes_stays_away_for_the_grace(world: World) -> None:
    table, tokens = await world.table()
    ann = await world.connect(table, tokens[0])
    world.hall.presence.visibility(table, ann, visible=False)
    world.hall.leave(table, ann)
    await world.clock.advance(1)
    assert world.seen(table)[0] == "away"
    await world.clock.advance(GRACE)
    assert world.seen(table)[0] == "offline"


class EarlyClock(FakeClock):
    """A clock whose sleepers wake a millisecond early, as uvloop's do by
    ``time.monotonic()`` (its timers count whole milliseconds)."""

    async def sleep(self, seconds: float) -> None:
        await super().sleep(seconds - 0.001 if seconds > 0.001 else seconds)


async def test_a_timer_that_wakes_early_still_shows_a_closed_page_offline() -> None:
    world = World(EarlyClock())
    try:
        table, tokens = await world.table()
        ann = await world.connect(table, tokens[0])
        ben = await world.connect(table, tokens[1])
        world.hall.presence.visibility(table, ann, visible=False)
        world.hall.leave(table, ann)
        await world.clock.advance(GRACE - 0.01)
        assert world.seen(table)[0] == "away"
        await world.clock.advance(0.01)
        assert world.seen(table)[0] == "offline"
        assert ben.presences()[-1] == ["offline", "online", None]
    finally:
        await world.hall.stop()


async def test_presence_is_in_the_tables_view_and_the_lobby(world: World) -> None:
    table, tokens = await world.table()
    ann = await world.connect(table, tokens[0])
    world.hall.presence.visibility(table, ann, visible=False)
    [listed] = world.hall.open_tables()
    assert [s.get("presence") for s in listed["seats"]] == ["away", "offline", None]
    assert [s.get("presence") for s in world.hall.view(table)["seats"]] == [
        "away",
        "offline",
        None,
    ]
    assert ann.received[-1]["type"] == "presence"


async def test_a_table_that_leaves_memory_forgets_its_presence(world: World) -> None:
    table, tokens = await world.table()
    ann = await world.connect(table, tokens[0])
    world.hall.leave(table, ann)
    world.hall.drop(table)
    await world.clock.advance(GRACE)  # the grace's timer finds nothing to do
    assert not world.hall.presence.keeps(table.id)


# ---------------------------------------------------------------- the real server


async def test_the_server_shows_a_hidden_page_to_the_other_player_and_the_lobby(
    server: Server,
) -> None:
    async with server.http() as http:
        created = await http.post("/api/tables", json={"players": 3, "options": {}})
        table_id = created.json()["table"]["id"]
        ann = await open_client(server, table_id, await sit(http, table_id, 0, "Ann"))
        ben = await open_client(server, table_id, await sit(http, table_id, 1, "Ben"))
        await ann.send({"type": "visibility", "visible": False})
        message = await ben.until(lambda m: m["type"] == "presence" and m["seats"][0] == "away")
        assert message["seats"] == ["away", "online", None]
        lobby = (await http.get("/api/tables")).json()["tables"]
        [mine] = [t for t in lobby if t["id"] == table_id]
        assert [s.get("presence") for s in mine["seats"]] == ["away", "online", None]
        await ann.send({"type": "visibility", "visible": "no"})
        refused = await ann.next_of("error")
        assert refused["code"] == "malformed"
        await ann.close()
        await ben.close()


async def test_a_closed_table_keeps_no_presence(world: World) -> None:
    table, tokens = await world.table()
    ann = await world.connect(table, tokens[0])
    table.status = "cancelled"  # (as its creator's cancel leaves it)
    world.hall.drop(table)
    world.hall.leave(table, ann)  # its connections go afterwards
    await world.clock.advance(GRACE)
    assert not world.hall.presence.keeps(table.id)
