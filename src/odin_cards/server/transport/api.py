"""The lobby's HTTP API (``docs/protocol.md``): games, levels, tables, seats, rematch, records."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field
from starlette.exceptions import HTTPException

from odin_cards.games import default_key, plugins, rules_of
from odin_cards.plugin import GamePlugin
from odin_cards.server.core.features.access import new_creator_token
from odin_cards.server.core.features.clocks import normalize as normalize_clock
from odin_cards.server.core.features.stand_ins import moves_by
from odin_cards.server.core.people.ratings import is_rated
from odin_cards.server.core.ports import SeatHolder
from odin_cards.server.core.protocol.client import valid_table_id
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.table import LiveTable, clean_name
from odin_cards.server.transport import pages
from odin_cards.server.transport.auth import accounts_of, checked_write, current_account, origin_ok
from odin_cards.server.transport.bodies import Body, WholeNumber
from odin_cards.server.transport.errors import ApiError
from odin_cards.server.transport.quotas import Quotas, client_address

router = APIRouter(prefix="/api")

MAX_SEATS = 8
"""Most bot entries a request may carry (no game has more seats)."""

MAX_NAME_INPUT = 200
"""Longest name accepted before it is cleaned (white space collapsed, then at most 24)."""


class ChatChoice(Body):
    spectators: Annotated[bool, Field(strict=True)] = False


class ClockChoice(Body):
    """``settings["clock"]`` as asked (``core/features/clocks.py`` checks the values)."""

    kind: Literal["none", "realtime", "turn"]
    preset: Annotated[str, Field(max_length=16)] | None = None
    move: Annotated[int, Field(strict=True)] | None = None
    reserve: Annotated[int, Field(strict=True)] | None = None
    bonus: Annotated[int, Field(strict=True)] | None = None


class NewTable(Body):
    game: Annotated[str, Field(max_length=32)] | None = None
    """The game (default: the server's first game, :func:`odin_cards.games.default_key`)."""
    players: Annotated[int, Field(strict=True)]
    bots: Annotated[
        dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=64)]],
        Field(max_length=MAX_SEATS),
    ] = Field(default_factory=dict)
    options: Annotated[dict[Annotated[str, Field(max_length=64)], Any], Field(max_length=32)] = (
        Field(default_factory=dict)
    )
    chat: ChatChoice | None = None
    """``settings["chat"]`` (``core/features/chat.py``): whether players see spectators' lines."""
    hints: Annotated[bool, Field(strict=True)] | None = None
    """``settings["hints"]`` (``core/features/hints.py``): whether players may ask for hints."""
    visibility: Literal["public", "private"] = "public"
    clock: ClockChoice | None = None
    """``settings["clock"]`` (``core/features/clocks.py``): none, real time or turn based."""
    rated: Annotated[bool, Field(strict=True)] = False
    """``settings["rated"]`` (``core/people/ratings.py``): rated, for a signed-in creator only."""
    """``settings["visibility"]`` (``core/features/access.py``): listed, or by invite link only."""


class Creator(Body):
    creator: Annotated[str, Field(max_length=128)]
    """The creator token given when the table was created."""


class SeatLock(Creator):
    locked: Annotated[bool, Field(strict=True)]


class SeatToken(Body):
    token: Annotated[str, Field(max_length=128)]
    """A seat's token: the seat's person leaves it to a bot or takes it back."""


class Vote(SeatToken):
    seat: Annotated[int, Field(strict=True)]
    """The absent person's seat the voter would hand to a bot."""


class TakeSeat(Body):
    name: Annotated[str, Field(max_length=MAX_NAME_INPUT)]


class RematchAnswer(Body):
    token: Annotated[str, Field(max_length=128)]
    answer: Literal["accept", "decline"]
    declined: Literal["bot", "open"] | None = None
    """With ``accept``: declined seats go to a bot or stay open for someone new."""
    now: Annotated[bool, Field(strict=True)] = False
    """With ``accept``: start without those who have not answered."""


class Tokens(Body):
    tokens: Annotated[list[Annotated[str, Field(max_length=128)]], Field(max_length=200)]


