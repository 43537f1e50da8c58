"""How the application runs under uvicorn: one configuration for ``odin serve`` and tests.

uvicorn's WebSocket protocol waits, before every send and before the close, until the
socket's buffer drains. A client that never reads would hold its connection (and the
close meant to drop it) forever. :class:`AbortableWebSockets` adds the ASGI extension
``odin.abort``: put a close frame on the wire if the socket takes it, then abort the
transport (its buffer is thrown away). :class:`~.connection.Connection` uses it for
readers that fall behind. A handshake refused with an HTTP answer (a quota) is not
logged as an error. :class:`FirstRequestDeadline` closes connections that never send a
request, and refuses new ones beyond what the process's file limit leaves for them
(:func:`connection_budget`): sockets from many addresses must never take the descriptors
the database, its checkpoints and the bot workers need.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

from odin_cards.server.settings import Settings
from odin_cards.server.transport.connection import ABORT
from odin_cards.server.transport.logs import guard_logs

log = logging.getLogger(__name__)

KEEP_ALIVE_SECONDS = 5
"""How long an idle HTTP connection stays open. A proxy that keeps connections to the
server (nginx's upstream ``keepalive``) must drop its idle ones sooner
(``keepalive_timeout`` in deploy/nginx/odin.conf): else it may send a request on a
connection the server is closing, and a POST that fails so is never retried (502)."""

RESERVED_FILES = 128
"""Descriptors kept for everything but client connections: the database (SQLite file, WAL,
shared memory, lock, checkpoint connection, or a PostgreSQL pool), the bot workers' pipes,
logs, the listening socket."""


def connection_budget(reserved: int = RESERVED_FILES) -> int:
    """How many client connections this process may hold open at once.

    The soft file limit is raised to the hard one first (a common soft limit is 1,024);
    then every descriptor but ``reserved`` may be a connection.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return max(16, soft - reserved)


class AbortableWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the ``odin.abort`` extension."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:
            # The application's task is created but has not run: it sees the extension.
            extensions: dict[str, Any] = self.scope["extensions"]
            extensions[ABORT] = self.abort

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            # A refused handshake (an HTTP answer instead of the upgrade) is complete:
            # uvicorn would otherwise log an error for each one, a flood under attack.
            self.handshake_complete = True

    def abort(self, code: int, reason: str) -> None:
        if self.transport.is_closing():
            return
        with contextlib.suppress(Exception):  # the protocol may already be closing
            self.conn.send_close(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.abort()


class FirstRequestDeadline(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a deadline for the first request's headers.

    uvicorn times out idle connections only after a response; a socket that never sends a
    request would hold a file descriptor forever (a thousand of them exhaust a common
    limit, after which nothing works). Such a connection is closed after
    ``first_request_timeout`` seconds (``Settings.hello_timeout``).
    """

    first_request_timeout = 5.0
    max_connections = 1 << 20
    """Open client connections (HTTP and WebSocket) beyond which a new one is dropped at
    once: its descriptor is given back before anything else is spent on it."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._deadline: asyncio.TimerHandle | None = None
        if len(self.server_state.connections) > self.max_connections:
            self.transport.abort()
            return
        self._deadline = self.loop.call_later(self.first_request_timeout, self._silent)

    def on_headers_complete(self) -> None:
        self._forget_deadline()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget_deadline()
        super().connection_lost(exc)

    def _forget_deadline(self) -> None:
        deadline = getattr(self, "_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._deadline = None

    def _silent(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def server_config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of ``app``: frame cap, no compression, abortable sockets.

    ``options`` go to :class:`uvicorn.Config` (host, port, log_level, ...). Logging is
    configured here and guarded (:func:`.logs.guard_logs`): no log level writes frames.
    """
    budget = connection_budget()
    log.info("at most %d open connections (the file limit leaves them)", budget)
    http = type(
        "FirstRequestDeadline",
        (FirstRequestDeadline,),
        {"first_request_timeout": settings.hello_timeout, "max_connections": budget},
    )
    config = uvicorn.Config(
        app,
        http=http,
        ws=AbortableWebSockets,
        ws_max_size=settings.max_frame,
        # Messages are small; compressing each one costs more CPU than it saves time.
        ws_per_message_deflate=False,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        **options,
    )
    guard_logs()
    return config
