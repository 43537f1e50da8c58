"""Accounts through the real server (SQLite file and PostgreSQL): sign up, log in and out,
wrong passwords, lockout, CSRF, session expiry (fake clock), guest upgrade, seats on
another device, password change, deletion, bans (domain and ``odin admin``), bad inputs,
and no password or session id in the logs."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from datetime import UTC, datetime
from typing import Any, Literal

import httpx
import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from typer.testing import CliRunner, Result
from websockets.asyncio.client import connect

from odin_cards.cli import app as cli
from odin_cards.server.adapters import sql_schema as db
from odin_cards.server.core.people.accounts import Accounts
from odin_cards.server.settings import Settings
from odin_cards.server.transport.quotas import Quotas

from .fake_clock import FakeClock
from .harness import Client, Server, new_table, open_client, running, sit

PASSWORD = "correct horse battery"


def fake_clock(server: Server) -> FakeClock:
    """The accounts' clock, from now on moved by the test."""
    assert server.app is not None
    clock = FakeClock(datetime.now(UTC))
    server.app.state.accounts.clock = clock
    return clock


async def sign_up(
    http: httpx.AsyncClient, name: str, password: str = PASSWORD, seats: list[str] | None = None
) -> dict[str, Any]:
    answer = await http.post(
        "/api/account/signup", json={"name": name, "password": password, "seats": seats or []}
    )
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def log_in(
    http: httpx.AsyncClient, name: str, password: str = PASSWORD, seats: list[str] | None = None
) -> httpx.Response:
    return await http.post(
        "/api/account/login", json={"name": name, "password": password, "seats": seats or []}
    )


async def me(http: httpx.AsyncClient) -> dict[str, Any] | None:
    answer = await http.get("/api/account")
    assert answer.status_code == 200
    account: dict[str, Any] | None = answer.json()["account"]
    return account


async def csrf(http: httpx.AsyncClient) -> dict[str, str]:
    token = (await http.get("/api/account")).json()["csrf"]
    assert token
    return {"X-CSRF-Token": token}


async def admin(command: str, name: str, database_url: str) -> Result:
    """``odin admin <command> <name>`` beside the running server (in a thread of its own:
    the command runs its own event loop)."""
    arguments = ["admin", command, name, "--database-url", database_url]
    return await asyncio.to_thread(CliRunner().invoke, cli, arguments)


async def rows(server: Server, table: sa.Table, *where: Any) -> list[Any]:
    assert server.app is not None
    engine = server.app.state.database.engine
    async with engine.connect() as connection:
        return list((await connection.execute(sa.select(table).where(*where))).all())


async def test_sign_up_log_out_and_log_in_again(server: Server) -> None:
    async with server.http() as http:
        answer = await http.post(
            "/api/account/signup", json={"name": "Ann_1", "password": PASSWORD}
        )
        assert answer.status_code == 201, answer.text
        cookie = answer.headers["set-cookie"]
        assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
        assert "secure" not in cookie.lower()  # plain HTTP here
        first = http.cookies["odin_session"]
        assert PASSWORD not in answer.text and first not in answer.text
        assert (await me(http)) == answer.json()["account"]
        assert (await me(http) or {})["name"] == "Ann_1"

        out = await http.post("/api/account/logout", headers=await csrf(http))
        assert out.status_code == 200 and await me(http) is None
        assert "odin_session" not in http.cookies

        again = await log_in(http, "ann_1")  # any case
        assert again.status_code == 200, again.text
        assert (await me(http) or {})["name"] == "Ann_1"
        second = http.cookies["odin_session"]
        assert second != first
    async with server.http() as old:
        old.cookies.set("odin_session", first)
        assert await me(old) is None  # the logged-out session stays ended
    # Stored: the session's hash and the argon2id hash, never the secrets.
    stored = await rows(server, db.accounts)
    assert len(stored) == 1 and stored[0].password_hash.startswith("$argon2id$")
    sessions = await rows(server, db.account_sessions)
    assert [s.id for s in sessions] != [second] and len(sessions) == 1


