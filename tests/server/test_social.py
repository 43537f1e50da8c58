"""Chat and rematch in the domain, with in-memory ports and a fake clock (issue #9).

Rematch: answers, a decline whose seat goes to a bot or stays open, concurrent accepts
making one table, answers kept across a restart. Chat: limits (length, rate per
connection and per person, control characters), who hears spectators, mute, the record,
and lines kept across a restart.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from odin_cards.server.adapters.memory_social import MemorySocialStore
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.chat import (
    CONNECTION_BURST,
    MAX_TEXT,
    PERSON_BURST,
    chat_settings,
)
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.table import LiveTable

from .listeners import Listener
from .test_domain import World, legal


class SocialWorld(World):
    """The domain's world with a chat and rematch store that outlives a hall (restart)."""

    def new_hall(self) -> Hall:
        if not hasattr(self, "social"):
            self.social = MemorySocialStore(self.db)
        return Hall(
            self.store,
            self.log,
            self.bots,
            self.clock,
            self.settings,
            social=self.social,
        )

    async def table_of(
        self, players: int, bots: dict[int, str] | None = None, **settings: Any
    ) -> tuple[LiveTable, list[str]]:
        bots = bots or {}
        table = await self.hall.create(
            players, bots, {"one_hand": True}, table_settings=settings or None
        )
        tokens = [
            await self.hall.take_seat(table, s, f"P{s}") for s in range(players) if s not in bots
        ]
        return table, tokens

    async def finish(self, table: LiveTable) -> None:
        while not table.game.is_over:
            seat = table.game.current_player
            assert seat is not None
            await self.hall.act(table, seat, legal(table), table.version, None)


@pytest.fixture
async def world() -> Any:
    world = SocialWorld()
    yield world
    await world.hall.stop()


async def refused(request: Any) -> str:
    with pytest.raises(DomainError) as error:
        await request
    return error.value.code


def lines_of(listener: Listener) -> list[dict[str, Any]]:
    return [line for m in listener.of("chat") for line in m["lines"]]


# ---------------------------------------------------------------- rematch


async def test_a_rematch_starts_when_everyone_answered_and_a_declined_seat_gets_a_bot(
    world: SocialWorld,
) -> None:
    table, (ann, bob, cid) = await world.table_of(4, {3: "random"})
    watcher = await world.watch(table, ann)
    assert await refused(world.hall.rematches.answer(table, ann, "accept", None, False)) == (
        "not_finished"
    )
    await world.finish(table)
    first = await world.hall.rematches.answer(table, ann, "accept", "bot", False)
    assert first == {
        "answers": {"0": "accept"},
        "declined": "bot",
        "waiting_for": [1, 2],
        "next_table": None,
    }
    assert watcher.of("rematch")[-1]["rematch"] == first  # everyone sees it live
    await world.hall.rematches.answer(table, bob, "decline", None, False)
    assert table.next_table is None
    last = await world.hall.rematches.answer(table, cid, "accept", None, False)
    following = world.hall.tables[str(last["next_table"])]
    assert following.status == "playing" and following.previous_table == table.id
    assert [(s.name, s.bot) for s in following.seats] == [
        ("P0", None),
        (None, "heuristic"),  # Bob declined: a bot plays his seat
        ("P2", None),
        (None, "random"),
    ]
    assert following.seat_of(ann) == 0 and following.seat_of(bob) is None
    assert watcher.of("rematch")[-1]["rematch"]["next_table"] == following.id
    # Answers after the start change nothing.
    late = await world.hall.rematches.answer(table, bob, "accept", None, False)
    assert late["next_table"] == following.id and following.seat_of(bob) is None


async def test_declined_seats_opened_make_a_waiting_table_for_new_people(
    world: SocialWorld,
) -> None:
    table, (ann, bob) = await world.table_of(2)
    await world.finish(table)
    await world.hall.rematches.answer(table, bob, "decline", None, False)
    state = await world.hall.rematches.answer(table, ann, "accept", "open", False)
    following = world.hall.tables[str(state["next_table"])]
    assert following.status == "waiting"
    assert [(s.name, s.bot) for s in following.seats] == [("P0", None), (None, None)]
    await world.hall.take_seat(following, 1, "Newcomer")
    assert following.status == "playing"


