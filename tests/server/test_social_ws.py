"""Chat over WebSocket on a real server and database: two players and a spectator, the
table's choice about spectators, the record, and the chat after a restart (issue #9)."""

from __future__ import annotations

import random
from typing import Any

from odin_cards.server.settings import Settings

from .harness import Client, Server, new_table, open_client, running, sit
from .test_play import play_out

TWO_PROCESSES = True
"""These tests run against one process and against two (``conftest.py``)."""


async def said(client: Client, text: str) -> dict[str, Any]:
    """Wait for the chat line ``text`` at ``client``."""
    message = await client.until(
        lambda m: m["type"] == "chat" and any(line["text"] == text for line in m["lines"])
    )
    line: dict[str, Any] = next(line for line in message["lines"] if line["text"] == text)
    return line


async def test_two_players_and_a_spectator_chat(server: Server) -> None:
    async with server.http() as http:
        bad = await http.post("/api/tables", json={"players": 2, "chat": {"spectators": "yes"}})
        assert bad.status_code == 422
        table = await new_table(http, 2, one_hand=True)
        # Both seats first: the other process then reads them when it loads the table.
        tokens = [
            await sit(http, table["id"], seat, name) for seat, name in ((0, "Ann"), (1, "Bob"))
        ]
        ann = await open_client(server, table["id"], tokens[0])
        bob = await open_client(server, table["id"], tokens[1])
        # With two processes the spectator is at the other one: lines cross processes.
        eve = await open_client(Server(server.base, server.settings), table["id"])
        await ann.send({"type": "chat", "text": "<b>hi</b> Bob"})
        line = await said(bob, "<b>hi</b> Bob")
        assert (line["author"], line["name"], line["seat"]) == ("s0", "Ann", 0)
        await said(eve, "<b>hi</b> Bob")
        await eve.send({"type": "chat", "text": "Bob has the goat", "name": "Eve"})
        await said(eve, "Bob has the goat")  # spectators hear each other...
        await bob.send({"type": "chat", "reaction": "thumbs_up"})
        reaction = await ann.until(
            lambda m: m["type"] == "chat" and any(line["reaction"] for line in m["lines"])
        )
        assert reaction["lines"][0]["reaction"] == "thumbs_up"  # ...players do not
        heard = [line["text"] for m in ann.received if m["type"] == "chat" for line in m["lines"]]
        assert "Bob has the goat" not in heard
        await eve.send({"type": "chat", "text": "x" * 201})
        refusal = await eve.next_of("error")
        assert refusal["code"] == "bad_chat"
        await eve.send({"type": "chat", "text": "hi", "colour": "red"})
        assert (await eve.next_of("error"))["code"] == "malformed"
        await play_out([ann, bob], random.Random(3))
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
        assert [(c["author"], c["text"]) for c in record["chat"]][:1] == [("s0", "<b>hi</b> Bob")]
        assert [c["reaction"] for c in record["chat"]] == [None, None, "thumbs_up"]


async def test_a_table_may_let_players_hear_spectators(server: Server) -> None:
    async with server.http() as http:
        answer = await http.post(
            "/api/tables",
            json={"players": 2, "bots": {"1": "random"}, "chat": {"spectators": True}},
        )
        table = answer.json()["table"]
        ann = await open_client(server, table["id"], await sit(http, table["id"], 0, "Ann"))
        eve = await open_client(server, table["id"])
        await eve.send({"type": "chat", "text": "well played"})
        line = await said(ann, "well played")
        assert line["seat"] is None and line["author"].startswith("w")


async def test_the_chat_is_kept_across_a_restart(settings: Settings) -> None:
    async with running(settings) as server, server.http() as http:
        table = await new_table(http, 2, {1: "random"})
        token = await sit(http, table["id"], 0, "Ann")
        ann = await open_client(server, table["id"], token)
        await ann.send({"type": "chat", "text": "see you later"})
        await said(ann, "see you later")
        await ann.close()
    async with running(settings) as server:
        ann = await open_client(server, table["id"], token)
        history = await ann.next_of("chat")
        assert history["history"] is True
        assert [line["text"] for line in history["lines"]] == ["see you later"]
