"""The accounts' HTTP API (``docs/api.md``, Accounts): sign up, log in and out, the
account's tables and seats, password change, deletion."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.people.accounts import (
    NAME_MAX,
    PASSWORD_MAX,
    SEAT_LIMIT,
    Account,
    AccountError,
    NewSession,
    Session,
)
from odin_cards.server.core.protocol.client import valid_table_id
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.transport.auth import (
    COOKIE,
    accounts_of,
    check_origin,
    checked_session,
    checked_write,
    clear_session_cookie,
    current_session,
    require_account,
    set_session_cookie,
)
from odin_cards.server.transport.bodies import Body, WholeNumber
from odin_cards.server.transport.errors import ApiError
from odin_cards.server.transport.quotas import Quotas, client_address

router = APIRouter(prefix="/api/account")

TABLES_SHOWN = 30
"""Tables of an account listed at once (newest first)."""

Token = Annotated[str, Field(max_length=128)]
Tokens = Annotated[list[Token], Field(max_length=SEAT_LIMIT)]


class Credentials(Body):
    # Limits a little above the rules' (the domain says what is wrong in words).
    name: Annotated[str, Field(max_length=NAME_MAX * 2)]
    password: Annotated[str, Field(max_length=PASSWORD_MAX * 2)]
    seats: Tokens = Field(default_factory=list)
    """Seat tokens this browser holds (a guest's games): linked to the account."""


class PasswordChange(Body):
    old: Annotated[str, Field(max_length=PASSWORD_MAX * 2)]
    new: Annotated[str, Field(max_length=PASSWORD_MAX * 2)]


class Deletion(Body):
    password: Annotated[str, Field(max_length=PASSWORD_MAX * 2)]


class SeatTokens(Body):
    tokens: Tokens


def _hall(request: Request) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


def _seat_write(request: Request, account: Account) -> None:
    """Count one seat link or claim of ``account`` from this address, or refuse it (429
    ``rate_limited`` with ``retry_after`` and ``Retry-After``): each is a database write."""
    quotas: Quotas = request.app.state.quotas
    refused = quotas.seat_write(account.id, client_address(request.scope))
    if refused is not None:
        raise AccountError(refused.code, refused.message, refused.status, refused.retry_after)


def _answer(session: Session, linked: int | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {"account": session.account.to_api(), "csrf": session.csrf}
    if linked is not None:
        answer["linked"] = linked
    return answer


async def _opened(
    request: Request, response: Response, new: NewSession, seats: list[str]
) -> dict[str, Any]:
    set_session_cookie(request, response, new)
    linked = await accounts_of(request).link_seats(new.session.account, seats, _hall(request))
    # Later reads of this request see the new session, not the cookie it came with.
    request.scope.setdefault("state", {})["odin_session"] = new.session
    return _answer(new.session, linked)


@router.get("")
async def account(request: Request) -> dict[str, Any]:
    """The logged-in account and its CSRF token; ``null`` for a guest."""
    session = await current_session(request)
    if session is None:
        return {"account": None, "csrf": None}
    return _answer(session)


@router.post("/signup", status_code=201)
async def sign_up(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    check_origin(request)
    new = await accounts_of(request).sign_up(
        body.name, body.password, client_address(request.scope), request.cookies.get(COOKIE)
    )
    return await _opened(request, response, new, body.seats)


@router.post("/login")
async def log_in(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    check_origin(request)
    new = await accounts_of(request).log_in(
        body.name, body.password, client_address(request.scope), request.cookies.get(COOKIE)
    )
    return await _opened(request, response, new, body.seats)


@router.post("/logout")
async def log_out(request: Request, response: Response) -> dict[str, Any]:
    session = await checked_session(request)
    await accounts_of(request).log_out(session)
    clear_session_cookie(request, response)
    return {"account": None, "csrf": None}


@router.post("/password")
async def change_password(request: Request, body: PasswordChange) -> dict[str, Any]:
    """A new password (the old one first); the account's other sessions end."""
    session = await checked_session(request)
    await accounts_of(request).change_password(session, body.old, body.new)
    return _answer(session)


@router.post("/delete")
async def delete(request: Request, response: Response, body: Deletion) -> dict[str, Any]:
    """Delete the account (its password first); its seats are anonymized."""
    session = await checked_session(request)
    changed = await accounts_of(request).delete(session, body.password, _hall(request))
    clear_session_cookie(request, response)
    return {"account": None, "csrf": None, "anonymized": len(changed)}


@router.post("/seats")
async def link_seats(
    request: Request, body: SeatTokens, account: Annotated[Account, Depends(checked_write)]
) -> dict[str, Any]:
    """Link the seats these tokens hold (taken as a guest in this browser) to the account."""
    _seat_write(request, account)
    linked = await accounts_of(request).link_seats(account, body.tokens, _hall(request))
    return {"linked": linked}


@router.get("/tables")
async def tables(
    request: Request, account: Annotated[Account, Depends(require_account)]
) -> dict[str, Any]:
    """The account's tables, newest first: each with the seat the account holds there."""
    hall = _hall(request)
    listed: list[dict[str, Any]] = []
    for held in await accounts_of(request).seats(account):
        if len(listed) >= TABLES_SHOWN:
            break
        try:
            table = await hall.get(held.table_id)
        except DomainError as error:
            if error.code == "unavailable":
                raise
            continue
        listed.append({"table": hall.view(table), "seat": held.seat})
    return {"tables": listed}


@router.post("/tables/{table_id}/seats/{seat}/claim")
async def claim_seat(
    request: Request,
    table_id: str,
    seat: WholeNumber,
    account: Annotated[Account, Depends(checked_write)],
) -> dict[str, Any]:
    """A new token for a seat the account holds (to play it on this device); the token the
    seat had before stops working."""
    if not valid_table_id(table_id):
        raise ApiError(404, "not_found", "there is no such table")
    _seat_write(request, account)
    hall = _hall(request)
    table = await hall.get(table_id)
    token = await accounts_of(request).claim_seat(account, hall, table, seat)
    return {"table": table.id, "seat": seat, "token": token}
