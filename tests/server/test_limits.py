"""Limits of the HTTP API: bodies capped before parsing, tables per address, JSON errors.

Every refusal is JSON with a stable code, never a plain-text 500 or a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from typing import Any

import pytest
from starlette.requests import Request
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from odin_cards.server.settings import Settings
from odin_cards.server.transport.quotas import Quotas

from .conftest import _postgres_admin
from .harness import Client, Server, new_table, running

BIG = 100_000_000


async def _raw(server: Server, head: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = server.base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(head.encode())
    await writer.drain()
    return reader, writer


async def _answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], dict[str, Any]]:
    """Status, headers and JSON body of one HTTP/1.1 answer."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    lines = head.decode().split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 10)
    return status, headers, json.loads(body)


def _post(path: str, extra: str) -> str:
    return f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n{extra}\r\n"


async def test_a_declared_body_over_the_cap_is_refused_at_once(server: Server) -> None:
    # Three 100 MB bodies announced: each is answered 413 without a byte of it being sent,
    # and another client is served meanwhile.
    uploads = [
        await _raw(server, _post("/api/tables", f"Content-Length: {BIG}\r\n")) for _ in "abc"
    ]
    async with server.http() as http:
        assert (await http.get("/api/levels")).status_code == 200
    for reader, writer in uploads:
        status, headers, body = await _answer(reader)
        assert status == 413 and body["error"] == "too_large", body
        assert headers["content-type"] == "application/json"
        assert "content-security-policy" in headers
        writer.close()


