"""One WebSocket connection: its outgoing queue and its rate limits (the core's outbox).

Tables never wait for a slow client: they put messages on the connection's queue and a
writer task sends them in order. The queue is bounded in bytes (``send_queue_bytes``): a
client that falls further behind is dropped at once (1013), even while the writer is
stuck in a send it does not read; it reconnects and resumes from its version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from starlette.websockets import WebSocket

from odin_cards.server.core.rate import Bucket
from odin_cards.server.settings import Settings

SLOW_CLIENT = 1013
"""Close code for a client that does not read its messages (try again later)."""
CLOSE_GRACE = 2.0
"""Seconds a closing connection may take to send what is queued before it is dropped."""
ABORT = "odin.abort"
"""The ASGI extension (:mod:`.transport`) that drops a connection without flushing it."""

log = logging.getLogger(__name__)


@dataclass(slots=True)
class EdgeStats:
    """What the connections of one server did: read by tests and benchmarks."""

    peak_queued: int = 0
    """The most bytes any connection ever had queued for sending."""
    dropped_slow: int = 0
    """Connections dropped because they did not read (1013)."""


class Connection:
    """A client of one table: the core's :class:`~..core.ports.Outbox` for it (whom it
    speaks for is the core's session's), with its rate limits."""

    def __init__(
        self,
        websocket: WebSocket,
        settings: Settings,
        stats: EdgeStats | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.websocket = websocket
        self.greeted = False
        self.chat_name: str | None = None
        """The last spectator chat name this connection used that passed the checks."""
        """Whether it said ``hello`` (every other message needs one first)."""
        self._messages = Bucket(settings.rate, float(settings.burst), clock)
        self._hellos = Bucket(
            settings.hellos_per_minute / 60, float(settings.hellos_per_minute), clock
        )
        self.refused = 0
        """Messages refused in a row for the rate limit."""
        self._limit = settings.send_queue_bytes
        self._stats = stats if stats is not None else EdgeStats()
        self._queue: deque[str] = deque()
        self.queued = 0
        """Bytes queued and not yet handed to the socket (messages are ASCII JSON)."""
        self._wake = asyncio.Event()
        self._close_code: int | None = None
        self._close_reason = ""
        self._aborted = False
        self._closer: asyncio.Task[None] | None = None
        self.writer = asyncio.create_task(self._write(), name="ws-writer")

    def send(self, text: str) -> None:
        """Queue a message; never waits. Too much queued drops the connection (1013)."""
        if self._close_code is not None:
            return
        size = len(text)
        if self.queued and self.queued + size > self._limit:  # one message always fits
            self.abort(SLOW_CLIENT, "too far behind: reconnect")
            return
        self._queue.append(text)
        self.queued += size
        self._stats.peak_queued = max(self._stats.peak_queued, self.queued)
        self._wake.set()

    def close(self, code: int, reason: str = "") -> None:
        """Send what is queued, then close with ``code``."""
        if self._close_code is None:
            self._close_code = code
            self._close_reason = reason
            self._wake.set()

    async def finish(self, code: int, reason: str = "") -> None:
        """Close after what is queued; a client that does not take it within
        :data:`CLOSE_GRACE` seconds is dropped (:meth:`abort`)."""
        self.close(code, reason)
        _, pending = await asyncio.wait({self.writer}, timeout=CLOSE_GRACE)
        if pending:
            self.abort(code, reason)

    def abort(self, code: int, reason: str) -> None:
        """Drop the connection now: what is queued is thrown away, the writer is cancelled
        and the transport aborted (a close frame goes first where the socket takes it)."""
        if self._aborted:
            return
        self._aborted = True
        self._close_code = code
        self._queue.clear()
        self.queued = 0
        self.writer.cancel()
        if code == SLOW_CLIENT:
            self._stats.dropped_slow += 1
        drop: Callable[[int, str], None] | None = self.websocket.scope.get("extensions", {}).get(
            ABORT
        )
        if drop is not None:
            drop(code, reason)
        else:  # another ASGI server: the best it offers is a close frame
            self._closer = asyncio.create_task(self._close_quietly(code, reason))

    async def _close_quietly(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code, reason)

    def allow(self) -> bool:
        """Take one token from the bucket; ``False`` when the client sends too fast."""
        if self._messages.take():
            self.refused = 0
            return True
        self.refused += 1
        return False

    def allow_hello(self) -> bool:
        """``False`` when the client asks for its full state too often (a resync is costly)."""
        return self._hellos.take()

    async def _write(self) -> None:
        try:
            while True:
                if not self._queue:
                    if self._close_code is not None:
                        await self.websocket.close(self._close_code, self._close_reason)
                        return
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                text = self._queue[0]
                await self.websocket.send_text(text)
                self._queue.popleft()
                self.queued -= len(text)
        except Exception:  # the peer is gone: the reader sees the disconnect and cleans up
            self._close_code = self._close_code or SLOW_CLIENT

    async def stop(self) -> None:
        if self._close_code is None:
            self._close_code = 1000
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer
