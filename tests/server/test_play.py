"""Whole games over WebSocket: acks, updates, second tabs, reconnects, rematch."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from odin_cards.odin.rules import GameRecord
from odin_cards.server.adapters import sql_schema as db
from odin_cards.server.core.tables.cluster import ClusteredOwnership
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.settings import Settings

from .harness import Client, Server, new_table, open_client, running, sit

TWO_PROCESSES = True
"""These tests run against one process and against two (``conftest.py``)."""


async def play_out(
    clients: list[Client], rng: random.Random, stop: Callable[[Client], bool] | None = None
) -> list[tuple[int, str]]:
    """Scripted humans: whoever is to move plays a random legal action until the game ends
    (or until ``stop`` says so, looking at the first client after each action).

    Returns the actions the clients sent and had acknowledged, in order.
    """
    sent: list[tuple[int, str]] = []
    by_seat = {c.seat: c for c in clients}
    while True:
        state = clients[0].state
        if state["outcome"] is not None or (sent and stop is not None and stop(clients[0])):
            return sent
        mover = by_seat.get(state["to_move"])
        if mover is None:  # a bot moves: wait for the next update
            await clients[0].next_of("update")
            continue
        await _catch_up(mover, clients[0].version)
        action = rng.choice(mover.state["legal"])
        answer = await mover.act(action)
        assert answer["type"] == "ack", answer
        sent.append((mover.seat or 0, action))
        await _catch_up(clients[0], answer["version"])


async def _catch_up(client: Client, version: int) -> None:
    while client.version < version:
        await client.next_of("update")


async def test_the_record_is_there_as_soon_as_the_players_saw_the_game_end(
    server: Server,
) -> None:
    """With two processes the one answering HTTP holds the table as a replica once the
    players' process took it over, and hears its moves over the bus a moment after the
    players do. Here it hears none of them (the bus lagging as far as it can): asked for
    the record when the players saw the end, it reads the log instead of answering
    "running" (CI once got "running" this way)."""
    assert server.app is not None
    hall: Hall = server.app.state.hall
    async with server.http() as http:
        table = await new_table(http, 2, target=10)
        tokens = [await sit(http, table["id"], 0, "Ada"), await sit(http, table["id"], 1, "Bo")]
        clients = [await open_client(server, table["id"], t) for t in tokens]
        if isinstance(hall.ownership, ClusteredOwnership):
            replica = hall.tables[table["id"]]
            deadline = asyncio.get_running_loop().time() + 20
            while hall.owns(replica):  # the handover to the process that has every connection
                assert asyncio.get_running_loop().time() < deadline, "never handed over"
                await asyncio.sleep(0.05)
            _deafen(hall.ownership.replicas.bus)
        sent = await play_out(clients, random.Random(2))
        answer = await http.get(f"/api/tables/{table['id']}/record")
        assert answer.status_code == 200, answer.text
        assert GameRecord.from_dict(answer.json()).replay().is_over
        mine = [(e["seat"], e["action"]) for e in answer.json()["events"] if "action" in e]
        assert mine == sent
        analysis = await http.get(f"/api/tables/{table['id']}/analysis")
        assert analysis.status_code in (200, 202), analysis.text
        for client in clients:
            await client.close()


def _deafen(bus: Any) -> None:
    """The bus of the process under test stops delivering the tables' moves to it."""
    heard = bus.handler
    assert heard is not None

    async def deaf(table_id: str | None, message: dict[str, Any]) -> None:
        if message.get("kind") != "action":
            await heard(table_id, message)

    bus.listen(deaf)


async def test_two_people_and_a_bot_play_a_whole_game(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 3, {2: "random"}, target=10)
        assert table["status"] == "waiting"
        tokens = [await sit(http, table["id"], 0, "Ada"), await sit(http, table["id"], 1, "Bo")]
        clients = [await open_client(server, table["id"], t) for t in tokens]
        assert [c.seat for c in clients] == [0, 1]
        assert clients[0].state["names"] == ["Ada", "Bo", "Random bot"]
        assert len(clients[0].state["hand"]) == 9
        sent = await play_out(clients, random.Random(1))
        assert sent
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
        replayed = GameRecord.from_dict(record).replay()
        assert replayed.is_over
        mine = [(e["seat"], e["action"]) for e in record["events"] if e.get("seat") in (0, 1)]
        assert mine == sent
        finished = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert finished["status"] == "finished"
        for client in clients:
            await client.close()


async def test_ack_comes_before_the_update_and_every_tab_is_told(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, first_leader=0)
        tokens = [await sit(http, table["id"], s, f"P{s}") for s in (0, 1)]
        first = await open_client(server, table["id"], tokens[0])
        second_tab = await open_client(server, table["id"], tokens[0])
        other = await open_client(server, table["id"], tokens[1])
        watcher = await open_client(server, table["id"])
        version = first.version
        action = first.state["legal"][0]
        answer = await first.act(action)
        assert answer == {"type": "ack", "id": answer["id"], "version": version + 1}
        update = await first.next_of("update")
        assert first.received.index(answer) < first.received.index(update)
        for client in (second_tab, other, watcher):
            seen = await client.next_of("update")
            assert seen["version"] == version + 1
            assert [e["text"] for e in seen["events"]] == [action]
        assert second_tab.state["hand"] == first.state["hand"]
        assert watcher.state["hand"] is None and watcher.state["legal"] == []
        # The other seat moves from its own state; its first tab sees it too.
        reply = await other.act(other.state["legal"][-1])
        assert reply["type"] == "ack"
        await first.next_of("update")
        # The second tab acts for seat 0; the first tab is told.
        await second_tab.next_of("update")
        ack = await second_tab.act(second_tab.state["legal"][0])
        assert ack["type"] == "ack"
        assert (await first.next_of("update"))["version"] == ack["version"]


