"""Clocks, stand-ins and seats handed to bots (issue #9), with a fake clock.

The domain runs on the in-memory store and log; time moves only when a test says so
(:mod:`.fake_clock`), so a timeout, a restart with a clock running and the vote are each
played out exactly, with no sleeping.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from odin_cards.server.adapters.memory import MemoryDatabase
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features import clocks
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.settings import Settings

from .fake_clock import FakeClock, settle
from .listeners import Listener
from .test_cluster_domain import LEASE, Processes
from .test_domain import FakeBots, until

QUICK = {"kind": "realtime", "move": 10, "reserve": 0, "bonus": 0}
"""A real-time clock of 10 s a move and no reserve."""


class World:
    """One server's domain on an in-memory database, with a fake clock."""

    def __init__(self) -> None:
        self.clock = FakeClock()
        self.db = MemoryDatabase()
        self.bots = FakeBots()
        self.settings = Settings(database_url="memory:", bot_delay=0)
        self.hall = self.new_hall()

    def new_hall(self) -> Hall:
        return Hall(self.db.store, self.db.log, self.bots, self.clock, self.settings)

    async def table(
        self, clock: dict[str, Any] | None, people: int = 2, bots: dict[int, str] | None = None
    ) -> tuple[LiveTable, list[str]]:
        """A playing table with ``clock``; people at the seats without a bot; their tokens."""
        bots = bots or {}
        players = people + len(bots)
        table = await self.hall.create(
            players, bots, {"first_leader": 0}, table_settings={"clock": clock}
        )
        tokens = [
            await self.hall.take_seat(table, s, f"P{s}") for s in range(players) if s not in bots
        ]
        await settle()
        return table, tokens

    async def watch(self, table: LiveTable, token: str | None = None) -> Listener:
        listener = Listener()
        await self.hall.hello(listener, table, token, None)
        return listener

    def logged(self, table: LiveTable) -> list[Any]:
        return list(self.db.logs[table.id])


@pytest.fixture
async def world() -> Any:
    world = World()
    yield world
    await world.hall.stop()


def legal(table: LiveTable) -> str:
    return table.game.legal_actions()[0].text


async def play_own_move(world: World, table: LiveTable, seat: int) -> None:
    await world.hall.act(table, seat, legal(table), table.version, None)


# ---------------------------------------------------------------- the setting


def test_presets_and_custom_values_normalize() -> None:
    assert clocks.normalize(None) == {"kind": "none"}
    assert clocks.normalize({"kind": "realtime", "preset": "normal"}) == {
        "kind": "realtime",
        "preset": "normal",
        "move": 40,
        "reserve": 120,
        "bonus": 5,
    }
    assert clocks.normalize({"kind": "turn", "preset": "3d"})["move"] == 3 * 24 * 3600
    custom = clocks.normalize({"kind": "realtime", "move": 20, "reserve": 30, "bonus": 2})
    assert custom["preset"] == "custom"
    for stored in (custom, clocks.normalize({"kind": "turn", "preset": "12h"})):
        assert clocks.normalize(stored) == stored  # the stored form is kept as it is


@pytest.mark.parametrize(
    "bad",
    [
        "fast",
        {"kind": "blitz"},
        {"kind": "realtime"},
        {"kind": "realtime", "move": 4},
        {"kind": "realtime", "move": 601},
        {"kind": "realtime", "move": True},
        {"kind": "realtime", "move": 10.5},
        {"kind": "realtime", "move": 10, "reserve": 3601},
        {"kind": "realtime", "move": 10, "bonus": -1},
        {"kind": "realtime", "preset": "fast", "move": 99},
        {"kind": "realtime", "preset": "warp"},
        {"kind": "turn", "preset": "1h"},
        {"kind": "turn", "preset": "24h", "move": 5},
        {"kind": "none", "move": 10},
        {"kind": "realtime", "move": 10, "colour": "red"},
    ],
)
async def test_bad_clock_values_are_refused_and_store_nothing(world: World, bad: Any) -> None:
    with pytest.raises(DomainError) as refused:
        await world.hall.create(2, {}, {}, table_settings={"clock": bad})
    assert refused.value.code == "bad_clock"
    assert refused.value.message.startswith("clock:")
    assert world.db.tables == {}


def test_reserve_shrinks_past_the_move_time_and_grows_each_move() -> None:
    control = clocks.normalize({"kind": "realtime", "move": 10, "reserve": 30, "bonus": 5})
    start = FakeClock().now()
    stamps = [
        clocks.Stamp(0, start + timedelta(seconds=25)),  # 15 s over: 30 - 15 + 5 = 20
        clocks.Stamp(1, start + timedelta(seconds=27)),  # 2 s: 30 + 5 = 35
    ]
    assert clocks.reserves(control, 2, start, stamps) == [20.0, 35.0]
    turn = clocks.turn(control, 2, start, stamps, 0)
    assert turn is not None and turn.deadline == stamps[-1].at + timedelta(seconds=30)
    many = [clocks.Stamp(1, start + timedelta(seconds=n)) for n in range(1, 40)]
    assert clocks.reserves(control, 2, start, many)[1] == 30 + clocks.BONUS_MOVES * 5  # capped