async def test_a_streamed_body_over_the_cap_is_refused(server: Server) -> None:
    reader, writer = await _raw(server, _post("/api/tables", "Transfer-Encoding: chunked\r\n"))
    chunk = b"x" * 4096
    for _ in range(server.settings.max_body // len(chunk) + 1):
        writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    status, headers, body = await _answer(reader)
    assert status == 413 and body["error"] == "too_large", body
    assert str(server.settings.max_body) in body["message"]
    assert headers["connection"] == "close"
    writer.close()


async def test_a_streamed_100_mb_body_is_cut_off(server: Server) -> None:
    # Three at once; the server stops reading each one soon after the cap (it closes the
    # connection), and serves another client meanwhile.
    async def upload() -> int:
        _, writer = await _raw(server, _post("/api/tables", "Transfer-Encoding: chunked\r\n"))
        chunk = b"x" * 65536
        sent = 0
        with contextlib.suppress(ConnectionError):
            while sent < BIG:
                writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                await writer.drain()
                sent += len(chunk)
        writer.close()
        return sent

    uploads = [asyncio.create_task(upload()) for _ in range(3)]
    async with server.http() as http:
        assert (await http.get("/api/levels")).status_code == 200
    for sent in await asyncio.wait_for(asyncio.gather(*uploads), 20):
        assert sent < BIG // 10


async def test_tables_per_address_are_limited(settings: Settings) -> None:
    limited = dataclasses.replace(settings, tables_per_hour=3)
    async with running(limited) as server, server.http() as http:
        for _ in range(3):
            await new_table(http, 2)
        answer = await http.post("/api/tables", json={"players": 2})
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"] == "rate_limited"
        assert 0 < int(answer.headers["retry-after"]) <= 3600
        assert (await http.get("/api/tables?status=open")).status_code == 200
        # A refused request (bad body) uses no quota, and is refused for what it is.
        assert (await http.post("/api/tables", json={"players": 9})).status_code == 422


def test_the_table_quota_frees_up_after_an_hour() -> None:
    now = [0.0]
    quotas = Quotas(Settings("sqlite://", tables_per_hour=2), clock=lambda: now[0])
    assert quotas.create_table("a") is None and quotas.create_table("a") is None
    refused = quotas.create_table("a")
    assert refused is not None and refused.retry_after == 3601
    assert quotas.create_table("b") is None  # another address has its own quota
    now[0] = 1800.0
    refused = quotas.create_table("a")
    assert refused is not None and refused.retry_after == 1801
    now[0] = 3600.5
    assert quotas.create_table("a") is None


BAD_BODIES: list[tuple[dict[str, Any], str]] = [
    ({"players": 3, "bots": {"²": "random"}}, "bad_bots"),
    ({"players": 3, "bots": {"١": "random"}}, "bad_bots"),  # an Arabic-Indic digit one
    ({"players": 3, "bots": {"1" * 5000: "random"}}, "invalid"),
    ({"players": 3, "bots": {"01234567": "random"}}, "bad_bots"),
    ({"players": 3, "bots": {"1": "r" * 5000}}, "invalid"),
    ({"players": 2, "options": {"colours": 4.0}}, "bad_options"),
    ({"players": 2, "options": {"colours": 6.0}}, "bad_options"),
    ({"players": 2, "options": {"first_leader": True}}, "bad_options"),
    ({"players": 2, "options": {"target": 10.0}}, "bad_options"),
    ({"players": 2, "options": {"target": "1" * 5000}}, "bad_options"),
    ({"players": 2, "options": {"goat": 1}}, "bad_options"),
    ({"players": 2.0}, "invalid"),
    ({"players": True}, "invalid"),
    ({"players": "2"}, "invalid"),
]


async def test_bad_bodies_are_422_json(server: Server) -> None:
    async with server.http() as http:
        for body, code in BAD_BODIES:
            answer = await http.post("/api/tables", json=body)
            assert answer.status_code == 422, (body, answer.text)
            assert answer.json()["error"] == code, (body, answer.json())
        table = await new_table(http, 2)
        long_name = await http.post(f"/api/tables/{table['id']}/seats/0", json={"name": "x" * 9999})
        assert long_name.status_code == 422 and long_name.json()["error"] == "invalid"
        huge = await http.post(
            "/api/tables", content=b'{"players": 2, "options": {"target": ' + b"9" * 5000 + b"}}"
        )
        assert huge.status_code in (400, 422) and huge.json()["error"] == "invalid", huge.text
        assert (await http.get("/api/tables?status=open")).json()["tables"] == [table]


async def test_table_ids_that_cannot_be_ids_are_not_found(server: Server) -> None:
    async with server.http() as http:
        for bad in ("x" * 200, "a.b", "%C3%A9t%C3%A9", "a%20b", "..%2F.."):
            for path in (f"/api/tables/{bad}", f"/api/tables/{bad}/record"):
                answer = await http.get(path)
                assert answer.status_code == 404, (path, answer.text)
                assert answer.json()["error"] == "not_found"
            seat = await http.post(f"/api/tables/{bad}/seats/0", json={"name": "Ann"})
            assert seat.status_code == 404 and seat.json()["error"] == "not_found"
        # A control character is refused before routing (transport/bodies.py).
        for path in ("/api/tables/a%00b", "/api/tables/a%00b/record"):
            answer = await http.get(path)
            assert answer.status_code == 422 and answer.json()["error"] == "bad_text", path


async def test_an_unexpected_failure_is_500_json_and_logged(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    async def boom(request: Request) -> None:
        raise RuntimeError("kaboom with a token " + "T" * 43)

    assert server.app is not None
    server.app.add_api_route("/api/boom", boom)
    with caplog.at_level(logging.ERROR, logger="odin_cards"):
        async with server.http() as http:
            answer = await http.get("/api/boom")
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal", "message": "the server failed; it is logged"}
    assert "content-security-policy" in answer.headers
    logged = [r for r in caplog.records if r.name == "odin_cards.server.transport.errors"]
    assert logged and "GET /api/boom" in logged[0].getMessage()
    assert "T" * 43 not in caplog.text and "kaboom" in caplog.text


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_creating_a_table_while_the_database_is_down_is_503(settings: Settings) -> None:
    name = settings.database_url.rsplit("/", 1)[1]
    admin: Any = await _postgres_admin()
    try:
        async with running(settings) as server, server.http() as http:
            await new_table(http, 2)
            await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
            )
            answer = await http.post("/api/tables", json={"players": 2})
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"] == "unavailable"
            # A table that must be read from the database: the WebSocket says so too.
            socket = Client(await connect(f"{server.ws}/ws/notloaded"))
            assert (await socket.next_of("error"))["code"] == "unavailable"
            with pytest.raises(ConnectionClosed) as closed:
                await socket.receive()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            await new_table(http, 2)  # back once the database is
    finally:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await admin.close()
