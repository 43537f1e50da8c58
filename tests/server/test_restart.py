"""Kill ``odin serve`` with SIGKILL mid-hand, start it again: the game goes on exactly.

The server runs as a real subprocess on a temporary data directory (or a fresh
PostgreSQL database). Clients keep what they sent; at the end the game's record must hold
exactly those actions, none lost and none doubled, and the bot must have carried on.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from .harness import Client, Server, new_table, open_client, sit
from .test_play import play_out

ODIN = Path(sys.executable).with_name("odin")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@asynccontextmanager
async def odin_serve(
    data: Path, database_url: str, port: int, bot_delay: float
) -> AsyncIterator[tuple[Server, subprocess.Popen[bytes]]]:
    command = [str(ODIN), "serve", "--port", str(port), "--data-dir", str(data)]
    command += ["--bot-delay", str(bot_delay), "--workers", "1", "--log-level", "warning"]
    command += ["--rate-limit", "1000"]  # scripted clients act faster than people may
    if not database_url.startswith("sqlite"):
        command += ["--database-url", database_url]
    log = (data.parent / f"serve-{port}-{uuid.uuid4().hex[:6]}.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", None)  # type: ignore[arg-type]
    try:
        async with httpx.AsyncClient(base_url=server.base) as http:
            for _ in range(300):  # start-up: imports, migrations, replaying the log
                assert process.poll() is None, "odin serve exited during start-up"
                try:
                    if (await http.get("/api/levels")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError("odin serve did not start in 30 s")
        yield server, process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)
        log.close()


def _kill(process: subprocess.Popen[bytes]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)


async def _reconnect(server: Server, table_id: str, clients: list[Client]) -> list[Client]:
    fresh = []
    for old in clients:
        client = await open_client(server, table_id, old.token)
        fresh.append(client)
    return fresh


async def test_sigkill_mid_hand_loses_and_doubles_nothing(
    tmp_path: Path, database_url: str
) -> None:
    data = tmp_path / "data"
    port = _free_port()
    rng = random.Random(4)
    sent: list[tuple[int, str]] = []

    # 1. Play part of the hand; kill while the bot (slow here) is thinking.
    async with odin_serve(data, database_url, port, bot_delay=30) as (server, process):
        async with server.http() as http:
            table = await new_table(http, 3, {2: "random"}, target=10, first_leader=0)
            tid = table["id"]
            tokens = [await sit(http, tid, 0, "Ann"), await sit(http, tid, 1, "Ben")]
        clients = [await open_client(server, tid, t) for t in tokens]
        sent += await play_out(clients, rng, stop=lambda c: c.state["to_move"] == 2)
        assert clients[0].state["hand_number"] == 1 and clients[0].state["to_move"] == 2
        version_at_kill = clients[0].version
        _kill(process)

    # 2. Restart: the bot carries on; play on; kill with an action in flight.
    async with odin_serve(data, database_url, port, bot_delay=0) as (server, process):
        clients = await _reconnect(server, tid, clients)
        assert clients[0].version >= version_at_kill
        await clients[0].until(lambda m: m["type"] == "update" and m["state"]["to_move"] != 2)
        while len(sent) < 12 or clients[0].state["to_move"] == 2:
            sent += await play_out(clients, rng, stop=lambda c: True)
            for client in clients:
                while client.version < clients[0].version:
                    await client.next_of("update")
        mover = next(c for c in clients if c.seat == clients[0].state["to_move"])
        in_flight = (mover.seat or 0, rng.choice(mover.state["legal"]))
        message = {"type": "act", "action": in_flight[1], "version": mover.version, "id": "last"}
        await mover.send(message)
        _kill(process)

    # 3. Restart; the same message again (same id): applied exactly once; finish the game.
    async with odin_serve(data, database_url, port, bot_delay=0) as (server, process):
        clients = await _reconnect(server, tid, clients)
        mover = next(c for c in clients if c.seat == in_flight[0])
        await mover.send(message)
        answer = await mover.until(lambda m: m["type"] in ("ack", "error"))
        assert answer["type"] == "ack", answer
        sent.append(in_flight)
        for client in clients:
            while client.version < answer["version"]:
                await client.next_of("update")
        sent += await play_out(clients, rng)
        async with server.http() as http:
            record = (await http.get(f"/api/tables/{tid}/record")).json()
    humans = [(e["seat"], e["action"]) for e in record["events"] if e.get("seat") in (0, 1)]
    assert humans == sent
    assert record["outcome"] is not None
    assert any(e.get("seat") == 2 for e in record["events"])


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


async def test_bot_workers_do_not_outlive_a_killed_server(tmp_path: Path) -> None:
    """Bots think in worker processes; SIGKILL of the server must not leave them behind."""
    if not Path("/proc/self/stat").exists():
        import pytest

        pytest.skip("needs Linux /proc to find the worker processes")
    data = tmp_path / "data"
    async with odin_serve(data, "sqlite", _free_port(), bot_delay=0) as (server, process):
        async with server.http() as http:
            table = await new_table(http, 2, {0: "random", 1: "random"}, one_hand=True)
        watcher = await open_client(server, table["id"])
        await watcher.next_of("update")  # the bots have moved: a worker process runs
        workers = _children(process.pid)
        assert workers
        _kill(process)
    for _ in range(100):  # the workers notice within about a second
        alive = {pid for pid in workers if Path(f"/proc/{pid}").exists()}
        alive = {
            pid for pid in alive if "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
        }
        if not alive:
            break
        await asyncio.sleep(0.1)
    assert not alive
