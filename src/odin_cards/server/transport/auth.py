"""Who is asking: the session cookie, its CSRF token, and the account behind them.

FastAPI dependencies for every router that knows accounts (``docs/accounts.md``):

- :func:`current_account` -- the logged-in :class:`~..domain.accounts.Account`, or
  ``None`` for a guest (no cookie, an expired or ended session, a banned account);
- :func:`require_account` -- the same, or 401 ``login_required``;
- :func:`checked_write` -- :func:`require_account` for a write (POST/PUT/DELETE) made with
  the cookie: the ``X-CSRF-Token`` header must equal the session's CSRF token (from
  ``GET /api/account``) and ``Origin``, when the browser sends one, must be this server's
  own (or in ``allowed_origins``); 403 ``csrf`` otherwise.

The cookie is HttpOnly and SameSite=Lax; it is ``Secure`` whenever the request came over
HTTPS (uvicorn's proxy headers tell that behind a trusted proxy) or ``secure_cookies`` says
so. Its value is never logged: only its SHA-256 is stored.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from odin_cards.server.core.people.accounts import (
    Account,
    AccountError,
    Accounts,
    NewSession,
    Session,
    same_secret,
)
from odin_cards.server.settings import Settings
from odin_cards.server.transport.errors import ApiError

COOKIE = "odin_session"
"""The session cookie's name."""

CSRF_HEADER = "x-csrf-token"


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


async def current_session(request: Request) -> Session | None:
    """The request's live session (read once per request), or ``None``."""
    if "odin_session" in request.scope.setdefault("state", {}):
        cached: Session | None = request.scope["state"]["odin_session"]
        return cached
    cookie = request.cookies.get(COOKIE)
    session = None if not cookie else await accounts_of(request).session(cookie)
    request.scope["state"]["odin_session"] = session
    return session


async def current_account(request: Request) -> Account | None:
    """The logged-in account, or ``None`` for a guest."""
    session = await current_session(request)
    return None if session is None else session.account


async def require_account(request: Request) -> Account:
    """The logged-in account; 401 ``login_required`` for a guest."""
    account = await current_account(request)
    if account is None:
        raise ApiError(401, "login_required", "log in first")
    return account


DEFAULT_PORTS = {"http": 80, "https": 443}
WEB_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
"""A request's scheme as the page's origin names it (a WebSocket's page is HTTP's)."""


def _origin(text: str) -> tuple[str, str, int] | None:
    """An origin's scheme, host and port (the default port filled in); ``None`` for what
    is no origin: another scheme, a path, a query, user info, a bad port, ``null``."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path or parts.query or parts.fragment or parts.username or parts.password:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[scheme]


def same_origin(origin: str, scheme: str, host: str, allowed: tuple[str, ...] = ()) -> bool:
    """Whether ``Origin`` is the server's own -- scheme, host and port all equal to the
    request's (``scheme`` as the server saw it, behind a trusted proxy the proxy's; ``host``
    its ``Host`` header) -- or exactly one of ``allowed``."""
    if origin in allowed:
        return True
    own = _origin(f"{WEB_SCHEMES.get(scheme, scheme)}://{host}") if host else None
    return own is not None and _origin(origin) == own


def origin_ok(request: Request) -> bool:
    """``Origin``, when sent, is this server's own or one of ``allowed_origins``."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    settings: Settings = request.app.state.settings
    host = request.headers.get("host", "")
    return same_origin(origin, request.url.scheme, host, settings.allowed_origins)


def check_origin(request: Request) -> None:
    if not origin_ok(request):
        raise ApiError(403, "csrf", "this request came from another site")


async def checked_session(request: Request) -> Session:
    """The live session of a cookie-authenticated write, its CSRF token and origin checked."""
    session = await current_session(request)
    if session is None:
        raise ApiError(401, "login_required", "log in first")
    check_origin(request)
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or len(sent) > 128 or not same_secret(sent, session.csrf):
        raise ApiError(403, "csrf", "the request lacks this session's CSRF token; reload the page")
    return session


async def checked_write(request: Request) -> Account:
    """The account of a cookie-authenticated write (CSRF token and origin checked)."""
    return (await checked_session(request)).account


def set_session_cookie(request: Request, response: Response, new: NewSession) -> None:
    settings: Settings = request.app.state.settings
    max_age = max(0, int((new.session.expires - accounts_of(request).clock.now()).total_seconds()))
    response.set_cookie(
        COOKIE,
        new.cookie,
        max_age=max_age,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies or request.url.scheme == "https",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    settings: Settings = request.app.state.settings
    response.delete_cookie(
        COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies or request.url.scheme == "https",
    )


def install(app: FastAPI) -> None:
    """Answer :class:`AccountError` as JSON ``{"error", "message"}`` (with ``Retry-After``
    and ``retry_after`` for a lockout)."""

    @app.exception_handler(AccountError)
    async def account_error(_: Request, error: AccountError) -> JSONResponse:
        body: dict[str, object] = {"error": error.code, "message": error.message}
        headers = None
        if error.retry_after is not None:
            body["retry_after"] = error.retry_after
            headers = {"Retry-After": str(error.retry_after)}
        return JSONResponse(body, error.status, headers=headers)
