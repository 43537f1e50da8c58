"""Huge request bodies: several clients stream 100 MB each to ``POST /api/tables``.

The body is JSON (a table with one enormous string), sent with ``Content-Length`` or,
with ``chunked``, with chunked transfer encoding (no length to check up front). 0.1
read every body whole before looking at it: three took it to 1.25 GiB and stalled
every other request for 2 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import Any

from .common import ATTACKER, Server, raw_connect

CHUNK = 256 * 1024


@dataclass
class Config:
    bodies: int = 3
    megabytes: int = 100
    chunked: bool = False
    timeout: float = 90.0


def _head(port: int, size: int, chunked: bool) -> bytes:
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    return (
        f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\n{length}\r\n\r\n"
    ).encode()


async def _one(server: Server, config: Config, started: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    size = config.megabytes * 1_000_000
    opening = b'{"players": 2, "name": "'
    closing = b'"}'
    filler = size - len(opening) - len(closing)
    sock = await raw_connect(server.port, ATTACKER)
    record: dict[str, Any] = {"sent_mb": 0.0}
    answer = bytearray()
    answered = asyncio.Event()

    async def read() -> None:
        with contextlib.suppress(OSError):
            while True:
                chunk = await loop.sock_recv(sock, 65536)
                if not chunk:
                    break
                answer.extend(chunk)
                if b"\r\n\r\n" in answer:
                    break
        record["answered_s"] = round(time.monotonic() - started, 2)
        answered.set()

    reader = asyncio.create_task(read())
    sent = 0

    async def send(data: bytes) -> None:
        nonlocal sent
        if config.chunked:
            data = f"{len(data):x}\r\n".encode() + data + b"\r\n"
        await loop.sock_sendall(sock, data)
        sent += len(data)

    try:
        await loop.sock_sendall(sock, _head(server.port, size, config.chunked))
        await send(opening)
        block = b"a" * CHUNK
        left = filler
        while left > 0 and not answered.is_set():
            await send(block[: min(CHUNK, left)])
            left -= min(CHUNK, left)
        if not answered.is_set():
            await send(closing)
            if config.chunked:
                await loop.sock_sendall(sock, b"0\r\n\r\n")
            record["sent_all_s"] = round(time.monotonic() - started, 2)
    except OSError as error:
        record["send_error"] = type(error).__name__
    record["sent_mb"] = round(sent / 1_000_000, 1)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(answered.wait(), config.timeout)
    reader.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reader
    sock.close()
    status = bytes(answer).split(b"\r\n", 1)[0].split(b" ")
    record["status"] = int(status[1]) if len(status) > 1 and status[1].isdigit() else None
    return record


async def run(server: Server, config: Config, sampler: Any, _: object = None) -> dict[str, Any]:
    since = sampler.take().at
    started = time.monotonic()
    results = await asyncio.gather(
        *(
            asyncio.wait_for(_one(server, config, started), config.timeout + 30)
            for _ in range(config.bodies)
        ),
        return_exceptions=True,
    )
    await asyncio.sleep(2)  # memory after the bodies are gone
    figures: dict[str, Any] = sampler.summary(since)
    figures["seconds"] = round(time.monotonic() - started, 1)
    figures["bodies"] = [r if isinstance(r, dict) else {"error": repr(r)} for r in results]
    statuses = [r.get("status") if isinstance(r, dict) else None for r in results]
    figures["statuses"] = ",".join(str(s) for s in statuses)
    return figures