async def test_a_new_session_id_at_every_login(server: Server) -> None:
    async with server.http() as http:
        await sign_up(http, "Bea")
        before = http.cookies["odin_session"]
        assert (await log_in(http, "Bea")).status_code == 200
        after = http.cookies["odin_session"]
        assert after != before
    async with server.http() as old:
        old.cookies.set("odin_session", before)
        assert await me(old) is None  # the session the browser had before is ended


async def test_https_behind_a_proxy_gets_a_secure_cookie(server: Server) -> None:
    async with server.http() as http:
        answer = await http.post(
            "/api/account/signup",
            json={"name": "Cyd", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},  # the trusted proxy (127.0.0.1) says so
        )
        assert answer.status_code == 201, answer.text
        assert "secure" in answer.headers["set-cookie"].lower()


async def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(server: Server) -> None:
    async with server.http() as http:
        await sign_up(http, "Dora")
        await http.post("/api/account/logout", headers=await csrf(http))
        wrong = await log_in(http, "Dora", "not the password")
        unknown = await log_in(http, "Nobody", "not the password")
        assert wrong.status_code == unknown.status_code == 401
        assert (
            wrong.json()
            == unknown.json()
            == {
                "error": "bad_login",
                "message": "wrong user name or password",
            }
        )
        assert await me(http) is None and "odin_session" not in http.cookies


async def test_failed_logins_lock_the_name_out_until_the_time_says(server: Server) -> None:
    clock = fake_clock(server)
    async with server.http() as http:
        await sign_up(http, "Eve")
    async with server.http() as http:
        answers = [await log_in(http, "Eve", f"guess {n}") for n in range(5)]
        assert [a.status_code for a in answers] == [401, 401, 401, 401, 429]
        locked = answers[-1]
        assert locked.json()["error"] == "locked"
        assert "try again in 15 minutes" in locked.json()["message"]
        assert locked.headers["retry-after"] == "900" and locked.json()["retry_after"] == 900
        # Even the right password waits now, and it says how long.
        right = await log_in(http, "Eve")
        assert right.status_code == 429 and await me(http) is None
        # The count lives in the database: another process (a new service on the same
        # store) refuses too.
        assert server.app is not None
        other = Accounts(server.app.state.database.accounts, clock, server.settings)
        with pytest.raises(Exception, match="too many failed logins for this name"):
            await other.log_in("Eve", PASSWORD, "10.0.0.9")
        await clock.advance(10 * 60)
        assert (await log_in(http, "Eve")).json()["message"].endswith("try again in 5 minutes")
        await clock.advance(5 * 60 + 1)
        assert (await log_in(http, "Eve")).status_code == 200
        # A success clears the name's count.
        assert (await log_in(http, "Eve", "again wrong")).status_code == 401


async def test_failed_logins_lock_an_address_out(settings: Settings) -> None:
    async with (
        running(dataclasses.replace(settings, login_failures_per_address=3)) as server,
        server.http() as http,
    ):
        await sign_up(http, "Finn")
        codes = [(await log_in(http, f"name{n}", "wrong password")).status_code for n in range(3)]
        assert codes == [401, 401, 429]
        refused = await log_in(http, "Finn")
        assert refused.status_code == 429
        assert "from this address" in refused.json()["message"]


async def test_sign_ups_from_one_address_are_limited(settings: Settings) -> None:
    async with (
        running(dataclasses.replace(settings, signups_per_hour=2)) as server,
        server.http() as http,
    ):
        await sign_up(http, "One")
        await sign_up(http, "Two")
        third = await http.post("/api/account/signup", json={"name": "Three", "password": PASSWORD})
        assert third.status_code == 429 and third.json()["error"] == "locked"
        assert (await log_in(http, "Three")).status_code == 401  # nothing was created


