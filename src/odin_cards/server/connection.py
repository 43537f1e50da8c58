"""One WebSocket connection: its outgoing queue, its rate limit, and whom it speaks for.

Tables never wait for a slow client: they put messages on the connection's queue and a
writer task sends them in order. A client that falls too far behind is disconnected (it
reconnects and resumes from its version).
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from starlette.websockets import WebSocket

from .settings import Settings

QUEUE_LIMIT = 1000
SLOW_CLIENT = 1013
"""Close code for a client that does not read its messages (try again later)."""


class Connection:
    """A client of one table: a seat (``seat``) or a spectator (``seat is None``)."""

    def __init__(self, websocket: WebSocket, settings: Settings) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.greeted = False
        self.version = 0
        """The last version this connection was sent."""
        self._rate = settings.rate
        self._burst = float(settings.burst)
        self._tokens = float(settings.burst)
        self._stamp = time.monotonic()
        self.refused = 0
        """Messages refused in a row for the rate limit."""
        self._queue: asyncio.Queue[str | int] = asyncio.Queue()
        self._closing = False
        self.writer = asyncio.create_task(self._write(), name="ws-writer")

    def send(self, text: str) -> None:
        """Queue a message; never waits."""
        if self._closing:
            return
        if self._queue.qsize() >= QUEUE_LIMIT:
            self.close(SLOW_CLIENT)
            return
        self._queue.put_nowait(text)

    def close(self, code: int) -> None:
        """Send what is queued, then close with ``code``."""
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(code)

    def allow(self) -> bool:
        """Take one token from the bucket; ``False`` when the client sends too fast."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False

    async def _write(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, int):
                    await self.websocket.close(item)
                    return
                await self.websocket.send_text(item)
        except Exception:  # the peer is gone: the reader sees the disconnect and cleans up
            self._closing = True

    async def stop(self) -> None:
        self._closing = True
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer
