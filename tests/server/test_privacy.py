"""No message ever shows a seat (or a spectator) a card it has not seen.

Whole games with bots and scripted people; every message to every connection is kept.
Afterwards the game's record gives the real hands at every version, and each card named
in a message to seat ``s`` must be one ``s`` may know. Knowledge is per hand (all cards
are shuffled again for the next one): in an event, the cards public in that event's hand
up to that event (played or taken; discards and the table are played cards; a
``hand_end`` event shows every seat's cards left); in the state at version ``v``, the
cards public so far in the hand being played at ``v`` and ``s``'s own hand. So a card of
a running hand is never allowed because an earlier hand showed it. Spectators get only
public cards.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, NamedTuple

from odin_cards.odin.bots import LEVELS
from odin_cards.odin.rules import (
    Game,
    GameRecord,
    HandEnd,
    Options,
    Play,
    Take,
    card_text,
    cards_of,
    parse_action,
)

from .harness import Client, Server, new_table, open_client, sit
from .test_play import play_out

TWO_PROCESSES = True
"""These tests run against one process and against two (``conftest.py``)."""

CARD = re.compile(r"\b(?:[BRPGKO][1-9]|X0)\b")


class Truth(NamedTuple):
    hands: dict[int, list[set[str]]]
    """Version -> each seat's hand."""
    public: dict[int, set[str]]
    """Version -> the cards public in the hand being played (the last one, once over)."""
    events: dict[int, set[str]]
    """Event index -> the cards public in its hand once that event has happened."""


def _texts(mask: int) -> set[str]:
    return {card_text(c) for c in cards_of(mask)}


def truth(record: dict[str, Any]) -> Truth:
    """What every seat may know at every version and event, from the full record."""
    parsed = GameRecord.from_dict(record)
    deals = [e["deal"] for e in parsed.events if "deal" in e]
    game = Game.new(parsed.players, parsed.options, parsed.seed, deals=deals)
    result = Truth({}, {}, {0: set()})
    public: set[str] = set()

    def snapshot() -> None:
        version = len(game.history)
        result.hands[version] = [_texts(game.hand(s)) for s in range(game.players)]
        result.public[version] = set(public)

    snapshot()
    for event in parsed.events:
        if "deal" in event:
            continue
        start = len(game.history)
        game.apply(parse_action(event["action"]), seat=event["seat"])
        for index in range(start, len(game.history)):
            happened = game.history[index]
            if happened.kind == "deal":
                public = set()  # a new hand: every card shuffled again
            elif isinstance(happened, Play | Take):
                public |= set(happened.action.cards)
            elif isinstance(happened, HandEnd):
                for left in happened.hands:
                    public |= _texts(left)
            result.events[index] = set(public)
        snapshot()
    return result


def leaks(messages: list[dict[str, Any]], seat: int | None, known: Truth) -> tuple[list[str], int]:
    """Cards named to ``seat`` that it may not know; and how many card mentions were checked."""
    found, checked = [], 0
    for message in messages:
        if message["type"] != "update":
            cards = set(CARD.findall(json.dumps(message)))
            if cards:
                found.append(f"{message['type']} names {sorted(cards)}")
            continue
        version = message["version"]
        for event in message["events"]:
            cards = set(CARD.findall(json.dumps(event)))
            checked += len(cards)
            if cards - known.events[event["index"]]:
                wrong = sorted(cards - known.events[event["index"]])
                found.append(f"event {event['index']}: {wrong}")
        hands = known.hands[version]
        rest = {key: value for key, value in message.items() if key != "events"}
        cards = set(CARD.findall(json.dumps(rest)))
        allowed = known.public[version] | (hands[seat] if seat is not None else set())
        checked += len(cards)
        if cards - allowed:
            found.append(f"version {version}: {sorted(cards - allowed)}")
        state_hand = message["state"]["hand"]
        if seat is None:
            assert state_hand is None
        else:
            assert set(state_hand) == hands[seat]
    return found, checked