async def test_writes_without_the_csrf_token_are_refused_and_change_nothing(
    server: Server,
) -> None:
    async with server.http() as http:
        await sign_up(http, "Gus")
        token = await csrf(http)
        change = {"old": PASSWORD, "new": "a whole new password"}
        for headers in (
            {},
            {"X-CSRF-Token": "forged"},
            {**token, "Origin": "https://evil.example"},
        ):
            for path, body in (
                ("/api/account/password", change),
                ("/api/account/delete", {"password": PASSWORD}),
                ("/api/account/logout", None),
                ("/api/account/seats", {"tokens": []}),
            ):
                refused = await http.post(path, json=body, headers=headers)
                assert refused.status_code == 403, (path, headers, refused.text)
                assert refused.json()["error"] == "csrf"
        assert (await me(http) or {})["name"] == "Gus"
        # The same origin (as a browser sends it) and the token: accepted.
        origin = {**token, "Origin": server.base}
        assert (await http.post("/api/account/password", json=change, headers=origin)).is_success
    async with server.http() as guest:
        answer = await guest.post("/api/account/logout", headers=token)
        assert answer.status_code == 401 and answer.json()["error"] == "login_required"
        tables = await guest.get("/api/account/tables")
        assert tables.status_code == 401


async def test_sessions_expire_when_idle_and_at_their_absolute_end(server: Server) -> None:
    clock = fake_clock(server)
    idle, longest = server.settings.session_idle, server.settings.session_max
    async with server.http() as http:
        await sign_up(http, "Hal")
        await clock.advance(idle - 60)
        assert await me(http) is not None  # used in time: idle time starts again
        await clock.advance(idle - 60)
        assert await me(http) is not None
        await clock.advance(idle + 1)
        assert await me(http) is None
        assert await rows(server, db.account_sessions) == []  # an expired session is removed
    async with server.http() as http:
        assert (await log_in(http, "Hal")).status_code == 200
        used = 0.0
        while used + idle / 2 < longest:
            await clock.advance(idle / 2)
            used += idle / 2
            assert await me(http) is not None
        await clock.advance(longest - used)
        assert await me(http) is None  # used all along, yet it ends


async def test_a_guest_who_signs_up_keeps_the_seats_of_this_browser(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, {1: "random"})
        token = await sit(http, table["id"], 0, "Ivy")
        other = await new_table(http, 3)
        elsewhere = await sit(http, other["id"], 2, "Ivy")
        signed = await sign_up(http, "Ivy", seats=[token, elsewhere, "junk"])
        assert signed["linked"] == 2
        # The seats show the account at once (the name typed as a guest stays).
        for table_id, seat in ((table["id"], 0), (other["id"], 2)):
            seen = (await http.get(f"/api/tables/{table_id}")).json()["table"]["seats"][seat]
            assert (seen["name"], seen["account"]) == ("Ivy", "Ivy")
        listed = (await http.get("/api/account/tables")).json()["tables"]
        assert [(t["table"]["id"], t["seat"]) for t in listed] == [
            (other["id"], 2),
            (table["id"], 0),
        ]
        # The seat token keeps working for the seat of an account.
        client = await open_client(server, table["id"], token)
        assert client.seat == 0
        await client.close()
        # A seat taken while logged in is the account's at once.
        third = await new_table(http, 2)
        await sit(http, third["id"], 1, "Ivy")
        listed = (await http.get("/api/account/tables")).json()["tables"]
        assert (third["id"], 1) in [(t["table"]["id"], t["seat"]) for t in listed]
    # Another person's tokens cannot take seats already an account's.
    async with server.http() as thief:
        await sign_up(thief, "Jack", seats=[token])
        assert (await thief.get("/api/account/tables")).json()["tables"] == []


