"""Limits of the WebSocket edge: slow readers, repeated hellos, idle and surplus sockets.

A client that does not read, asks for its whole state in a loop, or opens sockets and says
nothing must not cost the server more than the limits allow, nor keep others out.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from odin_cards.server.settings import Settings
from odin_cards.server.transport.connection import EdgeStats
from odin_cards.server.transport.quotas import Quotas

from .harness import Client, Server, new_table, open_client, running

HELLO = json.dumps({"type": "hello", "token": None, "version": None})


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Await a condition of the server's state (checked at each turn of the event loop)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.005)


def _stats(server: Server) -> EdgeStats:
    assert server.app is not None
    stats: EdgeStats = server.app.state.edge
    return stats


def _quotas(server: Server) -> Quotas:
    assert server.app is not None
    quotas: Quotas = server.app.state.quotas
    return quotas


async def _finished_six_player_game(server: Server) -> tuple[str, Client]:
    """A finished game of six bots (long: every resync of it is large) and a spectator."""
    async with server.http() as http:
        table = await new_table(http, 6, dict.fromkeys(range(6), "random"), target=10)
    watcher = await open_client(server, table["id"])
    while watcher.table.get("status") != "finished":
        await watcher.receive()
    return table["id"], watcher


async def _never_reading(server: Server, table_id: str) -> ClientConnection:
    # The client's own queue is tiny: once it holds a few messages it stops reading the
    # socket, and the server's sends back up as with a client that does not read.
    return await connect(f"{server.ws}/ws/{table_id}", max_size=None, max_queue=1)


async def test_a_reader_that_falls_behind_is_dropped_and_resyncs(settings: Settings) -> None:
    limit = 128 * 1024
    small = dataclasses.replace(
        settings, send_queue_bytes=limit, hellos_per_minute=10**6, rate=10**6, burst=10**6
    )
    async with running(small) as server:
        table_id, watcher = await _finished_six_player_game(server)
        slow = await _never_reading(server, table_id)

        async def hellos() -> int:
            # Every hello queues the whole game; the client reads none of it. The server
            # drops the connection (a reset: the client's sends fail) once it is too far
            # behind, though its writer is stuck in a send the client does not take.
            sent = 0
            with contextlib.suppress(ConnectionClosed):
                while True:
                    await slow.send(HELLO)
                    sent += 1
                    await asyncio.sleep(0)  # a turn for the server, in this event loop
            return sent

        sent = await asyncio.wait_for(hellos(), 60)
        stats = _stats(server)
        assert stats.dropped_slow == 1, sent
        assert stats.peak_queued <= limit
        # Coming back, it says hello with its version and gets what it missed (nothing).
        back = await open_client(server, table_id)
        assert back.version == watcher.version
        await back.hello(watcher.version)
        update = back.received[-1]
        assert update["type"] == "update" and update["events"] == [] and "resync" not in update


async def test_spectators_saying_hello_in_a_loop_are_rate_limited(settings: Settings) -> None:
    # The attack: four spectators that never read, each sending 19 hellos a second
    # (under the message rate) to a finished six-player game. Each may resync 10 times a
    # minute; what is queued for them stays under the per-connection cap.
    paced = dataclasses.replace(settings, rate=20, burst=20)
    async with running(paced) as server:
        table_id, _ = await _finished_six_player_game(server)
        attackers = [await _never_reading(server, table_id) for _ in range(4)]
        for attacker in attackers:
            for _ in range(19):
                await attacker.send(HELLO)
        assert _stats(server).peak_queued <= paced.send_queue_bytes
        for attacker in attackers:
            await attacker.send(json.dumps({"type": "ping"}))
            codes: list[str] = []
            while not codes or codes[-1] != "pong":
                message = json.loads(await asyncio.wait_for(attacker.recv(), 10))
                codes.append(message.get("code", message["type"]))
            # (the bucket refills 10 a minute: a slow machine may grant one more)
            welcomes = codes.count("welcome")
            assert paced.hellos_per_minute <= welcomes <= paced.hellos_per_minute + 1
            assert welcomes + codes.count("rate_limited") == 19
            await attacker.close()


async def test_hellos_of_one_address_are_limited(settings: Settings) -> None:
    # A client that reconnects to resync again and again: its address's budget runs out.
    budget = dataclasses.replace(settings, hellos_per_minute=5, sockets_per_ip=1)
    async with running(budget) as server:
        async with server.http() as http:
            table = await new_table(http, 2)
        for _ in range(5):  # a connection each time: none uses up its own 5 hellos
            client = await open_client(server, table["id"])
            await client.close()
            await until(lambda: _quotas(server).sockets == 0)
        last = await open_client_refused(server, table["id"])
        refusal = await last.next_of("error")
        assert refusal["code"] == "rate_limited" and "address" in refusal["message"]


def test_the_hello_budget_of_an_address_refills() -> None:
    now = [0.0]
    quotas = Quotas(
        Settings("sqlite://", hellos_per_minute=1, sockets_per_ip=2), clock=lambda: now[0]
    )
    assert quotas.hello("a") and quotas.hello("a") and not quotas.hello("a")
    assert quotas.hello("b")
    now[0] = 30.0  # half a minute: one hello back
    assert quotas.hello("a") and not quotas.hello("a")


async def open_client_refused(server: Server, table_id: str) -> Client:
    """A connection whose hello is sent but not yet answered."""
    client = Client(await connect(f"{server.ws}/ws/{table_id}"))
    await client.send(HELLO)
    return client


async def _refused(server: Server, table_id: str) -> tuple[int, dict[str, Any]]:
    with pytest.raises(InvalidStatus) as refused:
        await connect(f"{server.ws}/ws/{table_id}")
    response = refused.value.response
    return response.status_code, json.loads(response.body or b"{}")


async def test_sockets_per_address_are_capped(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    # The 998 idle sockets, scaled down: one address gets its share, the surplus is
    # refused at the handshake (saying why, logged as no error), and the server keeps
    # serving.
    strict = dataclasses.replace(settings, sockets_per_ip=5)
    async with running(strict) as server:
        async with server.http() as http:
            table = await new_table(http, 2)
        held = [await open_client(server, table["id"]) for _ in range(5)]
        with caplog.at_level(logging.WARNING):
            for _ in range(20):
                status, body = await _refused(server, table["id"])
                assert status == 429 and body["error"] == "rate_limited", body
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        async with server.http() as http:
            assert (await http.get("/api/levels")).status_code == 200
        await held[0].close()
        await until(lambda: _quotas(server).sockets == 4)
        again = await open_client(server, table["id"])  # room again
        assert again.version == held[1].version


async def test_connections_that_say_nothing_are_closed(settings: Settings) -> None:
    quick = dataclasses.replace(settings, hello_timeout=0.3)
    async with running(quick) as server:
        async with server.http() as http:
            table = await new_table(http, 2)
        idle = [await connect(f"{server.ws}/ws/{table['id']}") for _ in range(3)]
        for socket in idle:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert "hello" in closed.value.rcvd.reason
        await until(lambda: _quotas(server).sockets == 0)
        # Plain TCP connections that send no request, or never finish its headers, are
        # closed as well (each would hold a file descriptor forever).
        host, port = server.base.removeprefix("http://").split(":")
        silent = [await asyncio.open_connection(host, int(port)) for _ in range(3)]
        silent[0][1].write(b"GET /api/levels HTTP/1.1\r\nHost: x\r\n")
        for reader, writer in silent:
            assert await asyncio.wait_for(reader.read(), 10) == b""
            writer.close()
        # One that says hello in time stays.
        player = await open_client(server, table["id"])
        await player.send({"type": "ping"})
        assert (await player.next_of("pong")) == {"type": "pong"}


async def test_sockets_in_all_are_capped(settings: Settings) -> None:
    strict = dataclasses.replace(settings, sockets=2)
    async with running(strict) as server:
        async with server.http() as http:
            table = await new_table(http, 2)
        first = await open_client(server, table["id"])
        second = await open_client(server, table["id"])
        status, body = await _refused(server, table["id"])
        assert status == 503 and body["error"] == "unavailable"
        await first.close()
        await until(lambda: _quotas(server).sockets == 1)
        third = await open_client(server, table["id"])
        assert third.version == second.version


async def test_connections_beyond_the_file_budget_are_dropped_at_once(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sockets from many addresses, each under its quota, must not take the descriptors the
    database and the bots need: past the budget a new connection is dropped on accept."""
    from odin_cards.server.transport import uvicorn_config

    monkeypatch.setattr(uvicorn_config, "connection_budget", lambda: 6)
    patient = dataclasses.replace(settings, hello_timeout=60)  # no deadline closes them here
    async with running(patient) as server:
        host, port = server.base.removeprefix("http://").split(":")
        held = [await asyncio.open_connection(host, int(port)) for _ in range(6)]
        extra = [await asyncio.open_connection(host, int(port)) for _ in range(4)]
        for reader, writer in extra:  # closed before a byte is read: reset or end of file
            with contextlib.suppress(ConnectionResetError):
                assert await asyncio.wait_for(reader.read(), 10) == b""
            writer.close()
        for _, writer in held:
            writer.close()
        # Once they are gone the server works, its database included.
        async with server.http() as http:
            await until_created(http)


async def until_created(http: httpx.AsyncClient) -> None:
    """Create a table, trying again while the closed sockets are still being counted."""
    for _ in range(100):
        with contextlib.suppress(httpx.TransportError):
            answer = await http.post("/api/tables", json={"players": 2})
            if answer.status_code == 201:
                return
        await asyncio.sleep(0.05)
    raise AssertionError("no table could be created after the connections closed")


def test_the_soft_file_limit_is_raised_to_the_hard_one() -> None:
    import subprocess
    import sys

    script = (
        "import resource; "
        "resource.setrlimit(resource.RLIMIT_NOFILE, (256, 2048)); "
        "from odin_cards.server.transport.uvicorn_config import connection_budget; "
        "print(connection_budget(100), resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.stdout.split() == ["1948", "2048"], out.stderr
