"""One table in memory: its definition, seats, game, the log's indexes, and seats' states.

The game is rebuilt through the game contract (:func:`odin_cards.games.rules_of`) from the
stored definition and log, so a table of any registered game can be hosted. The wire
``version`` is the game's public history length; the log's key is the action number.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from odin_cards.contract import GameRules, GameState
from odin_cards.games import plugin_of, rules_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.clocks import Stamp, control_of
from odin_cards.server.core.ports import LoggedAction, SeatRecord, StoredTable, TableRecord
from odin_cards.server.core.protocol.server import dump
from odin_cards.server.core.tables.presenters import presenter_of

MAX_NAME = 24


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: str) -> str:
    """A player's name as shown to others, or ``bad_name`` saying what is wrong."""
    name = " ".join(name.split())
    if not name:
        raise DomainError("bad_name", "type a name to take a seat")
    if len(name) > MAX_NAME:
        raise DomainError("bad_name", f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise DomainError("bad_name", "a name cannot contain control characters")
    return name


@dataclass(slots=True)
class Seat:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    locked: bool = False
    account_id: str | None = None
    account: str | None = None
    """The name of the account holding the seat (:class:`~.ports.SeatRecord`)."""

    @property
    def taken(self) -> bool:
        return self.name is not None or self.bot is not None

    def display(self, game: str) -> str:
        if self.bot is not None:
            level = plugin_of(game).level(self.bot)
            return f"{level.name if level else self.bot} bot"
        return self.name or ""


class ReplayError(Exception):
    """A stored table that cannot be rebuilt (its reason is stored with it, never secret)."""


class GameLog:
    """A table's game and the indexes of its log, in memory.

    Written only by the move pipeline (``core/tables/moves.py``: an action stored, settled
    or followed) and by :meth:`LiveTable.replay`; everything else reads it. The wire
    ``version`` is the game's public history length; the log's key is the action number.
    """

    __slots__ = ("actions", "client_ids", "events", "game", "moved", "pending", "stamps")

    def __init__(self, game: GameState) -> None:
        self.game = game
        self.actions: list[str] = []
        """Every accepted action's text, in order (what bots replay); index = number."""
        self.stamps: list[Stamp] = []
        """Who made each logged action, and when: what the clock's deadlines follow from."""
        self.client_ids: dict[str, tuple[int, int]] = {}
        """Client id of an accepted action -> (seat, version after it)."""
        self.events: list[str] = []
        """The public events, each encoded once (strings: nothing for the GC to scan)."""
        self.pending: LoggedAction | None = None
        """An action whose commit's outcome is unknown: settled before the next change."""
        self.moved = asyncio.Event()
        """Set (and replaced) whenever a replica applies a followed action."""
        self.add_events(0)

    @property
    def version(self) -> int:
        return self.game.public_length

    def add_events(self, since: int) -> None:
        """Encode the public events from entry ``since`` on."""
        self.events.extend(dump(e) for e in self.game.public_events(since))

    def events_json(self, since: int) -> str:
        """The public events from version ``since`` on, as a JSON array."""
        return "[" + ",".join(self.events[since:]) + "]"

    def record(self, entry: LoggedAction, encode: bool = True) -> None:
        """Apply one logged action (validated again: a stored log is not trusted)."""
        since = self.version
        self.game.apply(entry.action, seat=entry.seat)
        self._index(entry)
        if encode:
            self.add_events(since)

    def accept(self, entry: LoggedAction, after: GameState) -> None:
        """Make the stored ``entry``, already applied to ``after``, the game's move."""
        since = self.version
        self.game = after
        self._index(entry)
        self.add_events(since)

    def _index(self, entry: LoggedAction) -> None:
        self.actions.append(entry.action)
        self.stamps.append(Stamp(entry.seat, entry.created, entry.by))
        if entry.client_id is not None:
            self.client_ids[entry.client_id] = (entry.seat, self.version)

    def followed(self) -> None:
        """A replica applied a followed action: whoever waits for it is woken."""
        self.moved.set()
        self.moved = asyncio.Event()


class LiveTable:
    """One table in memory, in parts that each have one writer:

    - its definition (id, game, players, setup, seed, creation, settings, creator): set
      once, never written;
    - its record's changing part (seats, status, next game, the clock's stored facts,
      votes): written on the table's owner by the commands that change it (seats,
      access, stand-ins, the directory's expiry, the pipeline's end of game) and at a
      replica only from its owner's facts (``core/features/seats.py``) or answers;
    - :attr:`log`, the game and the log's indexes: the move pipeline's.

    What features, sessions and ownership keep about a table they keep themselves, keyed by
    its id (presence, the bots' turn, the lease, the chat...).
    """

    def __init__(self, record: TableRecord, client: str | None = None) -> None:
        self.id = record.id
        self.game_key = record.game
        self.rules_version = record.rules_version
        self.players = record.players
        self.setup = record.setup
        self.seed = record.seed
        self.created = record.created
        self.previous_table = record.previous_table
        self.creator_hash = record.creator_hash
        self.settings: dict[str, Any] = dict(record.settings)
        """How the table is run (``TableRecord.settings``), each key its module's."""
        self.client = client
        """Who created the table (the transport's client address), for per-client limits."""
        self.rules: GameRules = rules_of(record.game)
        self.status = record.status
        self.seats = [
            Seat(s.seat, s.name, s.bot, s.token_hash, s.locked, s.account_id, s.account)
            for s in record.seats
        ]
        self.next_table = record.next_table
        self.clock: dict[str, Any] = dict(record.clock)
        """The clock's stored facts (``TableRecord.clock``, :mod:`.stand_ins`)."""
        self.votes: dict[int, set[int]] = {}
        """Absent seat -> the seats that voted to hand it to a bot (no clock; in memory)."""
        self.log = GameLog(self.rules.new_game(record.players, record.setup, record.seed))
        self.lock = asyncio.Lock()
        """Serializes the table's changes (an action, a seat, a command of a feature)."""

    @classmethod
    def replay(cls, stored: StoredTable) -> LiveTable:
        """Rebuild a stored table, validating every logged action; :class:`ReplayError`."""
        record = stored.table
        try:
            rules = rules_of(record.game)
        except Exception as error:
            raise ReplayError(f"unknown game {record.game!r}: {error}") from None
        if record.rules_version != rules.rules_version:
            raise ReplayError(
                f"stored with rules version {record.rules_version}; "
                f"this server has version {rules.rules_version}"
            )
        try:
            table = cls(record)
        except Exception as error:
            raise ReplayError(f"setup does not start a game: {error}") from None
        log = table.log
        for entry in stored.log:
            if entry.number != log.game.action_count:
                raise ReplayError(
                    f"log entry {entry.number} where action {log.game.action_count} belongs"
                )
            try:
                log.record(entry, encode=False)
            except Exception as error:
                raise ReplayError(
                    f"action {entry.number} ({entry.action!r} by seat {entry.seat}) "
                    f"does not replay: {type(error).__name__}: {error}"
                ) from None
        log.events = []
        log.add_events(0)
        if log.game.is_over:
            table.status = "finished"
        return table

    # ------------------------------------------------------------ reading the log

    @property
    def game(self) -> GameState:
        return self.log.game

    @property
    def version(self) -> int:
        """The wire version: the length of the game's public history."""
        return self.log.game.public_length

    @property
    def actions(self) -> list[str]:
        return self.log.actions

    @property
    def stamps(self) -> list[Stamp]:
        return self.log.stamps

    @property
    def events(self) -> list[str]:
        return self.log.events

    @property
    def pending(self) -> LoggedAction | None:
        return self.log.pending

    def events_json(self, since: int) -> str:
        """The public events from version ``since`` on, as a JSON array."""
        return self.log.events_json(since)

    # ------------------------------------------------------------ seats

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def bot_at(self, seat: int) -> str | None:
        """The bot level that plays ``seat``: its own bot, or the bot that took a
        person's seat (:mod:`.stand_ins`), or ``None`` (its person plays)."""
        own = self.seats[seat].bot
        if own is not None:
            return own
        handed = self.clock.get("bots", {}).get(str(seat))
        return str(handed["level"]) if handed else None

    @property
    def people(self) -> list[int]:
        """Seats held by people (not bots)."""
        return [s.seat for s in self.seats if s.name is not None]

    # ------------------------------------------------------------ showing

    def to_record(self) -> TableRecord:
        return TableRecord(
            id=self.id,
            game=self.game_key,
            rules_version=self.rules_version,
            players=self.players,
            setup=self.setup,
            seed=self.seed,
            status=self.status,
            created=self.created,
            seats=[
                SeatRecord(s.seat, s.name, s.bot, s.token_hash, s.locked, s.account_id, s.account)
                for s in self.seats
            ],
            previous_table=self.previous_table,
            next_table=self.next_table,
            creator_hash=self.creator_hash,
            settings=self.settings,
            clock=self.clock,
        )

    def to_api(
        self, presence: Sequence[str | None] = (), closes_at: datetime | None = None
    ) -> dict[str, Any]:
        """The table as the API shows it, with each person's ``presence`` as shown
        (``core/features/presence.py``; empty or ``None``: not known here yet) and, while it
        waits, when it closes (the directory's expiry)."""
        view = api_of(self.to_record())
        for seat, state in zip(view["seats"], presence, strict=False):
            if seat["name"] is not None and state is not None:
                seat["presence"] = state
        if self.status == "waiting" and closes_at is not None:
            view["closes_at"] = closes_at.isoformat()
        return view

    def state(self, seat: int | None) -> str:
        """The ``State`` of the protocol for ``seat`` (JSON)."""
        return self.states()(seat)

    def states(self) -> Callable[[int | None], str]:
        """A maker of every seat's ``State`` in the current position, sharing the work."""
        names = [s.display(self.game_key) for s in self.seats]
        return presenter_of(self.game_key).states(
            self.log.game, self.setup, names, self.status == "playing"
        )


def api_of(record: TableRecord) -> dict[str, Any]:
    """A table as the lobby's API shows it (no token hash, no seed)."""
    return {
        "id": record.id,
        "game": record.game,
        "players": record.players,
        "options": record.setup,
        "status": record.status,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "taken": s.name is not None or s.bot is not None,
                "locked": s.locked,
                "account": s.account,
            }
            for s in record.seats
        ],
        "created": record.created.isoformat(),
        "next_table": record.next_table,
        "chat": {"spectators": (record.settings.get("chat") or {}).get("spectators") is True},
        "clock": {**control_of(record.settings), "bots": record.clock.get("bots", {})},
        "hints": record.settings.get("hints") is True,
        "invite_url": f"/t/{record.id}",
        "watch_url": f"/t/{record.id}/watch",
        "replay_url": f"/t/{record.id}/replay",
    }


def new_record(
    table_id: str,
    game: str,
    players: int,
    setup: dict[str, Any],
    seed: int,
    bots: Mapping[int, str],
    created: datetime,
) -> TableRecord:
    """A new table's definition: bot seats taken, the others free."""
    seats = [SeatRecord(seat, bot=bots.get(seat)) for seat in range(players)]
    status = "playing" if len(bots) == players else "waiting"
    return TableRecord(
        id=table_id,
        game=game,
        rules_version=rules_of(game).rules_version,
        players=players,
        setup=setup,
        seed=seed,
        status=status,
        created=created,
        seats=seats,
    )
