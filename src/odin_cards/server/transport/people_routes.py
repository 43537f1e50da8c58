"""HTTP for people (issue #10, ``docs/matchmaking.md``): Play now, friends, invitations,
blocks and reports.

Play now is open to guests: a ticket is its own credential (its secret travels in the
body, never in a URL). A request with a session cookie is an account's, and every such
write is checked like every cookie-authenticated write (:func:`~.auth.checked_write`:
CSRF token and origin). Friends, blocks and reports are for accounts only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import Field

from odin_cards.games import default_key
from odin_cards.server.core.people.accounts import Account, name_key
from odin_cards.server.core.people.friends import REASONS, Friends
from odin_cards.server.core.people.matchmaking import (
    HallTables,
    MatchQueue,
    RatingPoints,
    Rules,
    Seeker,
    check_choice,
    nearest_bot,
)
from odin_cards.server.core.people.ratings import rated
from odin_cards.server.core.ports import Clock, Storage
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.table import clean_name, hash_token
from odin_cards.server.settings import Settings
from odin_cards.server.transport.auth import (
    accounts_of,
    checked_write,
    current_session,
    require_account,
)
from odin_cards.server.transport.bodies import Body
from odin_cards.server.transport.errors import ApiError
from odin_cards.server.transport.quotas import client_address

router = APIRouter(prefix="/api")

SECRET = Annotated[str, Field(min_length=1, max_length=128)]
NAME = Annotated[str, Field(min_length=1, max_length=32)]


class PlayNow(Body):
    game: Annotated[str, Field(max_length=32)] | None = None
    """The game (default: the server's first game)."""
    players: Annotated[int, Field(strict=True)]
    target: Annotated[str, Field(max_length=8)]
    clock: Annotated[str, Field(max_length=8)]
    name: Annotated[str, Field(max_length=200)] | None = None
    """A guest's name at the table (an account plays under its own)."""
    previous: SECRET | None = None
    """This browser's earlier ticket, replaced by the new one."""


class Ticket(Body):
    ticket: SECRET


class Bots(Ticket):
    level: Annotated[str, Field(max_length=32)] | None = None


class Named(Body):
    name: NAME


class InviteBody(Named):
    table: Annotated[str, Field(min_length=1, max_length=16)]


class Answer(Body):
    answer: Literal["accept", "decline"]


class ReportBody(Named):
    reason: Literal["abuse", "cheating", "spam", "name", "other"]
    text: Annotated[str, Field(max_length=2000)] | None = None
    table: Annotated[str, Field(min_length=1, max_length=16)] | None = None


def _queue(request: Request) -> MatchQueue:
    queue: MatchQueue | None = getattr(request.app.state, "playnow", None)
    if queue is None:
        raise ApiError(503, "unavailable", "Play now is not available on this server")
    return queue


def _friends(request: Request) -> Friends:
    friends: Friends | None = getattr(request.app.state, "friends", None)
    if friends is None:
        raise ApiError(503, "unavailable", "friends are not available on this server")
    return friends


async def _seeker(request: Request, name: str | None) -> Seeker:
    """Who asks: the cookie's account (its write checked) or a guest with a name."""
    address = client_address(request.scope)
    if request.cookies.get("odin_session") and await current_session(request) is not None:
        account = await checked_write(request)
        return Seeker(account.name, account.id, address, account.banned is not None)
    if name is None:
        raise ApiError(422, "bad_name", "type a name to play as a guest")
    guest = clean_name(name)
    # As when taking a seat: nobody passes for an account at a table (409 account_name).
    await accounts_of(request).check_guest_name(guest)
    return Seeker(guest, None, address)


@router.post("/play-now", status_code=201)
async def play_now(request: Request, body: PlayNow) -> dict[str, Any]:
    """Queue for a game; the ticket's secret (the seat's token once matched)."""
    choice = check_choice(body.game or default_key(), body.players, body.target, body.clock)
    seeker = await _seeker(request, body.name)
    secret, status = await _queue(request).join(seeker, choice, body.previous)
    return {"ticket": secret, "name": seeker.name, **status.to_api()}


@router.post("/play-now/poll")
async def poll(request: Request, body: Ticket) -> dict[str, Any]:
    """The waiting page is still there (poll every few seconds): its ticket's state."""
    return (await _queue(request).poll(body.ticket)).to_api()


@router.post("/play-now/cancel")
async def cancel(request: Request, body: Ticket) -> dict[str, Any]:
    return (await _queue(request).cancel(body.ticket)).to_api()


@router.post("/play-now/bots")
async def bots(request: Request, body: Bots) -> dict[str, Any]:
    """After the wait: play the bots at once (``level``, or one near the player's rating)."""
    status = await _queue(request).fill_with_bots(body.ticket, body.level)
    return status.to_api()


# ---------------------------------------------------------------- friends


@router.get("/friends")
async def friends(
    request: Request, account: Annotated[Account, Depends(require_account)]
) -> dict[str, Any]:
    """Who I follow (online, at which tables I may see), my invitations, whom I block."""
    people = _friends(request)
    await people.heartbeat(account.id)
    return {
        "friends": await people.friends(account.id),
        "invitations": await people.invitations(account.id),
        "blocked": await people.blocked(account.id),
        "reasons": list(REASONS),
    }


@router.post("/friends/seen")
async def seen(
    request: Request, account: Annotated[Account, Depends(checked_write)]
) -> dict[str, Any]:
    """A page of a signed-in person is open (sent every minute or so; throttled)."""
    return {"written": await _friends(request).heartbeat(account.id)}


@router.post("/friends", status_code=201)
async def follow(
    request: Request, body: Named, account: Annotated[Account, Depends(checked_write)]
) -> dict[str, Any]:
    person = await _friends(request).follow(account.id, body.name)
    return {"following": person.name}


@router.post("/friends/unfollow")
async def unfollow(
    request: Request, body: Named, account: Annotated[Account, Depends(checked_write)]
) -> dict[str, Any]:
    await _friends(request).unfollow(account.id, body.name)
    return {"unfollowed": body.name}


@router.post("/invites", status_code=201)
async def invite(
    request: Request, body: InviteBody, account: Annotated[Account, Depends(checked_write)]
) -> dict[str, Any]:
    invite_id = await _friends(request).invite(account.id, body.name, body.table)
    return {"invite": invite_id}


@router.post("/invites/{invite_id}")
async def answer(
    request: Request,
    invite_id: str,
    body: Answer,
    account: Annotated[Account, Depends(checked_write)],
) -> dict[str, Any]:
    table = await _friends(request).answer(account.id, invite_id, body.answer == "accept")
    return {"table": table, "url": f"/t/{table}" if table is not None else None}


@router.post("/blocks", status_code=201)
async def block(
    request: Request, body: Named, account: Annotated[Account, Depends(checked_write)]
) -> dict[str, Any]:
    person = await _friends(request).block(account.id, body.name)
    return {"blocked": person.name}


@router.post("/blocks/remove")
async def unblock(
    request: Request, body: Named, account: Annotated[Account, Depends(checked_write)]
) -> dict[str, Any]:
    await _friends(request).unblock(account.id, body.name)
    return {"unblocked": body.name}


@router.post("/reports", status_code=201)
async def report(
    request: Request, body: ReportBody, account: Annotated[Account, Depends(checked_write)]
) -> dict[str, Any]:
    await _friends(request).report(account.id, body.name, body.reason, body.text, body.table)
    return {"reported": body.name}


def start_people(app: Any, storage: Storage, hall: Hall, clock: Clock, settings: Settings) -> None:
    """Wire Play now and friends into ``app.state`` (the app's lifespan calls this)."""
    rules = Rules(
        bot_wait=settings.playnow_bot_wait,
        ticket_ttl=settings.playnow_ticket_ttl,
        max_waiting=settings.playnow_max_waiting,
    )
    tables = HallTables(hall, rated)
    app.state.playnow = MatchQueue(
        storage.matches,
        clock,
        rules,
        tables,
        RatingPoints(storage.ratings),
        nearest_bot,
        hash_token,
        bot_work=hall.bot_work,
    )
    friends = Friends(storage.people, clock, name_key)
    friends.on_block.append(hall.chat.blocked_now)
    hall.chat.blocks = storage.people
    app.state.friends = friends