def _hall(request: Request) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


async def _table(request: Request, table_id: str) -> LiveTable:
    if not valid_table_id(table_id):
        raise ApiError(404, "not_found", "there is no such table")
    return await _hall(request).get(table_id)


def bot_seats(body: NewTable) -> dict[int, str]:
    """The bots by seat number; the game's rules and bot levels are the domain's to check."""
    bots: dict[int, str] = {}
    for key, level in body.bots.items():
        if not (key.isascii() and key.isdigit()) or not 0 <= int(key) < body.players:
            raise ApiError(422, "bad_bots", f"bot seats are 0 to {body.players - 1}, not {key!r}")
        bots[int(key)] = level
    return bots


def _game(key: str | None) -> GamePlugin:
    plugin = plugins().get(key or default_key())
    if plugin is None:
        raise ApiError(404, "not_found", f"there is no game {str(key)[:32]!r}")
    return plugin


@router.get("/games")
async def games() -> dict[str, Any]:
    """Every game of this server, in the order the lobby offers them (the first is the
    default): its name, seats, bot levels, Play now presets, whether it can be rated and
    where its board module is (``null``: the pages' plain board)."""
    listed = []
    boards = pages.boards()
    for plugin in plugins().values():
        rules = rules_of(plugin.key)
        listed.append(
            {
                "key": plugin.key,
                "name": plugin.name,
                "summary": plugin.summary,
                "players": {"min": rules.min_players, "max": rules.max_players},
                "levels": [_level(level) for level in plugin.bot_levels],
                "play_now": [
                    {"key": p.key, "name": p.name, "setup": dict(p.setup)} for p in plugin.play_now
                ],
                "rated": plugin.rated,
                "board": f"/games/{plugin.key}/board.js" if plugin.key in boards else None,
            }
        )
    return {"games": listed}


def _level(level: Any) -> dict[str, Any]:
    return {
        "key": level.key,
        "name": level.name,
        "description": level.description,
        "seconds": level.seconds,
    }


@router.get("/levels")
async def levels(game: Annotated[str, Field(max_length=32)] | None = None) -> list[dict[str, str]]:
    """The bot levels of ``game`` (default: the first game), weakest first."""
    return [
        {"key": level.key, "name": level.name, "description": level.description}
        for level in _game(game).bot_levels
    ]


@router.post("/tables", status_code=201)
async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
    bots = bot_seats(body)
    hall = _hall(request)
    game = body.game or default_key()
    hall.check_new(game, body.players, bots, body.options)  # a refusal uses no quota
    # a rated table is an account's write, made with its cookie: CSRF token and Origin checked
    account = await checked_write(request) if body.rated else await current_account(request)
    asked = None if body.clock is None else body.clock.model_dump(exclude_none=True)
    clock = None if asked is None else normalize_clock(asked)
    quotas: Quotas = request.app.state.quotas
    refused = quotas.create_table(client_address(request.scope))
    if refused is not None:
        retry = {"Retry-After": str(refused.retry_after)} if refused.retry_after else None
        raise HTTPException(refused.status, refused.message, headers=retry)
    client = client_address(request.scope)
    chosen: dict[str, Any] = {}
    if body.chat is not None:
        chosen["chat"] = body.chat.model_dump()
    if body.hints is not None:
        chosen["hints"] = body.hints
    chosen["visibility"] = body.visibility
    if clock is not None:
        chosen["clock"] = clock
    if body.rated:
        chosen["rated"] = True
    creator, creator_hash = new_creator_token()
    table = await hall.create(
        body.players,
        bots,
        body.options,
        client,
        game,
        chosen,
        creator_hash,
        account=None if account is None else account.id,
    )
    return {"table": hall.view(table), "creator": creator}


@router.get("/tables")
async def list_tables(
    request: Request, status: str = "open", game: str | None = None
) -> dict[str, Any]:
    """Open tables of one game (the first game's unless ``game`` says otherwise)."""
    if status != "open":
        raise ApiError(422, "bad_status", "only open tables are listed (status=open)")
    return {"tables": await _hall(request).lobby(game)}


