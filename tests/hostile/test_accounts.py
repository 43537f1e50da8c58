"""Accounts against a hostile client: every write made with the session cookie needs the
session's CSRF token and this site's origin; the cookie is HttpOnly, SameSite=Lax and
Secure over HTTPS; a cookie planted before login is never the session (no fixation); a
name is locked out after failed logins; a deleted account is gone with its sessions."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from .site import PASSWORD, Site, new_table, signed_up, sit


def cookie_of(answer: httpx.Response) -> dict[str, Any]:
    """The session cookie an answer sets, with its attributes (lower-case names)."""
    header = next(h for h in answer.headers.get_list("set-cookie") if h.startswith("odin_session="))
    value, *attributes = (part.strip() for part in header.split(";"))
    flags: dict[str, Any] = {"value": value.split("=", 1)[1]}
    for attribute in attributes:
        key, _, setting = attribute.partition("=")
        flags[key.lower()] = setting or True
    return flags


async def lobby(http: httpx.AsyncClient) -> set[str]:
    """The ids of the tables the lobby lists."""
    return {table["id"] for table in (await http.get("/api/tables")).json()["tables"]}


async def test_a_write_needs_the_csrf_token_and_this_sites_origin(site: Site) -> None:
    visitor = site.visitor()
    async with visitor.http() as http:
        _, csrf = await signed_up(visitor, http)
        change = {"old": PASSWORD, "new": PASSWORD + "!"}
        for headers in (
            {},  # no token
            {"X-CSRF-Token": csrf[:-2] + "xx"},  # a wrong one
            {"X-CSRF-Token": csrf, "Origin": "https://evil.example"},  # another site's page
            {"X-CSRF-Token": csrf, "Origin": "null"},
        ):
            refused = await http.post("/api/account/password", json=change, headers=headers)
            assert refused.status_code == 403 and refused.json()["error"] == "csrf", headers
        for path in ("/api/account/logout", "/api/account/seats", "/api/account/delete"):
            refused = await http.post(path, json={}, headers={"Origin": "https://evil.example"})
            assert refused.status_code in (403, 422), (path, refused.text)
        assert (await http.get("/api/account")).json()["account"] is not None  # still in
        # From another site's page a login is refused too (login CSRF).
        login = {"name": "anyone", "password": PASSWORD}
        foreign = await http.post(
            "/api/account/login", json=login, headers={"Origin": "https://evil.example"}
        )
        assert foreign.status_code == 403
        done = await http.post("/api/account/password", json=change, headers={"X-CSRF-Token": csrf})
        assert done.status_code == 200, done.text


async def test_the_session_cookie_is_httponly_lax_and_secure_over_https(site: Site) -> None:
    visitor = site.visitor()
    async with visitor.http() as http:
        name = f"u{secrets.token_hex(5)}"
        body = {"name": name, "password": PASSWORD}
        plain = cookie_of(await http.post("/api/account/signup", json=body))
    assert plain["httponly"] is True and plain["samesite"].lower() == "lax"
    assert plain["path"] == "/" and "secure" not in plain
    async with visitor.http(**{"X-Forwarded-Proto": "https"}) as http:  # behind TLS
        secure = cookie_of(await http.post("/api/account/login", json=body))
    assert secure["secure"] is True and secure["httponly"] is True


async def test_a_cookie_planted_before_login_is_never_the_session(site: Site) -> None:
    victim = site.visitor()
    planted = secrets.token_urlsafe(32)
    async with victim.http() as http:
        name, _ = await signed_up(victim, http)
        await http.post(
            "/api/account/logout",
            headers={"X-CSRF-Token": (await http.get("/api/account")).json()["csrf"]},
        )
    async with victim.http() as http:
        http.cookies.set("odin_session", planted)
        logged = await http.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert logged.status_code == 200, logged.text
        assert cookie_of(logged)["value"] != planted
    async with victim.http() as attacker:  # what the planter holds gives nothing
        attacker.cookies.set("odin_session", planted)
        assert (await attacker.get("/api/account")).json()["account"] is None


@pytest.mark.slow  # six password hashes (64 MiB each, on purpose slow)
async def test_failed_logins_lock_the_name_out(site: Site) -> None:
    owner, guesser = site.visitor(), site.visitor()
    async with owner.http() as http:
        name, _ = await signed_up(owner, http)
    async with guesser.http() as http:
        wrong = {"name": name, "password": "not the password"}
        answers = [await http.post("/api/account/login", json=wrong) for _ in range(5)]
        assert [a.status_code for a in answers[:4]] == [401] * 4, answers[-1].text
        right = await http.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert right.status_code == 429 and right.json()["error"] == "locked"
        assert int(right.headers["Retry-After"]) > 0


async def test_a_deleted_account_is_gone_with_its_sessions(site: Site) -> None:
    visitor = site.visitor()
    async with visitor.http() as http, visitor.http() as other:
        name, csrf = await signed_up(visitor, http)
        body = {"name": name, "password": PASSWORD}
        assert (await other.post("/api/account/login", json=body)).status_code == 200
        refused = await http.post(
            "/api/account/delete",
            json={"password": "wrong password"},
            headers={"X-CSRF-Token": csrf},
        )
        assert refused.status_code in (401, 403), refused.text
        deleted = await http.post(
            "/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf}
        )
        assert deleted.status_code == 200, deleted.text
        assert (await other.get("/api/account")).json()["account"] is None  # every session
        assert (await http.post("/api/account/login", json=body)).status_code == 401


async def test_only_the_account_holding_a_seat_claims_it(site: Site) -> None:
    owner, other = site.visitor(), site.visitor()
    table = await new_table(owner, 2, {1: "random"})
    async with owner.http() as mine, other.http() as theirs:
        _, csrf = await signed_up(owner, mine)
        _, their_csrf = await signed_up(other, theirs)
        taken = await mine.post(
            f"/api/tables/{table['id']}/seats/0",
            json={"name": "Ann"},
            headers={"Origin": site.base},
        )
        old = taken.json()["token"]
        claim = f"/api/account/tables/{table['id']}/seats/0/claim"
        refused = await theirs.post(claim, headers={"X-CSRF-Token": their_csrf})
        assert refused.status_code in (403, 404, 409), refused.text
        assert (await mine.post(claim)).status_code == 403  # no CSRF token
        claimed = await mine.post(claim, headers={"X-CSRF-Token": csrf})
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["token"] != old
    socket = await other.socket(table["id"])  # the seat's old token holds it no more
    await socket.send({"type": "hello", "token": old, "version": None})
    said = await socket.until(lambda m: m["type"] in ("welcome", "error"))
    assert said["type"] == "error" and said["code"] == "unauthorized"


async def test_the_whole_origin_is_compared_scheme_and_port(site: Site) -> None:
    visitor = site.visitor()
    host = site.base.removeprefix("http://")
    other_port = f"http://{host.rsplit(':', 1)[0]}:1"
    async with visitor.http() as http:
        _, csrf = await signed_up(visitor, http)
        change = {"old": PASSWORD, "new": PASSWORD + "!"}
        for origin in (f"https://{host}", other_port, f"{site.base}/evil"):
            refused = await http.post(
                "/api/account/password",
                json=change,
                headers={"X-CSRF-Token": csrf, "Origin": origin},
            )
            assert refused.status_code == 403 and refused.json()["error"] == "csrf", origin
        done = await http.post(
            "/api/account/password",
            json=change,
            headers={"X-CSRF-Token": csrf, "Origin": site.base},
        )
        assert done.status_code == 200, done.text
    table = await new_table(visitor, 2)
    with pytest.raises(InvalidStatus):  # nor may another scheme's page open a WebSocket
        await visitor.socket(table["id"], Origin=f"https://{site.ws.removeprefix('ws://')}")


async def test_a_rated_table_needs_the_csrf_token(site: Site) -> None:
    visitor = site.visitor()
    rated = {"players": 2, "bots": {"1": "random"}, "rated": True}
    async with visitor.http() as http:
        _, csrf = await signed_up(visitor, http)
        before = await lobby(http)
        for headers in ({}, {"X-CSRF-Token": "forged"}):
            refused = await http.post("/api/tables", json=rated, headers=headers)
            assert refused.status_code == 403 and refused.json()["error"] == "csrf", headers
        assert await lobby(http) <= before  # no table was made
        made = await http.post("/api/tables", json=rated, headers={"X-CSRF-Token": csrf})
        assert made.status_code == 201, made.text
        assert made.json()["table"]["id"] in await lobby(http)


async def test_a_control_character_is_bad_text_and_nothing_is_stored(site: Site) -> None:
    visitor = site.visitor()
    name = f"u{secrets.token_hex(5)}"
    async with visitor.http() as http:
        before = await lobby(http)
        for path, body in (
            ("/api/account/login", {"name": f"{name}\x00", "password": PASSWORD}),
            ("/api/account/signup", {"name": f"{name}\x00", "password": PASSWORD}),
            ("/api/account/signup", {"name": f"{name}\x1b", "password": PASSWORD}),
            ("/api/tables", {"players": 2, "game": "odin\x00"}),
            ("/api/tables", {"players": 2, "bots": {"1": "random\x00"}}),
        ):
            refused = await http.post(path, json=body)
            assert refused.status_code == 422, (path, body, refused.text)
            assert refused.json()["error"] == "bad_text", (path, body, refused.json())
        assert await lobby(http) <= before  # no table was made
        assert (await http.get(f"/api/people/{name}")).status_code == 404
        login = await http.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert login.status_code == 401, login.text
        table = await new_table(visitor, 2)
        seat = await http.post(f"/api/tables/{table['id']}/seats/0", json={"name": "Ann\x00"})
        assert seat.status_code == 422 and seat.json()["error"] == "bad_text", seat.text
        view = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert all(s["name"] is None for s in view["seats"])
    token = await sit(visitor, table["id"], 0, "Ann")
    player = await visitor.socket(table["id"], token)
    await player.send({"type": "chat", "text": "hi\x00"})
    assert (await player.next_of("error"))["code"] == "malformed"
    await player.send({"type": "chat", "text": "still here"})
    heard = await player.until(lambda m: m["type"] == "chat")
    assert [line["text"] for line in heard["lines"]] == ["still here"]  # the first never was
    await player.close()


async def test_nobody_passes_for_an_account_or_a_bot(site: Site) -> None:
    owner, guest = site.visitor(), site.visitor()
    async with owner.http() as http:
        name = f"ma{secrets.token_hex(5)}"
        signed = await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert signed.status_code == 201, signed.text
    look_alike = "m\u0430" + name[2:]  # a Cyrillic a
    table = await new_table(guest, 3)
    async with guest.http() as http:
        for shown, code in ((look_alike, "account_name"), ("Expert bot", "bad_name")):
            refused = await http.post(f"/api/tables/{table['id']}/seats/0", json={"name": shown})
            assert refused.status_code in (409, 422), refused.text
            assert refused.json()["error"] == code, (shown, refused.json())
        # An account's name is a-z: "rn" is what passes there for "m".
        again = await http.post(
            "/api/account/signup", json={"name": "rn" + name[1:], "password": PASSWORD}
        )
        assert again.status_code == 409 and again.json()["error"] == "name_taken", again.text
        view = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert all(s["name"] is None for s in view["seats"])
