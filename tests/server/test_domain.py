"""The domain with in-memory fakes of its ports: the failure paths, limits and bot scheduling.

No database, no sockets: a fake table store and event log (with failures on demand), a
fake bot runner (that can crash or hang), fake subscribers and a fake clock. The
integration tests (``test_play.py`` and others) run the same domain on real databases.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from odin_cards.games import rules_of
from odin_cards.server.adapters.memory import MemoryDatabase, MemoryEventLog, MemoryTableStore
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import BotRequest, LoggedAction, StoredTable, StoreUnavailable
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable, hash_token, new_record
from odin_cards.server.settings import Settings
from odin_cards.server.transport.connection import ABORT, SLOW_CLIENT, Connection

from .fake_clock import FakeClock as FakeClock  # (test_cluster_domain imports it from here)
from .listeners import Listener

# ---------------------------------------------------------------- fakes


class Store(MemoryTableStore):
    """The in-memory table store, counting loads (to see a table loaded on demand)."""

    def __init__(self, database: MemoryDatabase) -> None:
        super().__init__(database)
        self.loads = 0

    async def load(self, table_id: str) -> StoredTable | None:
        self.loads += 1
        return await super().load(table_id)


class Log(MemoryEventLog):
    """The in-memory event log; ``read_back_down`` makes only reading back fail."""

    def __init__(self, database: MemoryDatabase) -> None:
        super().__init__(database)
        self.read_back_down = False

    async def read_back(self, table_id: str, number: int) -> LoggedAction | None:
        if self.read_back_down:
            raise StoreUnavailable("cannot read back now")
        return await super().read_back(table_id, number)


class FakeBots:
    """A bot runner that plays the first legal move; or crashes, or never answers."""

    def __init__(self) -> None:
        self.mode = "play"
        self.asked: list[BotRequest] = []
        self.cancelled: list[str] = []
        self._thinking: dict[str, asyncio.Future[None]] = {}

    async def move(self, request: BotRequest) -> str:
        self.asked.append(request)
        if self.mode == "crash":
            raise RuntimeError("the bot fell over")
        if self.mode == "hang":
            thinking = self._thinking[request.table_id] = asyncio.get_running_loop().create_future()
            await thinking  # raises CancelledError when the table's work is dropped
        game = rules_of(request.game).new_game(request.players, request.setup, request.seed)
        for text in request.actions:
            game.apply(text)
        return game.legal_actions()[0].text

    def cancel(self, table_id: str) -> None:
        """Like the real runner: the table's pending move raises ``CancelledError``."""
        self.cancelled.append(table_id)
        thinking = self._thinking.pop(table_id, None)
        if thinking is not None:
            thinking.cancel()

    def close(self) -> None:
        pass


async def settle() -> None:
    """Let every task that can run, run (no time passes)."""
    for _ in range(50):
        await asyncio.sleep(0)


async def until(check: Callable[[], bool], clock: FakeClock | None = None) -> None:
    """Run the loop until ``check()`` holds (bounded: a stall fails the test)."""
    for _ in range(200):
        if check():
            return
        await settle()
    raise AssertionError("the condition never held")


class World:
    def __init__(self, **limits: Any) -> None:
        self.clock = FakeClock()
        self.db = MemoryDatabase()
        self.faults = self.db.faults
        self.store = Store(self.db)
        self.log = Log(self.db)
        self.bots = FakeBots()
        self.settings = Settings(database_url="memory:", bot_delay=0, **limits)
        self.hall = self.new_hall()

    def new_hall(self) -> Hall:
        return Hall(self.store, self.log, self.bots, self.clock, self.settings)

    async def people_table(self, players: int = 2, **bots: str) -> tuple[LiveTable, list[str]]:
        """A playing table; people at the seats without a bot; their tokens."""
        seats = {int(k[1:]): v for k, v in bots.items()}
        table = await self.hall.create(players, seats, {"first_leader": 0})
        tokens = [
            await self.hall.take_seat(table, s, f"P{s}") for s in range(players) if s not in seats
        ]
        return table, tokens

    async def watch(self, table: LiveTable, token: str | None = None) -> Listener:
        listener = Listener()
        await self.hall.hello(listener, table, token, None)
        return listener


def legal(table: LiveTable) -> str:
    return table.game.legal_actions()[0].text


@pytest.fixture
async def world() -> Any:
    world = World()
    yield world
    await world.hall.stop()


# ---------------------------------------------------------------- storing an action


