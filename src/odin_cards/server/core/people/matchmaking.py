"""Play now: a queue of people who want a game, matched by their choices and ratings.

A person asks for a game of ``players`` of one game, one of the game's Play now presets
(``GamePlugin.play_now``: Odin's targets) and a real-time clock preset, and gets a
*ticket*. Tickets with the same choices are matched when their
ratings are close: each ticket accepts ratings within a window that widens the longer it
waits (:func:`window`), and two tickets go together only when each one's window holds
the other (a newcomer is not thrown against a far stronger player at once; after a
while both have waited long enough). Nobody is matched with a person they blocked or who
blocked them, and guests (no account, no rating) are matched only with guests.

After :attr:`Rules.bot_wait` seconds a waiting person may fill the other seats with bots
at a level near their rating (or one they choose).

The queue lives in the database (:class:`~..ports.MatchStore`), so every process of a cluster
sees it: one process claims a group of tickets in one transaction (PostgreSQL: ``FOR
UPDATE SKIP LOCKED``; SQLite: one process writes), so nobody is matched twice. A ticket
whose page stops polling for :attr:`Rules.ticket_ttl` seconds expires.

The ticket's secret is also the seat's token: the table's seat stores its hash, so no
token is ever stored and the waiting page simply keeps the secret it already has.

This module is the pure part (choices, windows, grouping) and the service using the
ports; the HTTP routes are in ``transport/people_routes.py``.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from odin_cards.games import plugin_of, plugins, rules_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.bot_work import BotWork
from odin_cards.server.core.features.chat import chat_settings
from odin_cards.server.core.features.clocks import normalize as normalize_clock
from odin_cards.server.core.features.hints import hints_setting
from odin_cards.server.core.people.ratings import MU, bot_ratings, class_of, points
from odin_cards.server.core.ports import Clock, MatchStore, Ratings, RatingStore, TableRecord
from odin_cards.server.core.ports.people import Blocked, Choice, Ticket
from odin_cards.server.core.tables.table import LiveTable

CLOCKS = ("fast", "normal", "slow")
"""The real-time presets Play now offers (:data:`.clocks.PRESETS`)."""


def check_choice(game: Any, players: Any, target: Any, clock: Any) -> Choice:
    """The checked choice (the game, its seats, one of its Play now presets, stored as
    ``target``, and a clock preset), or ``bad_choice`` saying what is wrong."""
    plugin = plugins().get(game) if isinstance(game, str) else None
    if plugin is None or not plugin.play_now:
        offered = [key for key, p in plugins().items() if p.play_now]
        raise DomainError("bad_choice", f"Play now offers the games {', '.join(offered)}")
    rules = rules_of(plugin.key)
    fewest, most = rules.min_players, rules.max_players
    if isinstance(players, bool) or not isinstance(players, int):
        raise DomainError("bad_choice", f"Play now seats {fewest} to {most} players")
    if not fewest <= players <= most:
        raise DomainError("bad_choice", f"Play now seats {fewest} to {most} players")
    if not isinstance(target, str) or plugin.preset(target) is None:
        keys = ", ".join(preset.key for preset in plugin.play_now)
        raise DomainError("bad_choice", f"the target is one of {keys}")
    if clock not in CLOCKS:
        raise DomainError("bad_choice", f"the clock is one of {', '.join(CLOCKS)}")
    return Choice(players, target, str(clock), plugin.key)


def choice_setup(choice: Choice) -> dict[str, Any]:
    """The game's set-up of a table for this choice (its preset's)."""
    preset = plugin_of(choice.game).preset(choice.target)
    if preset is None:
        raise DomainError("bad_choice", f"{choice.game} has no Play now preset {choice.target!r}")
    return dict(preset.setup)


def choice_clock(choice: Choice) -> dict[str, Any]:
    """The clock setting of a table for this choice."""
    return {"kind": "realtime", "preset": choice.clock}


@dataclass(frozen=True, slots=True)
class Rules:
    """The queue's numbers (``Settings`` sets them on a server)."""

    bot_wait: float = 20.0
    """Seconds a person waits before they may fill the other seats with bots."""
    ticket_ttl: float = 20.0
    """Seconds without a poll after which a ticket expires (its page went away)."""
    window_base: float = 100.0
    """Rating difference accepted at once, in rating points (``docs/ratings.md``: a new
    person has 470, the expert bot 740)."""
    window_growth: float = 10.0
    """Rating points added to the window each second of waiting."""
    window_max: float = 1000.0
    """The widest window (after a minute and a half: anyone)."""
    max_waiting: int = 1000
    """Tickets waiting in all; more are refused (``queue_full``)."""
    per_address: int = 4
    """Waiting tickets one address may hold (guests: several browsers behind one NAT)."""
    joins_per_minute: int = 10
    """Tickets one address may ask for a minute."""
    stuck_after: float = 30.0
    """Seconds after which a claimed ticket whose table was never made waits again."""


