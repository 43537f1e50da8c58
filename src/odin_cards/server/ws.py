"""The WebSocket endpoint ``/ws/{table_id}``: checks the handshake and every message.

Before a message reaches a table it passes the rate limit, the size cap and strict
parsing (:mod:`.messages`); any refusal is an ``error`` message that changes nothing.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import messages as msg
from .connection import Connection
from .hall import Hall
from .messages import Act, Hello, Refusal
from .settings import Settings
from .table import LiveTable

POLICY_VIOLATION = 1008


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """Browsers send ``Origin``: it must be this server's own (or explicitly allowed)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: the token is what protects a seat
    if origin in settings.allowed_origins:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower() and host != ""


async def endpoint(websocket: WebSocket, table_id: str) -> None:
    hall: Hall = websocket.app.state.hall
    settings: Settings = websocket.app.state.settings
    if not origin_allowed(websocket, settings):
        await websocket.close(POLICY_VIOLATION)  # before accept: the handshake is refused
        return
    await websocket.accept()
    connection = Connection(websocket, settings)
    table = await hall.get(table_id)
    try:
        if table is None:
            connection.send(msg.error(Refusal("not_found", f"there is no table {table_id!r}")))
            connection.close(POLICY_VIOLATION)
            await connection.writer
            return
        await _serve(websocket, connection, hall, table, settings)
    finally:
        if table is not None:
            table.connections.discard(connection)
        await connection.stop()


async def _serve(
    websocket: WebSocket, connection: Connection, hall: Hall, table: LiveTable, settings: Settings
) -> None:
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        data = message.get("bytes")
        if not connection.allow():
            connection.send(msg.error(Refusal("rate_limited", "too many messages: slow down")))
            if connection.refused >= settings.flood:
                connection.close(POLICY_VIOLATION)
                await connection.writer
                return
            continue
        size = len(text.encode()) if text is not None else len(data or b"")
        if size > settings.max_message:
            connection.send(
                msg.error(
                    Refusal("too_large", f"a message has at most {settings.max_message} bytes")
                )
            )
            continue
        try:
            if text is None:
                raise Refusal("malformed", "messages are JSON text frames")
            await _handle(connection, hall, table, msg.parse(text))
        except Refusal as refusal:
            connection.send(msg.error(refusal))


async def _handle(
    connection: Connection, hall: Hall, table: LiveTable, message: msg.Hello | msg.Act | msg.Ping
) -> None:
    if isinstance(message, Hello):
        await hall.hello(connection, table, message.token, message.version)
    elif isinstance(message, Act):
        if not connection.greeted:
            raise Refusal("malformed", "say hello first", message.id)
        if connection.seat is None:
            raise Refusal("not_seated", "spectators cannot play", message.id)
        await hall.act(
            table, connection.seat, message.action, message.version, message.id, connection
        )
    else:
        connection.send(msg.PONG)