async def test_storing_fails_then_a_resend_succeeds(world: World) -> None:
    table, tokens = await world.people_table()
    ann = await world.watch(table, tokens[0])
    version, action = table.version, legal(table)
    world.faults.fail_next()
    with pytest.raises(DomainError) as refused:
        await world.hall.act(table, 0, action, version, "a1", ann)
    assert refused.value.code == "unavailable" and refused.value.id == "a1"
    assert table.version == version and table.game.action_count == 0
    assert not ann.of("ack") and len(ann.of("update")) == 1
    after = await world.hall.act(table, 0, action, version, "a1", ann)
    assert after == table.version > version
    assert ann.of("ack") == [{"type": "ack", "id": "a1", "version": after}]
    assert [m["type"] for m in ann.received][-2:] == ["ack", "update"]  # ack first
    assert [e.action for e in world.db.logs[table.id]] == [action]


async def test_commit_unknown_but_stored_is_applied_and_acked_once(world: World) -> None:
    table, tokens = await world.people_table()
    ann, ben = await world.watch(table, tokens[0]), await world.watch(table, tokens[1])
    version, action = table.version, legal(table)
    world.faults.unknown_next(stored=True)
    after = await world.hall.act(table, 0, action, version, "a1", ann)
    assert after == table.version > version
    assert ann.of("ack") == [{"type": "ack", "id": "a1", "version": after}]
    assert [m["type"] for m in ann.received][-2:] == ["ack", "update"]  # ack first
    assert [m["version"] for m in ben.of("update")] == [version, after]
    # The client did not hear the ack (say) and sends again: acknowledged, not applied again.
    assert await world.hall.act(table, 0, action, version, "a1", ann) == after
    assert len(ann.of("ack")) == 2 and len(ben.of("update")) == 2
    assert [e.number for e in world.db.logs[table.id]] == [0]


async def test_commit_unknown_and_not_stored_is_refused_and_the_table_goes_on(
    world: World,
) -> None:
    table, tokens = await world.people_table()
    ann = await world.watch(table, tokens[0])
    version, action = table.version, legal(table)
    world.faults.unknown_next(stored=False)
    with pytest.raises(DomainError) as refused:
        await world.hall.act(table, 0, action, version, "a1", ann)
    assert refused.value.code == "unavailable"
    assert table.version == version and table.pending is None
    assert await world.hall.act(table, 0, action, version, "a1", ann) > version
    assert [e.number for e in world.db.logs[table.id]] == [0]


async def test_commit_unknown_unreadable_is_settled_on_the_next_action(world: World) -> None:
    table, tokens = await world.people_table()
    ann, ben = await world.watch(table, tokens[0]), await world.watch(table, tokens[1])
    version, action = table.version, legal(table)
    world.faults.unknown_next(stored=True)
    world.log.read_back_down = True
    with pytest.raises(DomainError) as refused:
        await world.hall.act(table, 0, action, version, "a1", ann)
    assert refused.value.code == "unavailable" and table.version == version
    # Still unreadable: every action is refused, nothing is stored over it.
    with pytest.raises(DomainError):
        await world.hall.act(table, 0, action, version, "a2", ann)
    assert len(world.db.logs[table.id]) == 1
    world.log.read_back_down = False
    # The other player's action (at the old version) settles the table first: it is stale.
    with pytest.raises(DomainError) as stale:
        await world.hall.act(table, 1, "pass", version, "b1", ben)
    assert stale.value.code == "stale"
    after = table.version
    assert after > version and [m["version"] for m in ben.of("update")] == [version, after]
    # The resend of the settled action is acknowledged once, at the version after it.
    assert await world.hall.act(table, 0, action, version, "a1", ann) == after
    assert ann.of("ack") == [{"type": "ack", "id": "a1", "version": after}]
    assert [e.client_id for e in world.db.logs[table.id]] == ["a1"]


async def test_a_bot_move_whose_commit_is_unknown_is_not_played_twice(world: World) -> None:
    table, tokens = await world.people_table(p1="random")
    ann = await world.watch(table, tokens[0])
    world.faults.fail_next()
    with pytest.raises(DomainError):
        await world.hall.act(table, 0, legal(table), table.version, "a1", ann)
    await world.hall.act(table, 0, legal(table), table.version, "a1", ann)
    world.faults.unknown_next(stored=True)  # the bot's move, which has not run yet
    assert world.bots.asked == []
    log = world.db.logs[table.id]
    await until(lambda: len(log) >= 2 and table.game.action_count == len(log))
    assert [e.number for e in log] == list(range(len(log))) and log[1].seat == 1
    assert table.actions == [e.action for e in log]