async def test_the_same_action_id_is_applied_once(server: Server, database_url: str) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, first_leader=0)
        tokens = [await sit(http, table["id"], s, f"P{s}") for s in (0, 1)]
        player = await open_client(server, table["id"], tokens[0])
        tab = await open_client(server, table["id"], tokens[0])
        action = player.state["legal"][0]
        seen = player.version
        first = await player.act(action, id="once")
        await player.next_of("update")
        # The same id again, at the old version, from this tab and from another tab.
        await player.send({"type": "act", "action": action, "version": seen, "id": "once"})
        again = await player.until(lambda m: m["type"] in ("ack", "error"))
        await tab.send({"type": "act", "action": action, "version": seen, "id": "once"})
        from_tab = await tab.until(lambda m: m["type"] in ("ack", "error"))
        assert first == again == from_tab
        engine = create_async_engine(database_url)
        async with engine.connect() as connection:
            rows = (
                await connection.execute(
                    sa.select(db.events.c.action).where(db.events.c.table_id == table["id"])
                )
            ).all()
        await engine.dispose()
        assert [r.action for r in rows] == [action]


async def test_reconnect_resumes_from_a_version_or_resyncs(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, first_leader=0)
        tokens = [await sit(http, table["id"], s, f"P{s}") for s in (0, 1)]
        one = await open_client(server, table["id"], tokens[0])
        start = one.version
        await one.act(one.state["legal"][0])
        await one.next_of("update")
        await one.close()
        two = await open_client(server, table["id"], tokens[1])
        await two.act(two.state["legal"][-1])
        # Applied before the seat comes back (with two processes the seat may connect to
        # the other one, which must have heard of it).
        await two.next_of("update")
        again = await open_client(server, table["id"], tokens[0])
        full = next(m for m in again.received if m["type"] == "update")
        assert full.get("resync") is True and full["events"][0]["index"] == 0
        latest = again.version
        back = Client((await _raw(server, table["id"])), tokens[0])
        await back.hello(version=start)
        resumed = next(m for m in back.received if m["type"] == "update")
        assert "resync" not in resumed
        assert [e["index"] for e in resumed["events"]] == list(range(start, latest))
        assert resumed["state"] == again.state


async def _raw(server: Server, table_id: str) -> Any:
    from websockets.asyncio.client import connect

    return await connect(f"{server.ws}/ws/{table_id}")


async def test_a_rematch_keeps_the_players_who_accept(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, {1: "random"}, one_hand=True)
        token = await sit(http, table["id"], 0, "Ada")
        ada = await open_client(server, table["id"], token)
        path = f"/api/tables/{table['id']}/rematch"
        refused = await http.post(path, json={"token": token, "answer": "accept"})
        assert refused.status_code == 409 and refused.json()["error"] == "not_finished"
        await play_out([ada], random.Random(2))
        stranger = await http.post(path, json={"token": "x" * 43, "answer": "accept"})
        assert stranger.status_code == 403
        bad = await http.post(path, json={"token": token, "answer": "perhaps"})
        assert bad.status_code == 422
        answer = await http.post(path, json={"token": token, "answer": "accept"})
        rematch = answer.json()["rematch"]
        assert rematch["answers"] == {"0": "accept"} and rematch["next_table"]
        following = (await http.get(f"/api/tables/{rematch['next_table']}")).json()["table"]
        assert following["status"] == "playing"
        assert [(s["name"], s["bot"]) for s in following["seats"]] == [
            ("Ada", None),
            (None, "random"),
        ]
        told = await ada.until(lambda m: m["type"] == "rematch" and m["rematch"]["next_table"])
        assert told["rematch"]["next_table"] == following["id"]
        same = await http.post(path, json={"token": token, "answer": "accept"})
        assert same.json()["rematch"]["next_table"] == following["id"]
        # The same token sits at the new table.
        again = await open_client(server, following["id"], token)
        assert again.seat == 0
        mine = (await http.post("/api/tables/mine", json={"tokens": [token]})).json()["tables"]
        assert {t["id"] for t in mine} == {table["id"], following["id"]}


async def test_an_all_bot_table_plays_itself_for_spectators(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, {0: "random", 1: "random"}, one_hand=True)
        assert table["status"] == "playing"
        watcher = await open_client(server, table["id"])
        await asyncio.wait_for(
            watcher.until(lambda m: m["type"] == "update" and m["state"]["outcome"] is not None),
            20,
        )
        assert watcher.state["hand"] is None


async def test_finished_games_and_waiting_tables_survive_a_restart(settings: Settings) -> None:
    async with running(settings) as server, server.http() as http:
        table = await new_table(http, 2, {1: "random"}, one_hand=True)
        token = await sit(http, table["id"], 0, "Ann")
        player = await open_client(server, table["id"], token)
        await play_out([player], random.Random(5))
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
        waiting = await new_table(http, 3, {1: "random"})
        early = await sit(http, waiting["id"], 0, "Early")
    async with running(settings) as server, server.http() as http:
        again = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert again["status"] == "finished"
        assert (await http.get(f"/api/tables/{table['id']}/record")).json() == record
        watcher = await open_client(server, table["id"])
        assert watcher.state["outcome"] == record["outcome"] | {"hands_played": 1}
        listed = (await http.get("/api/tables?status=open")).json()["tables"]
        assert [t["id"] for t in listed] == [waiting["id"]]
        mine = (await http.post("/api/tables/mine", json={"tokens": [token, early]})).json()
        assert {t["id"] for t in mine["tables"]} == {table["id"], waiting["id"]}
        assert (await open_client(server, waiting["id"], early)).seat == 0