async def test_an_accepting_player_starts_without_those_who_left(world: SocialWorld) -> None:
    table, (ann, _bob) = await world.table_of(2)
    await world.finish(table)
    assert await refused(world.hall.rematches.answer(table, ann, "decline", None, True)) == (
        "bad_rematch"
    )
    state = await world.hall.rematches.answer(table, ann, "accept", None, True)
    following = world.hall.tables[str(state["next_table"])]
    assert [(s.name, s.bot) for s in following.seats] == [("P0", None), (None, "heuristic")]


async def test_two_accepts_at_once_make_one_table(world: SocialWorld) -> None:
    table, (ann, bob) = await world.table_of(2)
    await world.finish(table)
    tables = len(world.db.tables)
    world.faults.hold()  # both answers are in flight together, each enough to start
    both = asyncio.gather(
        world.hall.rematches.answer(table, ann, "accept", None, True),
        world.hall.rematches.answer(table, bob, "accept", None, True),
    )
    await world.faults.held(1)
    world.faults.release()
    first, second = await both
    assert first["next_table"] == second["next_table"] is not None
    assert len(world.db.tables) == tables + 1
    following = world.hall.tables[str(first["next_table"])]
    assert [s.name for s in following.seats] == ["P0", None]  # Bob came too late


async def test_only_players_answer_and_answers_are_checked(world: SocialWorld) -> None:
    table, (ann, _) = await world.table_of(2)
    await world.finish(table)
    rematches = world.hall.rematches
    assert await refused(rematches.answer(table, "x" * 43, "accept", None, False)) == (
        "unauthorized"
    )
    assert await refused(rematches.answer(table, ann, "maybe", None, False)) == "bad_rematch"
    assert await refused(rematches.answer(table, ann, "decline", "bot", False)) == "bad_rematch"
    assert await refused(rematches.answer(table, ann, "accept", "robot", False)) == "bad_rematch"
    world.db.faults.down = True
    assert await refused(rematches.answer(table, ann, "accept", None, False)) == "unavailable"
    world.db.faults.down = False
    assert table.next_table is None


async def test_rematch_answers_survive_a_restart(world: SocialWorld) -> None:
    table, (ann, bob) = await world.table_of(2)
    await world.finish(table)
    await world.hall.rematches.answer(table, ann, "accept", "open", False)
    await world.hall.stop()
    world.hall = world.new_hall()
    again = await world.hall.get(table.id)
    watcher = await world.watch(again, bob)
    assert watcher.of("rematch")[-1]["rematch"]["answers"] == {"0": "accept"}
    state = await world.hall.rematches.answer(again, bob, "accept", None, False)
    assert state["next_table"] is not None


# ---------------------------------------------------------------- chat


async def test_players_chat_and_spectators_are_heard_only_when_allowed(
    world: SocialWorld,
) -> None:
    table, (ann, bob) = await world.table_of(2)
    ann_here = await world.watch(table, ann)
    bob_here = await world.watch(table, bob)
    watcher = await world.watch(table)
    other = await world.watch(table)
    await world.hall.chat.say(table, ann_here, "hello  all", None, "ignored", "10.0.0.1")
    await world.hall.chat.say(table, watcher, "go Ann!", None, "Kibitzer", "10.0.0.9")
    await world.hall.chat.say(table, other, None, "clap", None, "10.0.0.8")
    said = [(line["author"], line["text"], line["reaction"]) for line in lines_of(watcher)]
    assert said[0] == ("s0", "hello all", None)  # white space collapsed
    assert said[1][0].startswith("w") and said[1][1:] == ("go Ann!", None)
    assert said[2][2] == "clap" and said[2][0] != said[1][0]
    assert lines_of(other) == lines_of(watcher)
    assert [line["text"] for line in lines_of(bob_here)] == ["hello all"]  # not spectators'
    assert lines_of(watcher)[0]["name"] == "P0" and lines_of(watcher)[1]["name"] == "Kibitzer"
    assert "10.0.0" not in str(watcher.received)  # the address is never shown
    open_table, (carl, _) = await world.table_of(2, chat={"spectators": True})
    carl_here = await world.watch(open_table, carl)
    fan = await world.watch(open_table)
    await world.hall.chat.say(open_table, fan, "nice", None, None, "10.0.0.9")
    assert [line["text"] for line in lines_of(carl_here)] == ["nice"]
    assert lines_of(carl_here)[0]["name"] is None