async def _game(
    server: Server, players: int, bots: dict[int, str], seed: int, **options: Any
) -> None:
    async with server.http() as http:
        table = await new_table(http, players, bots, **options)
        humans = [s for s in range(players) if s not in bots]
        tokens = {s: await sit(http, table["id"], s, f"Player {'ACEG'[s]}") for s in humans}
        clients = [await open_client(server, table["id"], tokens[s]) for s in humans]
        second_tab = await open_client(server, table["id"], tokens[humans[0]])
        watcher = await open_client(server, table["id"])
        await play_out(clients, random.Random(seed))
        for client in (second_tab, watcher):
            await client.until(lambda m: m["type"] == "update" and m["state"]["outcome"])
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
    known = truth(record)
    connections: list[Client] = [*clients, second_tab, watcher]
    total = 0
    for client in connections:
        found, checked = leaks(client.received, client.seat, known)
        assert not found, (client.seat, found[:5])
        assert "seed" not in json.dumps(client.received)
        total += checked
    assert total > 100  # the check looked at real cards


def _levels() -> list[str]:
    return [key for key in ("random", "heuristic") if key in LEVELS]


async def test_four_players_two_bots(server: Server) -> None:
    levels = _levels()
    await _game(server, 4, {2: levels[-1], 3: levels[0]}, 1, target=10)


async def test_two_players_goat_four_colours(server: Server) -> None:
    await _game(server, 2, {1: _levels()[-1]}, 2, target=10, colours=4, goat=True)


async def test_three_people_winner_leads(server: Server) -> None:
    await _game(server, 3, {}, 3, target=10, next_leader="winner")


def test_the_check_catches_a_leak() -> None:
    game = Game.new(2, seed=5)
    record = game.record().to_dict()
    known = truth(record)
    other = sorted(known.hands[1][1])[0]
    message = {
        "type": "update",
        "version": 1,
        "events": [{"index": 0, "text": f"play {other}"}],
        "state": {"hand": sorted(known.hands[1][0])},
    }
    found, _ = leaks([message], 0, known)
    assert found and other in found[0]
    assert leaks([message | {"events": []}], 0, known)[0] == []
    state = {"hand": sorted(known.hands[1][0]), "table": [other]}
    assert leaks([message | {"events": [], "state": state}], 0, known)[0]


def _past_a_hand_end(seed: int) -> tuple[Game, int]:
    """A two-player game a few actions into its second hand, and its first hand_end's index."""
    game, rng = Game.new(2, Options(target=100), seed), random.Random(seed)
    while not any(isinstance(e, HandEnd) for e in game.history):
        game.apply(rng.choice(game.legal_actions()))
    for _ in range(4):
        game.apply(rng.choice(game.legal_actions()))
    return game, next(i for i, e in enumerate(game.history) if isinstance(e, HandEnd))


def test_a_running_hands_cards_are_caught_though_an_earlier_hand_showed_them() -> None:
    game, end = _past_a_hand_end(7)
    known = truth(game.record().to_dict())
    shown = game.public_events()[end]
    left = {card for cards in shown["cards"] for card in cards}
    assert left and known.events[end] >= left  # the hand_end's cards are allowed in it
    after = min(v for v in known.hands if v > end)  # the version of the hand-ending play
    assert leaks([_update(after, [shown], known, 0)], 0, known)[0] == []
    hidden = left - known.events[end - 1]  # not taken in the hand: never shown before its end
    assert hidden
    early = shown | {"index": end - 1}
    assert leaks([_update(after, [early], known, 0)], 0, known)[0]
    assert not any(hidden & known.public[v] for v in known.public if v <= end)
    # In the next hand (all cards shuffled), a card the opponent holds is caught even though
    # the first hand made it public.
    now = len(game.history)
    theirs = sorted(known.hands[now][1] & known.events[end] - known.public[now])
    assert theirs
    message = _update(now, [], known, 0)
    message["state"]["known"] = [[], theirs[:1]]
    found, _ = leaks([message], 0, known)
    assert found and theirs[0] in found[0]
    event = {"index": now - 1, "type": "play", "seat": 1, "cards": theirs[:1]}
    assert leaks([_update(now, [event], known, 0)], 0, known)[0]


def _update(version: int, events: list[dict[str, Any]], known: Truth, seat: int) -> dict[str, Any]:
    state = {"hand": sorted(known.hands[version][seat]), "known": [[], []]}
    return {"type": "update", "version": version, "events": events, "state": state}
