"""How the application runs under uvicorn: one configuration for ``odin serve`` and tests.

uvicorn's WebSocket protocol waits, before every send and before the close, until the
socket's buffer drains. A client that never reads would hold its connection (and the
close meant to drop it) forever. :class:`AbortableWebSockets` adds the ASGI extension
``odin.abort``: put a close frame on the wire if the socket takes it, then abort the
transport (its buffer is thrown away). :class:`~.connection.Connection` uses it for
readers that fall behind. A handshake refused with an HTTP answer (a quota) is not
logged as an error.
"""

from __future__ import annotations

import contextlib
from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

from .connection import ABORT
from .logs import guard_logs
from .settings import Settings


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


def server_config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of ``app``: frame cap, no compression, abortable sockets.

    ``options`` go to :class:`uvicorn.Config` (host, port, log_level, ...). Logging is
    configured here and guarded (:func:`.logs.guard_logs`): no log level writes frames.
    """
    config = uvicorn.Config(
        app,
        ws=AbortableWebSockets,
        ws_max_size=settings.max_frame,
        # Messages are small; compressing each one costs more CPU than it saves time.
        ws_per_message_deflate=False,
        **options,
    )
    guard_logs()
    return config