async def test_chat_settings_are_checked() -> None:
    assert chat_settings(None) == {"spectators": False}
    assert chat_settings({"spectators": True}) == {"spectators": True}
    for bad in ({"spectators": "yes"}, {"everyone": True}, "loud"):
        with pytest.raises(DomainError) as error:
            chat_settings(bad)
        assert error.value.code == "bad_options"


async def test_chat_limits_length_characters_and_kind(world: SocialWorld) -> None:
    table, (ann, _) = await world.table_of(2)
    here = await world.watch(table, ann)
    say = world.hall.chat.say
    assert await refused(say(table, here, "x" * (MAX_TEXT + 1), None, None, "a")) == "bad_chat"
    assert await refused(say(table, here, "   ", None, None, "a")) == "bad_chat"
    assert await refused(say(table, here, "bell\x07", None, None, "a")) == "bad_chat"
    assert await refused(say(table, here, "rtl\u202eevil", None, None, "a")) == "bad_chat"
    assert await refused(say(table, here, None, "dance", None, "a")) == "bad_chat"
    assert await refused(say(table, here, "hi", "gg", None, "a")) == "bad_chat"
    assert await refused(say(table, here, None, None, None, "a")) == "bad_chat"
    watcher = await world.watch(table)
    assert await refused(say(table, watcher, "hi", None, "\x00", "a")) == "bad_name"
    await say(table, here, "x" * MAX_TEXT, None, None, "a")
    assert len(world.social.chat[table.id]) == 1


async def test_chat_rate_is_limited_per_connection_and_per_person(world: SocialWorld) -> None:
    table, (ann, _) = await world.table_of(2)
    first = await world.watch(table, ann)
    say = world.hall.chat.say
    for n in range(CONNECTION_BURST):
        await say(table, first, f"line {n}", None, None, "a")
    assert await refused(say(table, first, "one more", None, None, "a")) == "rate_limited"
    # A second tab of the same person has its own connection allowance, not its own person's.
    second = await world.watch(table, ann)
    for n in range(PERSON_BURST - CONNECTION_BURST):
        await say(table, second, f"more {n}", None, None, "a")
    assert await refused(say(table, second, "and more", None, None, "a")) == "rate_limited"
    assert len(world.social.chat[table.id]) == PERSON_BURST
    await world.clock.advance(10)  # the allowance refills with time
    await say(table, second, "later", None, None, "a")
    assert len(world.social.chat[table.id]) == PERSON_BURST + 1


async def test_text_is_sent_as_written_never_as_markup(world: SocialWorld) -> None:
    table, (ann, bob) = await world.table_of(2)
    here = await world.watch(table, ann)
    bob_here = await world.watch(table, bob)
    evil = '<img src=x onerror="alert(1)">&amp;'
    await world.hall.chat.say(table, here, evil, None, None, "a")
    assert lines_of(bob_here)[0]["text"] == evil  # JSON text: the pages show it as text