def window(rules: Rules, waited: float) -> float:
    """The rating difference a ticket accepts after waiting ``waited`` seconds."""
    return min(rules.window_max, rules.window_base + rules.window_growth * max(0.0, waited))


def compatible(rules: Rules, a: Ticket, b: Ticket, now: datetime, blocked: Blocked) -> bool:
    """Whether ``a`` and ``b`` may sit at one table now."""
    if (a.account_id is None) != (b.account_id is None):
        return False  # guests play guests; accounts play accounts (rated tables)
    if (
        a.account_id is not None
        and b.account_id is not None
        and (a.account_id == b.account_id or frozenset((a.account_id, b.account_id)) in blocked)
    ):
        return False
    if a.rating is None or b.rating is None:
        return True
    gap = abs(a.rating - b.rating)
    waited_a = (now - a.created).total_seconds()
    waited_b = (now - b.created).total_seconds()
    return gap <= window(rules, waited_a) and gap <= window(rules, waited_b)


def pick_group(
    rules: Rules,
    anchor: Ticket,
    waiting: Sequence[Ticket],
    now: datetime,
    blocked: Blocked,
) -> list[Ticket] | None:
    """A table of ``anchor`` and others from ``waiting`` (same choice), each pair
    :func:`compatible`, the closest ratings first; ``None`` when there are not enough.

    Pure: the store calls it inside the transaction that claims the group."""
    needed = anchor.choice.players
    others = [t for t in waiting if t.id != anchor.id and t.choice == anchor.choice]

    def distance(ticket: Ticket) -> tuple[float, datetime]:
        if ticket.rating is None or anchor.rating is None:
            return (0.0, ticket.created)
        return (abs(ticket.rating - anchor.rating), ticket.created)

    group = [anchor]
    for candidate in sorted(others, key=distance):
        if all(compatible(rules, member, candidate, now, blocked) for member in group):
            group.append(candidate)
            if len(group) == needed:
                return group
    return None


def group_order(group: Sequence[Ticket]) -> list[Ticket]:
    """The seats' order at the new table: first come, first seated (seat 0 leads only if
    the game's seeded draw says so)."""
    return sorted(group, key=lambda t: (t.created, t.id))


@dataclass(frozen=True, slots=True)
class Seeker:
    """Who asks for a game: a guest (``account_id`` ``None``) or an account."""

    name: str
    account_id: str | None
    address: str
    banned: bool = False


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """One seat of a matched table: a person (name, token hash, account) or a bot."""

    name: str | None = None
    token_hash: str | None = None
    account_id: str | None = None
    bot: str | None = None


TableMaker = Callable[[Choice, list[SeatPlan], bool], Awaitable[str]]
"""Makes a matched table through the hall (seats filled, playing at once): its id. The
flag says whether the table is rated."""

BotLevels = Callable[[str, float | None], str]
"""The game's bot level whose reference rating is nearest a rating (``None``: a guest)."""


