"""Every text of an HTTP request obeys :mod:`..core.protocol.text` before a route sees it.

- :class:`Body` -- the base of every request body model: unknown fields are refused, and
  every string in the body (values, keys, nested lists and objects) is checked; a control
  character is refused 422 ``bad_text`` naming the field.
- :data:`WholeNumber` -- a whole number in a path or query (``/seats/{seat}``,
  ``?offset=``): written with ASCII digits only, without sign, spaces, point or leading
  zero (``1.0``, ``+1``, `` 1``, ``01``, ``1_0`` are 422 ``invalid``, not seat 1);
- :class:`ControlledUrls` -- ASGI middleware: the decoded path and every query parameter
  (name and value) are checked the same way, for HTTP and WebSocket requests alike, so a
  path parameter (``/u/{name}``, ``/api/people/{name}``) or a query (``?game=``) never
  carries NUL to the store.
"""

from __future__ import annotations

import re
from typing import Annotated, Any
from urllib.parse import parse_qsl

from pydantic import BaseModel, BeforeValidator, ConfigDict, model_validator
from pydantic_core import PydanticCustomError
from starlette.types import ASGIApp, Receive, Scope, Send

from odin_cards.server.core.protocol.text import RULE, control_character
from odin_cards.server.transport.errors import error_response

BAD_TEXT = "bad_text"
"""The error code of a text with a control character (422)."""


_DIGITS = re.compile(r"0|[1-9][0-9]{0,8}")


def _whole_number(value: Any) -> Any:
    if isinstance(value, str):
        if _DIGITS.fullmatch(value) is None:
            raise PydanticCustomError(
                "whole_number", "a whole number written with the digits 0-9 alone (0, 1, 2, ...)"
            )
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]
"""A whole number of a path or query, strictly written (see the module's words)."""


def _first_bad(data: Any) -> tuple[str, str] | None:
    """Where in ``data`` (a parsed JSON body) the first bad string is, and its character."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            found = control_character(value)
            if found is not None:
                return where or "body", found
        elif isinstance(value, dict):
            for key, item in value.items():
                inner = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and (found := control_character(key)) is not None:
                    return inner[:64], found
                stack.append((inner[:64], item))
        elif isinstance(value, list):
            stack.extend(
                (f"{where}.{i}" if where else str(i), item) for i, item in enumerate(value)
            )
    return None


class Body(BaseModel):
    """A request body: exactly its fields, and no control character in any text."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_control_characters(cls, data: Any) -> Any:
        bad = _first_bad(data)
        if bad is not None:
            where, found = bad
            raise PydanticCustomError(
                BAD_TEXT, "{problem}", {"problem": f"{where}: {RULE} ({found})"}
            )
        return data


def url_problem(scope: Scope) -> str | None:
    """What is wrong with the request's path or query, or ``None``."""
    path = scope.get("path", "")
    found = control_character(path)
    if found is not None:
        return f"the path: {RULE} ({found})"
    query = scope.get("query_string", b"")
    if query:
        text = query.decode("latin-1")
        for name, value in parse_qsl(text, keep_blank_values=True, encoding="utf-8"):
            found = control_character(name) or control_character(value)
            if found is not None:
                return f"query {name[:32]!r}: {RULE} ({found})"
    return None


class ControlledUrls:
    """ASGI middleware: a path or query with a control character gets 422 ``bad_text``
    (a WebSocket handshake is refused with the same answer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            problem = url_problem(scope)
            if problem is not None:
                # Starlette answers a WebSocket handshake with the same HTTP response.
                await error_response(422, BAD_TEXT, problem)(scope, receive, send)
                return
        await self.app(scope, receive, send)
