"""Every HTTP error is JSON with a stable code: ``{"error": code, "message": text}``.

No request gets a plain-text answer or a traceback, whatever goes wrong: validation,
routing and limits map to their codes; a store that is down is 503 ``unavailable``; any
other failure is logged here (without secrets, :mod:`.logs`) and answered 500 ``internal``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import StoreUnavailable

log = logging.getLogger(__name__)

STORE_DOWN: tuple[type[BaseException], ...] = (
    StoreUnavailable,
    sqlalchemy.exc.DBAPIError,
    sqlalchemy.exc.TimeoutError,
    OSError,
    TimeoutError,
)
"""Failures that mean the database cannot be used now: 503, try again later."""


class ApiError(Exception):
    """An HTTP request refused by the HTTP layer itself: ``status``, a stable ``code`` and a
    human message (the domain's refusals are :class:`DomainError`, mapped by :data:`STATUS`)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


STATUS = {
    "not_found": 404,
    "no_seat": 404,
    "broken": 410,
    "expired": 410,
    "cancelled": 410,
    "started": 409,
    "locked": 409,
    "unauthorized": 403,
    "running": 403,
    "taken": 409,
    "not_finished": 409,
    "bad_name": 422,
    "account_name": 409,
    "bad_game": 422,
    "bad_players": 422,
    "bad_bots": 422,
    "bad_options": 422,
    "bad_clock": 422,
    "bad_vote": 409,
    "not_handed": 409,
    "bad_chat": 422,
    "bad_rematch": 422,
    "chat_full": 409,
    "too_many_bots": 429,
    "too_many_tables": 503,
    "unavailable": 503,
    "hints_off": 403,
    "analysis_busy": 503,
    # people (issue #10, docs/matchmaking.md)
    "bad_choice": 422,
    "banned": 403,
    "queue_full": 503,
    "too_soon": 409,
    "no_person": 404,
    "blocked": 403,
    "too_many": 409,
    "not_friend": 403,
    "bad_report": 422,
    "rate_limited": 429,
    # ratings (issue #10, docs/ratings.md)
    "bad_class": 422,
    "bad_page": 422,
}
"""HTTP status of each code the domain refuses a request with (others: 400)."""

HTTP_CODES = {
    400: "invalid",
    404: "not_found",
    405: "not_allowed",
    413: "too_large",
    429: "rate_limited",
    503: "unavailable",
}


def error_response(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status, headers=headers)


def install(app: FastAPI) -> None:
    """Register the JSON answers for the errors FastAPI and the server raise."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, error: ApiError) -> JSONResponse:
        return error_response(error.status, error.code, error.message)

    @app.exception_handler(DomainError)
    async def domain_error(_: Request, error: DomainError) -> JSONResponse:
        return error_response(STATUS.get(error.code, 400), error.code, error.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        problem = error.errors()[0]
        if problem["type"] == "bad_text":  # a control character (.bodies): its own code
            return error_response(422, "bad_text", problem["msg"])
        where = ".".join(str(p) for p in problem["loc"] if p not in ("body", "path", "query"))
        where = where or "body"
        return error_response(422, "invalid", f"{where}: {problem['msg']}")

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(error.status_code, "http_error")
        return error_response(error.status_code, code, str(error.detail), error.headers)


class CatchAll:
    """ASGI middleware: an exception nobody handled is logged once and answered as JSON
    (503 ``unavailable`` when the store is down, else 500 ``internal``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # start-up failures stay fatal
            await self.app(scope, receive, send)
            return
        started = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        except Exception as error:
            where = f"{scope.get('method', 'WEBSOCKET')} {scope.get('path', '')}"
            if isinstance(error, STORE_DOWN):
                log.error("%s: the store is unavailable: %s", where, type(error).__name__)
                status, code, message = 503, "unavailable", "the server cannot store now; retry"
            else:
                log.error("%s failed", where, exc_info=error)
                status, code, message = 500, "internal", "the server failed; it is logged"
            if scope["type"] == "http" and not started:
                await error_response(status, code, message)(scope, receive, send)
            elif scope["type"] == "websocket" and not started:
                await send({"type": "websocket.close", "code": 1011, "reason": code})
