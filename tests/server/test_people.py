"""People through the real server (SQLite file and PostgreSQL): Play now matched by
rating (the window widening with the fake clock), bots after the wait, tickets that
expire, blocks (never matched, no chat), bans, reports (and ``odin admin reports``),
follows, online state, tables and invitations, bad inputs refused changing nothing, and
the queue shared by two server processes on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from typer.testing import CliRunner
from websockets.asyncio.client import connect

from odin_cards.cli import app as cli
from odin_cards.server.adapters import sql_schema as db
from odin_cards.server.settings import Settings

from .conftest import POSTGRES, REDIS, _postgres_admin, _redis_reachable
from .fake_clock import FakeClock
from .harness import Client, Server, open_client, running_two

PASSWORD = "correct horse battery"
HEADS_UP = {"players": 2, "target": "one", "clock": "normal"}


class FixedRatings:
    """Ratings the test sets, by account id (the ratings' own store is tested apart)."""

    def __init__(self) -> None:
        self.points: dict[str, float] = {}

    async def rating_for(self, account_id: str, players: int) -> float:
        return self.points.get(account_id, 470.0)


def queue_clock(server: Server) -> FakeClock:
    """Play now's and the friends' clock, from now on moved by the test."""
    assert server.app is not None
    clock = FakeClock(datetime.now(UTC))
    server.app.state.playnow.clock = clock
    server.app.state.friends.clock = clock
    return clock


def fixed_ratings(*servers: Server) -> FixedRatings:
    ratings = FixedRatings()
    for server in servers:
        assert server.app is not None
        server.app.state.playnow.ratings = ratings
    return ratings


@dataclasses.dataclass
class Person:
    http: httpx.AsyncClient
    name: str
    id: str
    csrf: dict[str, str]

    async def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return await self.http.post(path, json=body, headers=self.csrf)


async def person(server: Server, name: str, base: str | None = None) -> Person:
    http = httpx.AsyncClient(base_url=base or server.base, timeout=20.0)
    answer = await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return Person(http, name, body["account"]["id"], {"X-CSRF-Token": body["csrf"]})


async def queue(who: Person, **choice: Any) -> dict[str, Any]:
    answer = await who.post("/api/play-now", {**HEADS_UP, **choice})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def poll(http: httpx.AsyncClient, ticket: str) -> dict[str, Any]:
    answer = await http.post("/api/play-now/poll", json={"ticket": ticket})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def rows(server: Server, table: sa.Table, *where: Any) -> list[Any]:
    assert server.app is not None
    engine = server.app.state.database.engine
    async with engine.connect() as connection:
        return list((await connection.execute(sa.select(table).where(*where))).all())


def said(message: dict[str, Any]) -> list[str]:
    return [str(line["text"]) for line in message["lines"]]


async def close(*people: Person) -> None:
    for who in people:
        await who.http.aclose()


# ---------------------------------------------------------------- matching


async def test_close_ratings_are_matched_at_once_far_ones_when_the_window_widens(
    server: Server,
) -> None:
    clock = queue_clock(server)
    ratings = fixed_ratings(server)
    ann, bob = await person(server, "Ann"), await person(server, "Bob")
    cid, dan = await person(server, "Cid"), await person(server, "Dan")
    ratings.points.update({ann.id: 1000, bob.id: 1050, cid.id: 500, dan.id: 1500})
    first = await queue(ann)
    assert first["state"] == "waiting" and first["waiting"] == 1
    second = await queue(bob)
    assert second["state"] == "matched"
    mine = await poll(ann.http, first["ticket"])
    assert mine["state"] == "matched" and mine["table"] == second["table"]
    assert {mine["seat"], second["seat"]} == {0, 1}
    assert server.app is not None
    table = server.app.state.hall.tables[mine["table"]]
    assert table.status == "playing" and table.settings["rated"] is True
    assert table.settings["clock"]["preset"] == "normal" and table.setup["one_hand"] is True
    seated = await rows(server, db.seats, db.seats.c.table_id == table.id)
    ids = {"Ann": ann.id, "Bob": bob.id}
    assert {row.seat: row.account_id for row in seated} == {
        s.seat: ids[str(s.name)] for s in table.seats
    }
    assert table.seats[mine["seat"]].name == "Ann"
    # The live table knows its seats' accounts at once: the page links them to profiles.
    shown = (await ann.http.get(f"/api/tables/{table.id}")).json()["table"]["seats"]
    assert {s["name"]: s["account"] for s in shown} == {"Ann": "Ann", "Bob": "Bob"}
    # The ticket's secret is the seat's token.
    client = await open_client(server, table.id, first["ticket"])
    assert client.seat == mine["seat"]
    await client.close()

    # 1000 points apart: nobody is matched until both windows are that wide.
    far = [await queue(cid), await queue(dan)]
    for _ in range(5):  # 75 s, polling like a page every 15 s
        await clock.advance(15)
        states = [await poll(p.http, t["ticket"]) for p, t in zip((cid, dan), far, strict=True)]
        assert [s["state"] for s in states] == ["waiting", "waiting"]
        assert states[0]["waiting"] == 2
    await clock.advance(15)  # 90 s: 100 + 10 * 90 = 1000 points
    state = await poll(cid.http, far[0]["ticket"])
    assert state["state"] == "matched"
    assert (await poll(dan.http, far[1]["ticket"]))["table"] == state["table"]
    await close(ann, bob, cid, dan)


async def test_bots_fill_the_table_after_the_wait(server: Server) -> None:
    clock = queue_clock(server)
    async with server.http() as guest:
        answer = await guest.post(
            "/api/play-now", json={"players": 3, "target": "10", "clock": "fast", "name": "Eve"}
        )
        assert answer.status_code == 201, answer.text
        ticket = answer.json()["ticket"]
        assert answer.json()["bots_after"] == 20
        early = await guest.post("/api/play-now/bots", json={"ticket": ticket})
        assert early.status_code == 409 and early.json()["error"] == "too_soon"
        await clock.advance(10)
        assert (await poll(guest, ticket))["bots_after"] == 10
        await clock.advance(10)
        assert (await poll(guest, ticket))["bots_after"] == 0
        bad = await guest.post("/api/play-now/bots", json={"ticket": ticket, "level": "nobody"})
        assert bad.status_code == 422 and bad.json()["error"] == "bad_bots"
        filled = await guest.post("/api/play-now/bots", json={"ticket": ticket})
        assert filled.status_code == 200, filled.text
        state = filled.json()
        assert state["state"] == "matched" and state["seat"] == 0
        assert server.app is not None
        table = server.app.state.hall.tables[state["table"]]
        # A guest's rating is a new person's: the bot of that reference rating.
        assert [s.bot for s in table.seats] == [None, "heuristic", "heuristic"]
        assert table.seats[0].name == "Eve" and table.status == "playing"
        assert table.settings.get("rated") is not True  # a guest: unrated
        again = await guest.post("/api/play-now/bots", json={"ticket": ticket})
        assert again.json()["table"] == table.id  # a second press changes nothing
        assert len(await rows(server, db.tables)) == 1


async def test_an_accounts_bots_are_near_its_rating_and_the_table_is_rated(
    server: Server,
) -> None:
    clock = queue_clock(server)
    ratings = fixed_ratings(server)
    ann = await person(server, "Ann")
    ratings.points[ann.id] = 850.0
    waiting = await queue(ann)
    await clock.advance(20)
    filled = await ann.post("/api/play-now/bots", {"ticket": waiting["ticket"]})
    assert filled.status_code == 200, filled.text
    assert server.app is not None
    table = server.app.state.hall.tables[filled.json()["table"]]
    assert [s.bot for s in table.seats] == [None, "expert"]  # 740: the nearest level
    assert table.settings["rated"] is True
    chosen = await queue(ann)
    await clock.advance(20)
    picked = await ann.post("/api/play-now/bots", {"ticket": chosen["ticket"], "level": "random"})
    other = server.app.state.hall.tables[picked.json()["table"]]
    assert [s.bot for s in other.seats] == [None, "random"]
    await close(ann)


async def test_a_ticket_whose_page_stops_polling_expires(server: Server) -> None:
    clock = queue_clock(server)
    ann, bob = await person(server, "Ann"), await person(server, "Bob")
    gone = await queue(ann)
    await clock.advance(25)  # past the ticket's 20 s without a poll
    fresh = await queue(bob)
    assert fresh["state"] == "waiting" and fresh["waiting"] == 1
    assert (await poll(ann.http, gone["ticket"]))["state"] == "expired"
    await close(ann, bob)


async def test_a_group_whose_table_was_never_made_waits_again(server: Server) -> None:
    """A process that claimed a group and stopped before making its table (here: the
    claim is written by hand) leaves it ``matching``; 30 s later it waits again."""
    clock = queue_clock(server)
    ann, bob = await person(server, "Ann"), await person(server, "Bob")
    first = await queue(ann, players=3)
    second = await queue(bob, players=3)
    assert server.app is not None
    engine = server.app.state.database.engine
    async with engine.begin() as connection:
        await connection.execute(
            sa.update(db.match_tickets).values(state="matching", claimed=clock.now())
        )
    assert (await poll(ann.http, first["ticket"]))["state"] == "matching"
    await clock.advance(31)
    assert (await poll(ann.http, first["ticket"]))["state"] == "waiting"
    assert (await poll(bob.http, second["ticket"]))["state"] == "waiting"
    cid = await person(server, "Cid")
    assert (await queue(cid, players=3))["state"] == "matched"
    assert (await poll(ann.http, first["ticket"]))["state"] == "matched"
    await close(ann, bob, cid)


async def test_one_ticket_per_account_and_cancel(server: Server) -> None:
    queue_clock(server)
    ann = await person(server, "Ann")
    first = await queue(ann)
    second = await queue(ann, players=3)
    assert (await poll(ann.http, first["ticket"]))["state"] == "cancelled"
    cancelled = await ann.post("/api/play-now/cancel", {"ticket": second["ticket"]})
    assert cancelled.json()["state"] == "cancelled"
    assert [r.state for r in await rows(server, db.match_tickets)] == ["cancelled"] * 2
    await close(ann)


# ---------------------------------------------------------------- blocks and bans


async def test_people_who_blocked_each_other_are_never_matched(server: Server) -> None:
    queue_clock(server)
    ann, bob, cid = [await person(server, n) for n in ("Ann", "Bob", "Cid")]
    blocked = await ann.post("/api/blocks", {"name": "bob"})
    assert blocked.status_code == 201, blocked.text
    first, second = await queue(ann), await queue(bob)
    assert second["state"] == "waiting" and second["waiting"] == 2
    third = await queue(cid)
    assert third["state"] == "matched"
    states = [await poll(ann.http, first["ticket"]), await poll(bob.http, second["ticket"])]
    assert sorted(s["state"] for s in states) == ["matched", "waiting"]
    # Bob, blocked, can neither follow nor invite Ann.
    follow = await bob.post("/api/friends", {"name": "Ann"})
    assert follow.status_code == 403 and follow.json()["error"] == "blocked"
    await close(ann, bob, cid)


async def test_no_chat_reaches_a_person_from_someone_they_blocked(server: Server) -> None:
    queue_clock(server)
    ann, bob = await person(server, "Ann"), await person(server, "Bob")
    first, second = await queue(ann), await queue(bob)
    table_id = second["table"]
    at_a = await open_client(server, table_id, first["ticket"])
    at_b = await open_client(server, table_id, second["ticket"])
    await at_b.send({"type": "chat", "text": "before the block"})
    await at_a.until(lambda m: m["type"] == "chat" and said(m) == ["before the block"])
    assert (await ann.post("/api/blocks", {"name": "Bob"})).status_code == 201
    await at_b.send({"type": "chat", "text": "after the block"})
    await at_a.send({"type": "chat", "text": "from Ann"})
    # Bob still hears Ann; Ann hears her own line, and never Bob's second one.
    await at_b.until(lambda m: m["type"] == "chat" and said(m) == ["from Ann"])
    await at_a.until(lambda m: m["type"] == "chat" and said(m) == ["from Ann"])
    texts = [text for m in at_a.received if m["type"] == "chat" for text in said(m)]
    assert texts == ["before the block", "from Ann"]
    # A new connection's history hides every line of Bob's, from before the block too.
    again = await open_client(server, table_id, first["ticket"])
    history = await again.next_of("chat")
    assert said(history) == ["from Ann"]
    for client in (at_a, at_b, again):
        await client.close()
    await close(ann, bob)


async def test_a_signed_in_spectator_hears_nothing_from_someone_they_blocked(
    server: Server,
) -> None:
    queue_clock(server)
    ann, bob, cid = [await person(server, n) for n in ("Ann", "Bob", "Cid")]
    first, second = await queue(ann), await queue(bob)
    table_id = second["table"]
    assert (await cid.post("/api/blocks", {"name": "Ann"})).status_code == 201
    at_a = await open_client(server, table_id, first["ticket"])
    at_b = await open_client(server, table_id, second["ticket"])
    await at_a.send({"type": "chat", "text": "from Ann"})
    await at_b.send({"type": "chat", "text": "from Bob"})
    await at_b.until(lambda m: m["type"] == "chat" and said(m) == ["from Bob"])
    cookie = f"odin_session={cid.http.cookies['odin_session']}"
    connection = await connect(
        f"{server.ws}/ws/{table_id}", open_timeout=20, additional_headers={"Cookie": cookie}
    )
    watcher = Client(connection)
    await watcher.hello()
    history = await watcher.next_of("chat")
    assert said(history) == ["from Bob"]  # Cid, watching, blocked Ann
    anonymous = await open_client(server, table_id)
    assert said(await anonymous.next_of("chat")) == ["from Ann", "from Bob"]
    for client in (at_a, at_b, watcher, anonymous):
        await client.close()
    await close(ann, bob, cid)


async def test_a_banned_account_is_never_matched_and_cannot_queue(server: Server) -> None:
    queue_clock(server)
    ann, bob = await person(server, "Ann"), await person(server, "Bob")
    waiting = await queue(ann)
    assert server.app is not None
    await server.app.state.accounts.ban("Ann")
    joined = await queue(bob)
    assert joined["state"] == "waiting"
    assert (await poll(ann.http, waiting["ticket"]))["state"] == "cancelled"
    # Ann's session ended with the ban: without a name she is nobody.
    refused = await ann.post("/api/play-now", HEADS_UP)
    assert refused.status_code == 422 and refused.json()["error"] == "bad_name"
    await close(ann, bob)


# ---------------------------------------------------------------- friends


async def test_follow_online_tables_and_invitations(server: Server) -> None:
    queue_clock(server)
    ann, bob, cid = [await person(server, n) for n in ("Ann", "Bob", "Cid")]
    assert (await ann.post("/api/friends", {"name": "BOB"})).status_code == 201
    listed = (await ann.http.get("/api/friends")).json()
    assert listed["friends"] == [{"name": "Bob", "online": False, "tables": []}]
    await bob.post("/api/friends/seen", {})  # a page of Bob's is open
    listed = (await ann.http.get("/api/friends")).json()
    assert listed["friends"] == [{"name": "Bob", "online": True, "tables": []}]
    # Bob sits at a public table and a private one.
    public = await bob.post("/api/tables", {"players": 3, "options": {}})
    private = await bob.post("/api/tables", {"players": 3, "options": {}, "visibility": "private"})
    for created in (public, private):
        table_id = created.json()["table"]["id"]
        assert (
            await bob.post(f"/api/tables/{table_id}/seats/0", {"name": "Bob"})
        ).status_code == 200
    public_id, private_id = public.json()["table"]["id"], private.json()["table"]["id"]
    tables = (await ann.http.get("/api/friends")).json()["friends"][0]["tables"]
    assert [t["id"] for t in tables] == [public_id]  # never a private table
    # Bob follows Ann and invites her to the private table.
    assert (await bob.post("/api/friends", {"name": "Ann"})).status_code == 201
    invited = await bob.post("/api/invites", {"name": "Ann", "table": private_id})
    assert invited.status_code == 201, invited.text
    listed = (await ann.http.get("/api/friends")).json()
    assert [(i["from"], i["table"]) for i in listed["invitations"]] == [("Bob", private_id)]
    assert {t["id"] for t in listed["friends"][0]["tables"]} == {public_id, private_id}
    invite_id = listed["invitations"][0]["id"]
    accepted = await ann.post(f"/api/invites/{invite_id}", {"answer": "accept"})
    assert accepted.json() == {"table": private_id, "url": f"/t/{private_id}"}
    assert (await ann.http.get("/api/friends")).json()["invitations"] == []
    # Cid follows nobody: he may not invite Ann; Ann unfollows Bob.
    refused = await cid.post("/api/invites", {"name": "Ann", "table": public_id})
    assert refused.status_code == 403 and refused.json()["error"] == "not_friend"
    assert (await ann.post("/api/friends/unfollow", {"name": "Bob"})).status_code == 200
    assert (await ann.http.get("/api/friends")).json()["friends"] == []
    await close(ann, bob, cid)


async def test_online_follows_the_throttled_heartbeat(server: Server) -> None:
    clock = queue_clock(server)
    ann, bob = await person(server, "Ann"), await person(server, "Bob")
    await ann.post("/api/friends", {"name": "Bob"})
    assert (await bob.post("/api/friends/seen", {})).json() == {"written": True}
    assert (await bob.post("/api/friends/seen", {})).json() == {"written": False}
    await clock.advance(121)
    await ann.post("/api/friends/seen", {})
    friends = (await ann.http.get("/api/friends")).json()["friends"]
    assert friends[0]["online"] is False  # Bob's last heartbeat is 121 s old
    assert (await bob.post("/api/friends/seen", {})).json() == {"written": True}
    assert (await ann.http.get("/api/friends")).json()["friends"][0]["online"] is True
    await close(ann, bob)


async def test_reports_are_stored_and_listed_by_odin_admin_reports(
    server: Server, settings: Settings
) -> None:
    queue_clock(server)
    ann, bob = await person(server, "Ann"), await person(server, "Bob")
    first = await ann.post(
        "/api/reports", {"name": "Bob", "reason": "abuse", "text": "rude  in chat", "table": "t1"}
    )
    assert first.status_code == 201, first.text
    await bob.post("/api/reports", {"name": "Ann", "reason": "spam"})
    stored = await rows(server, db.reports)
    assert {(r.reporter, r.reported, r.reason, r.text) for r in stored} == {
        (ann.id, bob.id, "abuse", "rude in chat"),
        (bob.id, ann.id, "spam", None),
    }
    for _ in range(9):  # ten reports an hour
        assert (
            await ann.post("/api/reports", {"name": "Bob", "reason": "other"})
        ).status_code == 201
    limited = await ann.post("/api/reports", {"name": "Bob", "reason": "other"})
    assert limited.status_code == 429 and limited.json()["error"] == "rate_limited"
    result = await asyncio.to_thread(
        CliRunner().invoke,
        cli,
        ["admin", "reports", "--database-url", settings.database_url, "--limit", "3"],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "Ann" in line or "Bob" in line]
    assert len(lines) == 3 and all("other" in line for line in lines)  # newest first
    everything = await asyncio.to_thread(
        CliRunner().invoke,
        cli,
        ["admin", "reports", "--database-url", settings.database_url],
        env={"COLUMNS": "200"},
    )
    assert "rude in chat" in everything.output and "spam" in everything.output
    await close(ann, bob)


# ---------------------------------------------------------------- bad inputs


BAD_INPUTS: list[tuple[str, dict[str, Any], str]] = [
    ("/api/play-now", {**HEADS_UP, "players": 7}, "bad_choice"),
    ("/api/play-now", {**HEADS_UP, "players": True}, "invalid"),
    ("/api/play-now", {**HEADS_UP, "target": "12"}, "bad_choice"),
    ("/api/play-now", {**HEADS_UP, "clock": "blitz"}, "bad_choice"),
    ("/api/play-now", {**HEADS_UP, "extra": 1}, "invalid"),
    ("/api/play-now", {**HEADS_UP, "previous": "x" * 129}, "invalid"),
    ("/api/play-now/poll", {"ticket": "no such ticket"}, "not_found"),
    ("/api/play-now/bots", {"ticket": "no such ticket"}, "not_found"),
    ("/api/friends", {"name": "nobody"}, "no_person"),
    ("/api/friends", {"name": "Ann"}, "bad_name"),
    ("/api/friends", {"name": "x" * 33}, "invalid"),
    ("/api/blocks", {"name": "nobody"}, "no_person"),
    ("/api/invites", {"name": "Bob", "table": "nosuchtable"}, "not_friend"),
    ("/api/reports", {"name": "Bob", "reason": "ugly"}, "invalid"),
    ("/api/reports", {"name": "Bob", "reason": "other", "text": "a\x00b"}, "bad_text"),
    ("/api/reports", {"name": "Bob", "reason": "other", "text": "x" * 501}, "bad_report"),
    ("/api/invites/nosuchinvite", {"answer": "accept"}, "not_found"),
    # A control character is refused at the edge, in every text (transport/bodies.py).
    ("/api/friends", {"name": "Bob\x00"}, "bad_text"),
    ("/api/blocks", {"name": "B\x00b"}, "bad_text"),
    ("/api/invites", {"name": "Bob", "table": "a\x00b"}, "bad_text"),
    ("/api/reports", {"name": "Bob", "reason": "spam", "table": "a\x00b"}, "bad_text"),
    ("/api/reports", {"name": "Bob", "reason": "spam", "table": "../x"}, "bad_report"),
    ("/api/play-now/poll", {"ticket": "a\x00b"}, "bad_text"),
]


async def test_bad_inputs_are_refused_and_change_nothing(server: Server) -> None:
    queue_clock(server)
    ann, bob = await person(server, "Ann"), await person(server, "Bob")
    before = {t.name: await rows(server, t) for t in PEOPLE_TABLES}
    for path, body, code in BAD_INPUTS:
        answer = await ann.post(path, body)
        assert answer.status_code >= 400 and answer.json()["error"] == code, (path, answer.text)
        assert {t.name: await rows(server, t) for t in PEOPLE_TABLES} == before, path
    async with server.http() as guest:
        for name, code in (("a\x00b", "bad_text"), (" ", "bad_name"), ("x" * 25, "bad_name")):
            answer = await guest.post("/api/play-now", json={**HEADS_UP, "name": name})
            assert answer.status_code == 422 and answer.json()["error"] == code, name
        answer = await guest.post("/api/play-now", json={**HEADS_UP, "name": None})
        assert answer.status_code == 422 and answer.json()["error"] == "bad_name"
    assert {t.name: await rows(server, t) for t in PEOPLE_TABLES} == before
    await close(ann, bob)


PEOPLE_TABLES = (db.match_tickets, db.follows, db.blocks, db.reports, db.invites, db.tables)


async def test_writes_need_the_csrf_token_and_friends_need_an_account(server: Server) -> None:
    ann = await person(server, "Ann")
    await person(server, "Bob")
    for path, body in [
        ("/api/friends", {"name": "Bob"}),
        ("/api/blocks", {"name": "Bob"}),
        ("/api/reports", {"name": "Bob", "reason": "spam"}),
        ("/api/play-now", HEADS_UP),
    ]:
        answer = await ann.http.post(path, json=body)  # the cookie, no CSRF token
        assert answer.status_code == 403 and answer.json()["error"] == "csrf", path
    async with server.http() as guest:
        assert (await guest.get("/api/friends")).status_code == 401
        assert (await guest.post("/api/blocks", json={"name": "Bob"})).status_code == 401
    for table in PEOPLE_TABLES:
        assert await rows(server, table) == []
    await close(ann)


async def test_the_queue_is_bounded_per_address_for_guests(server: Server) -> None:
    queue_clock(server)
    async with server.http() as guest:
        for n in range(4):
            answer = await guest.post(
                "/api/play-now", json={**HEADS_UP, "players": 6, "name": f"G{n}"}
            )
            assert answer.status_code == 201
        fifth = await guest.post("/api/play-now", json={**HEADS_UP, "players": 6, "name": "G5"})
        assert fifth.status_code == 429 and fifth.json()["error"] == "rate_limited"
    assert len(await rows(server, db.match_tickets)) == 4


async def test_a_guest_cannot_queue_under_an_accounts_name(server: Server) -> None:
    """As when taking a seat: a guest under an account's name (any case or width) is
    refused with ``409 account_name``, and nothing is queued; other names are fine."""
    queue_clock(server)
    ann = await person(server, "Ann")
    async with server.http() as guest:
        for name in ("Ann", "aNN", "  ann ", "\uff21\uff4e\uff4e"):
            answer = await guest.post("/api/play-now", json={**HEADS_UP, "name": name})
            assert answer.status_code == 409, (name, answer.text)
            assert answer.json()["error"] == "account_name" and "log in as Ann" in answer.text
        assert await rows(server, db.match_tickets) == []
        answer = await guest.post("/api/play-now", json={**HEADS_UP, "name": "Annie"})
        assert answer.status_code == 201 and answer.json()["name"] == "Annie"
    mine = await queue(ann)  # the account itself plays under its name
    assert mine["name"] == "Ann"
    assert len(await rows(server, db.match_tickets)) == 2
    await close(ann)


# ---------------------------------------------------------------- several processes


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database of its own (this test is PostgreSQL's only)."""
    admin: Any = await _postgres_admin()
    name = f"odin_test_{secrets.token_hex(6)}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES.rsplit("/", 1)[0] + f"/{name}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.multiprocess
async def test_two_processes_share_one_queue_and_nobody_is_matched_twice(
    postgres_url: str,
) -> None:
    if not _redis_reachable():
        pytest.skip("Redis on 127.0.0.1:6379 is not reachable")
    clustered = Settings(
        database_url=postgres_url,
        bot_delay=0,
        bot_workers=0,
        redis_url=REDIS,
        redis_prefix=f"odin-test-{secrets.token_hex(4)}:",
    )
    async with running_two(clustered) as pair:
        assert pair.ws_base is not None
        second = Server(pair.ws_base, clustered)
        # Eight people, half on each process, ask at once: 4 tables, each seat once.
        people = [
            await person(pair, f"Player{n}", base=second.base if n % 2 else pair.base)
            for n in range(8)
        ]
        try:
            joined = await asyncio.gather(*(queue(who) for who in people))
            tickets = [str(j["ticket"]) for j in joined]
            states: dict[str, dict[str, Any]] = {}
            for _ in range(100):
                for who, ticket in zip(people, tickets, strict=True):
                    states[ticket] = await poll(who.http, ticket)
                if all(s["state"] == "matched" for s in states.values()):
                    break
            assert all(s["state"] == "matched" for s in states.values())
            seats = [(s["table"], s["seat"]) for s in states.values()]
            assert len(set(seats)) == 8 and len({t for t, _ in seats}) == 4
            # A seat's token works at a process that did not make the table.
            ticket = tickets[0]
            client = await open_client(second, states[ticket]["table"], ticket)
            assert client.seat == states[ticket]["seat"]
            await client.close()
        finally:
            await close(*people)