@dataclass
class Status:
    """What a waiting page is told on each poll."""

    state: str
    waited: float
    waiting: int
    """People waiting with the same choices (the asker included)."""
    bots_after: float
    """Seconds until the page may fill the table with bots (0: now)."""
    table_id: str | None = None
    seat: int | None = None
    choice: Choice | None = None

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "state": self.state,
            "waited": round(self.waited, 1),
            "waiting": self.waiting,
            "bots_after": round(self.bots_after, 1),
            "table": self.table_id,
            "seat": self.seat,
        }
        if self.choice is not None:
            data["choice"] = {
                "game": self.choice.game,
                "players": self.choice.players,
                "target": self.choice.target,
                "clock": self.choice.clock,
            }
        return data


@dataclass
class _Joins:
    stamps: dict[str, list[float]] = field(default_factory=dict)

    def allow(self, address: str, now: float, limit: int) -> bool:
        recent = [s for s in self.stamps.get(address, ()) if s > now - 60.0]
        if len(recent) >= limit:
            self.stamps[address] = recent
            return False
        recent.append(now)
        self.stamps[address] = recent
        if len(self.stamps) > 4096:
            for key in [k for k, v in self.stamps.items() if not v or v[-1] <= now - 60.0]:
                del self.stamps[key]
        return True


