"""Limits against a hostile client: one address holds only so many WebSockets; a request
body, a WebSocket message and a frame have a size past which they are refused, and the
connection of the one who sent it is the only one to pay."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from server.harness import Client

from .site import SOCKETS_PER_ADDRESS, WAITING_TABLES_PER_ADDRESS, Site, new_table, sit

MAX_BODY = 64 * 1024
MAX_MESSAGE = 4096
MAX_FRAME = 64 * 1024
SPECTATOR_LINES = 500
"""Lines a table's spectators may write in all (``Settings.chat_spectator_lines``)."""
UNFINISHED_PER_PEER = 64
"""HTTP connections one peer may hold before their request has arrived (the default of
``--unfinished-per-ip``: every hostile visitor's peer is 127.0.0.1, a smaller cap there
would refuse the others' connections whenever a test holds a few)."""
GET = b"GET /healthz HTTP/1.1\r\nHost: odin\r\n\r\n"
HALF_HEADERS = b"GET /healthz HTTP/1.1\r\nHost: od"
HALF_BODY = (
    b"POST /api/tables HTTP/1.1\r\nHost: odin\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n{"
)


async def test_one_address_holds_only_its_share_of_websockets(site: Site) -> None:
    greedy, other = site.visitor(), site.visitor()
    table = await new_table(greedy, 2)
    held = [await greedy.socket(table["id"]) for _ in range(SOCKETS_PER_ADDRESS)]
    try:
        with pytest.raises(InvalidStatus) as refused:
            await greedy.socket(table["id"])
        assert refused.value.response.status_code == 429
        assert json.loads(refused.value.response.body or b"{}")["error"] == "rate_limited"
        watcher = await other.socket(table["id"])  # another address is not refused
        await watcher.close()
        await held.pop().close()  # a closed socket gives its place back

        async def again() -> None:
            for _ in range(100):
                try:
                    held.append(await greedy.socket(table["id"]))
                    return
                except InvalidStatus:
                    await asyncio.sleep(0.05)
            raise AssertionError("the closed socket's place never came back")

        await again()
    finally:
        for socket in held:
            with contextlib.suppress(ConnectionClosed):
                await socket.close()


