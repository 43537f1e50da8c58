"""The server core's tables, wired: what the transport and the composition root call.

The hall builds the core's parts and joins them; it holds no table state of its own:

- :mod:`.directory`: the tables in memory (loading, cache, expiry, lobby lists, new tables);
- :mod:`.moves`: the move pipeline (check -> store -> apply -> acknowledge -> broadcast);
- :mod:`.fanout`: what a table's sessions are sent; :mod:`.sessions`: who they are;
- :mod:`.ownership` (one process) or :mod:`.cluster` (several): where a table is owned,
  and the one way to run a command there;
- :mod:`.bot_turns`: when bot seats move;
- the features (``core/features/``): seats, access, clocks and stand-ins, chat, rematch,
  presence, each a handler of its own commands with a narrow context (:mod:`.context`).

A connection is a :class:`~.sessions.Session`: :meth:`Hall.hello` makes it a seat's or a
spectator's and sends it the table; :meth:`Hall.act` plays for its seat.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.access import Access
from odin_cards.server.core.features.bot_work import BotWork
from odin_cards.server.core.features.chat import TableChat
from odin_cards.server.core.features.presence import Presence
from odin_cards.server.core.features.rematch import Rematches
from odin_cards.server.core.features.seats import Seats
from odin_cards.server.core.features.stand_ins import StandIns
from odin_cards.server.core.ports import (
    BotRunner,
    Clock,
    EventLog,
    Metrics,
    SeatHolder,
    SocialStore,
    StoreUnavailable,
    TableRecord,
    TableStore,
)
from odin_cards.server.core.protocol.server import Update, Welcome
from odin_cards.server.core.tables.bot_turns import BotTurns
from odin_cards.server.core.tables.cluster import ClusteredOwnership, ClusterPorts
from odin_cards.server.core.tables.context import TableContext
from odin_cards.server.core.tables.directory import Directory
from odin_cards.server.core.tables.fanout import FanOut
from odin_cards.server.core.tables.moves import MovePipeline
from odin_cards.server.core.tables.ownership import LocalOwnership, Ownership
from odin_cards.server.core.tables.sessions import Session, Sessions
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.core.tables.writes import StoreWrites
from odin_cards.server.settings import Settings


class NoMetrics:
    """:class:`~..ports.Metrics` that counts nothing (tests, tools)."""

    def action_applied(self, game: str, seconds: float) -> None:
        pass

    def lease_changed(self, event: str) -> None:
        pass

    def table_evicted(self) -> None:
        pass


class Hall:
    """Every table of this server process (see the module doc).

    With ``cluster`` (several processes on one database) a table is owned by one process
    and followed by replicas elsewhere (:mod:`.cluster`); without, this process owns every
    table it holds.
    """

    def __init__(
        self,
        store: TableStore,
        events: EventLog,
        bots: BotRunner,
        clock: Clock,
        settings: Settings,
        cluster: ClusterPorts | None = None,
        metrics: Metrics | None = None,
        social: SocialStore | None = None,
    ) -> None:
        self.store = store
        self.bots = bots
        self.clock = clock
        self.settings = settings
        self.metrics: Metrics = metrics or NoMetrics()
        self.sessions = Sessions()
        """Who listens to which table here (:mod:`.sessions`)."""
        context = self.context = TableContext(
            store, bots, clock, settings, self.metrics, self.sessions, StoreWrites(store)
        )
        self.ownership: Ownership = (
            LocalOwnership() if cluster is None else ClusteredOwnership(cluster, context)
        )
        context.ownership = self.ownership
        self.presence = context.presence = Presence(
            self.sessions,
            clock,
            settings.presence_grace,
            context.spawn,
            self.ownership.owns,
            self.ownership.presence_changed,
        )
        self.turns = context.turns = BotTurns(
            bots, self.sessions, self.ownership, clock, settings, context.spawn
        )
        self.fanout = context.fanout = FanOut(
            self.sessions, self.presence.shown_at, lambda table: self.directory.closes(table)
        )
        self.bot_work = BotWork(settings, clock.monotonic)
        """The one budget of bot work per person and address (:mod:`.bot_work`)."""
        self.directory = context.directory = Directory(
            store,
            context.writes,
            self.ownership,
            self.sessions,
            self.fanout,
            self.turns,
            clock,
            settings,
            self.metrics,
            self.bot_work,
        )
        self.pipeline = context.pipeline = MovePipeline(
            events, self.ownership, self.fanout, self.turns, clock, self.metrics, context.spawn
        )
        self.turns.act = self.pipeline.bot_move
        self.seats = context.seats = Seats(context)
        self.access = Access(context)
        """The creator's powers (:mod:`.access`)."""
        self.stand_ins = StandIns(context, settings.bot_deadline)
        """Clocks, stand-in moves and people's seats handed to bots (:mod:`.stand_ins`)."""
        self.chat = TableChat(context, social)
        self.rematches = Rematches(context, social)
        """Chat and rematch (:mod:`.chat`, :mod:`.rematch`); without ``social`` (tools,
        some tests) both refuse as ``unavailable``."""
        self.turns.clocks = self.stand_ins.schedule
        self.seats.refreshed.append(self.chat.reread)
        self.fanout.after_update.append(self.stand_ins.announce)
        self.fanout.after_announce += [self.stand_ins.announce, self.ownership.announced]
        self.pipeline.over.append(self.directory.hold)
        self.directory.on_drop += [
            self.turns.drop,
            self.stand_ins.forget,
            self.presence.forget,
            self.chat.forget,
            self.rematches.forget,
        ]

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        """Expire abandoned waiting tables; take up the others; bots to move carry on."""
        await self.directory.start()

    async def hand_over(self) -> None:
        """A graceful stop with several processes: give every table up at once."""
        await self.ownership.hand_over()

    @property
    def draining(self) -> bool:
        return self.ownership.draining

    async def stop(self) -> None:
        self.stand_ins.stop()
        await self.directory.stop()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in a task that the server's stop cancels."""
        self.directory.spawn(work)

    @property
    def on_finished(self) -> list[Callable[[LiveTable], None]]:
        """Called when a table's last move was applied here (its owner): results and
        ratings (:mod:`..people.ratings`) hook in; each must return at once."""
        return self.pipeline.finished

    def owns(self, table: LiveTable) -> bool:
        return self.ownership.owns(table)

    def leases_held(self) -> int:
        """Tables whose lease this process holds (several processes; else 0)."""
        return self.ownership.held()

    # ------------------------------------------------------------ tables

    @property
    def tables(self) -> dict[str, LiveTable]:
        """The tables in memory, by id (read only: the directory changes it)."""
        return self.directory.tables

    async def get(self, table_id: str) -> LiveTable:
        return await self.directory.get(table_id)

    async def get_current(self, table_id: str) -> LiveTable:
        return await self.directory.get_current(table_id)

    def held_table(self, table_id: str) -> LiveTable | None:
        return self.directory.tables.get(table_id)

    def held_tables(self) -> list[LiveTable]:
        return list(self.directory.tables.values())

    def view(self, table: LiveTable) -> dict[str, Any]:
        """The table as the API shows it (presence and closing time included)."""
        return self.fanout.view(table)

    def drop(self, table: LiveTable) -> None:
        self.directory.drop(table)

    async def expire(self) -> list[str]:
        return await self.directory.expire()

    def check_new(
        self, game: str, players: int, bots: Mapping[int, str], setup: Mapping[str, Any]
    ) -> dict[str, Any]:
        return self.directory.check_new(game, players, bots, setup)

    async def create(
        self,
        players: int,
        bots: Mapping[int, str],
        setup: Mapping[str, Any],
        client: str | None = None,
        game: str | None = None,
        table_settings: Mapping[str, Any] | None = None,
        creator_hash: str | None = None,
        account: str | None = None,
    ) -> LiveTable:
        return await self.directory.create(
            players, bots, setup, client, game, table_settings, creator_hash, account
        )

    def new_record(
        self, game: str, players: int, setup: dict[str, Any], bots: Mapping[int, str]
    ) -> TableRecord:
        return self.directory.new_record(game, players, setup, bots)

    async def open_new(self, record: TableRecord, client: str | None = None) -> LiveTable:
        return await self.directory.open_new(record, client)

    def seated(self, table: LiveTable) -> None:
        """People were seated at ``table`` without saying hello yet (shown offline)."""
        self.presence.update(table)

    async def lobby(self, game: str | None = None) -> list[dict[str, Any]]:
        return await self.directory.lobby(game)

    def open_tables(self, game: str | None = None) -> list[dict[str, Any]]:
        return self.directory.open_tables(game)

    async def mine(self, tokens: list[str]) -> list[dict[str, Any]]:
        return await self.directory.mine(tokens)

    async def take_seat(
        self, table: LiveTable, seat: int, name: str, holder: SeatHolder | None = None
    ) -> str:
        """Seat a person; the seat's token (:mod:`..features.seats`)."""
        return await self.seats.take(table, seat, name, holder)

    async def refresh(self, table: LiveTable) -> None:
        """The table's seats changed in the store (an account's): read them again, at the
        owner and here (``core/people/accounts.py``)."""
        await self.seats.refresh(table)

    # ------------------------------------------------------------ sessions

    async def hello(
        self, session: Session, table: LiveTable, token: str | None, version: int | None
    ) -> None:
        """Make ``session`` the token's seat's (or a spectator's) and send it the table."""
        async with table.lock:
            seat = None
            if token is not None:
                seat = await self._seat_of(table, token)
            session.seat = seat
            self.sessions.join(table.id, session)
            if table.id not in self.directory.tables:  # it left memory since it was looked up
                self.directory.hold(table)
                await self.ownership.rejoined(table)
            if seat is not None:
                self.turns.saw_person(table)
            session.send(Welcome(seat, self.fanout.view(table)))
            resync = version is None or version > table.version
            since = 0 if resync or version is None else version
            session.send(Update(table.version, table.events_json(since), table.state(seat), resync))
            session.version = table.version
            self.presence.joined(table, session)  # after its welcome: others are told
            await self.chat.welcome(table, session)
            await self.rematches.welcome(table, session)
            self.stand_ins.greet(session, table)
            self.turns.schedule(table)  # a paused table resumes when someone comes
            self.ownership.connections_changed(table)

    async def _seat_of(self, table: LiveTable, token: str) -> int:
        """The token's seat (the caller holds the table's lock). A replica that does not
        know the token reads the stored seats first: a seat its owner just gave is stored
        before the player holds its token, but its owner's word of it may not have come
        over the bus yet."""
        seat = table.seat_of(token)
        if seat is None and not self.ownership.owns(table):
            try:
                await self.seats.reread(table)
            except StoreUnavailable:
                raise DomainError("unavailable", "the table cannot be read now") from None
            seat = table.seat_of(token)
        if seat is None:
            raise DomainError("unauthorized", "this token holds no seat at this table")
        return seat

    def leave(self, table: LiveTable, session: Session) -> None:
        """``session`` is gone; a table nobody watches stops asking for bot moves."""
        self.sessions.leave(table.id, session)
        self.presence.left(table, session)
        if session.seat is not None:
            self.turns.saw_person(table)
        self.directory.touched[table.id] = self.clock.monotonic()
        self.ownership.connections_changed(table)
        if self.turns.paused(table):
            self.turns.forget(table)

    async def act(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        reply: Session | None = None,
    ) -> int:
        """One action of ``seat`` (:mod:`.moves`); the version after it."""
        return await self.pipeline.act(table, seat, text, version, client_id, reply)