@router.post("/tables/mine")
async def my_tables(request: Request, body: Tokens) -> dict[str, Any]:
    return {"tables": await _hall(request).mine(body.tokens)}


@router.get("/tables/{table_id}")
async def get_table(request: Request, table_id: str) -> dict[str, Any]:
    return {"table": _hall(request).view(await _table(request, table_id))}


@router.post("/tables/{table_id}/seats/{seat}")
async def take_seat(
    request: Request, table_id: str, seat: WholeNumber, body: TakeSeat
) -> dict[str, Any]:
    table = await _table(request, table_id)
    account = await current_account(request)
    if account is not None and not origin_ok(request):
        account = None  # a foreign page's request is a guest's
    if is_rated(table.settings) and account is None:
        raise ApiError(401, "login_required", "log in to play at a rated table")
    if account is None:
        await accounts_of(request).check_guest_name(clean_name(body.name))
        holder = None
    else:
        # A logged-in person's seat is their account's at once and shows the account's
        # name, whatever was typed (docs/accounts.md).
        holder = SeatHolder(account.id, account.name)
    token = await _hall(request).take_seat(table, seat, body.name, holder)
    return {"seat": seat, "token": token}


@router.post("/tables/{table_id}/rematch")
async def rematch(request: Request, table_id: str, body: RematchAnswer) -> dict[str, Any]:
    """A player's answer to a rematch; the rematch after it (``next_table`` once it started)."""
    table = await _table(request, table_id)
    hall = _hall(request)
    answer = await hall.rematches.answer(table, body.token, body.answer, body.declined, body.now)
    return {"rematch": answer}


@router.post("/tables/{table_id}/cancel")
async def cancel(request: Request, table_id: str, body: Creator) -> dict[str, Any]:
    """The creator cancels a waiting table (``core/features/access.py``)."""
    table = await _table(request, table_id)
    await _hall(request).access.cancel(table, body.creator)
    return {"table": _hall(request).view(table)}


@router.post("/tables/{table_id}/seats/{seat}/lock")
async def lock_seat(
    request: Request, table_id: str, seat: WholeNumber, body: SeatLock
) -> dict[str, Any]:
    """The creator locks a free seat (``locked: true``) or frees it (``false``)."""
    table = await _table(request, table_id)
    await _hall(request).access.lock(table, seat, body.locked, body.creator)
    return {"table": _hall(request).view(table)}


@router.post("/tables/{table_id}/leave")
async def leave(request: Request, table_id: str, body: SeatToken) -> dict[str, Any]:
    """The token's person leaves a running game: a bot plays the seat ("bot for <name>")."""
    table = await _table(request, table_id)
    await _hall(request).stand_ins.leave(table, body.token)
    return {"table": _hall(request).view(table)}


@router.post("/tables/{table_id}/take-back")
async def take_back(request: Request, table_id: str, body: SeatToken) -> dict[str, Any]:
    """The token's person takes their seat back from the bot playing it."""
    table = await _table(request, table_id)
    await _hall(request).stand_ins.take_back(table, body.token)
    return {"table": _hall(request).view(table)}


@router.post("/tables/{table_id}/vote")
async def vote(request: Request, table_id: str, body: Vote) -> dict[str, Any]:
    """A player votes to hand an absent player's seat to a bot (tables without a clock)."""
    table = await _table(request, table_id)
    await _hall(request).stand_ins.vote(table, body.token, body.seat)
    return {"table": _hall(request).view(table)}


@router.get("/tables/{table_id}/record")
async def record(request: Request, table_id: str) -> dict[str, Any]:
    if not valid_table_id(table_id):
        raise ApiError(404, "not_found", "there is no such table")
    table = await _hall(request).get_current(table_id)
    if table.status != "finished":
        raise ApiError(403, "running", "the record of a game is shown once the game is over")
    return {
        **table.game.record().to_dict(),
        "chat": await _hall(request).chat.record(table),
        "moves_by": moves_by(table),
    }
