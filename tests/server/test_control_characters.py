"""NUL and other control characters are refused at the edge, everywhere, on every store.

Issue #29: a NUL in the login name reached PostgreSQL, which refused it; the answer was
503 and an ERROR "the store is unavailable" was logged for each such request. Now every
text of every request body (each field of every body model, found by walking the app's
routes), every path and query, and every WebSocket message's text is checked first:
422 ``bad_text`` (``malformed`` on the WebSocket) saying which field, nothing stored,
nothing logged at ERROR.
"""

from __future__ import annotations

import json
import logging
import re
import typing
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel

from odin_cards.server.core.protocol.text import control_character
from odin_cards.server.transport import (
    accounts_api,
    analysis_api,
    api,
    people_api,
    people_routes,
)
from odin_cards.server.transport.bodies import Body

from .harness import Server, new_table, open_client, sit

PASSWORD = "a long enough secret"

REFUSED = ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\ud800"]
"""Control characters of each kind: NUL, C0, escape, DEL, C1, a lone surrogate."""


def test_the_rule() -> None:
    for char in REFUSED:
        assert control_character(f"ab{char}c") == f"U+{ord(char):04X}"
    for fine in ["Ann", "tab\there", "two\nlines\r", "Ærø ✓ 😀", "zero\u200bwidth", ""]:
        assert control_character(fine) is None


def _post(http: httpx.AsyncClient, path: str, body: Any, **headers: str) -> Any:
    # json.dumps escapes every character, a lone surrogate included (httpx's json= cannot).
    content = json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **headers}
    return http.post(path, content=content, headers=headers)


ROUTERS = (
    api.router,
    accounts_api.router,
    analysis_api.router,
    people_api.router,
    people_routes.router,
)
"""Every router of the server's API (``app.py`` includes each)."""


def _body_routes() -> list[tuple[str, type[Body]]]:
    found = []
    for route in (route for router in ROUTERS for route in router.routes):
        if not isinstance(route, APIRoute):
            continue
        hints = typing.get_type_hints(route.endpoint)
        models = [h for h in hints.values() if isinstance(h, type) and issubclass(h, BaseModel)]
        for model in models:
            assert issubclass(model, Body), route.path  # every body model checks its texts
            found.append((route.path, model))
    return found


async def test_every_text_with_a_control_character_is_refused_and_nothing_changes(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with server.http() as http:
        table = await new_table(http, 2)
        signed = await _post(http, "/api/account/signup", {"name": "Ctrl", "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        csrf = {"X-CSRF-Token": signed.json()["csrf"]}
        lobby = (await http.get("/api/tables")).json()["tables"]

        routes = _body_routes()
        assert len(routes) >= 20  # every write of the API
        checked = 0
        for path, model in routes:
            url = re.sub(r"\{table_id\}", table["id"], path)
            url = re.sub(r"\{seat\}", "0", url)
            url = re.sub(r"\{[a-z_]+\}", "x", url)
            for field in model.model_fields:
                for char in ("\x00", "\ud800"):
                    answer = await _post(http, url, {field: f"a{char}b"}, **csrf)
                    assert answer.status_code == 422, (url, field, answer.text)
                    error = answer.json()
                    assert error["error"] == "bad_text", (url, field, error)
                    assert field in error["message"] and "control" in error["message"]
                    checked += 1
        assert checked >= 60

        # Deeper texts: an object's key, a list's item, a nested object's value.
        for body in (
            {"players": 2, "options": {"a\x00": 1}},
            {"players": 2, "bots": {"1": "random\x1b"}},
            {"players": 2, "clock": {"kind": "turn", "preset": "\x7f"}},
        ):
            answer = await _post(http, "/api/tables", body)
            assert answer.status_code == 422 and answer.json()["error"] == "bad_text", body
        for char in REFUSED:
            for name, password in ((f"Ann{char}", PASSWORD), ("Ann", f"secret{char}secret")):
                body = {"name": name, "password": password}
                for path in ("/api/account/login", "/api/account/signup"):
                    answer = await _post(http, path, body)
                    assert answer.status_code == 422, (path, body, answer.text)
                    assert answer.json()["error"] == "bad_text"

        # Paths and queries.
        for url in (
            "/api/people/Ann%00",
            "/u/Ann%00",
            "/api/levels?game=odin%00",
            "/api/tables?game=%1b",
            "/api/leaderboard?class=%C2%85",
            f"/api/tables/{table['id']}?x%00=1",
        ):
            answer = await http.get(url)
            assert answer.status_code == 422, (url, answer.text)
            assert answer.json()["error"] == "bad_text"

        # Nothing was stored: no account, no seat taken, no table created.
        assert (await http.get("/api/people/Ann")).status_code == 404
        view = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert all(seat["name"] is None for seat in view["seats"]), view["seats"]
        assert (await http.get("/api/tables")).json()["tables"] == lobby
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_websocket_texts_with_a_control_character_are_malformed(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2)
        token = await sit(http, table["id"], 0, "Ann")
    player = await open_client(server, table["id"], token)
    spectator = await open_client(server, table["id"])
    try:
        for client, message in (
            (player, {"type": "chat", "text": "hi\x00"}),
            (spectator, {"type": "chat", "text": "hi", "name": "Bo\x00b"}),
            (player, {"type": "mute", "author": "\x1b"}),
            (player, {"type": "act", "action": "pass\x00", "version": 0, "id": "a"}),
            (spectator, {"type": "hello", "token": "\x7f"}),
        ):
            await client.send(message)
            error = await client.next_of("error")
            assert error["code"] == "malformed", (message, error)
            assert "control characters" in error["message"]
        await player.send({"type": "chat", "text": "still here"})
        await player.until(
            lambda m: m["type"] == "chat" and any(x["text"] == "still here" for x in m["lines"])
        )
    finally:
        await player.close()
        await spectator.close()
