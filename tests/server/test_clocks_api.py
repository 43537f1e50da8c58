"""Clocks and seats handed to bots through the real server (SQLite, PostgreSQL, and two
processes: the HTTP requests go to one and are routed to the table's owner).

The timeouts themselves are played with a fake clock in ``test_clocks.py``; here: the
create form's clock, the leave / take back / vote endpoints with their refusals, the
moves of a seat's bot stored ``by`` it and in the record, and the stored columns.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest

from odin_cards.server.settings import Settings

from .harness import Client, Server, new_table, open_client, sit

TWO_PROCESSES = True


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """No grace before a closed page counts as absent (the vote needs an absent seat)."""
    return dataclasses.replace(settings, presence_grace=0.0)


async def create(http: httpx.AsyncClient, players: int, clock: Any) -> httpx.Response:
    return await http.post("/api/tables", json={"players": players, "clock": clock})


async def seated(server: Server, http: httpx.AsyncClient, players: int) -> tuple[str, list[str]]:
    table = await new_table(http, players)
    return table["id"], [await sit(http, table["id"], s, f"P{s}") for s in range(players)]


async def clock_where(client: Client, check: Any) -> dict[str, Any]:
    message = await client.until(lambda m: m["type"] == "clock" and check(m["clock"]))
    clock: dict[str, Any] = message["clock"]
    return clock


async def seen_online(client: Client, seat: int) -> None:
    """Wait until the table's owner has told ``client`` that ``seat`` is online (with two
    processes, a seat connected to the other one arrives there a moment later)."""
    shown = [m["seats"] for m in client.received if m["type"] == "presence"]
    if not shown or shown[-1][seat] != "online":
        await client.until(lambda m: m["type"] == "presence" and m["seats"][seat] == "online")


async def test_a_clock_is_chosen_at_creation_and_shown(server: Server) -> None:
    async with server.http() as http:
        fast = await create(http, 2, {"kind": "realtime", "preset": "fast"})
        assert fast.status_code == 201, fast.text
        clock = fast.json()["table"]["clock"]
        assert (clock["kind"], clock["move"], clock["bots"]) == ("realtime", 15, {})
        for bad in (
            {"kind": "realtime", "move": 2},
            {"kind": "turn", "preset": "1w"},
            {"kind": "sundial"},
            {"kind": "realtime", "move": "10"},
        ):
            answer = await create(http, 2, bad)
            assert answer.status_code == 422, bad
            assert answer.json()["error"] in ("bad_clock", "invalid")
        lobby = (await http.get("/api/tables")).json()["tables"]
        assert [t["clock"]["preset"] for t in lobby] == ["fast"]  # the bad ones made nothing
        plain = (await create(http, 2, None)).json()["table"]
        assert plain["clock"]["kind"] == "none"


async def test_leave_and_take_back_with_the_seats_token_only(server: Server) -> None:
    async with server.http() as http:
        table_id, tokens = await seated(server, http, 2)
        ann = await open_client(server, table_id, tokens[0])
        for path in ("leave", "take-back"):
            wrong = await http.post(f"/api/tables/{table_id}/{path}", json={"token": "x" * 40})
            assert (wrong.status_code, wrong.json()["error"]) == (403, "unauthorized")
        not_yet = await http.post(f"/api/tables/{table_id}/take-back", json={"token": tokens[1]})
        assert (not_yet.status_code, not_yet.json()["error"]) == (409, "not_handed")

        left = await http.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]})
        assert left.status_code == 200, left.text
        assert left.json()["table"]["clock"]["bots"]["1"]["why"] == "left"
        await clock_where(ann, lambda c: c["bots"].get("1"))
        if ann.state["to_move"] == 0:
            assert (await ann.act(ann.state["legal"][0]))["type"] == "ack"
        shown = await clock_where(ann, lambda c: c["last"] == {"seat": 1, "by": "bot"})
        assert shown["stand_ins"][1] >= 1

        back = await http.post(f"/api/tables/{table_id}/take-back", json={"token": tokens[1]})
        assert back.status_code == 200, back.text
        assert back.json()["table"]["clock"]["bots"] == {}
        await ann.close()


async def test_the_vote_hands_an_absent_seat_to_a_bot(server: Server) -> None:
    async with server.http() as http:
        table_id, tokens = await seated(server, http, 3)
        ann = await open_client(server, table_id, tokens[0])
        bob = await open_client(server, table_id, tokens[1])
        await seen_online(ann, 1)  # before the owner knows Bob is here, he is not
        for token, seat, status, code in (
            (tokens[0], 1, 409, "bad_vote"),  # Bob is here
            (tokens[0], 9, 404, "no_seat"),
            ("y" * 40, 2, 403, "unauthorized"),
        ):
            answer = await http.post(
                f"/api/tables/{table_id}/vote", json={"token": token, "seat": seat}
            )
            assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
        one = await http.post(f"/api/tables/{table_id}/vote", json={"token": tokens[0], "seat": 2})
        assert one.status_code == 200, one.text
        await clock_where(bob, lambda c: c["votes"] == {"2": [0]})
        two = await http.post(f"/api/tables/{table_id}/vote", json={"token": tokens[1], "seat": 2})
        assert two.json()["table"]["clock"]["bots"]["2"]["why"] == "vote"
        await clock_where(ann, lambda c: c["bots"].get("2"))
        await ann.close()
        await bob.close()


async def test_a_game_played_out_by_bots_for_people_says_so_in_its_record(
    server: Server,
) -> None:
    async with server.http() as http:
        table_id, tokens = await seated(server, http, 2)
        watcher = await open_client(server, table_id)  # someone watches: bots do not pause
        for token in tokens:
            answer = await http.post(f"/api/tables/{table_id}/leave", json={"token": token})
            assert answer.status_code == 200, answer.text
        await watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        record = (await http.get(f"/api/tables/{table_id}/record")).json()
        marks = record["moves_by"]
        assert marks and {m["by"] for m in marks} == {"bot"}
        assert [m["number"] for m in marks] == sorted({m["number"] for m in marks})
        await watcher.close()