class MatchQueue:
    """Play now, for one server process; the queue itself is the store's (shared)."""

    def __init__(
        self,
        store: MatchStore,
        clock: Clock,
        rules: Rules,
        make_table: TableMaker,
        ratings: Ratings | None,
        bot_level: BotLevels,
        hash_token: Callable[[str], str],
        rated: Callable[[], bool] = lambda: True,
        bot_work: BotWork | None = None,
    ) -> None:
        self.store = store
        self.bot_work = bot_work
        """Play now's bots draw on the person's and the address's bot work."""
        self.clock = clock
        self.rules = rules
        self.make_table = make_table
        self.ratings = ratings
        self.bot_level = bot_level
        self.hash_token = hash_token
        self.rated = rated
        self._joins = _Joins()
        self._matching = asyncio.Lock()
        """One match at a time in this process (SQLite's single writer; on PostgreSQL the
        rows' locks keep processes apart)."""

    def _stale(self, now: datetime) -> datetime:
        return now - timedelta(seconds=self.rules.ticket_ttl)

    async def join(
        self, seeker: Seeker, choice: Choice, previous: str | None = None
    ) -> tuple[str, Status]:
        """Queue ``seeker`` for ``choice``: the ticket's secret (the seat token to be) and
        the first status. An account's older ticket (or this browser's ``previous``) is
        replaced: one ticket per person."""
        if seeker.banned:
            raise DomainError("banned", "this account is banned and cannot play")
        now = self.clock.now()
        stale = self._stale(now)
        if not self._joins.allow(
            seeker.address, self.clock.monotonic(), self.rules.joins_per_minute
        ):
            raise DomainError("rate_limited", "too many Play now requests; wait a minute")
        previous_hash = self.hash_token(previous) if previous else None
        if (
            seeker.account_id is None
            and await self.store.waiting_of(seeker.address, stale) >= self.rules.per_address
        ):
            raise DomainError(
                "rate_limited",
                f"at most {self.rules.per_address} people may wait from one address",
            )
        _, everyone = await self.store.counts(choice, stale)
        if everyone >= self.rules.max_waiting:
            raise DomainError("queue_full", "too many people are waiting; try again soon")
        rating = None
        if seeker.account_id is not None and self.ratings is not None:
            rating = await self.ratings.rating_for(seeker.account_id, choice.players)
        secret = secrets.token_urlsafe(32)
        ticket = Ticket(
            secrets.token_hex(16),
            self.hash_token(secret),
            choice,
            seeker.name,
            seeker.account_id,
            rating,
            seeker.address[:64],
            now,
            now,
        )
        await self.store.add(ticket, seeker.account_id or previous_hash)
        status = await self._match(ticket)
        return secret, status

    async def _ticket(self, secret: str) -> Ticket:
        ticket = await self.store.by_token(self.hash_token(secret))
        if ticket is None:
            raise DomainError("not_found", "there is no such Play now ticket")
        return ticket

    async def poll(self, secret: str) -> Status:
        """The page is still there: the ticket stays alive, and is matched if it can be."""
        ticket = await self._ticket(secret)
        now = self.clock.now()
        stuck = ticket.claimed is not None and ticket.claimed < self._stuck(now)
        if ticket.state == "matching" and stuck:
            # Its group's process stopped before the table was made: it waits again.
            await self.sweep()
            ticket = await self._ticket(secret)
        if ticket.state == "waiting":
            if ticket.seen < self._stale(now):
                await self.sweep()
                return await self._status(await self._ticket(secret))
            await self.store.seen(ticket.id, now)
            return await self._match(ticket)
        return await self._status(ticket)

    def _stuck(self, now: datetime) -> datetime:
        return now - timedelta(seconds=self.rules.stuck_after)

    async def cancel(self, secret: str) -> Status:
        ticket = await self._ticket(secret)
        if ticket.state == "waiting":
            await self.store.cancel(ticket.id)
        return await self._status(await self._ticket(secret))

    async def _status(self, ticket: Ticket) -> Status:
        now = self.clock.now()
        waited = (now - ticket.created).total_seconds()
        waiting = 0
        if ticket.state == "waiting":
            waiting, _ = await self.store.counts(ticket.choice, self._stale(now))
        return Status(
            ticket.state,
            waited,
            waiting,
            max(0.0, self.rules.bot_wait - waited),
            ticket.table_id,
            ticket.seat,
            ticket.choice,
        )

    async def _match(self, ticket: Ticket) -> Status:
        """Try to seat ``ticket`` with others now."""
        now = self.clock.now()
        rules = self.rules

        def pick(anchor: Ticket, waiting: list[Ticket], blocked: Blocked) -> list[Ticket] | None:
            return pick_group(rules, anchor, waiting, now, blocked)

        async with self._matching:
            group = await self.store.claim(ticket.id, self._stale(now), now, pick)
            if group is not None:
                await self._seat(ticket.choice, group, [])
        return await self._status(await self._ticket_by_hash(ticket.token_hash))

    async def _ticket_by_hash(self, token_hash: str) -> Ticket:
        ticket = await self.store.by_token(token_hash)
        if ticket is None:
            raise DomainError("not_found", "there is no such Play now ticket")
        return ticket

    async def fill_with_bots(self, secret: str, level: str | None) -> Status:
        """After the wait, the ticket's person plays the bots of its game (``level``, or the
        level nearest their rating) at once."""
        ticket = await self._ticket(secret)
        levels = plugin_of(ticket.choice.game).level_keys
        if ticket.state != "waiting":
            return await self._status(ticket)
        now = self.clock.now()
        waited = (now - ticket.created).total_seconds()
        if waited < self.rules.bot_wait:
            raise DomainError(
                "too_soon",
                f"bots may fill the table after {self.rules.bot_wait:g} s of waiting",
            )
        if level is not None and level not in levels:
            raise DomainError("bad_bots", f"bot levels: {', '.join(levels)}")
        chosen = level or self.bot_level(ticket.choice.game, ticket.rating)
        if self.bot_work is not None:
            self.bot_work.seats(ticket.choice.players - 1, ticket.address, ticket.account_id)

        def alone(anchor: Ticket, waiting: list[Ticket], blocked: Blocked) -> list[Ticket] | None:
            return [anchor]

        async with self._matching:
            group = await self.store.claim(ticket.id, self._stale(now), now, alone)
            if group is not None:
                bots = [chosen] * (ticket.choice.players - 1)
                await self._seat(ticket.choice, group, bots)
        return await self._status(await self._ticket(secret))

    async def _seat(self, choice: Choice, group: list[Ticket], bots: list[str]) -> None:
        """Make the table of a claimed group; the tickets learn their seats. A table that
        cannot be made lets the group wait again."""
        people = group_order(group)
        plans = [SeatPlan(t.name, t.token_hash, t.account_id) for t in people]
        plans += [SeatPlan(bot=level) for level in bots]
        rated = self.rated() and all(t.account_id is not None for t in people)
        try:
            table_id = await self.make_table(choice, plans, rated)
        except BaseException:
            await self.store.release([t.id for t in group])
            raise
        await self.store.seated({t.id: seat for seat, t in enumerate(people)}, table_id)

    async def sweep(self) -> int:
        now = self.clock.now()
        return await self.store.sweep(self._stale(now), self._stuck(now), now)


