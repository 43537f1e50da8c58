"""The WebSocket endpoint ``/ws/{table_id}``: checks the handshake and every message.

Before a message reaches a table it passes the rate limit, the size cap and strict
parsing (:mod:`.messages`); any refusal is an ``error`` message that changes nothing.
"""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket, WebSocketDisconnect

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.people.accounts import AccountError, Accounts
from odin_cards.server.core.ports import StoreUnavailable
from odin_cards.server.core.protocol import client
from odin_cards.server.core.protocol.client import Act, Chat, Hello, Mute, Visibility
from odin_cards.server.core.protocol.server import PONG, error
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable, clean_name
from odin_cards.server.settings import Settings
from odin_cards.server.transport.auth import COOKIE, same_origin
from odin_cards.server.transport.connection import Connection
from odin_cards.server.transport.errors import error_response
from odin_cards.server.transport.quotas import Quotas, client_address

POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """Browsers send ``Origin``: it must be this server's own (or explicitly allowed)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: the token is what protects a seat
    host = websocket.headers.get("host", "")
    return same_origin(origin, websocket.url.scheme, host, settings.allowed_origins)


async def endpoint(websocket: WebSocket, table_id: str) -> None:
    hall: Hall = websocket.app.state.hall
    settings: Settings = websocket.app.state.settings
    if not origin_allowed(websocket, settings):
        await websocket.close(POLICY_VIOLATION)  # before accept: the handshake is refused
        return
    quotas: Quotas = websocket.app.state.quotas
    address = client_address(websocket.scope)
    refused = quotas.open_socket(address)
    if refused is not None:  # refused at the handshake with an HTTP answer that says why
        await websocket.send_denial_response(
            error_response(refused.status, refused.code, refused.message)
        )
        return
    try:
        await websocket.accept()
        connection = Connection(websocket, settings, websocket.app.state.edge)
        session = Session(connection, await _account(websocket))
        table: LiveTable | None = None
        try:
            try:
                if not client.valid_table_id(table_id):
                    raise DomainError("not_found", "there is no such table")
                table = await hall.get(table_id)
            except DomainError as refusal:
                connection.send(error(refusal))
                # the store is down: try again later; anything else will not change
                later = refusal.code == "unavailable"
                await connection.finish(
                    TRY_AGAIN_LATER if later else POLICY_VIOLATION, refusal.code
                )
                return
            await _serve(websocket, connection, session, hall, table, settings)
        finally:
            if table is not None:
                hall.leave(table, session)
            await connection.stop()
    finally:
        quotas.close_socket(address)


async def _account(websocket: WebSocket) -> str | None:
    """The account of the connection's session cookie (read once; none: a guest, and a
    store that cannot be read now counts as none: the game is not held up for it)."""
    cookie = websocket.cookies.get(COOKIE)
    accounts: Accounts | None = getattr(websocket.app.state, "accounts", None)
    if not cookie or accounts is None:
        return None
    try:
        session = await accounts.session(cookie)
    except StoreUnavailable:
        return None
    return None if session is None else session.account.id


async def _serve(
    websocket: WebSocket,
    connection: Connection,
    session: Session,
    hall: Hall,
    table: LiveTable,
    settings: Settings,
) -> None:
    deadline = asyncio.get_running_loop().time() + settings.hello_timeout
    while True:
        try:
            if connection.greeted:
                message = await websocket.receive()
            else:
                left = deadline - asyncio.get_running_loop().time()
                message = await asyncio.wait_for(websocket.receive(), max(0.0, left))
        except TimeoutError:
            reason = f"no hello within {settings.hello_timeout:g} seconds"
            await connection.finish(POLICY_VIOLATION, reason)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        data = message.get("bytes")
        if not connection.allow():
            connection.send(error(DomainError("rate_limited", "too many messages: slow down")))
            if connection.refused >= settings.flood:
                await connection.finish(POLICY_VIOLATION, "too many messages")
                return
            continue
        size = len(text.encode()) if text is not None else len(data or b"")
        if size > settings.max_message:
            connection.send(
                error(
                    DomainError("too_large", f"a message has at most {settings.max_message} bytes")
                )
            )
            continue
        try:
            if text is None:
                raise DomainError("malformed", "messages are JSON text frames")
            await _handle(connection, session, hall, table, client.parse(text))
        except DomainError as refusal:
            connection.send(error(refusal))


async def _check_chat_name(connection: Connection, session: Session, name: str) -> None:
    """A spectator's chat name may not be, or look like, an account's other than the
    spectator's own, nor a bot's (``Accounts.check_guest_name``); checked once per name
    a connection uses."""
    shown = clean_name(name)
    if connection.chat_name == shown:
        return
    accounts: Accounts | None = getattr(connection.websocket.app.state, "accounts", None)
    if accounts is not None:
        try:
            await accounts.check_guest_name(shown, session.account)
        except AccountError as refusal:
            raise DomainError(refusal.code, refusal.message) from None
    connection.chat_name = shown


async def _handle(
    connection: Connection,
    session: Session,
    hall: Hall,
    table: LiveTable,
    message: client.ClientMessage,
) -> None:
    if isinstance(message, Hello):
        if not connection.allow_hello():
            raise DomainError("rate_limited", "too many hellos: each one resends the whole table")
        quotas: Quotas = connection.websocket.app.state.quotas
        if not quotas.hello(client_address(connection.websocket.scope)):
            raise DomainError("rate_limited", "too many hellos from your address: wait a minute")
        await hall.hello(session, table, message.token, message.version)
        connection.greeted = True
    elif isinstance(message, Act):
        if not connection.greeted:
            raise DomainError("malformed", "say hello first", message.id)
        if session.seat is None:
            raise DomainError("not_seated", "spectators cannot play", message.id)
        await hall.act(table, session.seat, message.action, message.version, message.id, session)
    elif isinstance(message, Visibility):
        if not connection.greeted:
            raise DomainError("malformed", "say hello first")
        hall.presence.visibility(table, session, message.visible)
    elif isinstance(message, Chat | Mute):
        if not connection.greeted:
            raise DomainError("malformed", "say hello first")
        if isinstance(message, Mute):
            hall.chat.mute(session, message.author, message.muted)
            return
        if session.seat is None and message.name:
            await _check_chat_name(connection, session, message.name)
        address = client_address(connection.websocket.scope)
        await hall.chat.say(table, session, message.text, message.reaction, message.name, address)
    else:
        connection.send(PONG)