async def test_logging_in_links_the_guest_seats_and_another_device_gets_its_seat(
    server: Server,
) -> None:
    async with server.http() as phone:
        await sign_up(phone, "Kim")
        await phone.post("/api/account/logout", headers=await csrf(phone))
        table = await new_table(phone, 2, {1: "random"})
        token = await sit(phone, table["id"], 0, "K.")  # as a guest (not as "Kim": 409)
        assert (await log_in(phone, "Kim", seats=[token])).json()["linked"] == 1
    async with server.http() as laptop:
        assert (await log_in(laptop, "Kim")).status_code == 200
        listed = (await laptop.get("/api/account/tables")).json()["tables"]
        assert [(t["table"]["id"], t["seat"]) for t in listed] == [(table["id"], 0)]
        path = f"/api/account/tables/{table['id']}/seats/0/claim"
        assert (await laptop.post(path)).status_code == 403  # a write: the CSRF token
        claimed = await laptop.post(path, headers=await csrf(laptop))
        assert claimed.status_code == 200, claimed.text
        fresh = claimed.json()["token"]
        client = await open_client(server, table["id"], fresh)
        assert client.seat == 0
        await client.close()
        # Not a seat of the account: refused.
        wrong = await laptop.post(
            f"/api/account/tables/{table['id']}/seats/1/claim", headers=await csrf(laptop)
        )
        assert wrong.status_code == 404 and wrong.json()["error"] == "not_yours"
    # The seat moved: the old token no longer opens it.
    async with connect(f"{server.ws}/ws/{table['id']}") as connection:
        stale = Client(connection, token)
        await stale.send({"type": "hello", "token": token, "version": None})
        refusal = await stale.receive()
        assert (refusal["type"], refusal["code"]) == ("error", "unauthorized"), refusal


async def test_seat_links_and_claims_are_limited_per_account_and_per_address(
    server: Server, settings: Settings
) -> None:
    assert server.app is not None
    clock = FakeClock()
    limited = dataclasses.replace(settings, seat_writes_per_account=2, seat_writes_per_address=3)
    server.app.state.quotas = Quotas(limited, clock=clock.monotonic)
    async with server.http() as ann, server.http() as bob:
        await sign_up(ann, "Ann")
        table = await new_table(ann, 2, {1: "random"})
        token = await sit(ann, table["id"], 0, "Ann")  # signed in: the seat is Ann's
        claim = f"/api/account/tables/{table['id']}/seats/0/claim"
        link = "/api/account/seats"
        headers = await csrf(ann)
        assert (await ann.post(link, json={"tokens": [token]}, headers=headers)).is_success
        claimed = await ann.post(claim, headers=headers)
        assert claimed.status_code == 200, claimed.text
        for refused in (
            await ann.post(claim, headers=headers),
            await ann.post(link, json={"tokens": []}, headers=headers),
        ):
            assert refused.status_code == 429, refused.text
            body = refused.json()
            assert body["error"] == "rate_limited" and "one account" in body["message"]
            assert 3590 <= body["retry_after"] <= 3601
            assert refused.headers["Retry-After"] == str(body["retry_after"])
        # The refused claim moved nothing: the seat still opens with the claimed token.
        player = await open_client(server, table["id"], claimed.json()["token"])
        assert player.seat == 0
        await player.close()
        # Another account from the same address has one left: the address's third.
        await sign_up(bob, "Bob")
        bob_headers = await csrf(bob)
        assert (await bob.post(link, json={"tokens": []}, headers=bob_headers)).is_success
        by_address = await bob.post(link, json={"tokens": []}, headers=bob_headers)
        assert by_address.status_code == 429 and "one address" in by_address.json()["message"]
        # An hour later both may again.
        await clock.advance(3601)
        again = await ann.post(claim, headers=headers)
        assert again.status_code == 200, again.text
        assert (await bob.post(link, json={"tokens": []}, headers=bob_headers)).is_success