async def test_a_bot_table_settles_an_unknown_commit_when_the_log_is_back(world: World) -> None:
    table = await world.hall.create(2, {0: "random", 1: "random"}, {"first_leader": 0})
    world.faults.unknown_next(stored=True)
    world.log.read_back_down = True
    await world.watch(table)
    await until(lambda: table.pending is not None)
    await settle()
    assert table.game.action_count == 0  # stored, but not known to be: nothing applied
    world.log.read_back_down = False
    await world.clock.advance(1.0)  # the bot tries again; its act settles the table first
    await until(lambda: table.game.action_count >= 3)
    log = world.db.logs[table.id]
    assert [e.number for e in log] == list(range(len(log)))
    assert table.actions == [e.action for e in log][: len(table.actions)]


# ---------------------------------------------------------------- bots


async def test_a_crashing_bot_does_not_stall_its_table(world: World) -> None:
    world.bots.mode = "crash"
    table = await world.hall.create(2, {0: "expert", 1: "expert"}, {"first_leader": 0})
    await world.watch(table)
    await until(lambda: table.game.action_count >= 6)
    assert len(world.bots.asked) >= 6


async def test_a_hanging_bot_gets_a_stand_in_at_the_deadline(world: World) -> None:
    world.bots.mode = "hang"
    table, tokens = await world.people_table(p1="expert")
    ann = await world.watch(table, tokens[0])
    await world.hall.act(table, 0, legal(table), table.version, "a1", ann)
    await settle()
    assert table.game.current_player == 1 and len(world.bots.asked) == 1
    await world.clock.advance(world.settings.bot_deadline - 1)
    assert table.game.current_player == 1
    await world.clock.advance(1)
    await until(lambda: table.game.action_count >= 2)
    assert [e.seat for e in world.db.logs[table.id]][:2] == [0, 1]


async def test_a_bot_table_nobody_watches_pauses_and_resumes(world: World) -> None:
    table = await world.hall.create(2, {0: "random", 1: "random"}, {"first_leader": 0})
    await settle()
    assert world.bots.asked == [] and table.game.action_count == 0
    watcher = await world.watch(table)
    await until(lambda: table.game.action_count >= 3)
    world.hall.leave(table, watcher)
    assert table.id in world.bots.cancelled
    await settle()  # the move under way, if any, lands
    moved, asked = table.game.action_count, len(world.bots.asked)
    await settle()
    assert (table.game.action_count, len(world.bots.asked)) == (moved, asked)
    await world.watch(table)
    await until(lambda: table.game.action_count > moved)


async def test_a_bot_move_dropped_while_paused_is_asked_again_on_resume(world: World) -> None:
    world.bots.mode = "hang"
    table = await world.hall.create(2, {0: "random", 1: "random"}, {"first_leader": 0})
    watcher = await world.watch(table)
    await until(lambda: len(world.bots.asked) == 1)
    world.hall.leave(table, watcher)  # the runner drops the table's work
    await settle()
    world.bots.mode = "play"
    await world.watch(table)
    await until(lambda: table.game.action_count >= 2)


async def test_bots_stop_after_people_are_gone_long_and_resume_when_one_returns(
    world: World,
) -> None:
    table, tokens = await world.people_table(3, p2="random")
    ann = await world.watch(table, tokens[0])
    await world.hall.act(table, 0, legal(table), table.version, "a1", ann)
    world.hall.leave(table, ann)
    await world.clock.advance(world.settings.bot_idle + 1)
    spectator = await world.watch(table)  # a spectator is not a person at the table
    ben = Listener()
    await world.hall.hello(ben, table, tokens[1], None)  # Ben returns ...
    world.hall.leave(table, ben)  # ... and goes again at once
    await world.clock.advance(world.settings.bot_idle + 1)
    await world.hall.act(table, 1, "pass", table.version, "b1")
    await settle()
    assert table.game.current_player == 2 and len(world.bots.asked) == 0
    assert spectator.of("update")
    await world.watch(table, tokens[0])
    await until(lambda: len(world.bots.asked) >= 1 and table.game.current_player != 2)


# ---------------------------------------------------------------- seats and lobby