# ---------------------------------------------------------------- the table


class NewTables(Protocol):
    """What Play now needs of the tables: a new table's set-up checked, its record, opened
    here, its people shown (``core/tables/directory.py``)."""

    def check_new(
        self, game: str, players: int, bots: Mapping[int, str], setup: Mapping[str, Any]
    ) -> dict[str, Any]: ...

    def new_record(
        self, game: str, players: int, setup: dict[str, Any], bots: Mapping[int, str]
    ) -> TableRecord: ...

    async def open_new(self, record: TableRecord, client: str | None = None) -> LiveTable: ...

    def seated(self, table: LiveTable) -> None: ...


class HallTables:
    """Makes matched tables: a new table of the choice's game whose seats are filled at
    once (people with their tickets' token hashes, bots), playing from the start, owned by
    this process like any table it creates; each person's seat is their account's."""

    def __init__(
        self,
        tables: NewTables,
        rated: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        self.tables = tables
        self.rated = rated

    async def __call__(self, choice: Choice, plans: list[SeatPlan], rated: bool) -> str:
        tables = self.tables
        bots = {seat: plan.bot for seat, plan in enumerate(plans) if plan.bot is not None}
        normal = tables.check_new(choice.game, choice.players, bots, choice_setup(choice))
        chosen: dict[str, Any] = {
            "chat": chat_settings(None),
            "clock": normalize_clock(choice_clock(choice)),
            "visibility": "public",
            "hints": hints_setting(None),
        }
        if rated and self.rated is not None:
            chosen = self.rated(chosen)
        record = tables.new_record(choice.game, choice.players, normal, bots)
        record.settings = chosen
        for seat, plan in zip(record.seats, plans, strict=True):
            if plan.bot is None:
                seat.name, seat.token_hash = plan.name, plan.token_hash
                # An account's seat is its own from the insert on (an account's ticket
                # bears the account's name): the live table links it to the profile.
                seat.account_id = plan.account_id
                seat.account = plan.name if plan.account_id is not None else None
        record.status = "playing"
        table = await tables.open_new(record)
        tables.seated(table)
        return table.id


# ---------------------------------------------------------------- ratings


class RatingPoints:
    """:class:`Ratings` read from the ratings' store (:mod:`.ratings`), in points."""

    def __init__(self, store: RatingStore) -> None:
        self.store = store

    async def rating_for(self, account_id: str, players: int) -> float:
        rating = await self.store.rating(account_id, class_of(players))
        return float(rating.points)


def nearest_bot(game: str, rating: float | None) -> str:
    """The bot level of ``game`` whose reference rating is nearest ``rating`` (a guest,
    ``None``: a new person's, the heuristic's in Odin); a game without reference ratings
    plays its stand-in level."""
    references = bot_ratings(game)
    if not references:
        return plugin_of(game).stand_in_level() or ""
    wanted = float(points(MU)) if rating is None else rating
    return min(references, key=lambda level: (abs(references[level].points - wanted), level))