async def test_a_password_change_needs_the_old_one_and_ends_other_sessions(
    server: Server,
) -> None:
    async with server.http() as first, server.http() as second:
        await sign_up(first, "Lou")
        assert (await log_in(second, "Lou")).status_code == 200
        headers = await csrf(first)
        wrong = await first.post(
            "/api/account/password",
            json={"old": "not my password", "new": "another password"},
            headers=headers,
        )
        assert wrong.status_code == 403 and wrong.json()["error"] == "bad_login"
        short = await first.post(
            "/api/account/password", json={"old": PASSWORD, "new": "short"}, headers=headers
        )
        assert short.status_code == 422 and short.json()["error"] == "bad_password"
        assert await me(second) is not None  # nothing changed so far
        done = await first.post(
            "/api/account/password",
            json={"old": PASSWORD, "new": "another password"},
            headers=headers,
        )
        assert done.status_code == 200, done.text
        assert await me(first) is not None  # this session goes on
        assert await me(second) is None  # the other one ended
        assert (await log_in(second, "Lou")).status_code == 401
        assert (await log_in(second, "Lou", "another password")).status_code == 200


async def test_deleting_an_account_anonymizes_its_seats_and_frees_the_name(
    server: Server,
) -> None:
    async with server.http() as http, server.http() as elsewhere:
        await sign_up(http, "Max")
        assert (await log_in(elsewhere, "Max")).status_code == 200
        table = await new_table(http, 2, {1: "random"})
        token = await sit(http, table["id"], 0, "Max Power")
        talker = await open_client(server, table["id"], token)
        await talker.send({"type": "chat", "text": "hello from Max"})
        await talker.until(lambda m: m["type"] == "chat")
        await talker.close()
        refused = await http.post(
            "/api/account/delete", json={"password": "wrong one"}, headers=await csrf(http)
        )
        assert refused.status_code == 403 and await me(http) is not None
        deleted = await http.post(
            "/api/account/delete", json={"password": PASSWORD}, headers=await csrf(http)
        )
        assert deleted.status_code == 200, deleted.text
        assert deleted.json()["anonymized"] == 1
        assert await me(http) is None and await me(elsewhere) is None
        seats = (await http.get(f"/api/tables/{table['id']}")).json()["table"]["seats"]
        assert seats[0]["name"] == "Former player"
        stored = await rows(server, db.seats, db.seats.c.table_id == table["id"])
        assert (stored[0].name, stored[0].account_id) == ("Former player", None)
        account = (await rows(server, db.accounts))[0]
        assert account.deleted is not None and account.password_hash == ""
        assert "Max" not in (account.name, account.name_key)
        assert (await log_in(http, "Max")).status_code == 401
        # The guest's token still plays the (now anonymous) seat.
        client = await open_client(server, table["id"], token)
        assert client.seat == 0
        chat = await client.until(lambda m: m["type"] == "chat")
        assert [(line["name"], line["text"]) for line in chat["lines"]] == [
            ("Former player", "hello from Max")
        ]
        await client.close()
        # The name is free again; the new account holds none of the old seats.
        await sign_up(http, "max")
        assert (await http.get("/api/account/tables")).json()["tables"] == []


