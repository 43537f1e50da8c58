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
import json
import logging
import resource
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.datastructures import Headers
from websockets.http11 import Request, Response
from websockets.server import ServerProtocol

from odin_cards.server.settings import Settings
from odin_cards.server.transport.connection import ABORT
from odin_cards.server.transport.logs import guard_logs
from odin_cards.server.transport.quotas import address_key

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


REFUSALS = {400: "invalid", 403: "forbidden", 426: "upgrade_required", 500: "internal"}
"""Codes of the handshake refusals the WebSocket layer answers itself."""


class AbortableWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the ``odin.abort`` extension, whose own
    refusals of a handshake (a malformed upgrade, a close before accepting) are the
    server's JSON errors."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn.reject = self._json_reject  # type: ignore[method-assign]

    def _json_reject(self, status: int, text: str) -> Response:
        plain = ServerProtocol.reject(self.conn, status, text)
        code = REFUSALS.get(plain.status_code, "http_error")
        body = json.dumps({"error": code, "message": text or plain.reason_phrase}).encode()
        headers = Headers(
            [(k, v) for k, v in plain.headers.raw_items() if k.lower() != "content-type"]
        )
        headers["Content-Type"] = "application/json"
        del headers["Content-Length"]
        headers["Content-Length"] = str(len(body))
        return Response(plain.status_code, plain.reason_phrase, headers, body)

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
    """uvicorn's HTTP protocol with a deadline for the first request's headers, a cap on
    unfinished requests per address, and JSON for the requests it cannot parse.

    uvicorn times out idle connections only after a response; a socket that never sends a
    request would hold a file descriptor forever (a thousand of them exhaust a common
    limit, after which nothing works). Such a connection is closed after
    ``first_request_timeout`` seconds (``Settings.hello_timeout``).

    A connection is *unfinished* from its opening until its request has fully arrived,
    and again from the first byte of a next request on it until that one has: one address
    may hold ``unfinished_per_ip`` such connections (``Settings.unfinished_per_ip``). One
    more is dropped at once (a new connection), or closed before its request is read (a
    kept-alive one): one address sending half requests cannot take every descriptor the
    file limit leaves to connections, however long it holds them (WebSockets are capped per
    address by the application, :mod:`.quotas`).

    A request that is no HTTP (a malformed ``Content-Length``, a bad request line) is
    answered 400 with the server's JSON error, not uvicorn's plain text.
    """

    first_request_timeout = 5.0
    max_connections = 1 << 20
    """Open client connections (HTTP and WebSocket) beyond which a new one is dropped at
    once: its descriptor is given back before anything else is spent on it."""
    unfinished_per_ip = 1 << 20
    unfinished: dict[str, int] = {}  # noqa: RUF012 -- each server's own (server_config)
    """Unfinished connections by client address, of one server (shared by its protocols)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._deadline: asyncio.TimerHandle | None = None
        self._counted = False
        self._refused = False
        if len(self.server_state.connections) > self.max_connections or not self._count():
            self.transport.abort()
            return
        self._deadline = self.loop.call_later(self.first_request_timeout, self._silent)

    def _address(self) -> str:
        """The peer's quota key (an IPv6 /64 counts as one address, as every quota does)."""
        return address_key(str(self.client[0])) if self.client else "unknown"

    def _count(self) -> bool:
        """Count this connection as unfinished; ``False`` if its address holds too many."""
        if self._counted:
            return True
        address = self._address()
        held = self.unfinished.get(address, 0)
        if held >= self.unfinished_per_ip:
            return False
        self.unfinished[address] = held + 1
        self._counted = True
        return True

    def _finished(self) -> None:
        if not self._counted:
            return
        self._counted = False
        address = self._address()
        held = self.unfinished.get(address, 0) - 1
        if held > 0:
            self.unfinished[address] = held
        else:
            self.unfinished.pop(address, None)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if not self._count():  # a kept-alive connection begins one too many
            self._refused = True
            self.transport.abort()

    def on_headers_complete(self) -> None:
        self._forget_deadline()
        if not self._refused:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._finished()
        if not self._refused:
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._finished()  # the handshake has arrived; the application caps WebSockets
        super().handle_websocket_upgrade()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to what it cannot parse, as the server's JSON error."""
        body = json.dumps({"error": "invalid", "message": "the request is not valid HTTP"})
        content = [b"HTTP/1.1 400 Bad Request\r\n"]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: application/json\r\n",
                b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body.encode("ascii"),
            ]
        )
        self.transport.write(b"".join(content))
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget_deadline()
        self._finished()
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
        {
            "first_request_timeout": settings.hello_timeout,
            "max_connections": budget,
            "unfinished_per_ip": settings.unfinished_per_ip,
            "unfinished": {},
        },
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