async def test_a_muted_person_is_not_sent_to_that_viewer(world: SocialWorld) -> None:
    table, (ann, bob) = await world.table_of(2)
    ann_here = await world.watch(table, ann)
    bob_here = await world.watch(table, bob)
    watcher = await world.watch(table)
    world.hall.chat.mute(bob_here, "s0", True)
    await world.hall.chat.say(table, ann_here, "boring", None, None, "a")
    assert lines_of(bob_here) == [] and len(lines_of(watcher)) == 1
    world.hall.chat.mute(bob_here, "s0", False)
    await world.clock.advance(5)
    await world.hall.chat.say(table, ann_here, "hi again", None, None, "a")
    assert [line["text"] for line in lines_of(bob_here)] == ["hi again"]
    with pytest.raises(DomainError) as error:
        world.hall.chat.mute(bob_here, "<script>", True)
    assert error.value.code == "bad_chat"


async def test_chat_is_stored_sent_on_hello_and_in_the_record(world: SocialWorld) -> None:
    table, (ann, bob) = await world.table_of(2)
    here = await world.watch(table, ann)
    await world.hall.chat.say(table, here, "before", None, None, "a")
    await world.finish(table)
    await world.clock.advance(5)
    await world.hall.chat.say(table, here, None, "gg", None, "a")
    await world.hall.stop()
    world.hall = world.new_hall()  # a restart: the chat comes from the store
    again = await world.hall.get(table.id)
    bob_here = await world.watch(again, bob)
    history = bob_here.of("chat")[0]
    assert history["history"] is True
    assert [(line["text"], line["reaction"]) for line in history["lines"]] == [
        ("before", None),
        (None, "gg"),
    ]
    record = await world.hall.chat.record(again)
    assert [line["action"] for line in record] == [0, again.game.action_count]
    await world.hall.chat.say(again, bob_here, "numbered on", None, None, "a")
    assert [line.number for line in world.social.chat[table.id]] == [0, 1, 2]


async def test_a_closed_table_has_no_chat(world: SocialWorld) -> None:
    table, (ann, _) = await world.table_of(2)
    here = await world.watch(table, ann)
    table.status = "expired"
    assert await refused(world.hall.chat.say(table, here, "hi", None, None, "a")) == "expired"


async def test_spectators_cannot_fill_the_players_chat(world: SocialWorld) -> None:
    table, (ann, _) = await world.table_of(2)
    ann_here = await world.watch(table, ann)
    say = world.hall.chat.say
    written, address = 0, 0
    while True:  # a crowd of spectators, each from its own address, writes all it may
        address += 1
        watcher = await world.watch(table)
        code = None
        for n in range(CONNECTION_BURST):
            try:
                await say(table, watcher, f"noise {n}", None, None, f"10.1.{address}")
            except DomainError as error:
                code = error.code
                break
            written += 1
        if code is not None:
            break
    assert code == "chat_full"
    assert written == world.settings.chat_spectator_lines
    await say(table, ann_here, "we can still talk", None, None, "10.0.0.1")
    assert lines_of(ann_here)[-1]["text"] == "we can still talk"
    world.hall = world.new_hall()  # a restart counts the stored lines again
    table = await world.hall.get(table.id)
    watcher = await world.watch(table)
    assert await refused(say(table, watcher, "more", None, None, "10.2.0.1")) == "chat_full"
    await say(table, await world.watch(table, ann), "still", None, None, "10.0.0.1")


async def test_a_spectators_address_is_limited_over_its_connections_and_tables(
    world: SocialWorld,
) -> None:
    first, _ = await world.table_of(2)
    second, _ = await world.table_of(2)
    say, burst = world.hall.chat.say, world.settings.chat_spectator_burst
    said = 0
    for table in (first, second):
        watcher = await world.watch(table)
        for n in range(CONNECTION_BURST):
            if said == burst:
                break
            await say(table, watcher, f"line {n}", None, None, "2001:db8::/64")
            said += 1
    watcher = await world.watch(second)
    assert await refused(say(second, watcher, "one more", None, None, "2001:db8::/64")) == (
        "rate_limited"
    )
    await say(second, watcher, "another address", None, None, "10.0.0.3")
    await world.clock.advance(1 / world.settings.chat_spectator_rate)
    await say(second, watcher, "later", None, None, "2001:db8::/64")