async def test_an_accounts_seat_shows_its_name_and_no_guest_passes_for_it(
    server: Server,
) -> None:
    async with server.http() as ann, server.http() as guest:
        await sign_up(ann, "Ann")
        table = await new_table(guest, 3, {2: "random"})
        seats_path = f"/api/tables/{table['id']}/seats"
        token = await sit(ann, table["id"], 0, "Annie B")  # signed in: the account's name
        for name in ("Ann", "aNN", "  ann ", "\uff21\uff4e\uff4e"):  # (NFKC: fullwidth Ann)
            refused = await guest.post(f"{seats_path}/1", json={"name": name})
            assert refused.status_code == 409, (name, refused.text)
            body = refused.json()
            assert body["error"] == "account_name" and "log in as Ann" in body["message"]
        await sit(guest, table["id"], 1, "Bea")
        seen = (await guest.get(f"/api/tables/{table['id']}")).json()["table"]["seats"]
        named = [(s["name"], s["account"]) for s in seen]
        assert named == [("Ann", "Ann"), ("Bea", None), (None, None)]
        shown = {"seat", "name", "bot", "taken", "locked", "account", "presence"}
        assert all(set(s) <= shown for s in seen)  # no account id, no token hash
        stored = await rows(server, db.seats, db.seats.c.table_id == table["id"])
        assert [r.account_id is not None for r in stored] == [True, False, False]
        # A spectator's view: the names and the account, no hand (hidden as before).
        watcher = await open_client(server, table["id"])
        assert watcher.state["names"][:2] == ["Ann", "Bea"] and watcher.state["hand"] is None
        assert watcher.table["seats"][0]["account"] == "Ann"
        await watcher.close()
        player = await open_client(server, table["id"], token)
        assert player.seat == 0 and player.state["hand"]
        await player.close()
        # Deleted: the seat shows the neutral name and no account; the name is free.
        deleted = await ann.post(
            "/api/account/delete", json={"password": PASSWORD}, headers=await csrf(ann)
        )
        assert deleted.status_code == 200, deleted.text
        seen = (await guest.get(f"/api/tables/{table['id']}")).json()["table"]["seats"]
        assert (seen[0]["name"], seen[0]["account"]) == ("Former player", None)
        other = await new_table(guest, 2, {1: "random"})
        await sit(guest, other["id"], 0, "Ann")


async def test_a_banned_account_cannot_log_in_and_its_sessions_end(
    server: Server, database_url: str
) -> None:
    async with server.http() as http:
        await sign_up(http, "Ned")
        table = await new_table(http, 2)
        banned = await admin("ban", "NED", database_url)
        assert banned.exit_code == 0, banned.output
        assert "banned Ned" in banned.output
        assert await me(http) is None  # its session ended at once
        refused = await log_in(http, "Ned")
        assert refused.status_code == 403 and refused.json()["error"] == "banned"
        # It cannot take a seat as that account: a seat taken now is a guest's (and a
        # guest's seat is not under the account's name).
        as_ned = await http.post(f"/api/tables/{table['id']}/seats/0", json={"name": "Ned"})
        assert as_ned.status_code == 409 and as_ned.json()["error"] == "account_name"
        await sit(http, table["id"], 0, "Neddy")
        assert [s.account_id for s in await rows(server, db.seats)] == [None, None]
        unknown = await admin("ban", "nobody", database_url)
        assert unknown.exit_code == 1 and "no account named 'nobody'" in unknown.output
        unbanned = await admin("unban", "Ned", database_url)
        assert unbanned.exit_code == 0, unbanned.output
        assert (await log_in(http, "Ned")).status_code == 200
        # The domain function does the same.
        assert server.app is not None
        account = await server.app.state.accounts.ban("ned")
        assert account.banned is not None and await me(http) is None


