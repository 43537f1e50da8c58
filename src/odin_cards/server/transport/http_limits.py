"""HTTP request bodies are capped before anything parses them.

A declared ``Content-Length`` over the cap is answered 413 at once, without reading the
body. A body without one (chunked) is counted while it streams and cut off as soon as it
passes the cap: the server never holds more than ``max_body`` bytes of one request.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from odin_cards.server.transport.errors import error_response

CLOSE = {"Connection": "close"}
"""The server closes the connection after a refused body instead of reading the rest."""


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the cap (FastAPI re-raises it)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"a request body has at most {limit} bytes", CLOSE)


class BodyLimit:
    """ASGI middleware: a request body of more than ``limit`` bytes gets 413 ``too_large``."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit
        too_large = BodyTooLarge(limit)
        declared = _content_length(scope)
        refusal = error_response(413, "too_large", str(too_large.detail), CLOSE)
        if declared is not None and declared > limit:
            await refusal(scope, receive, send)
            return
        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise too_large
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except BodyTooLarge:
            if started:
                raise
            await refusal(scope, receive, send)


def _content_length(scope: Scope) -> int | None:
    """The declared body length; a value that is no length counts as too large."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            text = value.strip()
            if not text.isdigit() or len(text) > 18:
                return 1 << 62
            return int(text)
    return None
