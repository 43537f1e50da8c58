"""Accounts against a hostile client: every write made with the session cookie needs the
session's CSRF token and this site's origin; the cookie is HttpOnly, SameSite=Lax and
Secure over HTTPS; a cookie planted before login is never the session (no fixation); a
name is locked out after failed logins; a deleted account is gone with its sessions."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest

from .site import PASSWORD, Site, new_table, signed_up



def cookie_of(answer: httpx.Response) -> dict[str, Any]:
    """The session cookie an answer sets, with its attributes (lower-case names)."""
    header = next(h for h in answer.headers.get_list("set-cookie") if h.startswith("odin_session="))
    value, *attributes = (part.strip() for part in header.split(";"))
    flags: dict[str, Any] = {"value": value.split("=", 1)[1]}
    for attribute in attributes:
        key, _, setting = attribute.partition("=")
        flags[key.lower()] = setting or True
    return flags


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
