"""Bad input on the wire: a clear error, nothing changed, the connection still usable."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from odin_cards.server.settings import Settings

from .harness import Client, Server, new_table, open_client, running, sit
from .test_play import play_out

TWO_PROCESSES = True
"""These tests run against one process and against two (``conftest.py``)."""


async def _table(server: Server, players: int = 2) -> tuple[dict[str, Any], list[str]]:
    async with server.http() as http:
        table = await new_table(http, players, first_leader=0)
        tokens = [await sit(http, table["id"], s, f"P{s}") for s in range(players)]
    return table, tokens


async def _error(client: Client, message: dict[str, Any] | str) -> dict[str, Any]:
    await client.send(message)
    return await client.next_of("error")


async def _unchanged(client: Client, version: int) -> None:
    """The table is still at ``version`` and the connection still answers."""
    await client.send({"type": "ping"})
    assert (await client.next_of("pong")) == {"type": "pong"}
    assert client.version == version
    await client.hello(version)
    assert client.version == version


async def test_malformed_messages_are_refused(server: Server) -> None:
    table, tokens = await _table(server)
    player = await open_client(server, table["id"], tokens[0])
    version = player.version
    legal = player.state["legal"][0]
    cases: list[tuple[Any, str]] = [
        ("{not json", "malformed"),
        ("[1, 2]", "malformed"),
        ({"type": "shout"}, "malformed"),
        ({"action": legal}, "malformed"),
        ({"type": "act", "action": legal, "version": str(version), "id": "a"}, "malformed"),
        ({"type": "act", "action": legal, "version": version}, "malformed"),
        ({"type": "act", "action": legal, "version": version, "id": "a", "x": 1}, "malformed"),
        ({"type": "act", "action": legal, "version": version, "id": "z" * 65}, "malformed"),
        ({"type": "act", "action": "play B0", "version": version, "id": "b"}, "malformed"),
        ({"type": "act", "action": "take B1", "version": version, "id": "c"}, "illegal"),
        ({"type": "act", "action": "pass", "version": version, "id": "d"}, "illegal"),
        ({"type": "act", "action": legal, "version": version - 1, "id": "e"}, "stale"),
        ({"type": "act", "action": legal, "version": version + 5, "id": "f"}, "stale"),
    ]
    for message, code in cases:
        error = await _error(player, message if isinstance(message, str) else json.dumps(message))
        assert error["code"] == code, (message, error)
        assert error["message"]
    await player.connection.send(b"\x00\x01")
    assert (await player.next_of("error"))["code"] == "malformed"
    # Deep nesting is refused before the JSON parser recurses (RecursionError, 1006 once).
    for deep in ("[" * 3000, "[" * 2000 + "]" * 2000, '{"a":' * 600 + "1" + "}" * 600):
        assert (await _error(player, deep))["code"] == "malformed"
    await _unchanged(player, version)
    # The ids of refused actions are free: the same id works once the action is legal.
    assert (await player.act(legal, id="e"))["type"] == "ack"


async def test_illegal_plays_are_explained(server: Server) -> None:
    table, tokens = await _table(server)
    player = await open_client(server, table["id"], tokens[0])
    hand = set(player.state["hand"])
    missing = next(f"{c}{n}" for c in "BRPGKO" for n in range(1, 10) if f"{c}{n}" not in hand)
    error = await player.act(f"play {missing}")
    assert error["code"] == "illegal" and missing in error["message"]


async def test_seats_act_only_for_themselves(server: Server) -> None:
    table, tokens = await _table(server)
    other_table, other_tokens = await _table(server)
    mover = await open_client(server, table["id"], tokens[0])
    waiting = await open_client(server, table["id"], tokens[1])
    watcher = await open_client(server, table["id"])
    version = mover.version
    action = mover.state["legal"][0]
    assert (await waiting.act(action))["code"] == "not_your_turn"
    assert (await watcher.act(action))["code"] == "not_seated"
    # A token of another table is no seat here, and nobody chooses their seat number.
    stranger = Client(await connect(f"{server.ws}/ws/{table['id']}"), other_tokens[0])
    refusal = await _error(stranger, {"type": "hello", "token": other_tokens[0], "version": None})
    assert refusal["code"] == "unauthorized"
    assert (
        await _error(stranger, {"type": "act", "action": action, "version": version, "id": "x"})
    )["code"] == "malformed"
    forged = await _error(stranger, {"type": "hello", "token": "A" * 43, "version": None})
    assert forged["code"] == "unauthorized"
    await _unchanged(mover, version)
    await _unchanged(watcher, version)
    assert other_table["id"] != table["id"]


async def test_waiting_and_finished_tables_refuse_actions(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, one_hand=True, first_leader=0)
        token = await sit(http, table["id"], 0, "Early")
        early = await open_client(server, table["id"], token)
        assert early.state["legal"] == []
        error = await early.act("pass")
        assert error["code"] == "not_started"
        await sit(http, table["id"], 1, "Late")
        started = await early.until(lambda m: m["type"] == "update" and m["state"]["legal"])
        assert started["version"] == early.version
        assert early.table["status"] == "playing"
        record = await http.get(f"/api/tables/{table['id']}/record")
        assert record.status_code == 403 and record.json()["error"] == "running"
        finished = await new_table(http, 2, {1: "random"}, one_hand=True)
        alone = await open_client(
            server, finished["id"], await sit(http, finished["id"], 0, "Alone")
        )
        await play_out([alone], random.Random(3))
        error = await alone.act("pass")
        assert error["code"] == "game_over"
        await _unchanged(alone, alone.version)


async def test_oversized_messages_are_refused(server: Server) -> None:
    table, tokens = await _table(server)
    player = await open_client(server, table["id"], tokens[0])
    big = json.dumps({"type": "ping", "pad": "x" * 5000})
    assert (await _error(player, big))["code"] == "too_large"
    await _unchanged(player, player.version)
    # Far beyond the cap, the WebSocket layer itself closes the connection (1009).
    await player.connection.send("x" * 100_000)
    with pytest.raises(ConnectionClosed):
        while True:  # (what the second hello brought, e.g. the chat's history, comes first)
            await player.receive()


async def test_a_flood_is_limited_then_closed(settings: Settings) -> None:
    # The default burst and flood; a slow refill so that a busy machine cannot hide a flood.
    strict = Settings(settings.database_url, bot_delay=0, bot_workers=0, rate=2)
    async with running(strict) as server:
        table, tokens = await _table(server)
        player = await open_client(server, table["id"], tokens[0])
        for _ in range(60):
            await player.send({"type": "ping"})
        codes = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                message = await player.receive()
                codes.append(message.get("code", message["type"]))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert "pong" in codes and "rate_limited" in codes
        # The table is untouched and answers a new connection.
        again = await open_client(server, table["id"], tokens[0])
        assert again.version == player.version


async def test_the_origin_is_checked(server: Server) -> None:
    table, _ = await _table(server)
    url = f"{server.ws}/ws/{table['id']}"
    with pytest.raises(InvalidStatus) as refused:
        await connect(url, origin="http://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    host = server.ws.removeprefix("ws://")  # the WebSocket server's own origin
    same = await connect(url, origin=f"http://{host}")  # type: ignore[arg-type]
    await same.send(json.dumps({"type": "ping"}))
    assert json.loads(await asyncio.wait_for(same.recv(), 5)) == {"type": "pong"}
    await same.close()


async def test_unknown_tables(server: Server) -> None:
    # Ids that cannot be ids (a NUL byte made PostgreSQL raise) are unknown without a query.
    for table_id in ("nosuchtable", "x" * 300, "a.b", "%C3%A9"):
        client = Client(await connect(f"{server.ws}/ws/{table_id}"))
        error = await client.next_of("error")
        assert error["code"] == "not_found"
        with pytest.raises(ConnectionClosed):
            await client.receive()
    # A control character in the path is refused at the handshake (bodies.py).
    with pytest.raises(InvalidStatus) as refused:
        await connect(f"{server.ws}/ws/a%00b")
    assert refused.value.response.status_code == 422
