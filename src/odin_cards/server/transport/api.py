"""The lobby's HTTP API (``docs/protocol.md``): levels, tables, seats, play again, records."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.exceptions import HTTPException

from ...bots import LEVELS
from ...rules import MAX_PLAYERS, MIN_PLAYERS, Options, OptionsError
from ..domain.hall import Hall
from ..domain.table import LiveTable
from .errors import ApiError
from .messages import valid_table_id
from .quotas import Quotas, client_address

router = APIRouter(prefix="/api")

MAX_TARGET = 100

MAX_NAME_INPUT = 200
"""Longest name accepted before it is cleaned (white space collapsed, then at most 24)."""
_STRICT_OPTIONS = TypeAdapter(Options)
"""The options' types, checked strictly: ``4.0`` is no whole number, ``true`` no seat."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewTable(_Body):
    players: Annotated[int, Field(strict=True)]
    bots: Annotated[
        dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=64)]],
        Field(max_length=MAX_PLAYERS),
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


def check_new_table(body: NewTable) -> tuple[dict[int, str], Options]:
    """The bots by seat and the options of a new table, or a 422 that says what is wrong."""
    if not MIN_PLAYERS <= body.players <= MAX_PLAYERS:
        raise ApiError(422, "bad_players", f"Odin is played by 2 to 6 players, not {body.players}")
    bots: dict[int, str] = {}
    for key, level in body.bots.items():
        if not (key.isascii() and key.isdigit()) or not 0 <= int(key) < body.players:
            raise ApiError(422, "bad_bots", f"bot seats are 0 to {body.players - 1}, not {key!r}")
        if level not in LEVELS:
            raise ApiError(
                422, "bad_bots", f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}"
            )
        bots[int(key)] = level
    try:
        options = Options.from_dict(body.options)
        _STRICT_OPTIONS.validate_json(json.dumps(body.options), strict=True)
        options.check(body.players)
    except (OptionsError, TypeError) as error:
        raise ApiError(422, "bad_options", str(error)) from None
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(p) for p in problem["loc"]) or "options"
        raise ApiError(422, "bad_options", f"{where}: {problem['msg']}") from None
    if options.target > MAX_TARGET:
        raise ApiError(422, "bad_options", f"the target is at most {MAX_TARGET} points")
    return bots, options


@router.get("/levels")
async def levels() -> list[dict[str, str]]:
    return [
        {"key": level.key, "name": level.name, "description": level.description}
        for level in LEVELS.values()
    ]


@router.post("/tables", status_code=201)
async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
    bots, options = check_new_table(body)
    quotas: Quotas = request.app.state.quotas
    refused = quotas.create_table(client_address(request.scope))
    if refused is not None:
        retry = {"Retry-After": str(refused.retry_after)} if refused.retry_after else None
        raise HTTPException(refused.status, refused.message, headers=retry)
    client = client_address(request.scope)
    table = await _hall(request).create(body.players, bots, options.to_dict(), client)
    return {"table": table.to_api()}


@router.get("/tables")
async def list_tables(request: Request, status: str = "open") -> dict[str, Any]:
    if status != "open":
        raise ApiError(422, "bad_status", "only open tables are listed (status=open)")
    return {"tables": _hall(request).open_tables()}


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
