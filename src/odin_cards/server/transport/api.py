"""The lobby's HTTP API (``docs/protocol.md``): levels, tables, seats, play again, records."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from ...bots.registry import GAMES_BOTS
from ..domain.hall import Hall
from ..domain.table import LiveTable
from .errors import ApiError
from .messages import valid_table_id
from .quotas import Quotas, client_address

router = APIRouter(prefix="/api")

MAX_SEATS = 8
"""Most bot entries a request may carry (no game has more seats)."""

MAX_NAME_INPUT = 200
"""Longest name accepted before it is cleaned (white space collapsed, then at most 24)."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewTable(_Body):
    game: Annotated[str, Field(max_length=32)] = "odin"
    players: Annotated[int, Field(strict=True)]
    bots: Annotated[
        dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=64)]],
        Field(max_length=MAX_SEATS),
    ] = Field(default_factory=dict)
    options: Annotated[dict[Annotated[str, Field(max_length=64)], Any], Field(max_length=32)] = (
        Field(default_factory=dict)
    )


class TakeSeat(_Body):
    name: Annotated[str, Field(max_length=MAX_NAME_INPUT)]


class Token(_Body):
    token: Annotated[str, Field(max_length=128)]


class Tokens(_Body):
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


@router.get("/levels")
async def levels(game: Annotated[str, Field(max_length=32)] = "odin") -> list[dict[str, str]]:
    bots = GAMES_BOTS.get(game)
    if bots is None:
        raise ApiError(404, "not_found", f"no bots for the game {game[:32]!r}")
    return [
        {"key": level.key, "name": level.name, "description": level.description}
        for level in bots.levels.values()
    ]


@router.post("/tables", status_code=201)
async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
    bots = bot_seats(body)
    hall = _hall(request)
    hall.check_new(body.game, body.players, bots, body.options)  # a refusal uses no quota
    quotas: Quotas = request.app.state.quotas
    refused = quotas.create_table(client_address(request.scope))
    if refused is not None:
        retry = {"Retry-After": str(refused.retry_after)} if refused.retry_after else None
        raise HTTPException(refused.status, refused.message, headers=retry)
    client = client_address(request.scope)
    table = await hall.create(body.players, bots, body.options, client, body.game)
    return {"table": table.to_api()}


@router.get("/tables")
async def list_tables(request: Request, status: str = "open", game: str = "odin") -> dict[str, Any]:
    """Open tables of one game (Odin's unless ``game`` says otherwise)."""
    if status != "open":
        raise ApiError(422, "bad_status", "only open tables are listed (status=open)")
    return {"tables": await _hall(request).lobby(game)}


@router.post("/tables/mine")
async def my_tables(request: Request, body: Tokens) -> dict[str, Any]:
    return {"tables": await _hall(request).mine(body.tokens)}


@router.get("/tables/{table_id}")
async def get_table(request: Request, table_id: str) -> dict[str, Any]:
    return {"table": (await _table(request, table_id)).to_api()}


@router.post("/tables/{table_id}/seats/{seat}")
async def take_seat(request: Request, table_id: str, seat: int, body: TakeSeat) -> dict[str, Any]:
    table = await _table(request, table_id)
    token = await _hall(request).take_seat(table, seat, body.name)
    return {"seat": seat, "token": token}


@router.post("/tables/{table_id}/again")
async def play_again(request: Request, table_id: str, body: Token) -> dict[str, Any]:
    table = await _table(request, table_id)
    following = await _hall(request).again(table, body.token)
    return {"table": following.to_api()}


@router.get("/tables/{table_id}/record")
async def record(request: Request, table_id: str) -> dict[str, Any]:
    table = await _table(request, table_id)
    if table.status != "finished":
        raise ApiError(403, "running", "the record of a game is shown once the game is over")
    return table.game.record().to_dict()