async def test_two_people_taking_one_seat_at_once_exactly_one_wins(world: World) -> None:
    table = await world.hall.create(2, {}, {})
    results = await asyncio.gather(
        world.hall.take_seat(table, 1, "Ann"),
        world.hall.take_seat(table, 1, "Ben"),
        return_exceptions=True,
    )
    tokens = [r for r in results if isinstance(r, str)]
    refusals = [r for r in results if isinstance(r, DomainError)]
    assert len(tokens) == 1 and [r.code for r in refusals] == ["taken"]
    assert table.seats[1].name == world.db.tables[table.id].seats[1].name
    assert table.seat_of(tokens[0]) == 1


async def test_the_store_gives_a_seat_once_to_two_halls_at_the_same_moment(
    world: World,
) -> None:
    table = await world.hall.create(2, {}, {})
    second = world.new_hall()  # as if a second process held the table too
    other = await second.get(table.id)
    assert other is not table
    world.faults.hold()  # both requests reach the store before either is written
    tries = [
        asyncio.ensure_future(world.hall.take_seat(table, 1, "Ann")),
        asyncio.ensure_future(second.take_seat(other, 1, "Ben")),
    ]
    await world.faults.held(2)
    world.faults.release()
    results = await asyncio.gather(*tries, return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["DomainError", "str"]
    assert [r.code for r in results if isinstance(r, DomainError)] == ["taken"]
    assert world.db.tables[table.id].seats[1].name in ("Ann", "Ben")


async def test_lobby_writes_whose_commit_is_unknown_are_read_back(world: World) -> None:
    world.faults.unknown_next(stored=True)
    table = await world.hall.create(2, {}, {})
    assert table.id in world.db.tables
    world.faults.unknown_next(stored=False)
    with pytest.raises(DomainError) as refused:
        await world.hall.create(2, {}, {})
    assert refused.value.code == "unavailable" and len(world.db.tables) == 1
    world.faults.unknown_next(stored=True)
    token = await world.hall.take_seat(table, 0, "Ann")
    assert table.seat_of(token) == 0 == _stored_seat(world, table.id, token)
    world.faults.unknown_next(stored=False)
    with pytest.raises(DomainError) as lost:
        await world.hall.take_seat(table, 1, "Ben")
    assert lost.value.code == "unavailable" and not table.seats[1].taken
    assert await world.hall.take_seat(table, 1, "Ben")  # the seat is still free


def _stored_seat(world: World, table_id: str, token: str) -> int | None:
    stored = world.db.tables[table_id]
    return next((s.seat for s in stored.seats if s.token_hash == hash_token(token)), None)


async def test_a_seat_the_store_gave_away_is_taken(world: World) -> None:
    table = await world.hall.create(2, {}, {})
    world.db.tables[table.id].seats[0].name = "Elsewhere"
    with pytest.raises(DomainError) as taken:
        await world.hall.take_seat(table, 0, "Ann")
    assert taken.value.code == "taken" and table.seats[0].name is None


async def test_store_down_refuses_lobby_requests_with_unavailable(world: World) -> None:
    table = await world.hall.create(2, {}, {})
    world.faults.down = True
    for request in (
        world.hall.create(2, {}, {}),
        world.hall.take_seat(table, 0, "Ann"),
        world.hall.get("missing"),
        world.hall.mine(["x"]),
    ):
        with pytest.raises(DomainError) as refused:
            await request
        assert refused.value.code == "unavailable"
    assert table.seats[0].name is None


async def test_bad_requests_have_stable_codes(world: World) -> None:
    table = await world.hall.create(2, {}, {})
    cases: list[tuple[Any, str]] = [
        (world.hall.create(7, {}, {}), "bad_players"),
        (world.hall.create(2, {}, {"colours": 4.0}), "bad_options"),
        (world.hall.get("no\x00such"), "not_found"),
        (world.hall.get("nosuch"), "not_found"),
        (world.hall.take_seat(table, 2, "Ann"), "no_seat"),
        (world.hall.take_seat(table, 0, " "), "bad_name"),
        (world.hall.rematches.answer(table, "nobody", "accept", None, False), "unauthorized"),
    ]
    for request, code in cases:
        with pytest.raises(DomainError) as refused:
            await request
        assert refused.value.code == code


async def test_waiting_tables_in_all_are_capped_and_abandoned_ones_give_way() -> None:
    world = World(max_waiting_tables=2, waiting_tables_per_address=2)
    first = await world.hall.create(2, {}, {}, client="10.0.0.1")
    second = await world.hall.create(3, {1: "random"}, {}, client="10.0.0.1")
    with pytest.raises(DomainError) as refused:  # one address's share
        await world.hall.create(2, {}, {}, client="10.0.0.1")
    assert refused.value.code == "rate_limited"
    await world.watch(first)
    third = await world.hall.create(2, {}, {}, client="10.0.0.2")  # the server is full
    assert (first.status, second.status, third.status) == ("waiting", "expired", "waiting")
    assert (await world.store.load(second.id)).table.status == "expired"  # type: ignore[union-attr]
    await world.watch(third)
    with pytest.raises(DomainError) as refused:  # nobody's table to give up
        await world.hall.create(2, {}, {}, client="10.0.0.3")
    assert refused.value.code == "too_many_tables"
    await world.hall.create(2, {0: "random", 1: "random"}, {})  # starts at once: not waiting
    await world.hall.stop()


async def test_a_client_has_only_so_many_bot_seats_at_running_tables() -> None:
    world = World(max_bot_seats=4)
    first = await world.hall.create(3, {0: "random", 1: "random"}, {}, client="10.0.0.1")
    await world.hall.create(3, {0: "random", 1: "random"}, {}, client="10.0.0.1")
    with pytest.raises(DomainError) as refused:
        await world.hall.create(2, {0: "random"}, {}, client="10.0.0.1")
    assert refused.value.code == "too_many_bots"
    await world.hall.create(2, {0: "random"}, {}, client="10.0.0.2")
    first.status = "finished"  # a finished table's bots no longer count
    await world.hall.create(2, {0: "random"}, {}, client="10.0.0.1")
    await world.hall.stop()


# ---------------------------------------------------------------- memory and expiry


def _finished_table(world: World, table_id: str) -> None:
    """A finished two-player game in the store."""
    record = new_record(table_id, "odin", 2, {"one_hand": True}, 5, {}, world.clock.now())
    game = rules_of("odin").new_game(2, record.setup, record.seed)
    log = []
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        text = game.legal_actions()[0].text
        log.append(LoggedAction(game.action_count, seat, text, None, world.clock.now()))
        game.apply(text, seat=seat)
    record.status = "finished"
    world.db.tables[table_id] = record
    world.db.logs[table_id] = log


async def test_finished_tables_leave_memory_and_load_on_demand() -> None:
    world = World(finished_in_memory=2)
    for name in ("old", "mid", "new"):
        _finished_table(world, name)
    old = await world.hall.get("old")
    watcher = await world.watch(old)  # watched: stays, though least recently used
    await world.hall.get("mid")
    await world.hall.get("new")
    assert set(world.hall.tables) == {"old", "new"}
    world.hall.leave(old, watcher)
    loads = world.store.loads
    again = await world.hall.get("mid")
    assert world.store.loads == loads + 1 and again.game.is_over
    assert set(world.hall.tables) == {"new", "mid"}
    assert json.loads(again.state(None))["outcome"] is not None
    # A table looked up, then pushed out before its connection said hello, comes back.
    await world.watch(old)
    assert world.hall.tables["old"] is old


async def test_a_table_asked_for_by_many_at_once_is_loaded_once(world: World) -> None:
    _finished_table(world, "done")
    found = await asyncio.gather(*(world.hall.get("done") for _ in range(5)))
    assert world.store.loads == 1 and all(t is found[0] for t in found)
    missing = await asyncio.gather(
        *(world.hall.get("nothing") for _ in range(3)), return_exceptions=True
    )
    assert [e.code for e in missing if isinstance(e, DomainError)] == ["not_found"] * 3


async def test_a_finished_game_leaves_the_unfinished_tables_for_the_lru() -> None:
    world = World(finished_in_memory=0)
    table, tokens = await world.people_table()
    ann = await world.watch(table, tokens[0])
    while not table.game.is_over:
        seat = table.game.current_player
        assert seat is not None
        await world.hall.act(table, seat, legal(table), table.version, None)
    assert table.status == "finished" and table.id in world.hall.tables  # Ann watches
    world.hall.leave(table, ann)
    await world.hall.create(2, {}, {})
    _finished_table(world, "other")
    await world.hall.get("other")
    assert table.id not in world.hall.tables
    assert world.db.tables[table.id].status == "finished"


async def test_abandoned_waiting_tables_expire_and_are_not_reloaded(world: World) -> None:
    await world.hall.start()  # expiry runs every expiry_interval from here
    old = await world.hall.create(2, {}, {})
    await world.clock.advance(world.settings.waiting_expiry - world.settings.expiry_interval)
    young = await world.hall.create(2, {}, {})
    # The expiry runs every interval, each run at its own time: the run at exactly the old
    # table's age limit leaves it (not older than the limit), the next one expires it.
    await world.clock.advance(2 * world.settings.expiry_interval)
    assert world.db.tables[old.id].status == "expired"
    assert old.id not in world.hall.tables and young.id in world.hall.tables
    assert [t["id"] for t in world.hall.open_tables()] == [young.id]
    expired = await world.hall.get(old.id)
    assert expired.status == "expired"
    with pytest.raises(DomainError) as refused:
        await world.hall.take_seat(expired, 0, "Ann")
    assert refused.value.code == "expired"
    # A restart a day later: the young one expires at start, nothing is reloaded.
    await world.clock.advance(world.settings.waiting_expiry)
    hall = world.new_hall()
    await hall.start()
    assert hall.tables == {}
    assert world.db.tables[young.id].status == "expired"
    await hall.stop()


# ---------------------------------------------------------------- restart and broken logs


async def test_a_log_that_does_not_replay_is_marked_broken_and_others_load(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    good, tokens = await world.people_table()
    bad, _ = await world.people_table()
    ann = await world.watch(good, tokens[0])
    await world.hall.act(good, 0, legal(good), good.version, "a1", ann)
    world.db.logs[bad.id].append(
        LoggedAction(0, 1, "play K5", None, world.clock.now())  # not seat 1's turn
    )
    future = replace(world.db.tables[good.id], id="future", rules_version=999)
    world.db.tables["future"] = future
    world.db.logs["future"] = []
    hall = world.new_hall()
    with caplog.at_level(logging.INFO):
        await hall.start()
    assert set(hall.tables) == {good.id}
    assert hall.tables[good.id].game.action_count == 1
    assert {t.id for t in await world.store.broken()} == {bad.id, "future"}
    assert "action 0" in (world.db.tables[bad.id].broken_reason or "")
    assert "rules version 999" in (world.db.tables["future"].broken_reason or "")
    counts = [r.getMessage() for r in caplog.records if "tables broken" in r.getMessage()]
    assert counts == ["2 tables broken; `odin tables broken` lists them"]
    for table_id in (bad.id, "future"):
        with pytest.raises(DomainError) as refused:
            await hall.get(table_id)
        assert refused.value.code == "broken"
    await hall.stop()


async def test_a_restart_resumes_a_table_exactly(world: World) -> None:
    table, tokens = await world.people_table(3, p2="random")
    ann = await world.watch(table, tokens[0])
    for _ in range(4):
        seat = table.game.current_player
        if seat == 2:
            await until(lambda: table.game.current_player != 2)
            continue
        assert seat is not None
        await world.hall.act(table, seat, legal(table), table.version, f"x{_}", ann)
    await until(lambda: table.game.current_player != 2)
    hall = world.new_hall()
    await hall.start()
    again = hall.tables[table.id]
    assert again.version == table.version and again.actions == table.actions
    assert again.log.client_ids == table.log.client_ids
    assert again.state(0) == table.state(0) and again.events == table.events
    await hall.stop()


# ---------------------------------------------------------------- broadcasting


class NeverReads:
    """A WebSocket whose peer never reads: the first send blocks for ever."""

    def __init__(self) -> None:
        self.dropped: list[int] = []
        self.scope = {"extensions": {ABORT: lambda code, reason: self.dropped.append(code)}}

    async def send_text(self, text: str) -> None:
        await asyncio.get_running_loop().create_future()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


async def test_a_slow_reader_is_dropped_and_holds_up_nobody() -> None:
    world = World(send_queue_bytes=4000)
    table, tokens = await world.people_table()
    ann, ben = await world.watch(table, tokens[0]), await world.watch(table, tokens[1])
    socket = NeverReads()
    connection = Connection(socket, world.settings)  # type: ignore[arg-type]
    slow = Session(connection)
    await world.hall.hello(slow, table, None, None)
    seen = table.version  # the last version it was sent, as far as its client knows
    for number in range(40):
        seat = table.game.current_player
        if seat is None:
            break
        await world.hall.act(table, seat, legal(table), table.version, f"x{number}")
        assert connection.queued <= 4000
    assert socket.dropped == [SLOW_CLIENT]
    assert ann.version == ben.version == table.version and table.game.action_count >= 20
    world.hall.leave(table, slow)
    await connection.stop()
    assert slow not in world.hall.sessions.at(table.id)
    again = Listener()  # it comes back and resumes from the version it had
    await world.hall.hello(again, table, None, seen)
    update = again.of("update")[0]
    assert update["version"] == table.version and "resync" not in update
    assert len(update["events"]) == table.version - seen
    await world.hall.stop()