async def test_a_body_past_the_limit_is_refused_unread(site: Site) -> None:
    visitor = site.visitor()
    async with visitor.http() as http:
        big = b'{"players": 2, "bots": {}, "options": {}, "pad": "' + b"x" * MAX_BODY + b'"}'
        answer = await http.post(
            "/api/tables", content=big, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 413 and answer.json()["error"] == "too_large"

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: cut off once past the cap
            for _ in range(MAX_BODY // 1024 + 8):
                yield b"x" * 1024

        try:
            streamed = await http.post("/api/tables", content=chunks())
        except httpx.TransportError:
            pass  # the server closed the connection mid-body: refused too
        else:
            assert streamed.status_code == 413, streamed.text
        assert (await http.get("/api/tables")).status_code == 200  # the site still answers


async def test_a_message_or_frame_past_the_limit_costs_only_its_sender(site: Site) -> None:
    sender, bystander = site.visitor(), site.visitor()
    table = await new_table(sender, 2)
    socket = await sender.socket(table["id"])
    watcher = await bystander.socket(table["id"])
    await socket.send("[" + " " * MAX_MESSAGE + "]")
    refused = await socket.next_of("error")
    assert refused["code"] == "too_large"
    await socket.send({"type": "hello", "token": None, "version": None})
    assert (await socket.next_of("welcome"))["seat"] is None  # the connection stays
    async with connect(
        f"{site.ws}/ws/{table['id']}",
        additional_headers={"X-Forwarded-For": sender.address},
        max_size=None,
    ) as raw:
        await raw.send("x" * (MAX_FRAME + 1))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(raw.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    await watcher.send({"type": "hello", "token": None, "version": None})
    assert (await watcher.next_of("welcome"))["seat"] is None  # the bystander never noticed


async def said(connection: Client, text: str) -> str | None:
    """Send a chat line; ``None`` once it is heard back, else the error's code."""
    await connection.send({"type": "chat", "text": text})
    heard = await connection.until(
        lambda m: (
            m["type"] == "error"
            or (m["type"] == "chat" and any(line["text"] == text for line in m["lines"]))
        )
    )
    return heard["code"] if heard["type"] == "error" else None


async def test_a_spectators_address_shares_one_chat_allowance(site: Site) -> None:
    host, fan, other = site.visitor(), site.visitor(), site.visitor()
    first, second = await new_table(host, 2), await new_table(host, 2)
    here, there = await fan.socket(first["id"]), await fan.socket(second["id"])
    # A connection writes 5 lines at once, an address's spectators 8 over all their
    # connections and tables: the 4th line at the second table is one too many.
    for n in range(5):
        assert await said(here, f"first {n}") is None
    for n in range(3):
        assert await said(there, f"second {n}") is None
    assert await said(there, "one more") == "rate_limited"
    elsewhere = await other.socket(second["id"])
    assert await said(elsewhere, "another address") is None
    for connection in (here, there, elsewhere):
        await connection.close()


@pytest.mark.slow  # 500 lines from 100 spectators' connections
async def test_spectators_cannot_fill_the_players_chat(site: Site) -> None:
    host = site.visitor()
    table = await new_table(host, 2)
    player = await host.socket(table["id"], await sit(host, table["id"], 0, "Ann"))
    written, refused = 0, None
    while refused is None:  # a crowd, each from its own address, writes all it may
        watcher = await site.visitor().socket(table["id"])
        for n in range(5):
            refused = await said(watcher, f"noise {written} {n}")
            if refused is not None:
                break
            written += 1
        await watcher.close()
    assert refused == "chat_full" and written == SPECTATOR_LINES
    assert await said(player, "we can still talk") is None
    await player.close()


async def test_bots_of_one_address_draw_on_one_budget(site: Site) -> None:
    guest, other = site.visitor(), site.visitor()

    async def play_now_bots(http: httpx.AsyncClient) -> httpx.Response:
        body = {"players": 2, "target": "10", "clock": "fast", "name": "Eve"}
        queued = await http.post("/api/play-now", json=body)
        assert queued.status_code == 201, queued.text
        return await http.post("/api/play-now/bots", json={"ticket": queued.json()["ticket"]})

    async def table_bots(http: httpx.AsyncClient) -> httpx.Response:
        return await http.post("/api/tables", json={"players": 3, "bots": {"1": "random"}})

    async with guest.http() as http:  # a bot seat costs 2 of the burst's 8 units
        assert (await table_bots(http)).status_code == 201
        for _ in range(2):
            filled = await play_now_bots(http)
            assert filled.status_code == 200 and filled.json()["state"] == "matched", filled.text
        assert (await table_bots(http)).status_code == 201
        for refused in (await play_now_bots(http), await table_bots(http)):
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"] == "too_many_bots"
    async with other.http() as http:
        assert (await table_bots(http)).status_code == 201
        assert (await play_now_bots(http)).status_code == 200


async def test_one_address_holds_only_its_share_of_waiting_tables(site: Site) -> None:
    greedy, other = site.visitor(), site.visitor()
    async with greedy.http() as http:
        made = []
        for _ in range(WAITING_TABLES_PER_ADDRESS):
            answer = await http.post("/api/tables", json={"players": 3})
            assert answer.status_code == 201, answer.text
            made.append(answer.json())
        over = await http.post("/api/tables", json={"players": 3})
        assert over.status_code == 429 and over.json()["error"] == "rate_limited", over.text
        cancel = {"creator": made[0]["creator"]}
        cancelled = await http.post(f"/api/tables/{made[0]['table']['id']}/cancel", json=cancel)
        assert cancelled.status_code == 200, cancelled.text
        assert (await http.post("/api/tables", json={"players": 3})).status_code == 201
    async with other.http() as http:
        assert (await http.post("/api/tables", json={"players": 3})).status_code == 201


def raw(site: Site, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the site's HTTP process from a loopback ``source``: the peer's
    own address, which ``X-Forwarded-For`` cannot change before a request has arrived."""
    sock = socket.create_connection(("127.0.0.1", site.nodes[0].port), 5, (source, 0))
    return sock


def answer_of(sock: socket.socket, request: bytes) -> bytes | None:
    """Send ``request``; the answer's bytes, or ``None`` when the server closed the
    connection without one (a server doing neither makes ``recv`` time out: a failure)."""
    data = b""
    try:
        sock.sendall(request)
        while chunk := sock.recv(65536):
            data += chunk
            head, found, body = data.partition(b"\r\n\r\n")
            length = re.search(rb"content-length: *(\d+)", head, re.IGNORECASE)
            if found and length is not None and len(body) >= int(length.group(1)):
                break
    except ConnectionError:
        pass
    return data or None


def asked(site: Site, source: str = "127.0.0.1", request: bytes = GET) -> bytes | None:
    try:
        with raw(site, source) as sock:
            return answer_of(sock, request)
    except ConnectionError:
        return None


def test_half_sent_requests_are_capped_per_peer(site: Site) -> None:
    held = []
    try:
        for n in range(UNFINISHED_PER_PEER):
            held.append(sock := raw(site))
            sock.sendall(HALF_HEADERS if n % 2 else HALF_BODY)
        assert asked(site) is None  # one more from that peer: closed unanswered
        other = asked(site, "127.0.0.2")  # another peer is served
        assert other is not None and other.startswith(b"HTTP/1.1 200"), other
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 10  # the server forgets a connection when it reads its close
    while (again := asked(site)) is None:
        assert time.monotonic() < deadline, "the places were never given back"
    assert again.startswith(b"HTTP/1.1 200")


def test_a_malformed_content_length_gets_a_json_400(site: Site) -> None:
    for length in (b"abc", b"1, 2"):
        request = b"POST /api/tables HTTP/1.1\r\nHost: odin\r\nContent-Length: " + length
        answer = asked(site, request=request + b"\r\n\r\n{}")
        assert answer is not None
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head.lower(), answer
        assert json.loads(body)["error"] == "invalid"