# ---------------------------------------------------------------- timeouts


async def test_a_timeout_makes_a_stand_in_move_shown_as_such(world: World) -> None:
    table, tokens = await world.table(QUICK)
    seen = await world.watch(table, tokens[1])
    first = seen.of("clock")[-1]["clock"]
    assert (first["seat"], first["kind"], first["move"]) == (0, "realtime", 10)
    assert first["deadline"] == (world.clock.now() + timedelta(seconds=10)).isoformat()
    await world.clock.advance(9.5)
    assert world.logged(table) == []  # not yet
    await world.clock.advance(1)
    [move] = world.logged(table)
    assert (move.seat, move.by, move.client_id) == (0, clocks.STAND_IN, "stand-in:0")
    shown = seen.of("clock")[-1]["clock"]
    assert shown["last"] == {"seat": 0, "by": "stand-in"}
    assert shown["stand_ins"] == [1, 0]
    assert shown["seat"] == 1  # and seat 1's clock runs now


async def test_a_move_in_time_stops_the_timer(world: World) -> None:
    table, _ = await world.table(QUICK)
    await world.clock.advance(9)
    await play_own_move(world, table, 0)
    await world.clock.advance(9)  # seat 1's deadline is 10 s after seat 0's move
    assert [m.by for m in world.logged(table)] == [None]
    await world.clock.advance(2)
    assert [(m.seat, m.by) for m in world.logged(table)] == [(0, None), (1, clocks.STAND_IN)]


async def test_missed_moves_in_a_row_hand_the_seat_to_a_bot_and_it_is_taken_back(
    world: World,
) -> None:
    table, tokens = await world.table(QUICK)
    for _ in range(200):  # seat 1 plays at once; seat 0 never does
        if table.clock.get("bots") or table.game.is_over:
            break
        if table.game.current_player == 1:
            await play_own_move(world, table, 1)
        else:
            await world.clock.advance(10)
    assert table.clock["bots"] == {"0": {"level": "heuristic", "why": "missed"}}
    assert world.db.tables[table.id].clock["bots"] == table.clock["bots"]  # stored
    await settle()
    assert table.game.current_player == 1  # seat 0's bot moved at once
    by_seat_0 = [m.by for m in world.logged(table) if m.seat == 0]
    limit = clocks.MISSED_LIMIT
    assert by_seat_0[:limit] == [clocks.STAND_IN] * limit
    assert by_seat_0[limit:] and set(by_seat_0[limit:]) == {clocks.BOT}  # (a lead may follow)
    assert table.to_api()["clock"]["bots"]["0"]["why"] == "missed"

    with pytest.raises(DomainError) as refused:
        await world.hall.stand_ins.take_back(table, "not-a-token")
    assert refused.value.code == "unauthorized"
    await world.hall.stand_ins.take_back(table, tokens[0])
    assert table.clock["bots"] == {} and world.db.tables[table.id].clock["bots"] == {}
    if table.game.current_player == 1:
        await play_own_move(world, table, 1)
    await settle()
    assert table.bot_at(0) is None  # the misses before taking it back no longer count
    await world.clock.advance(10.5)
    assert [m.by for m in world.logged(table)][-1] == clocks.STAND_IN  # a miss, one
    assert table.bot_at(0) is None
    with pytest.raises(DomainError) as again:
        await world.hall.stand_ins.take_back(table, tokens[0])
    assert again.value.code == "not_handed"


async def test_leaving_hands_the_seat_to_a_bot_at_once(world: World) -> None:
    table, tokens = await world.table(None)
    seen = await world.watch(table, tokens[1])
    with pytest.raises(DomainError) as refused:
        await world.hall.stand_ins.leave(table, "nobody's token")
    assert refused.value.code == "unauthorized" and table.clock == {}
    ann = await world.watch(table, tokens[0])
    version = table.version
    await world.hall.stand_ins.leave(table, tokens[0])
    with pytest.raises(DomainError) as hers:  # (before her bot moves: a bot plays her seat)
        await world.hall.act(table, 0, legal(table), version, "mine", ann)
    assert hers.value.code == "not_your_turn" and "take it back" in hers.value.message
    await settle()
    assert world.logged(table)[0].by == clocks.BOT  # seat 0's bot moved
    assert seen.of("table")[-1]["table"]["clock"]["bots"]["0"]["why"] == "left"
    assert seen.of("clock")[-1]["clock"]["bots"]["0"]["why"] == "left"


async def test_leaving_a_waiting_table_is_refused(world: World) -> None:
    table = await world.hall.create(2, {}, {}, table_settings={"clock": QUICK})
    token = await world.hall.take_seat(table, 0, "Ann")
    with pytest.raises(DomainError) as refused:
        await world.hall.stand_ins.leave(table, token)
    assert refused.value.code == "not_started"


# ---------------------------------------------------------------- the vote


