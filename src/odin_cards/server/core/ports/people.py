"""What is stored of people: accounts and sessions, results and ratings, profiles, friends
and Play now's tickets (issue #10; migrations 0009-0011).

These are the records the people's stores (:mod:`.storage`) take and give; the rules that
make and use them stay in ``core/people/`` (which re-exports them). A rating is stored as
OpenSkill's ``mu``, ``sigma`` and a count of games; :class:`Rating` also says how it is
shown (Elo-style points), so that every reader shows it alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# ---------------------------------------------------------------- accounts


@dataclass(frozen=True, slots=True)
class Account:
    """An account as everyone may see it (never its password hash)."""

    id: str
    name: str
    created: datetime
    banned: datetime | None = None
    deleted: datetime | None = None

    def to_api(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "created": self.created.isoformat()}


@dataclass(frozen=True, slots=True)
class AccountRecord:
    """An account as stored."""

    account: Account
    name_key: str
    password_hash: str
    look_alike: str = ""
    """The name's look-alike key (``core/people/look_alikes.py``; migration 0013)."""


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A logged-in session as stored: ``id`` is the SHA-256 of its cookie."""

    id: str
    account_id: str
    csrf: str
    created: datetime
    expires: datetime
    """The absolute end (``session_max`` after login)."""
    last_used: datetime


@dataclass(frozen=True, slots=True)
class Attempts:
    """Failed logins (or sign-ups) counted under one key since ``first``."""

    failures: int
    first: datetime
    locked_until: datetime | None


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat an account holds: its table and number."""

    table_id: str
    seat: int


# ---------------------------------------------------------------- ratings

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
"""OpenSkill's Plackett-Luce constants as the ratings use them (they are the scale)."""

SCALE = 400.0 / (math.log(10.0) * BETA * math.sqrt(2.0))
"""Elo-style points per unit of mu: heads-up between two settled players, Plackett-Luce's
win probability for a difference d of mu is Elo's for a difference d * SCALE."""

ANCHOR_POINTS = 470
"""The points shown for mu 25 (a new person's prior, and the heuristic bot's rating):
the arena's ladder rates the heuristic 470 above random, so bots show their ladder rating."""

PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 5.0
"""A rating is provisional while it has fewer games than this, or sigma above this."""

CLASSES = ("heads-up", "multi")
"""Rated apart: heads-up (2 players) and 3-6 players."""


def class_of(players: int) -> str:
    """The rating class of a table of ``players``."""
    return "heads-up" if players == 2 else "multi"


def points(mu: float) -> int:
    """A mu as shown (Elo-style points; the bots show their ladder ratings)."""
    return round(ANCHOR_POINTS + (mu - MU) * SCALE)


@dataclass(frozen=True, slots=True)
class Rating:
    """One account's rating in one class (or a bot level's fixed one)."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA

    @property
    def points(self) -> int:
        return points(self.mu)

    @property
    def spread(self) -> int:
        """Two standard deviations, in points: the rating is within this, 95% sure."""
        return round(2 * self.sigma * SCALE)

    def to_api(self) -> dict[str, Any]:
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "points": self.points,
            "spread": self.spread,
            "games": self.games,
            "provisional": self.provisional,
        }


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's part of a finished table: who sat (a person, or a bot level), where it
    finished, and its figures (the game's statistics; ``{}`` when it has none)."""

    seat: int
    person: bool
    bot: str | None
    place: int
    won: bool
    score: int
    statistics: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished table, as the results and ratings need it."""

    table_id: str
    game: str
    players: int
    finished: datetime
    seats: tuple[SeatResult, ...]
    rated: bool
    """Created rated (``settings["rated"]``)."""
    unrated: str | None
    """Why a rated table is not rated after all (known without the accounts), or ``None``."""

    @property
    def rating_class(self) -> str:
        return class_of(self.players)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One account's rating before and after a rated table."""

    account: str
    seat: int
    place: int
    before: Rating
    after: Rating


Rater = Callable[[Mapping[int, str | None], Mapping[str, Rating]], "list[RatingChange] | str"]
"""What the store calls inside its transaction: (each seat's account, their current
ratings) -> the changes, or why the table is not rated."""


@dataclass(frozen=True, slots=True)
class Settled:
    """What settling a table did: ``False`` if it had been settled before."""

    new: bool
    rated: bool
    note: str | None = None


# ---------------------------------------------------------------- profiles


@dataclass(frozen=True, slots=True)
class Member:
    """An account as its profile shows it: its name and when it signed up (profiles call
    it ``Person``)."""

    id: str
    name: str
    created: datetime


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """A table the account sat at, with its seat's result once it finished."""

    table_id: str
    game: str
    players: int
    status: str
    created: datetime
    seat: int
    place: int | None = None
    won: bool | None = None
    rated: bool | None = None


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """The account's rating after one rated table."""

    table_id: str
    rating_class: str
    created: datetime
    place: int
    players: int
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class BoardEntry:
    name: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class Played:
    """Finished games at one table size and how many were won (a shared win counts)."""

    players: int
    games: int
    won: int


# ---------------------------------------------------------------- friends


@dataclass(frozen=True, slots=True)
class Person:
    """An account as friends see it."""

    id: str
    name: str
    last_seen: datetime | None = None


@dataclass(frozen=True, slots=True)
class SeatAt:
    """A table where a person sits: its id, status, visibility and whether seats are open."""

    table_id: str
    status: str
    private: bool
    open_seats: int
    players: int


@dataclass(frozen=True, slots=True)
class Invite:
    id: str
    sender: Person
    table_id: str
    created: datetime


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    reporter: str
    reported: str
    reason: str
    text: str | None
    table_id: str | None
    created: datetime


# ---------------------------------------------------------------- Play now

TICKET_STATES = ("waiting", "matching", "matched", "cancelled", "expired")
"""A ticket's states: ``matching`` while its table is being made."""


@dataclass(frozen=True, slots=True)
class Choice:
    """What a person asks Play now for: the game, its seats, one of its Play now presets
    (stored as ``target``: Odin's presets are targets) and a clock preset (all must be
    equal to match). ``core/people/matchmaking.py`` checks one (``check_choice``) and says
    what table it makes."""

    players: int
    target: str
    clock: str
    game: str


@dataclass(frozen=True, slots=True)
class Ticket:
    """One person waiting (or matched): as stored."""

    id: str
    token_hash: str
    choice: Choice
    name: str
    account_id: str | None
    rating: float | None
    """The account's rating for this many players (``None``: a guest)."""
    address: str
    created: datetime
    seen: datetime
    state: str = "waiting"
    table_id: str | None = None
    seat: int | None = None
    claimed: datetime | None = None


Blocked = frozenset[frozenset[str]] | set[frozenset[str]]
"""Pairs of account ids of which one blocked the other."""
