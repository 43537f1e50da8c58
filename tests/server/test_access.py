"""Private tables, the creator's token (cancel, lock and free seats), waiting tables that
close by themselves (``core/features/access.py``).

Through the real server (SQLite, PostgreSQL, and two processes: HTTP to one, WebSockets to
the other), then the store's own refusal of a locked seat, then expiry with the fake clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from odin_cards.server.adapters import Database, open_database
from odin_cards.server.adapters.memory import MemoryDatabase
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import SeatTaken
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.settings import Settings
from storage.data import a_table

from .fake_clock import FakeClock, settle
from .harness import Server, open_client, running, sit

TWO_PROCESSES = True


async def create(http: httpx.AsyncClient, **body: Any) -> tuple[dict[str, Any], str]:
    """A new table and its creator token."""
    answer = await http.post("/api/tables", json={"players": 3, "options": {}, **body})
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["table"], data["creator"]


async def listed(http: httpx.AsyncClient) -> list[str]:
    return [t["id"] for t in (await http.get("/api/tables")).json()["tables"]]


async def test_a_private_table_is_never_listed_but_its_link_works(server: Server) -> None:
    async with server.http() as http:
        private, _ = await create(http, visibility="private")
        public, _ = await create(http)
        ids = await listed(http)
        assert public["id"] in ids and private["id"] not in ids
        got = await http.get(f"/api/tables/{private['id']}")
        assert got.status_code == 200 and got.json()["table"]["status"] == "waiting"
        token = await sit(http, private["id"], 0, "Ann")
        ann = await open_client(server, private["id"], token)
        assert ann.seat == 0
        await ann.close()
        assert private["id"] not in await listed(http)
        bad = await http.post(
            "/api/tables", json={"players": 3, "options": {}, "visibility": "secret"}
        )
        assert bad.status_code == 422


async def test_only_the_creator_cancels_a_waiting_table_and_then_nobody_sits(
    server: Server,
) -> None:
    async with server.http() as http:
        table, creator = await create(http)
        table_id = table["id"]
        token = await sit(http, table_id, 0, "Ann")
        ann = await open_client(server, table_id, token)
        for wrong in (token, "x" * 40, ""):  # a seat's token is not the creator's
            refused = await http.post(f"/api/tables/{table_id}/cancel", json={"creator": wrong})
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"] == "unauthorized"
        assert table_id in await listed(http)
        cancelled = await http.post(f"/api/tables/{table_id}/cancel", json={"creator": creator})
        assert cancelled.status_code == 200, cancelled.text
        assert cancelled.json()["table"]["status"] == "cancelled"
        told = await ann.until(lambda m: m["type"] == "table")
        assert told["table"]["status"] == "cancelled"
        assert table_id not in await listed(http)
        seat = await http.post(f"/api/tables/{table_id}/seats/1", json={"name": "Ben"})
        assert seat.status_code == 410 and seat.json()["error"] == "cancelled"
        shown = await http.get(f"/api/tables/{table_id}")
        assert shown.json()["table"]["status"] == "cancelled"
        again = await http.post(f"/api/tables/{table_id}/cancel", json={"creator": creator})
        assert again.status_code == 200  # a repeat (lost answer) changes nothing
        await ann.close()


async def test_a_running_table_cannot_be_cancelled(server: Server) -> None:
    async with server.http() as http:
        table, creator = await create(http, players=2, bots={"1": "random"})
        await sit(http, table["id"], 0, "Ann")
        refused = await http.post(f"/api/tables/{table['id']}/cancel", json={"creator": creator})
        assert refused.status_code == 409 and refused.json()["error"] == "started"


async def test_a_locked_seat_cannot_be_taken_until_it_is_freed(server: Server) -> None:
    async with server.http() as http:
        table, creator = await create(http)
        table_id = table["id"]
        lock = f"/api/tables/{table_id}/seats/2/lock"
        refused = await http.post(lock, json={"creator": "nope", "locked": True})
        assert refused.status_code == 403
        locked = await http.post(lock, json={"creator": creator, "locked": True})
        assert locked.status_code == 200, locked.text
        assert [s["locked"] for s in locked.json()["table"]["seats"]] == [False, False, True]
        taken = await http.post(f"/api/tables/{table_id}/seats/2", json={"name": "Eve"})
        assert taken.status_code == 409 and taken.json()["error"] == "locked"
        await sit(http, table_id, 0, "Ann")
        await sit(http, table_id, 1, "Ben")  # every open seat taken: still waiting
        assert (await http.get(f"/api/tables/{table_id}")).json()["table"]["status"] == "waiting"
        freed = await http.post(lock, json={"creator": creator, "locked": False})
        assert freed.status_code == 200
        await sit(http, table_id, 2, "Cid")
        shown = (await http.get(f"/api/tables/{table_id}")).json()["table"]
        assert shown["status"] == "playing"
        late = await http.post(lock, json={"creator": creator, "locked": True})
        assert late.status_code == 409 and late.json()["error"] == "started"


async def test_bad_lock_requests_change_nothing(server: Server) -> None:
    async with server.http() as http:
        table, creator = await create(http)
        table_id = table["id"]
        await sit(http, table_id, 0, "Ann")
        taken = await http.post(
            f"/api/tables/{table_id}/seats/0/lock", json={"creator": creator, "locked": True}
        )
        assert taken.status_code == 409 and taken.json()["error"] == "taken"
        missing = await http.post(
            f"/api/tables/{table_id}/seats/7/lock", json={"creator": creator, "locked": True}
        )
        assert missing.status_code == 404 and missing.json()["error"] == "no_seat"
        negative = await http.post(  # a seat is written with digits alone
            f"/api/tables/{table_id}/seats/-1/lock", json={"creator": creator, "locked": True}
        )
        assert negative.status_code == 422 and negative.json()["error"] == "invalid"
        for body in (
            {"creator": creator, "locked": "yes"},
            {"creator": creator},
            {"creator": "x" * 500, "locked": True},
            {"creator": creator, "locked": True, "extra": 1},
        ):
            bad = await http.post(f"/api/tables/{table_id}/seats/1/lock", json=body)
            assert bad.status_code == 422, body
        unknown = await http.post(
            "/api/tables/nosuchtable/seats/1/lock", json={"creator": creator, "locked": True}
        )
        assert unknown.status_code == 404
        shown = (await http.get(f"/api/tables/{table_id}")).json()["table"]
        assert [s["locked"] for s in shown["seats"]] == [False, False, False]


async def test_a_waiting_table_says_when_it_closes(server: Server) -> None:
    async with server.http() as http:
        table, _ = await create(http)
        closes = datetime.fromisoformat(table["closes_at"])
        created = datetime.fromisoformat(table["created"])
        assert closes - created == timedelta(seconds=server.settings.waiting_expiry)
        [listed_table] = [
            t for t in (await http.get("/api/tables")).json()["tables"] if t["id"] == table["id"]
        ]
        assert listed_table["closes_at"] == table["closes_at"]


# ---------------------------------------------------------------- the store


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    async with open_database(database_url) as database:
        yield database


async def test_the_store_never_gives_a_locked_seat(database: Database) -> None:
    await database.store.insert(a_table("t1"))
    await database.store.lock_seat("t1", 1, True)
    with pytest.raises(SeatTaken):
        await database.store.take_seat("t1", 1, "Eve", "ee" * 32, False)
    stored = await database.store.load("t1")
    assert stored is not None and stored.table.seats[1].locked
    await database.store.lock_seat("t1", 1, False)
    await database.store.take_seat("t1", 1, "Ann", "aa" * 32, False)
    with pytest.raises(SeatTaken):  # a taken seat is not locked
        await database.store.lock_seat("t1", 1, True)


async def test_the_store_lists_no_private_table(database: Database) -> None:
    private, public = a_table("t1"), a_table("t2")
    private.settings = {"visibility": "private"}
    private.creator_hash = "cc" * 32
    await database.store.insert(private)
    await database.store.insert(public)
    since = private.created - timedelta(days=1)
    assert [t.id for t in await database.store.waiting("odin", since, 10)] == ["t2"]
    stored = await database.store.load("t1")
    assert stored is not None and stored.table.creator_hash == "cc" * 32


# ---------------------------------------------------------------- expiry (fake clock)


class NoBots:
    async def move(self, request: Any) -> str:
        raise AssertionError("no bot plays here")

    def cancel(self, table_id: str) -> None:
        pass

    def close(self) -> None:
        pass


class Texts:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)

    def close(self, code: int) -> None:
        pass


async def test_a_waiting_table_nobody_completes_closes_and_says_so() -> None:
    clock, db = FakeClock(), MemoryDatabase()
    settings = Settings(database_url="memory:", waiting_expiry=3600, expiry_interval=60)
    hall = Hall(db.store, db.log, NoBots(), clock, settings)
    await hall.start()
    await settle()  # its expiry timer is set
    try:
        table = await hall.create(2, {}, {})
        assert hall.view(table)["closes_at"] == (clock.now() + timedelta(hours=1)).isoformat()
        watcher = Texts()
        await hall.hello(Session(watcher), table, None, None)
        await clock.advance(3600 + 60)
        await settle()
        assert db.tables[table.id].status == "expired"
        assert any('"status":"expired"' in text for text in watcher.texts)
        assert hall.open_tables() == []
        closed = await hall.get(table.id)
        assert closed.status == "expired" and "closes_at" not in hall.view(closed)
        with pytest.raises(DomainError) as refused:
            await hall.take_seat(closed, 0, "Ann")
        assert refused.value.code == "expired"
    finally:
        await hall.stop()


async def test_the_creator_token_and_a_locked_seat_survive_a_restart(settings: Settings) -> None:
    async with running(settings) as server, server.http() as http:
        table, creator = await create(http)
        lock = f"/api/tables/{table['id']}/seats/1/lock"
        assert (await http.post(lock, json={"creator": creator, "locked": True})).status_code == 200
    async with running(settings) as server, server.http() as http:
        shown = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert [s["locked"] for s in shown["seats"]] == [False, True, False]
        taken = await http.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Eve"})
        assert taken.status_code == 409 and taken.json()["error"] == "locked"
        cancelled = await http.post(f"/api/tables/{table['id']}/cancel", json={"creator": creator})
        assert cancelled.json()["table"]["status"] == "cancelled"
    async with running(settings) as server, server.http() as http:
        assert table["id"] not in await listed(http)
        shown = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert shown["status"] == "cancelled"
