"""Profiles and leaderboards (issue #10): what a person's page shows, from the stored results.

A profile shows an account's name, when it signed up, its finished games (by number of
players, with the share won), its rating in each class with the rating's history, its
recent tables (a finished one links to its replay, a running one to watching it: both
pages show only what a spectator may see) and its figures added up over its finished
games of the games that can be rated (:func:`rated_games`; Odin's figures are its
``statistics.py``). A deleted account has no profile. A guest's games
become the account's when the guest signs up (``seats.account_id``): the results are
stored per seat, so they follow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from odin_cards import games
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import ProfileStore
from odin_cards.server.core.ports.people import (
    CLASSES,
    BoardEntry,
    HistoryPoint,
    Played,
    PlayedTable,
    Rating,
)
from odin_cards.server.core.ports.people import Member as Person

RECENT_LIMIT = 20
"""Tables listed on a profile, newest first."""

HISTORY_LIMIT = 200
"""Rated games charted per class (the latest)."""

STATISTICS_LIMIT = 500
"""Finished games whose figures a profile adds up (the latest)."""

BOARD_PAGE = 25
BOARD_MAX_PAGE = 100
BOARD_MAX_OFFSET = 10_000
"""A leaderboard's page: its default size, the largest, and the deepest offset asked."""


def rated_games() -> list[str]:
    """The games whose tables may be rated, from the game registry: a profile adds up the
    figures of their settled games (the store reads only those)."""
    return [key for key, plugin in games.plugins().items() if plugin.rated]


def check_class(rating_class: str) -> str:
    if rating_class not in CLASSES:
        raise DomainError("bad_class", f"the classes are {', '.join(CLASSES)}")
    return rating_class


def check_page(offset: int, limit: int) -> tuple[int, int]:
    if not 0 <= offset <= BOARD_MAX_OFFSET:
        raise DomainError("bad_page", f"offset is 0 to {BOARD_MAX_OFFSET}")
    if not 1 <= limit <= BOARD_MAX_PAGE:
        raise DomainError("bad_page", f"limit is 1 to {BOARD_MAX_PAGE}")
    return offset, limit


def add_up(figures: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A person's figures over their finished games: totals, averages, the best set."""
    games = len(figures)
    totals = {
        key: sum(int(f.get(key, 0) or 0) for f in figures)
        for key in ("rounds_won", "hands_ended", "passes", "cards_played", "cards_taken")
    }
    hands = sum(len(f.get("points") or ()) for f in figures)
    hand_points = sum(sum(int(p) for p in f.get("points") or ()) for f in figures)
    best: dict[str, Any] | None = None
    for f in figures:
        highest = f.get("highest_set")
        if isinstance(highest, dict) and (best is None or highest["value"] > best["value"]):
            best = {"cards": list(highest["cards"]), "value": highest["value"]}
    return {
        "games": games,
        "hands": hands,
        **totals,
        "points_per_hand": round(hand_points / hands, 2) if hands else None,
        "highest_set": best,
    }


def table_entry(table: PlayedTable) -> dict[str, Any]:
    """A recent table as a profile lists it: where to see it without any hidden card."""
    finished = table.status == "finished"
    url = f"/t/{table.table_id}/replay" if finished else f"/t/{table.table_id}/watch"
    return {
        "table": table.table_id,
        "game": table.game,
        "players": table.players,
        "status": table.status,
        "created": table.created.isoformat(),
        "seat": table.seat,
        "place": table.place,
        "won": table.won,
        "rated": table.rated,
        "url": url if table.status in ("finished", "waiting", "playing") else None,
    }


def profile_view(
    person: Person,
    ratings: Mapping[str, Rating],
    history: Sequence[HistoryPoint],
    played: Sequence[Played],
    recent: Sequence[PlayedTable],
    figures: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The profile API's answer (``docs/ratings.md``)."""
    classes = {}
    for rating_class in CLASSES:
        rating = ratings.get(rating_class)
        points = [p for p in history if p.rating_class == rating_class]
        classes[rating_class] = {
            "rating": None if rating is None else rating.to_api(),
            "history": [
                {
                    "table": p.table_id,
                    "at": p.created.isoformat(),
                    "place": p.place,
                    "players": p.players,
                    "points": p.after.points,
                    "change": p.after.points - p.before.points,
                    "mu": round(p.after.mu, 4),
                    "sigma": round(p.after.sigma, 4),
                }
                for p in points
            ],
        }
    games = sum(p.games for p in played)
    return {
        "name": person.name,
        "member_since": person.created.isoformat(),
        "games": games,
        "won": sum(p.won for p in played),
        "by_players": [
            {
                "players": p.players,
                "games": p.games,
                "won": p.won,
                "share": round(p.won / p.games, 4) if p.games else None,
            }
            for p in sorted(played, key=lambda p: p.players)
        ],
        "ratings": classes,
        "recent": [table_entry(t) for t in recent],
        "statistics": add_up(figures),
    }


def board_view(
    rating_class: str, offset: int, limit: int, total: int, entries: Sequence[BoardEntry]
) -> dict[str, Any]:
    return {
        "class": rating_class,
        "offset": offset,
        "limit": limit,
        "total": total,
        "entries": [
            {"rank": offset + i + 1, "name": e.name, **e.rating.to_api()}
            for i, e in enumerate(entries)
        ],
    }


__all__ = [
    "BOARD_MAX_OFFSET",
    "BOARD_MAX_PAGE",
    "BOARD_PAGE",
    "HISTORY_LIMIT",
    "RECENT_LIMIT",
    "STATISTICS_LIMIT",
    "BoardEntry",
    "HistoryPoint",
    "Person",
    "Played",
    "PlayedTable",
    "ProfileStore",
    "add_up",
    "board_view",
    "check_class",
    "check_page",
    "profile_view",
    "rated_games",
    "table_entry",
]