async def test_bad_inputs_are_refused_and_change_nothing(server: Server) -> None:
    async with server.http() as http:
        await sign_up(http, "Olga")
        await http.post("/api/account/logout", headers=await csrf(http))
        cases: list[tuple[Any, str]] = [
            ({"name": "ab", "password": PASSWORD}, "bad_name"),
            ({"name": "x" * 21, "password": PASSWORD}, "bad_name"),
            ({"name": "x" * 500, "password": PASSWORD}, "invalid"),
            ({"name": "Olga Smith", "password": PASSWORD}, "bad_name"),
            ({"name": "Ölga", "password": PASSWORD}, "bad_name"),
            ({"name": "1olga", "password": PASSWORD}, "bad_name"),
            ({"name": "a\x00bcd", "password": PASSWORD}, "bad_text"),
            ({"name": "OLGA", "password": PASSWORD}, "name_taken"),
            ({"name": "Expert", "password": PASSWORD}, "name_taken"),  # a bot level
            ({"name": "admin", "password": PASSWORD}, "name_taken"),
            ({"name": "Pia", "password": "short"}, "bad_password"),
            ({"name": "Pia", "password": "p" * 129}, "bad_password"),
            ({"name": "Pia", "password": "p" * 10_000}, "invalid"),
            ({"name": "Piapia", "password": "PIAPIA"}, "bad_password"),
            ({"name": "Pia", "password": PASSWORD, "admin": True}, "invalid"),
            ({"name": "Pia", "password": 12345678}, "invalid"),
            ({"name": "Pia", "password": PASSWORD, "seats": ["t" * 129]}, "invalid"),
            ({"name": "Pia", "password": PASSWORD, "seats": ["t"] * 201}, "invalid"),
            ([], "invalid"),
        ]
        for body, code in cases:
            answer = await http.post("/api/account/signup", json=body)
            assert 400 <= answer.status_code < 500, (body, answer.text)
            assert answer.json()["error"] == code, (body, answer.text)
        broken = await http.post(
            "/api/account/signup",
            content=b'{"name": "Pia", "password": ',
            headers={"Content-Type": "application/json"},
        )
        assert broken.status_code == 422 and broken.json()["error"] == "invalid"
        # What a form of another site can send (no CORS preflight) is not JSON to us.
        for kind in ("text/plain", "application/x-www-form-urlencoded"):
            form = await http.post(
                "/api/account/signup",
                content=b'{"name": "Pia", "password": "correct horse battery"}',
                headers={"Content-Type": kind},
            )
            assert form.status_code == 422 and form.json()["error"] == "invalid"
        long_login = await log_in(http, "Olga", "p" * 129)
        assert long_login.status_code == 401
        assert [a.name for a in await rows(server, db.accounts)] == ["Olga"]
        assert await me(http) is None and "odin_session" not in http.cookies


async def test_no_password_or_session_id_in_the_logs(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.access")]
    caplog.set_level(logging.DEBUG)
    secrets: list[str] = []
    async with running(settings, log_level="debug") as server:
        for logger in loggers:
            logger.addHandler(caplog.handler)  # uvicorn's loggers do not propagate
        try:
            async with server.http() as http:
                await sign_up(http, "Quinn", "my secret password")
                secrets.append(http.cookies["odin_session"])
                secrets.append((await csrf(http))["X-CSRF-Token"])
                await log_in(http, "Quinn", "a wrong secret password")
                assert (await log_in(http, "Quinn", "my secret password")).is_success
                secrets.append(http.cookies["odin_session"])
                await http.post(
                    "/api/account/password",
                    json={"old": "my secret password", "new": "the next secret"},
                    headers=await csrf(http),
                )
        finally:
            for logger in loggers:
                logger.removeHandler(caplog.handler)
    # What the test's own HTTP client logs (cookies too) is the client's business.
    server_records = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    text = "\n".join(r.getMessage() for r in server_records)
    assert "/api/account/login" in text  # the requests were logged...
    for secret in ["my secret password", "a wrong secret password", "the next secret", *secrets]:
        assert secret not in text  # ...without their secrets


class CountingHasher(PasswordHasher):
    """argon2id as the server uses it, counting the verifications."""

    def __init__(self) -> None:
        super().__init__()
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.verified += 1
        return super().verify(hash, password)


async def test_an_unknown_name_costs_the_same_argon2id_check_as_a_known_one(
    server: Server,
) -> None:
    assert server.app is not None
    hasher = CountingHasher()
    server.app.state.accounts.hasher = hasher
    async with server.http() as http:
        await sign_up(http, "Rita")
        for name in ("Rita", "Nobody", "x" * 40):
            before = hasher.verified
            assert (await log_in(http, name, "not the password")).status_code == 401
            assert hasher.verified == before + 1, name  # one argon2id check, known or not
