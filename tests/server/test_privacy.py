"""No message ever shows a seat (or a spectator) a card it has not seen.

Whole games with bots and scripted people; every message to every connection is kept.
Afterwards the game's record gives the real hands at every version, and each card named
in a message to seat ``s`` at version ``v`` must be in ``s``'s hand at ``v`` or public by
``v`` (played or taken: discards and the table are played cards). Spectators get only
public cards.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from odin_cards.bots import LEVELS
from odin_cards.rules import Game, GameRecord, card_text, cards_of, parse_action

from .harness import Client, Server, new_table, open_client, sit
from .test_play import play_out

CARD = re.compile(r"\b(?:[BRPGKO][1-9]|X0)\b")


def truth(record: dict[str, Any]) -> dict[int, tuple[list[set[str]], set[str]]]:
    """Version -> (each seat's hand, the cards public so far), from the full record."""
    parsed = GameRecord.from_dict(record)
    deals = [e["deal"] for e in parsed.events if "deal" in e]
    game = Game.new(parsed.players, parsed.options, parsed.seed, deals=deals)
    public: set[str] = set()

    def snapshot() -> tuple[list[set[str]], set[str]]:
        hands = [{card_text(c) for c in cards_of(game.hand(s))} for s in range(game.players)]
        return hands, set(public)

    known = {len(game.history): snapshot()}
    for event in parsed.events:
        if "deal" in event:
            continue
        action = parse_action(event["action"])
        game.apply(action, seat=event["seat"])
        public.update(action.cards)
        known[len(game.history)] = snapshot()
    return known


def leaks(
    messages: list[dict[str, Any]], seat: int | None, known: dict[int, Any]
) -> tuple[list[str], int]:
    """Cards named to ``seat`` that it had not seen; and how many card mentions were checked."""
    found, checked = [], 0
    for message in messages:
        cards = set(CARD.findall(json.dumps(message)))
        if message["type"] != "update":
            if cards:
                found.append(f"{message['type']} names {sorted(cards)}")
            continue
        hands, public = known[message["version"]]
        allowed = public | (hands[seat] if seat is not None else set())
        checked += len(cards)
        if cards - allowed:
            found.append(f"version {message['version']}: {sorted(cards - allowed)}")
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
    other = sorted(known[1][0][1])[0]
    message = {
        "type": "update",
        "version": 1,
        "events": [{"text": f"play {other}"}],
        "state": {"hand": sorted(known[1][0][0])},
    }
    found, _ = leaks([message], 0, known)
    assert found and other in found[0]
    assert leaks([message | {"events": []}], 0, known)[0] == []
