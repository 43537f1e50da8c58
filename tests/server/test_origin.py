"""Writes made with the session cookie: the whole origin is compared, and a rated table is
one of them (issue #29).

Before, ``Origin`` was compared by its host and port alone (``https://host`` passed for
``http://host``, so did ``http://host/any/path``), and creating a rated table checked
``Origin`` but not the CSRF token.
"""

from __future__ import annotations

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from odin_cards.server.transport.auth import same_origin

from .harness import Server, new_table

PASSWORD = "a long enough secret"


def test_an_origin_is_scheme_host_and_port() -> None:
    assert same_origin("http://odin.example", "http", "odin.example")
    assert same_origin("http://Odin.Example:80", "http", "odin.example")
    assert same_origin("https://odin.example", "https", "odin.example:443")
    assert same_origin("http://odin.example", "ws", "odin.example")
    assert same_origin("https://odin.example", "wss", "odin.example")
    for other in (
        "https://odin.example",  # another scheme
        "http://odin.example:8080",  # another port
        "http://odin.example/path",  # no origin has a path
        "http://odin.example?x",
        "http://user@odin.example",
        "http://odin.example:99999",
        "null",
        "odin.example",
        "ftp://odin.example",
        "",
    ):
        assert not same_origin(other, "http", "odin.example"), other
    assert not same_origin("http://odin.example", "http", "")
    assert same_origin("https://app.example", "http", "odin.example", ("https://app.example",))


async def _signed_up(server: Server, http: object, name: str) -> dict[str, str]:
    answer = await http.post(  # type: ignore[attr-defined]
        "/api/account/signup", json={"name": name, "password": PASSWORD}
    )
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


async def test_writes_from_another_scheme_or_with_a_path_are_refused(server: Server) -> None:
    async with server.http() as http:
        token = await _signed_up(server, http, "Orla")
        host = server.base.removeprefix("http://")
        change = {"old": PASSWORD, "new": "a whole new password"}
        for origin in (f"https://{host}", f"{server.base}/evil", "null"):
            refused = await http.post(
                "/api/account/password", json=change, headers={**token, "Origin": origin}
            )
            assert refused.status_code == 403 and refused.json()["error"] == "csrf", origin
        accepted = await http.post(
            "/api/account/password", json=change, headers={**token, "Origin": server.base}
        )
        assert accepted.status_code == 200, accepted.text


async def test_a_websocket_from_another_scheme_is_refused(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2)
    host = server.ws.removeprefix("ws://")
    with pytest.raises(InvalidStatus):
        await connect(f"{server.ws}/ws/{table['id']}", origin=f"https://{host}")  # type: ignore[arg-type]


async def test_a_rated_table_needs_the_csrf_token(server: Server) -> None:
    rated = {"players": 2, "bots": {"1": "random"}, "rated": True}
    async with server.http() as http, server.http() as guest:
        token = await _signed_up(server, http, "Rhea")
        answer = await guest.post("/api/tables", json=rated)
        assert answer.status_code == 401 and answer.json()["error"] == "login_required"
        for headers in (
            {},
            {"X-CSRF-Token": "forged"},
            {**token, "Origin": "https://evil.example"},
        ):
            answer = await http.post("/api/tables", json=rated, headers=headers)
            assert answer.status_code == 403 and answer.json()["error"] == "csrf", headers
        assert (await http.get("/api/tables")).json()["tables"] == []
        answer = await http.post(
            "/api/tables", json=rated, headers={**token, "Origin": server.base}
        )
        assert answer.status_code == 201, answer.text
