"""HTTP for profiles, leaderboards and the bots' reference ratings (issue #10,
``docs/ratings.md``). Reads only: every answer is built from finished tables' results and
ratings, and links to a table's replay (finished) or its spectator view (running), which
never show a hidden card."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import Field

from odin_cards.games import default_key, plugins
from odin_cards.server.core.people.accounts import name_key
from odin_cards.server.core.people.profiles import (
    BOARD_PAGE,
    HISTORY_LIMIT,
    RECENT_LIMIT,
    STATISTICS_LIMIT,
    ProfileStore,
    board_view,
    check_class,
    check_page,
    profile_view,
    rated_games,
)
from odin_cards.server.core.people.ratings import bot_ratings as references
from odin_cards.server.transport.bodies import WholeNumber
from odin_cards.server.transport.errors import ApiError

router = APIRouter(prefix="/api")

MAX_NAME = 32
"""Longest name looked up (account names have at most 20 characters)."""


def _profiles(request: Request) -> ProfileStore:
    store: ProfileStore = request.app.state.profiles
    return store


@router.get("/people/{name}")
async def profile(request: Request, name: str) -> dict[str, Any]:
    """An account's profile; 404 for a name nobody holds (or a deleted account)."""
    if not 1 <= len(name) <= MAX_NAME:
        raise ApiError(404, "not_found", "there is nobody of that name")
    store = _profiles(request)
    person = await store.person(name_key(name))
    if person is None:
        raise ApiError(404, "not_found", "there is nobody of that name")
    return profile_view(
        person,
        await store.ratings_of(person.id),
        await store.history(person.id, HISTORY_LIMIT),
        await store.played(person.id),
        await store.recent(person.id, RECENT_LIMIT),
        await store.figures(person.id, STATISTICS_LIMIT, rated_games()),
    )


@router.get("/leaderboard")
async def leaderboard(
    request: Request,
    rating_class: Annotated[str, Query(alias="class", max_length=16)] = "heads-up",
    offset: Annotated[WholeNumber, Query()] = 0,
    limit: Annotated[WholeNumber, Query()] = BOARD_PAGE,
    provisional: Annotated[bool, Query()] = False,
) -> dict[str, Any]:
    """One class's leaderboard, a page at a time; established ratings only unless
    ``provisional`` (then marked)."""
    check_class(rating_class)
    check_page(offset, limit)
    total, entries = await _profiles(request).board(rating_class, offset, limit, provisional)
    return board_view(rating_class, offset, limit, total, entries)


@router.get("/ratings/bots")
async def bot_ratings(game: Annotated[str, Field(max_length=32)] | None = None) -> dict[str, Any]:
    """A game's bot levels' fixed reference ratings (its plugin's ``ratings``; default: the
    first game)."""
    key = game or default_key()
    if key not in plugins():
        raise ApiError(404, "not_found", f"there is no game {key[:32]!r}")
    return {
        "game": key,
        "levels": [
            {"level": level, **rating.to_api(), "provisional": False}
            for level, rating in references(key).items()
        ],
    }
