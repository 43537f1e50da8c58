"""The third game through a real server, with nothing under ``src/`` changed for it: offered
by the server, a table with a bot played to its end over the WebSocket with each seat
shown its own hand only, listed among the player's games, its record replayed; and
``odin serve`` killed with SIGKILL mid-game resumes it exactly (the game installed as a
package that publishes its plugin, in every server process)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.harness import Client, Server, open_client, sit
from server.test_restart import _free_port, odin_serve

from .takeaway.rules import TAKE_AWAY

GAME = "take-away"


async def new_table(http: httpx.AsyncClient, bots: dict[int, str], pile: int) -> dict[str, Any]:
    body = {"game": GAME, "players": 2, "bots": {str(s): b for s, b in bots.items()}}
    answer = await http.post("/api/tables", json={**body, "options": {"pile": pile}})
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()["table"]
    return table


async def play(person: Client, rng: random.Random, until_bot_moves: bool = False) -> list[str]:
    """Take whenever it is the person's turn, until the game ends (or, with
    ``until_bot_moves``, until the bot is to move after at least one take)."""
    sent: list[str] = []
    while person.state["winner"] is None:
        if person.state["to_move"] != person.seat:
            if until_bot_moves and sent:
                return sent
            await person.next_of("update")
            continue
        action = rng.choice(person.state["legal"])
        answer = await person.act(action)
        assert answer["type"] == "ack", answer
        sent.append(action)
        while person.version < answer["version"]:
            await person.next_of("update")
    return sent


def shown_hands(client: Client) -> list[Any]:
    return [m["state"]["hand"] for m in client.received if m["type"] == "update"]


@pytest.mark.usefixtures("registered_game")
async def test_offered_played_with_a_bot_to_its_end_listed_and_replayed(server: Server) -> None:
    async with server.http() as http:
        games = {g["key"]: g for g in (await http.get("/api/games")).json()["games"]}
        assert games[GAME]["players"] == {"min": 2, "max": 2}
        assert games[GAME]["board"] == f"/games/{GAME}/board.js"
        assert [level["key"] for level in games[GAME]["levels"]] == ["random", "greedy"]
        table = await new_table(http, {1: "greedy"}, pile=17)
        waiting = (await http.get("/api/tables", params={"game": GAME})).json()["tables"]
        assert [t["id"] for t in waiting] == [table["id"]]
        token = await sit(http, table["id"], 0, "Ada")
    person = await open_client(server, table["id"], token)
    watcher = await open_client(server, table["id"])
    assert person.state["names"] == ["Ada", "Greedy bot"] and person.state["pile"] == 17
    over = asyncio.create_task(
        watcher.until(lambda m: "state" in m and m["state"]["winner"] is not None)
    )
    sent = await play(person, random.Random(5))
    await asyncio.wait_for(over, 30)
    assert sent
    # A seat is shown its own hand, never the other's; a spectator neither.
    assert all(isinstance(hand, list) and len(hand) == 2 for hand in shown_hands(person))
    assert all(hand is None for hand in shown_hands(watcher))
    assert all("hands" not in m.get("state", {}) for m in person.received + watcher.received)
    async with server.http() as http:
        mine = (await http.post("/api/tables/mine", json={"tokens": [token]})).json()["tables"]
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
        replay_page = await http.get(f"/t/{table['id']}/replay")
    assert [(t["id"], t["game"], t["status"]) for t in mine] == [(table["id"], GAME, "finished")]
    game = TAKE_AWAY.load_record(record).replay()
    assert game.is_over and game.outcome is not None
    assert record["outcome"]["winners"] == [person.state["winner"]]
    assert record["actions"][::2] == sent  # seats alternate, the person's first
    assert replay_page.status_code == 200


@pytest.mark.usefixtures("registered_game")
async def test_the_record_is_secret_while_the_game_runs(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, {1: "random"}, pile=30)
        await sit(http, table["id"], 0, "Ada")
        answer = await http.get(f"/api/tables/{table['id']}/record")
    assert answer.status_code == 403 and answer.json()["error"] == "running", answer.text


async def test_sigkill_mid_game_and_a_restart_lose_and_double_nothing(
    tmp_path: Path, database_url: str, installed: Path
) -> None:
    data = tmp_path / "data"
    port = _free_port()
    rng = random.Random(11)
    async with odin_serve(data, database_url, port, bot_delay=30) as (server, process):
        async with server.http() as http:
            table = await new_table(http, {1: "greedy"}, pile=40)
            token = await sit(http, table["id"], 0, "Ada")
        person = await open_client(server, table["id"], token)
        sent = await play(person, rng, until_bot_moves=True)
        assert person.state["to_move"] == 1
        version_at_kill = person.version
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    async with odin_serve(data, database_url, port, bot_delay=0) as (server, process):
        person = await open_client(server, table["id"], token)
        assert person.version >= version_at_kill
        sent += await play(person, rng)
        async with server.http() as http:
            record = (await http.get(f"/api/tables/{table['id']}/record")).json()
    game = TAKE_AWAY.load_record(record).replay()
    assert game.is_over
    assert record["actions"][::2] == sent  # none lost, none doubled
