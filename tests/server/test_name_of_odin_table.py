"""In the Name of Odin on the server, through the game contract: a table with bot seats is
created through the API, played to its end and stored; ``odin serve`` killed with SIGKILL
mid-game carries on after a restart like an Odin table; the lobby offers it beside Odin."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx

from odin_cards.name_of_odin.rules import NAME_OF_ODIN

from .harness import Client, Server, open_client, sit
from .test_restart import _free_port, odin_serve

GAME = "name-of-odin"


async def new_noo_table(
    http: httpx.AsyncClient, players: int, bots: dict[int, str], **setup: Any
) -> dict[str, Any]:
    answer = await http.post(
        "/api/tables",
        json={
            "game": GAME,
            "players": players,
            "bots": {str(seat): level for seat, level in bots.items()},
            "options": setup,
        },
    )
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()["table"]
    return table


def choose(state: dict[str, Any], rng: random.Random) -> str:
    """A scripted person: raids and matches when they can, ends a turn often."""
    legal: list[str] = state["legal"]
    eager = [t for t in legal if t.split()[0] in ("raid", "match", "hero", "ship", "return")]
    if eager:
        return rng.choice(eager)
    if "end" in legal and rng.random() < 0.6:
        return "end"
    return rng.choice(legal)


async def catch_up(client: Client, version: int) -> None:
    while client.version < version:
        await client.next_of("update")


async def play_out(person: Client, rng: random.Random, until_bot_moves: bool = False) -> list[str]:
    """The person plays whenever asked until the game ends (or, with ``until_bot_moves``,
    until it is a bot's turn after at least one action); returns the actions sent."""
    sent: list[str] = []
    while person.state["outcome"] is None:
        if person.state["to_move"] != person.seat:
            if until_bot_moves and sent:
                return sent
            await person.next_of("update")
            continue
        action = choose(person.state, rng)
        answer = await person.act(action)
        assert answer["type"] == "ack", answer
        sent.append(action)
        await catch_up(person, answer["version"])
    return sent


async def follow(client: Client) -> None:
    """Read a client's updates until the game is over."""
    while client.state["outcome"] is None:
        await client.next_of("update")


def hides_other_hands(state: dict[str, Any], seat: int | None) -> bool:
    """A seat's state names its own hand only; other villages show hand sizes."""
    return all("hand" not in village for village in state["villages"]) and (
        (state["hand"] is None) == (seat is None)
    )


async def test_a_table_with_bot_seats_is_played_to_its_end_and_stored(server: Server) -> None:
    async with server.http() as http:
        levels = (await http.get("/api/levels", params={"game": GAME})).json()
        assert [level["key"] for level in levels] == ["random", "heuristic"]
        table = await new_noo_table(http, 3, {1: "heuristic", 2: "random"})
        token = await sit(http, table["id"], 0, "Ada")
    person = await open_client(server, table["id"], token)
    watcher = await open_client(server, table["id"])
    assert person.state["game"] == GAME and person.state["names"][0] == "Ada"
    assert len(person.state["hand"]) == 6
    watching = asyncio.create_task(follow(watcher))  # reads as it comes, like a browser
    sent = await play_out(person, random.Random(3))
    assert sent
    await asyncio.wait_for(watching, 60)
    for client, seat in ((person, 0), (watcher, None)):
        updates = [m["state"] for m in client.received if m["type"] == "update"]
        assert all(hides_other_hands(state, seat) for state in updates)
    async with server.http() as http:
        stored = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert stored["status"] == "finished"
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
    game = NAME_OF_ODIN.load_record(record).replay()
    assert game.is_over and record["game"] == GAME
    assert record["outcome"]["scores"] == person.state["outcome"]["scores"]
    assert [text for seat, text in record["actions"] if seat == 0] == sent
    assert {seat for seat, _ in record["actions"]} == {0, 1, 2}


async def test_a_table_of_bots_only_plays_itself_to_its_end(server: Server) -> None:
    async with server.http() as http:
        table = await new_noo_table(http, 2, {0: "heuristic", 1: "heuristic"})
    watcher = await open_client(server, table["id"])
    await follow(watcher)
    async with server.http() as http:
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
    assert NAME_OF_ODIN.load_record(record).replay().outcome is not None


async def test_bad_set_ups_and_levels_are_refused(server: Server) -> None:
    async with server.http() as http:
        for body, code in (
            ({"game": GAME, "players": 6}, "bad_players"),
            ({"game": GAME, "players": 2, "options": {"target": 10}}, "bad_options"),
            ({"game": GAME, "players": 2, "bots": {"1": "expert"}}, "bad_bots"),
        ):
            answer = await http.post("/api/tables", json=body)
            assert answer.status_code == 422, answer.text
            assert answer.json()["error"] == code, answer.text


# --------------------------------------------------------------------------- kill and resume


def kill(process: subprocess.Popen[bytes]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)


async def test_sigkill_mid_game_and_a_restart_lose_and_double_nothing(
    tmp_path: Path, database_url: str
) -> None:
    data = tmp_path / "data"
    port = _free_port()
    rng = random.Random(7)

    # 1. Play until it is a bot's turn; kill while the bot (slow here) waits to move.
    async with odin_serve(data, database_url, port, bot_delay=30) as (server, process):
        async with server.http() as http:
            table = await new_noo_table(http, 2, {1: "heuristic"}, first_player=0)
            token = await sit(http, table["id"], 0, "Ada")
        person = await open_client(server, table["id"], token)
        sent = await play_out(person, rng, until_bot_moves=True)
        assert sent and person.state["to_move"] == 1
        version_at_kill = person.version
        kill(process)

    # 2. Restart: the bot carries on from the stored log; the person plays to the end.
    async with odin_serve(data, database_url, port, bot_delay=0) as (server, process):
        person = await open_client(server, table["id"], token)
        assert person.version >= version_at_kill
        sent += await play_out(person, rng)
        async with server.http() as http:
            record = (await http.get(f"/api/tables/{table['id']}/record")).json()
    assert [text for seat, text in record["actions"] if seat == 0] == sent
    assert any(seat == 1 for seat, _ in record["actions"])
    game = NAME_OF_ODIN.load_record(record).replay()
    assert game.is_over and record["outcome"] == game.record().to_dict()["outcome"]


# --------------------------------------------------------------------------- the lobby


async def test_the_lobby_offers_every_installed_game(server: Server) -> None:
    """The lobby's scripts name no game: they offer what ``GET /api/games`` lists, in its
    order (Odin first, the default), each with its seats, bot levels and Play now presets;
    this game has no presets (no Play now), no board (the plain board) and no rating."""
    async with server.http() as http:
        page = (await http.get("/")).text
        scripts = [
            (await http.get(f"/static/js/{name}.js")).text
            for name in ("home", "lobby-games", "playnow", "api")
        ]
        listed = (await http.get("/api/games")).json()["games"]
    for text in (page, *scripts):
        assert GAME not in text and "Name of Odin" not in text
    assert "/api/games" in scripts[1]
    assert [game["key"] for game in listed] == ["odin", GAME]
    noo = listed[1]
    assert noo["name"] == "In the Name of Odin" and noo["play_now"] == [] and not noo["rated"]
    assert noo["board"] is None
    assert noo["players"] == {"min": NAME_OF_ODIN.min_players, "max": NAME_OF_ODIN.max_players}
    assert [level["key"] for level in noo["levels"]] == ["random", "heuristic"]


async def test_the_open_tables_are_listed_by_game(server: Server) -> None:
    """The lobby's list (Odin's by default) never shows a waiting table of another game."""
    async with server.http() as http:
        noo = await new_noo_table(http, 2, {})
        odin = (await http.post("/api/tables", json={"players": 2})).json()["table"]
        lobby = (await http.get("/api/tables?status=open")).json()["tables"]
        odin_only = (await http.get("/api/tables?status=open&game=odin")).json()["tables"]
        listed = (await http.get(f"/api/tables?status=open&game={GAME}")).json()["tables"]
        unknown = await http.get("/api/tables?status=open&game=chess")
    assert [t["id"] for t in lobby] == [t["id"] for t in odin_only] == [odin["id"]]
    assert lobby[0]["game"] == "odin"
    assert [(t["id"], t["game"]) for t in listed] == [(noo["id"], GAME)]
    assert unknown.status_code == 422 and unknown.json()["error"] == "bad_game"
