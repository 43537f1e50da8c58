"""What is stored of a table: its definition and seats, its log of actions, its chat.

Nothing here is specific to a game: a table stores its game's key, rules version, setup and
seed, and a log of actions keyed by action number (0, 1, 2, ...). The wire protocol's
``version`` is derived from the game (its public history length), never a storage key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

STATUSES = ("waiting", "playing", "finished", "expired", "broken", "cancelled")
"""A table's status; ``expired``, ``broken`` and ``cancelled`` (by its creator, while
waiting) tables are never loaded at start."""

MAX_REASON = 500
"""Characters a store keeps of a broken table's reason (the rest is cut off)."""


@dataclass(slots=True)
class SeatRecord:
    """One seat as stored: a person's name and token hash, or a bot level, or free."""

    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    locked: bool = False
    """Kept free by the table's creator: nobody may take it until it is freed."""
    account_id: str | None = None
    """The account that holds this seat (``seats.account_id``); ``None``: a guest, a bot or
    free. A following table's seat keeps the account of the seat its token held before."""
    account: str | None = None
    """That account's name, read with the seat (``None`` once the account is deleted): the
    pages link the seat to the account's profile. Never written from here."""


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """The account that takes a seat: its id (``seats.account_id``) and its name, which
    the seat shows."""

    account_id: str
    name: str


@dataclass(slots=True)
class TableRecord:
    """A table's definition as stored (everything but its log)."""

    id: str
    game: str
    """The game's key in the game registry (:mod:`odin_cards.games`), e.g. ``"odin"``."""
    rules_version: int
    """The rules version the table was created with; replay refuses a version it lacks."""
    players: int
    setup: dict[str, Any]
    """The game's normalized setup (Odin: its options), JSON-safe."""
    seed: int
    status: str
    """One of :data:`STATUSES`."""
    created: datetime
    seats: list[SeatRecord]
    previous_table: str | None = None
    next_table: str | None = None
    broken_reason: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    """How the table is run, apart from the game's rules, JSON-safe: each key belongs to one
    core module (time control, visibility, chat...), which normalizes it; unknown keys are
    kept as they are. Stored in ``tables.settings`` (migration 0005)."""
    clock: dict[str, Any] = field(default_factory=dict)
    """The clock's stored facts (``core/features/stand_ins.py``): when the game started and
    which people's seats a bot plays, JSON-safe; ``{}`` before the game starts or without a
    clock. Stored in ``tables.clock`` (migration 0006)."""
    creator_hash: str | None = None
    """SHA-256 of the creator's token (cancel a waiting table, lock seats; migration 0008)."""


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One accepted action: the log's row. ``number`` counts actions from 0 per table."""

    number: int
    seat: int
    action: str
    client_id: str | None
    created: datetime
    by: str | None = None
    """Who made the move for the seat: ``None`` its person (or its own bot), ``stand-in``
    when its clock ran out, ``bot`` the bot that took the seat (``events.by``)."""


@dataclass(slots=True)
class StoredTable:
    """A table and its whole log, in order: what the core replays."""

    table: TableRecord
    log: list[LoggedAction] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of a table's chat as stored: said by a seat's person or a spectator, in
    the order the table's owner numbered it (0, 1, 2, ...), after ``action`` actions."""

    number: int
    author: str
    """Who said it, stable for the table: ``s<seat>`` for a player, ``w<digest>`` for a
    spectator (a keyed digest of their address: not reversible, the same on every process)."""
    name: str | None
    """The name shown (a spectator may give none)."""
    seat: int | None
    """The player's seat; ``None`` for a spectator."""
    text: str | None
    """What was written (raw: every page shows it as text, never as markup)..."""
    reaction: str | None
    """...or one of the quick reactions' keys (exactly one of the two)."""
    action: int
    """How many actions the game had when it was said (the replay places it there)."""
    created: datetime