async def test_the_others_vote_an_absent_players_seat_to_a_bot(world: World) -> None:
    table, tokens = await world.table(None, people=3)
    ann = await world.watch(table, tokens[0])
    await world.watch(table, tokens[1])
    await world.clock.advance(world.settings.presence_grace + 1)

    for voter, seat, code in (
        (tokens[0], 1, "bad_vote"),  # Bob is here
        (tokens[0], 0, "bad_vote"),  # one's own seat
        ("a stranger", 2, "unauthorized"),
    ):
        with pytest.raises(DomainError) as refused:
            await world.hall.stand_ins.vote(table, voter, seat)
        assert refused.value.code == code
    with pytest.raises(DomainError) as no_seat:
        await world.hall.stand_ins.vote(table, tokens[0], 7)
    assert no_seat.value.code == "no_seat"

    await world.hall.stand_ins.vote(table, tokens[0], 2)
    assert table.clock.get("bots") is None  # one of two is not more than half
    assert ann.of("clock")[-1]["clock"]["votes"] == {"2": [0]}
    await world.hall.stand_ins.vote(table, tokens[1], 2)
    assert table.clock["bots"]["2"]["why"] == "vote"
    assert table.votes == {}


async def test_a_table_with_a_clock_has_no_vote(world: World) -> None:
    table, tokens = await world.table(QUICK, people=2)
    await world.clock.advance(world.settings.presence_grace + 1)
    with pytest.raises(DomainError) as refused:
        await world.hall.stand_ins.vote(table, tokens[0], 1)
    assert refused.value.code == "bad_vote"


# ---------------------------------------------------------------- restarts


async def test_a_restart_keeps_the_deadline_and_moves_once(world: World) -> None:
    table, _ = await world.table(QUICK)
    await play_own_move(world, table, 0)
    await world.clock.advance(6)  # seat 1 has 4 s left
    await world.hall.stop()

    world.hall = world.new_hall()  # a new process on the same database
    await world.hall.start()
    again = await world.hall.get(table.id)
    await world.clock.advance(3)
    assert len(world.logged(again)) == 1  # the deadline is kept: 1 s left
    await world.clock.advance(1.5)
    assert [(m.seat, m.by) for m in world.logged(again)] == [(0, None), (1, clocks.STAND_IN)]


async def test_two_processes_firing_the_same_timeout_move_once(world: World) -> None:
    """A second process that holds the table (a stale copy of it) and fires too: the
    log's keys refuse its copy of the stand-in's move, and it takes the stored one."""
    table, _ = await world.table(QUICK)
    other = world.new_hall()
    stored = await world.db.store.load(table.id)
    assert stored is not None
    stale = LiveTable.replay(stored)
    other.directory.hold(stale)
    other.stand_ins.schedule(stale)
    await world.clock.advance(10.5)
    await settle()
    assert [(m.number, m.by) for m in world.logged(table)] == [(0, clocks.STAND_IN)]
    assert stale.game.action_count == 1  # it settled on the stored move
    await world.clock.advance(20)
    numbers = [m.number for m in world.logged(table)]
    assert numbers == sorted(set(numbers))  # never two moves under one number
    await other.stop()


async def test_a_taken_seat_survives_a_restart(world: World) -> None:
    table, tokens = await world.table(None)
    await world.hall.stand_ins.leave(table, tokens[1])
    await world.hall.stop()
    world.hall = world.new_hall()
    await world.hall.start()
    again = await world.hall.get(table.id)
    assert again.bot_at(1) == "heuristic"


async def test_a_turn_based_game_goes_on_while_everyone_is_away(world: World) -> None:
    table, _ = await world.table({"kind": "turn", "preset": "12h"})
    await world.clock.advance(12 * 3600 - 60)
    assert world.logged(table) == []
    await world.clock.advance(120)  # nobody has been here for hours: the clock still runs
    assert [(m.seat, m.by) for m in world.logged(table)] == [(0, clocks.STAND_IN)]


async def test_a_new_owner_keeps_the_clock_of_a_dead_one() -> None:
    """Several processes: the owner dies; the process that takes the table over sets the
    timer from the stored rows (the deadline does not move) and its stand-in moves once."""
    processes = Processes()
    for hall in processes.halls.values():
        await hall.start()
    try:
        owned = await processes.a.create(
            2, {}, {"first_leader": 0}, table_settings={"clock": QUICK}
        )
        replica = await processes.b.get(owned.id)
        for seat in (0, 1):
            await processes.b.take_seat(replica, seat, f"P{seat}")
        await until(lambda: replica.status == "playing" and "started" in replica.clock)
        processes.hub.kill("a")  # kill -9 two seconds into seat 0's 10 s
        await processes.a.stop()
        for _ in range(6):
            await processes.clock.advance(LEASE / 3)
        await until(lambda: processes.b.owns(replica))
        assert processes.db.logs[owned.id] == []
        await processes.clock.advance(10 - processes.clock.seconds - 0.5)
        assert processes.db.logs[owned.id] == []  # the deadline is the dead owner's
        await processes.clock.advance(1)
        logged = processes.db.logs[owned.id]
        assert [(m.seat, m.by, m.client_id) for m in logged] == [(0, "stand-in", "stand-in:0")]
    finally:
        for name, hall in processes.halls.items():
            processes.hub.kill(name)
            await hall.stop()
