"""Limits against a hostile client: one address holds only so many WebSockets; a request
body, a WebSocket message and a frame have a size past which they are refused, and the
connection of the one who sent it is the only one to pay."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .site import SOCKETS_PER_ADDRESS, Site, new_table

MAX_BODY = 64 * 1024
MAX_MESSAGE = 4096
MAX_FRAME = 64 * 1024


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
