"""The lobby's HTTP API: creating tables, validation, seats, lists, records, pages."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect

from odin_cards.odin.bots import LEVELS
from odin_cards.server.adapters import sql_schema as db
from odin_cards.server.settings import Settings
from odin_cards.server.transport.pages import page_html

from .harness import Server, new_table, running, sit

TWO_PROCESSES = True
"""These tests run against one process and against two (``conftest.py``)."""


async def test_levels_come_from_the_bot_registry(server: Server) -> None:
    async with server.http() as http:
        levels = (await http.get("/api/levels")).json()
    assert [level["key"] for level in levels] == list(LEVELS)
    assert all(level["name"] and level["description"] for level in levels)
    async with server.http() as http:
        assert (await http.get("/api/levels?game=odin")).json() == levels
        unknown = await http.get("/api/levels?game=chess")
    assert unknown.status_code == 404 and unknown.json()["error"] == "not_found"


BAD_TABLES: list[tuple[dict[str, object], str]] = [
    ({"players": 7}, "bad_players"),
    ({"players": 1}, "bad_players"),
    ({"players": "four"}, "invalid"),
    ({}, "invalid"),
    ({"players": 4, "colour": 6}, "invalid"),
    ({"players": 3, "bots": {"3": "random"}}, "bad_bots"),
    ({"players": 3, "bots": {"one": "random"}}, "bad_bots"),
    ({"players": 3, "bots": {"1": "genius"}}, "bad_bots"),
    ({"players": 3, "options": {"colours": 4}}, "bad_options"),
    ({"players": 3, "options": {"target": 0}}, "bad_options"),
    ({"players": 3, "options": {"target": 1000}}, "bad_options"),
    ({"players": 3, "options": {"target": "ten"}}, "bad_options"),
    ({"players": 3, "options": {"next_leader": "loser"}}, "bad_options"),
    ({"players": 3, "options": {"first_leader": 3}}, "bad_options"),
    ({"players": 3, "options": {"goat": "yes"}}, "bad_options"),
    ({"players": 3, "options": {"jokers": True}}, "bad_options"),
    ({"game": "chess", "players": 2}, "bad_game"),
    ({"game": "x" * 33, "players": 2}, "invalid"),
]


async def test_bad_tables_are_refused_with_a_reason(server: Server) -> None:
    async with server.http() as http:
        for body, code in BAD_TABLES:
            answer = await http.post("/api/tables", json=body)
            assert answer.status_code == 422, body
            assert answer.json()["error"] == code and answer.json()["message"], body
        assert (await http.get("/api/tables?status=open")).json()["tables"] == []


async def test_every_rule_option_reaches_the_game(server: Server) -> None:
    options = {
        "target": 20,
        "one_hand": False,
        "next_leader": "winner",
        "first_leader": 1,
        "colours": 4,
        "goat": True,
        "removal": "any-two",
    }
    async with server.http() as http:
        table = await new_table(http, 2, {1: "random"}, **options)
        assert table["options"] == options
        assert table["seats"][1] == {
            "seat": 1,
            "name": None,
            "bot": "random",
            "taken": True,
            "locked": False,
            "account": None,
        }
        for key in ("invite_url", "watch_url", "replay_url"):
            assert table[key].startswith(f"/t/{table['id']}")
        assert "seed" not in table


async def test_seats_tokens_and_lists(server: Server, database_url: str) -> None:
    async with server.http() as http:
        table = await new_table(http, 3, {2: "random"})
        tid = table["id"]
        listed = (await http.get("/api/tables", params={"status": "open"})).json()["tables"]
        assert [t["id"] for t in listed] == [tid]
        for name, code in (("", "bad_name"), ("   ", "bad_name"), ("x" * 25, "bad_name")):
            answer = await http.post(f"/api/tables/{tid}/seats/0", json={"name": name})
            assert answer.status_code == 422 and answer.json()["error"] == code
        # A control character is refused at the edge, like every text's (bodies.py).
        answer = await http.post(f"/api/tables/{tid}/seats/0", json={"name": "a\x00b"})
        assert answer.status_code == 422 and answer.json()["error"] == "bad_text"
        assert (
            await http.post(f"/api/tables/{tid}/seats/2", json={"name": "X"})
        ).status_code == 409
        assert (
            await http.post(f"/api/tables/{tid}/seats/5", json={"name": "X"})
        ).status_code == 404
        assert (await http.post("/api/tables/nope/seats/0", json={"name": "X"})).status_code == 404
        token = await sit(http, tid, 0, "  Ada   Lovelace ")
        assert (
            await http.post(f"/api/tables/{tid}/seats/0", json={"name": "Y"})
        ).status_code == 409
        seen = (await http.get(f"/api/tables/{tid}")).json()["table"]
        assert seen["seats"][0]["name"] == "Ada Lovelace" and seen["status"] == "waiting"
        mine = (await http.post("/api/tables/mine", json={"tokens": [token, "junk"]})).json()
        assert [t["id"] for t in mine["tables"]] == [tid]
        await sit(http, tid, 1, "Bo")
        assert (await http.get(f"/api/tables/{tid}")).json()["table"]["status"] == "playing"
        assert (await http.get("/api/tables?status=open")).json()["tables"] == []
        assert (await http.get(f"/api/tables/{tid}/record")).status_code == 403
        assert (await http.get("/api/tables/unknown")).status_code == 404
    # The token is stored only as its SHA-256 hash.
    engine = create_async_engine(database_url)
    async with engine.connect() as connection:
        stored = (
            await connection.execute(
                sa.select(db.seats.c.token_hash).where(
                    db.seats.c.table_id == tid, db.seats.c.seat == 0
                )
            )
        ).scalar_one()
    await engine.dispose()
    assert stored == hashlib.sha256(token.encode()).hexdigest()
    if database_url.startswith("sqlite"):
        path = Path(database_url.split("///", 1)[1])
        files = [path, *path.parent.glob(path.name + "-*")]
        assert not any(token.encode() in f.read_bytes() for f in files)


async def test_pages_are_the_clients_files(server: Server) -> None:
    async with server.http() as http:
        for path, page in (
            ("/", "index.html"),
            ("/t/abc", "table.html"),
            ("/t/abc/watch", "table.html"),
            ("/t/abc/replay", "replay.html"),
        ):
            answer = await http.get(path)
            assert answer.status_code == 200
            assert answer.text == page_html(page)  # the page's template, as it is rendered
            head = await http.head(path)  # link checkers and `curl -I` ask HEAD
            assert head.status_code == 200 and head.content == b""
            assert head.headers["content-type"].startswith("text/html")


async def test_a_table_whose_log_does_not_replay_is_broken_not_dropped(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    async with running(settings) as server, server.http() as http:
        broken = await new_table(http, 2, first_leader=0)
        fine = await new_table(http, 2, first_leader=0)
        for table in (broken, fine):
            for seat in (0, 1):
                await sit(http, table["id"], seat, f"P{seat}")
    engine = create_async_engine(settings.database_url)
    async with engine.begin() as connection:  # seat 1 cannot move first: no replay
        await connection.execute(
            sa.insert(db.events).values(
                table_id=broken["id"], number=0, seat=1, action="pass", created=datetime.now(UTC)
            )
        )
    await engine.dispose()
    with caplog.at_level(logging.ERROR, logger="odin_cards.server.core.tables.hall"):
        async with running(settings) as server, server.http() as http:
            answer = await http.get(f"/api/tables/{broken['id']}")
            assert answer.status_code == 410 and answer.json()["error"] == "broken"
            assert (await http.get(f"/api/tables/{fine['id']}")).status_code == 200
            client = await connect(f"{server.ws}/ws/{broken['id']}")
            error = json.loads(await client.recv())
            assert error["type"] == "error" and error["code"] == "broken"
            await client.close()
    said = [r.getMessage() for r in caplog.records if "tables broken" in r.getMessage()]
    assert said == ["1 tables broken; `odin tables broken` lists them"]


async def test_waiting_tables_and_bot_seats_are_capped(settings: Settings) -> None:
    capped = dataclasses.replace(
        settings, max_waiting_tables=10, waiting_tables_per_address=2, max_bot_seats=3
    )
    async with running(capped) as server, server.http() as http:
        await new_table(http, 2)
        await new_table(http, 3, {0: "random", 1: "random"})
        refused = await http.post("/api/tables", json={"players": 2})  # the address's share
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        bots = {"players": 2, "bots": {"0": "random", "1": "random"}}
        too_many = await http.post("/api/tables", json=bots)
        assert too_many.status_code == 429 and too_many.json()["error"] == "too_many_bots"
        assert too_many.json()["message"]
