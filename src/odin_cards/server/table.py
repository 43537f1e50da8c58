"""One table in memory: its seats, its game, its stored log's version, and each seat's state.

Split from :mod:`.hall` (which changes tables) so the data a table holds and what a
connection is sent can be read apart from the locking, storing and broadcasting.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from ..bots import LEVELS
from ..rules import (
    Game,
    Options,
    View,
    card_text,
    cards_of,
    parse_action,
    public_events,
)
from ..rules.view import make_view
from . import messages as msg
from .connection import Connection

PUBLIC_FIELDS = tuple(f.name for f in fields(View) if f.name not in ("history", "seat", "hand"))
MAX_NAME = 24
MAX_TARGET = 100
MINE_LIMIT = 50
OPEN_LIMIT = 100
OPEN_FOR = timedelta(days=1)


class ApiError(Exception):
    """An HTTP request that is refused: ``status``, a stable ``code`` and a human message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: str) -> str:
    """A player's name as shown to others, or :class:`ApiError` saying what is wrong."""
    name = " ".join(name.split())
    if not name:
        raise ApiError(422, "bad_name", "type a name to take a seat")
    if len(name) > MAX_NAME:
        raise ApiError(422, "bad_name", f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ApiError(422, "bad_name", "a name cannot contain control characters")
    return name


@dataclass(slots=True)
class Seat:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.name is not None or self.bot is not None

    def display(self) -> str:
        if self.bot is not None:
            level = LEVELS.get(self.bot)
            return f"{level.name if level else self.bot} bot"
        return self.name or ""


class LiveTable:
    """One table in memory: definition, seats, game, log-derived indexes, connections."""

    def __init__(
        self,
        id: str,
        players: int,
        options: Options,
        seed: int,
        seats: list[Seat],
        status: str,
        created: datetime,
        previous_table: str | None = None,
        next_table: str | None = None,
    ) -> None:
        self.id = id
        self.players = players
        self.options = options
        self.seed = seed
        self.seats = seats
        self.status = status
        self.created = created
        self.previous_table = previous_table
        self.next_table = next_table
        self.game = Game.new(players, options, seed)
        self.options_dict = options.to_dict()
        self.actions: list[str] = []
        """Every accepted action's text, in order (what bots' workers replay)."""
        self.client_ids: dict[str, tuple[int, int]] = {}
        """Client id of an accepted action -> (seat, version after it)."""
        self.events: list[str] = []
        """The public events, each encoded once (strings: nothing for the GC to scan)."""
        self.add_events(0)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bot_version = -1
        """The version a bot move was scheduled for (one bot move per version)."""

    @property
    def version(self) -> int:
        return len(self.game.history)

    def add_events(self, since: int) -> None:
        """Encode the public events of the history from ``since`` on."""
        self.events.extend(msg.dump(e) for e in public_events(self.game.history, since))

    def events_json(self, since: int) -> str:
        """The public events from version ``since`` on, as a JSON array."""
        return "[" + ",".join(self.events[since:]) + "]"

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def record_action(self, seat: int, text: str, client_id: str | None) -> None:
        """Apply one logged action (validated again: a broken log must not be trusted)."""
        self.game.apply(text, seat=seat)
        self.actions.append(parse_action(text).text)
        if client_id is not None:
            self.client_ids[client_id] = (seat, self.version)

    def to_api(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": self.players,
            "options": self.options_dict,
            "status": self.status,
            "seats": [
                {"seat": s.seat, "name": s.name, "bot": s.bot, "taken": s.taken} for s in self.seats
            ],
            "created": self.created.isoformat(),
            "next_table": self.next_table,
            "invite_url": f"/t/{self.id}",
            "watch_url": f"/t/{self.id}/watch",
            "replay_url": f"/t/{self.id}/replay",
        }

    def state(self, seat: int | None) -> str:
        """The ``State`` of the protocol for ``seat`` (JSON): its view, legal actions, names."""
        return self.states()(seat)

    def states(self) -> Callable[[int | None], str]:
        """A maker of every seat's ``State`` in the current position, sharing the work.

        A state is the seat's view without the history (``View.to_dict()``'s content),
        plus ``legal`` and ``names``. Views differ between seats only in ``seat`` and
        ``hand`` (``tests/server/test_state.py`` holds the engine to that), so the public
        part is built and encoded once and each seat's part is spliced onto it.
        """
        game = self.game
        view = make_view(game, None, history=False)
        public: dict[str, Any] = {name: getattr(view, name) for name in PUBLIC_FIELDS}
        public["options"] = self.options_dict
        if view.outcome is not None:
            public["outcome"] = asdict(view.outcome)
        public["names"] = [s.display() for s in self.seats]
        head = msg.dump(public)[:-1]
        mover = game.current_player if self.status == "playing" else None
        legal = msg.dump([a.text for a in game.legal_actions()]) if mover is not None else "[]"

        def state(seat: int | None) -> str:
            if seat is None:
                return f'{head},"seat":null,"hand":null,"legal":[]}}'
            hand = msg.dump([card_text(c) for c in cards_of(game.hand(seat))])
            mine = legal if seat == mover else "[]"
            return f'{head},"seat":{seat},"hand":{hand},"legal":{mine}}}'

        return state
