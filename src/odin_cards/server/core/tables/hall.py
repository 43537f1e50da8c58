"""The tables of a server, and the only code that changes them: lobby, seats, play, bots.

The server is authoritative. Each table's game is rebuilt from its stored definition and
log (through the game contract) when it is first needed, so a killed server resumes every
table exactly. One asyncio lock per table serializes its changes: an action is checked
(turn, version, rules), stored in the log under its action number, applied, acknowledged
and broadcast, in that order. Everything outside memory goes through the ports: the table
store, the event log, the bot runner and the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping
from datetime import timedelta
from typing import Any

from odin_cards.contract import ActionError, SetupError
from odin_cards.games import default_key, plugin_of, rules_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.access import (
    Access,
    check_open,
    check_seat_open,
    listed,
    visibility,
)
from odin_cards.server.core.features.chat import TableChat, chat_settings
from odin_cards.server.core.features.clocks import BOT, Stamp, normalize
from odin_cards.server.core.features.hints import hints_setting
from odin_cards.server.core.features.presence import Presence
from odin_cards.server.core.features.rematch import Rematches, SeatPlan
from odin_cards.server.core.features.stand_ins import StandIns
from odin_cards.server.core.people.ratings import rated_setting
from odin_cards.server.core.ports import (
    BotRunner,
    Clock,
    CommitUnknown,
    EventLog,
    Fenced,
    LoggedAction,
    Metrics,
    SeatHolder,
    SeatTaken,
    SocialStore,
    StoredTable,
    StoreUnavailable,
    TableRecord,
    TableStore,
)
from odin_cards.server.core.protocol.server import Ack, TableShown, Update, Welcome, encode
from odin_cards.server.core.tables.bot_turns import BotTurns
from odin_cards.server.core.tables.cluster import ClusterPorts, NotOwner, Peers, entry_message
from odin_cards.server.core.tables.presenters import presenter_of
from odin_cards.server.core.tables.sessions import Session, Sessions
from odin_cards.server.core.tables.table import (
    LiveTable,
    ReplayError,
    api_of,
    clean_name,
    hash_token,
    new_record,
)
from odin_cards.server.core.tables.turns import my_turns_first, turn_entry
from odin_cards.server.settings import Settings

log = logging.getLogger(__name__)

MINE_LIMIT = 50
OPEN_LIMIT = 100
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def _unavailable(id: str | None = None) -> DomainError:
    return DomainError("unavailable", "the server cannot store this now; try again", id)


def _not_found() -> DomainError:
    return DomainError("not_found", "there is no such table")


def _broken(table_id: str) -> DomainError:
    return DomainError(
        "broken", f"table {table_id} cannot be restored from its log; it is kept aside"
    )


class NoMetrics:
    """:class:`~.ports.Metrics` that counts nothing (tests, tools)."""

    def action_applied(self, game: str, seconds: float) -> None:
        pass

    def lease_changed(self, event: str) -> None:
        pass

    def table_evicted(self) -> None:
        pass


LOBBY_SECONDS = 1.0
"""How long the lobby's list of open tables read from the database is reused (several
processes: each process holds only some tables). A change this process makes or hears of
reads it again at once; another process's new table shows within this time."""


class Hall:
    """Every table of the server in memory (finished ones while recently used).

    With ``cluster`` (several processes on one database), a table is *owned* by one
    process and followed by replicas elsewhere (:mod:`.cluster`): changes asked of a
    replica go to the owner.
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
        self.events = events
        self.bots = bots
        self.sessions = Sessions()
        """Who listens to which table here (:mod:`.sessions`)."""
        self.clock = clock
        self.settings = settings
        self.tables: dict[str, LiveTable] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()
        """Finished tables in memory, least recently used first (evicted beyond the cap)."""
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        """Tables being loaded from the store, by id."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.turns = BotTurns(bots, self.sessions, clock, settings, self._bot_act, self._spawn)
        self.metrics: Metrics = metrics or NoMetrics()
        self.peers = Peers(self, cluster) if cluster is not None else None
        self._lobby: dict[str, tuple[float, list[dict[str, Any]]]] = {}
        """Each game's open tables read from the database, and when (several processes)."""
        self.presence = Presence(
            self.sessions, clock, settings.presence_grace, self._spawn, self._presence_changed
        )
        self.access = Access(self)
        """Presence of the seats (:mod:`.presence`); the creator's powers (:mod:`.access`)."""
        self.stand_ins = StandIns(self)
        """Clocks, stand-in moves and people's seats handed to bots (:mod:`.stand_ins`)."""
        self.turns.clocks = self.stand_ins.schedule
        self.chat = TableChat(self, social)
        self.rematches = Rematches(self, social)
        """Chat and rematch (:mod:`.chat`, :mod:`.rematch`); without ``social`` (tools,
        some tests) both refuse as ``unavailable``."""
        self.on_finished: list[Callable[[LiveTable], None]] = []
        """Called when a table's last move was applied here (its owner): results and
        ratings (:mod:`.ratings`) hook in; each must return at once (spawn its work)."""

    # ------------------------------------------------------------ loading

    async def start(self) -> None:
        """Expire abandoned waiting tables; rebuild the others; bots to move carry on.

        A table whose log does not replay is marked ``broken`` with its reason, never
        dropped in silence; the count of broken tables is logged once.
        """
        since = self.clock.now() - timedelta(seconds=self.settings.waiting_expiry)
        expired = await self.store.expire_waiting(since)
        if self.peers is not None:  # tables without a live owner are taken over
            await self.peers.start()
            self._spawn(self._expire_periodically())
            return
        for stored in await self.store.load_resumable(since):
            table = await self._rebuild(stored)
            if table is not None:
                self._hold(table)
                self.turns.schedule(table)
        broken = await self.store.broken()
        if broken:
            log.error("%d tables broken; `odin tables broken` lists them", len(broken))
        log.info("resumed %d tables; %d waiting tables expired", len(self.tables), len(expired))
        self._spawn(self._expire_periodically())

    async def hand_over(self) -> None:
        """A graceful stop with several processes: give every table up at once."""
        if self.peers is not None:
            await self.peers.hand_over()

    @property
    def draining(self) -> bool:
        return self.peers is not None and self.peers.draining

    async def stop(self) -> None:
        self.stand_ins.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def get(self, table_id: str) -> LiveTable:
        """The table ``table_id``, loaded from the store when not in memory.

        Raises ``not_found``, ``broken`` (its log does not replay) or ``unavailable``.
        """
        table = self.tables.get(table_id)
        if table is None:
            if not TABLE_ID.fullmatch(table_id):
                raise _not_found()
            loading = self._loading.get(table_id)
            if loading is None:  # one load per table, however many ask at once
                loading = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
                loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
            table = await asyncio.shield(loading)
        if table.status == "broken":
            raise _broken(table_id)
        if table.id in self._finished:
            self._finished.move_to_end(table.id)
        table.touched = self.clock.monotonic()
        return table

    async def get_current(self, table_id: str) -> LiveTable:
        """The table as its log has it now, for an answer that depends on whether its game
        is over (its record, its analysis). A replica learns its owner's actions over the
        bus, a moment after the players whose connections are at the owner: one that does
        not show the game finished yet reads the log's tail first, so that a player who
        saw the game end never hears "still running" from another process (nor, should
        the bus lose the last moves but not the owner's word that the table finished, the
        record of a game short of its moves)."""
        table = await self.get(table_id)
        started = table.status in ("playing", "finished")
        if self.peers is not None and not table.owned and started and not table.game.is_over:
            await self.peers.catch_up(table)
        return table

    async def _load(self, table_id: str) -> LiveTable:
        if self.peers is None:
            return await self._load_stored(table_id)
        await self.peers.follow(table_id)  # before it is read: no update is missed
        try:
            return await self._load_stored(table_id)
        except BaseException:
            self.peers.forget(table_id)  # (an unknown id must not stay subscribed)
            raise

    async def _load_stored(self, table_id: str) -> LiveTable:
        try:
            stored = await self.store.load(table_id)
        except StoreUnavailable:
            raise _unavailable() from None
        if stored is None:
            raise _not_found()
        if stored.table.status == "broken":
            raise _broken(table_id)
        table = await self._rebuild(stored)
        if table is None:
            raise _broken(table_id)
        if self.peers is not None:
            table.owned = False
            table.touched = self.clock.monotonic()
            if table.status in ("waiting", "playing"):
                self.peers.claim(table_id)  # if nobody alive owns it
                self.peers.presence(table)  # its owner answers with what it shows
        self._hold(table)
        self.turns.schedule(table)
        return table

    async def _rebuild(self, stored: StoredTable) -> LiveTable | None:
        """The table of ``stored``, or ``None`` after marking it broken."""
        try:
            table = LiveTable.replay(stored)
        except ReplayError as error:
            reason = str(error)
            log.error("table %s does not replay and is marked broken: %s", stored.table.id, reason)
            try:
                await self.store.set_status(stored.table.id, "broken", reason)
            except StoreUnavailable:
                log.error(
                    "table %s could not be marked broken (store unavailable)", stored.table.id
                )
            return None
        table.person_seen = self.clock.monotonic()
        if table.status == "finished" and stored.table.status != "finished":
            await self._store_status(table.id, "finished")
        return table

    async def _write(
        self,
        write: Coroutine[Any, Any, None],
        table_id: str,
        holds: Callable[[StoredTable], bool] = lambda _: True,
    ) -> None:
        """Run one write of the table store. An unknown outcome is settled by reading the
        table back (``holds`` says whether what is stored includes the write); a write that
        is not stored, or cannot be settled now, is ``unavailable``."""
        try:
            await write
        except CommitUnknown:
            stored = await self._read_back(table_id)
            if stored is None or not holds(stored):
                raise _unavailable() from None
        except StoreUnavailable:
            raise _unavailable() from None

    async def _read_back(self, table_id: str) -> StoredTable | None:
        """The stored table, to settle a write whose commit's outcome is unknown
        (``None`` also when it cannot be read now: the write counts as refused)."""
        try:
            return await self.store.load(table_id)
        except StoreUnavailable:
            return None

    async def _store_status(self, table_id: str, status: str) -> None:
        try:
            await self.store.set_status(table_id, status)
        except StoreUnavailable:
            log.warning("table %s: status %s not stored (store unavailable)", table_id, status)

    def _hold(self, table: LiveTable) -> None:
        """Keep ``table`` in memory; finished ones join the LRU and may push others out."""
        table.closes_at = table.created + timedelta(seconds=self.settings.waiting_expiry)
        self.tables[table.id] = table
        if table.status not in ("waiting", "playing"):
            self._finished[table.id] = None
            self._finished.move_to_end(table.id)
            self._evict()

    def _evict(self) -> None:
        """Drop the least recently used finished tables beyond the cap (none with listeners)."""
        excess = len(self._finished) - self.settings.finished_in_memory
        if excess <= 0:
            return
        for table_id in list(self._finished):
            if excess <= 0:
                break
            if self.sessions.at(table_id):
                continue
            del self._finished[table_id]
            self.drop(self.tables[table_id])
            excess -= 1

    def drop(self, table: LiveTable) -> None:
        """The table leaves memory (its lease, if any, is released)."""
        if self.tables.pop(table.id, None) is not None:
            self.metrics.table_evicted()
        self._finished.pop(table.id, None)
        self.bots.cancel(table.id)
        self.stand_ins.forget(table.id)
        self.presence.forget(table.id)
        self.chat.forget(table.id)
        self.rematches.forget(table.id)
        if self.peers is not None:
            self.peers.forget(table.id)
            if table.owned:
                self._spawn(self.peers._release(table))

    # -------------------------------------------------------------- expiry

    async def _expire_periodically(self) -> None:
        while True:
            await self.clock.sleep(self.settings.expiry_interval)
            try:
                await self.expire()
            except StoreUnavailable:
                log.warning("waiting tables not expired now (store unavailable); later")

    async def expire(self) -> list[str]:
        """Mark waiting tables older than the expiry ``expired``; they leave memory."""
        since = self.clock.now() - timedelta(seconds=self.settings.waiting_expiry)
        ids = await self.store.expire_waiting(since)
        for table_id in ids:
            table = self.tables.get(table_id)
            if table is not None and table.status == "waiting":
                table.status = "expired"
                self._announce(table)
                self.drop(table)
            elif self.peers is not None:
                self.peers.bus.publish(table_id, {"kind": "table", "status": "expired"})
        return ids

    # -------------------------------------------------------------- lobby

    def check_new(
        self, game: str, players: int, bots: Mapping[int, str], setup: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The normalized set-up of a new table of ``game``, or the refusal saying what is
        wrong: any installed game (:mod:`odin_cards.games`; its rules check the set-up), its
        plugin's bot levels and limits. Changes nothing."""
        try:
            rules = rules_of(game)
        except SetupError as error:
            raise DomainError("bad_game", str(error)) from None
        if not rules.min_players <= players <= rules.max_players:
            raise DomainError(
                "bad_players",
                f"this game is played by {rules.min_players} to {rules.max_players} players, "
                f"not {players}",
            )
        levels = plugin_of(game).level_keys
        for seat, level in bots.items():
            if not 0 <= seat < players:
                raise DomainError("bad_bots", f"bot seats are 0 to {players - 1}, not {seat}")
            if level not in levels:
                raise DomainError(
                    "bad_bots",
                    f"unknown bot level {level[:64]!r}; levels: {', '.join(levels) or 'none'}",
                )
        try:
            normal = rules.check_setup(players, setup)
        except (SetupError, TypeError) as error:
            raise DomainError("bad_options", str(error)) from None
        problem = presenter_of(game).limits(normal)
        if problem is not None:
            raise DomainError("bad_options", problem)
        return normal

    async def create(
        self,
        players: int,
        bots: Mapping[int, str],
        setup: Mapping[str, Any],
        client: str | None = None,
        game: str | None = None,
        table_settings: Mapping[str, Any] | None = None,
        creator_hash: str | None = None,
    ) -> LiveTable:
        """A new table: bot seats taken, the others free (``waiting`` until all are).
        ``table_settings`` (``TableRecord.settings``) is normalized by each key's module."""
        game = game or default_key()
        normal = self.check_new(game, players, bots, setup)
        chosen = dict(table_settings or {})
        chosen["chat"] = chat_settings(chosen.get("chat"))
        chosen["clock"] = normalize(chosen.get("clock"))
        chosen["visibility"] = visibility(chosen.get("visibility"))
        chosen["rated"] = rated_setting(chosen.get("rated"), game, players - len(bots))
        chosen["hints"] = hints_setting(chosen.get("hints"), chosen["rated"])
        if len(bots) < players:
            waiting = sum(1 for t in self.tables.values() if t.status == "waiting")
            if waiting >= self.settings.max_waiting_tables:
                raise DomainError(
                    "too_many_tables",
                    "too many tables are waiting for players; join one or try later",
                )
        if bots and client is not None:
            running = self._bot_seats_of(client)
            if running + len(bots) > self.settings.max_bot_seats:
                raise DomainError(
                    "too_many_bots",
                    f"you have {running} bot seats at running tables; at most "
                    f"{self.settings.max_bot_seats} at once",
                )
        record = self.new_record(game, players, normal, bots)
        record.settings = chosen
        record.creator_hash = creator_hash
        return await self.open_new(record, client)

    def new_record(
        self, game: str, players: int, setup: dict[str, Any], bots: Mapping[int, str]
    ) -> TableRecord:
        """A new table's record: a fresh id and seed, bot seats taken (``setup`` checked
        by :meth:`check_new`)."""
        return new_record(_new_id(), game, players, setup, _new_seed(), bots, self.clock.now())

    async def open_new(self, record: TableRecord, client: str | None = None) -> LiveTable:
        """Store a new table's ``record`` and run it here: owned (several processes), held
        in memory, its turns scheduled. Tables made elsewhere in the domain (matchmaking)
        open through here, as :meth:`create`'s do."""
        await self._write(self.store.insert(record), record.id)
        table = LiveTable(record)
        table.client = client
        table.person_seen = table.touched = self.clock.monotonic()
        if self.peers is not None:
            await self._own_new(table)
            self._lobby.clear()
        self._hold(table)
        self.turns.schedule(table)
        return table

    async def _own_new(self, table: LiveTable) -> None:
        assert self.peers is not None
        try:
            await self.peers.own_new(table)
        except StoreUnavailable:
            table.owned = False  # stored but not leased: the first to ask takes it over

    def _bot_seats_of(self, client: str) -> int:
        return sum(
            sum(1 for s in t.seats if s.bot is not None)
            for t in self.tables.values()
            if t.client == client and t.status in ("waiting", "playing")
        )

    async def lobby(self, game: str | None = None) -> list[dict[str, Any]]:
        """Tables of ``game`` waiting for players, newest first: from memory in one process,
        from the database (reused for a second) with several.

        One game a list: a lobby that offers only Odin must never show another game's table
        as if it were Odin's, and one game's tables cannot push another's out of the list.
        """
        try:
            game = game or default_key()
            rules_of(game)
        except SetupError as error:
            raise DomainError("bad_game", str(error)) from None
        if self.peers is None:
            return self.open_tables(game)
        now = self.clock.monotonic()
        cached = self._lobby.get(game)
        if cached is not None and now - cached[0] < LOBBY_SECONDS:
            return cached[1]
        since = self.clock.now() - timedelta(seconds=self.settings.waiting_expiry)
        try:
            records = await self.store.waiting(game, since, OPEN_LIMIT)
        except StoreUnavailable:
            raise _unavailable() from None
        tables = [self._listed(record) for record in records if listed(record.settings)]
        self._lobby[game] = (now, tables)
        return tables

    def _listed(self, record: TableRecord) -> dict[str, Any]:
        """A waiting table read from the database, as the lobby lists it (presence as
        this process knows it, when it holds the table)."""
        held = self.tables.get(record.id)
        if held is not None and held.status == "waiting":
            return held.to_api()
        view = api_of(record)
        seen = self.peers.lobby.get(record.id) if self.peers is not None else None
        if seen is not None and len(seen) == len(view["seats"]):  # as its owner told
            for seat, state in zip(view["seats"], seen, strict=True):
                if seat["name"] is not None and state is not None:
                    seat["presence"] = state
        closes = record.created + timedelta(seconds=self.settings.waiting_expiry)
        view["closes_at"] = closes.isoformat()
        return view

    def open_tables(self, game: str | None = None) -> list[dict[str, Any]]:
        """Tables of ``game`` (default: the default game) waiting for players, newest first;
        abandoned ones have expired."""
        game = game or default_key()
        since = self.clock.now() - timedelta(seconds=self.settings.waiting_expiry)
        waiting = [
            t
            for t in self.tables.values()
            if t.status == "waiting"
            and t.game_key == game
            and t.created > since
            and listed(t.settings)
        ]
        waiting.sort(key=lambda t: t.created, reverse=True)
        return [t.to_api() for t in waiting[:OPEN_LIMIT]]

    async def mine(self, tokens: list[str]) -> list[dict[str, Any]]:
        hashes = [hash_token(t) for t in tokens]
        if not hashes:
            return []
        try:
            found = await self.store.tables_of(hashes, MINE_LIMIT)
        except StoreUnavailable:
            raise _unavailable() from None
        tables = []
        for table_id in found:
            try:
                tables.append(turn_entry(await self.get(table_id), hashes))
            except DomainError as error:
                if error.code == "unavailable":
                    raise
        return my_turns_first(tables)

    async def take_seat(
        self, table: LiveTable, seat: int, name: str, holder: SeatHolder | None = None
    ) -> str:
        """Seat a person (``holder``: the account that holds the seat, whose name it
        shows); return the seat's token (shown once; only its hash is kept).

        With several processes the seat is given by the table's owner; the token is made
        here and only its hash travels."""
        name = clean_name(name if holder is None else holder.name)
        if not 0 <= seat < table.players:
            raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
        check_open(table)
        token = secrets.token_urlsafe(32)
        digest = hash_token(token)
        retried = False
        while self.peers is not None and not table.owned:
            request = {"op": "seat", "seat": seat, "name": name, "hash": digest}
            if holder is not None:
                request["account_id"], request["account"] = holder.account_id, holder.name
            answer = await self.peers.route(table, request)
            if answer is None:
                break  # this process owns the table now
            if "error" not in answer or (
                # an earlier try got through; its answer was lost
                answer["error"] == "taken" and await self._seated(table, seat, digest)
            ):
                self._learn_seat(table, seat, name, digest, holder)
                return token
            if answer["error"] != "unavailable" or retried:
                raise DomainError(str(answer["error"]), str(answer["message"]))
            retried = True
        try:
            await self.seat_here(table, seat, name, digest, holder)
        except NotOwner:
            raise _unavailable() from None
        return token

    def _learn_seat(
        self, table: LiveTable, seat: int, name: str, digest: str, holder: SeatHolder | None
    ) -> None:
        """The owner gave the seat: this replica knows it at once, since the player's
        ``hello`` with its token may come before the owner's fan-out does."""
        mine = table.seats[seat]
        if not mine.taken:
            mine.name, mine.token_hash = name, digest
            if holder is not None:
                mine.account_id, mine.account = holder.account_id, holder.name

    async def _seated(self, table: LiveTable, seat: int, digest: str) -> bool:
        stored = await self._read_back(table.id)
        return stored is not None and stored.table.seats[seat].token_hash == digest

    async def seat_here(
        self,
        table: LiveTable,
        seat: int,
        name: str,
        digest: str,
        holder: SeatHolder | None = None,
    ) -> None:
        """Give the seat to ``name`` with the token hash ``digest`` (this process owns it),
        held by ``holder``'s account if any."""
        async with table.lock:
            if not table.owned:
                raise NotOwner(table.id)
            if not 0 <= seat < table.players:
                raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
            if table.status == "expired":
                raise DomainError("expired", "nobody joined this table for too long; it closed")
            if table.seats[seat].token_hash == digest:
                return  # an earlier try of this request seated them (its answer was lost)
            check_seat_open(table, seat)
            if table.seats[seat].taken:
                raise DomainError("taken", f"seat {seat} is taken")
            starts = all(s.taken for s in table.seats if s.seat != seat)
            try:
                await self._write(
                    self.store.take_seat(
                        table.id,
                        seat,
                        name,
                        digest,
                        starts,
                        None if holder is None else holder.account_id,
                    ),
                    table.id,
                    lambda stored: stored.table.seats[seat].token_hash == digest,
                )
            except SeatTaken:
                raise DomainError("taken", f"seat {seat} is taken") from None
            table.seats[seat].name = name
            table.seats[seat].token_hash = digest
            if holder is not None:
                table.seats[seat].account_id = holder.account_id
                table.seats[seat].account = holder.name
            if starts:
                table.status = "playing"
            self.presence.update(table)  # a new person: offline until they connect
            self._announce(table)
            if starts:
                self._broadcast(table, table.version)
                self.turns.schedule(table)

    async def start_following(self, table: LiveTable, plan: list[SeatPlan]) -> LiveTable:
        """Start the next game of ``table`` with the seats of ``plan`` (:mod:`.rematch`;
        the caller owns the table and holds its lock): a new table, playing at once or
        waiting for its open seats."""
        bots = {seat: bot for seat, (_, bot, _) in enumerate(plan) if bot is not None}
        record = new_record(
            _new_id(),
            table.game_key,
            table.players,
            table.setup,
            _new_seed(),
            bots,
            self.clock.now(),
        )
        record.settings = dict(table.settings)
        record.previous_table = table.id
        for stored, before, (name, _, token_hash) in zip(
            record.seats, table.seats, plan, strict=True
        ):
            if name is not None:
                stored.name, stored.token_hash = name, token_hash
                if before.token_hash == token_hash:  # the same person: the same account
                    stored.account_id, stored.account = before.account_id, before.account
        if all(s.name is not None or s.bot is not None for s in record.seats):
            record.status = "playing"
        await self._write(self.store.insert_following(table.to_record(), record), record.id)
        following = LiveTable(record)
        following.client = table.client
        following.person_seen = following.touched = self.clock.monotonic()
        if self.peers is not None:
            await self._own_new(following)
            self._lobby.clear()
        table.next_table = following.id
        self._hold(following)
        self._announce(table)
        self.turns.schedule(following)
        return following

    # --------------------------------------------------------------- play

    async def hello(
        self, session: Session, table: LiveTable, token: str | None, version: int | None
    ) -> None:
        """Subscribe to ``table`` as the token's seat (or a spectator); send its state."""
        async with table.lock:
            seat = None
            if token is not None:
                seat = table.seat_of(token)
                if seat is None:
                    raise DomainError("unauthorized", "this token holds no seat at this table")
            session.seat = seat
            self.sessions.join(table.id, session)
            if table.id not in self.tables:  # it left memory since it was looked up
                self._hold(table)
                if self.peers is not None:  # and stopped following its owner's log
                    await self.peers.follow(table)
                    with contextlib.suppress(StoreUnavailable):
                        await self.peers._catch_up(table)
            if seat is not None:
                table.person_seen = self.clock.monotonic()
            session.send(Welcome(seat, table.to_api()))
            resync = version is None or version > table.version
            since = 0 if resync or version is None else version
            session.send(Update(table.version, table.events_json(since), table.state(seat), resync))
            session.version = table.version
            self.presence.joined(table, session)  # after its welcome: others are told
            await self.chat.welcome(table, session)
            await self.rematches.welcome(table, session)
            self.stand_ins.greet(session, table)
            self.turns.schedule(table)  # a paused table resumes when someone comes
            if self.peers is not None:
                self.peers.presence(table)

    def leave(self, table: LiveTable, session: Session) -> None:
        """``session`` is gone; a table nobody watches stops asking for bot moves."""
        self.sessions.leave(table.id, session)
        self.presence.left(table, session)
        if session.seat is not None:
            table.person_seen = self.clock.monotonic()
        table.touched = self.clock.monotonic()
        if self.peers is not None:
            self.peers.presence(table)
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
        """Check, store, apply, acknowledge and broadcast one action; the version after it.

        With several processes an action at a replica goes to the table's owner."""
        while True:
            if self.peers is not None and not table.owned:
                after = await self.peers.act(table, seat, text, version, client_id, reply)
                if after is not None:
                    return after
            try:
                return await self.act_here(table, seat, text, version, client_id, reply)
            except NotOwner:
                if self.peers is None:
                    raise _unavailable(client_id) from None

    async def _bot_act(
        self, table: LiveTable, seat: int, text: str, version: int, client_id: None
    ) -> int:
        """A bot's move: played only by the table's owner (a replica's bot work is moot).
        A person's seat that a bot took logs its moves ``by`` that bot."""
        by = None if table.seats[seat].bot is not None else BOT
        try:
            return await self.act_here(table, seat, text, version, client_id, by=by)
        except NotOwner:
            return table.version

    async def act_here(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        reply: Session | None = None,
        by: str | None = None,
    ) -> int:
        """:meth:`act` in the process that owns the table (:class:`NotOwner` otherwise);
        ``by`` says who made the move for the seat (``LoggedAction.by``)."""
        started = self.clock.monotonic()
        async with table.lock:
            if not table.owned:
                raise NotOwner(table.id)
            await self._settle(table, client_id)
            if client_id is not None and client_id in table.client_ids:
                owner, after = table.client_ids[client_id]
                if owner != seat:
                    raise DomainError("malformed", "this id was used by another seat", client_id)
                if reply is not None:
                    reply.send(Ack(client_id, after))
                return after
            game = table.game
            if table.status == "waiting":
                raise DomainError(
                    "not_started", "the game starts when every seat is taken", client_id
                )
            if game.is_over:
                raise DomainError("game_over", "the game is over", client_id)
            if version != table.version:
                raise DomainError(
                    "stale",
                    f"the table is at version {table.version}, not {version}: update first",
                    client_id,
                )
            mover = game.current_player
            if seat != mover:
                who = (
                    table.seats[mover].display(table.game_key) if mover is not None else ""
                ) or f"seat {mover}"
                raise DomainError("not_your_turn", f"it is {who}'s turn", client_id)
            if by is None and table.seats[seat].bot is None and table.bot_at(seat) is not None:
                raise DomainError(
                    "not_your_turn", "a bot plays your seat: take it back to play", client_id
                )
            try:
                action = game.parse(text)
            except ActionError as error:
                raise DomainError("malformed", str(error), client_id) from None
            trial = game.clone()
            try:
                trial.apply(action, seat=seat)
            except ActionError as error:
                raise DomainError("illegal", str(error), client_id) from None
            entry = LoggedAction(
                game.action_count, seat, action.text, client_id, self.clock.now(), by
            )
            try:
                await self.events.append(table.id, entry, trial.is_over, table.fence)
            except Fenced:
                assert self.peers is not None
                self.peers.fenced(table)
                raise NotOwner(table.id) from None
            except Exception as error:
                if isinstance(error, asyncio.CancelledError):
                    raise
                # The outcome is unknown (or the store says no): the log itself decides.
                log.warning(
                    "table %s: storing action %d failed (%s); reading it back",
                    table.id,
                    entry.number,
                    type(error).__name__,
                )
                table.pending = entry
                await self._settle(table, client_id, reply)
                if len(table.actions) <= entry.number:
                    raise _unavailable(client_id) from None
                if client_id is None:
                    return table.version
                if client_id not in table.client_ids:
                    raise DomainError(
                        "stale", "the table moved on: update first", client_id
                    ) from None
                return table.client_ids[client_id][1]
            self._apply(table, entry, trial, reply)
            self.metrics.action_applied(table.game_key, self.clock.monotonic() - started)
            return table.version

    async def _settle(
        self, table: LiveTable, client_id: str | None, reply: Session | None = None
    ) -> None:
        """Settle an action whose commit's outcome is unknown, by reading the log back.

        Stored: it is applied and broadcast as if the commit had answered. Not stored: it
        is forgotten (its sender was refused). Unreadable now: ``unavailable``, and the
        table stays as it is until a later try settles it. ``reply`` is acknowledged if
        the settled action is its own (``client_id``).
        """
        entry = table.pending
        if entry is None:
            return
        try:
            stored = await self.events.read_back(table.id, entry.number)
        except Exception as error:
            if isinstance(error, asyncio.CancelledError):
                raise
            log.warning("table %s: action %d not settled yet", table.id, entry.number)
            raise _unavailable(client_id) from None
        table.pending = None
        if stored is None:
            log.info("table %s: action %d was not stored; refused", table.id, entry.number)
            return
        trial = table.game.clone()
        trial.apply(stored.action, seat=stored.seat)
        mine = client_id is not None and stored.client_id == client_id
        self._apply(table, stored, trial, reply if mine else None)
        log.info("table %s: action %d was stored; applied", table.id, entry.number)

    def _apply(
        self, table: LiveTable, entry: LoggedAction, after: Any, reply: Session | None
    ) -> None:
        """Make the stored ``entry`` (already applied to ``after``) the table's move:
        acknowledge it to ``reply`` (before its update), broadcast, go on."""
        since = table.version
        table.game = after
        table.actions.append(entry.action)
        table.stamps.append(Stamp(entry.seat, entry.created, entry.by))
        table.add_events(since)
        if entry.client_id is not None:
            table.client_ids[entry.client_id] = (entry.seat, table.version)
            if reply is not None:
                reply.send(Ack(entry.client_id, table.version))
        if self.peers is not None:
            self.peers.bus.publish(table.id, entry_message(self.peers.me, entry, after.is_over))
        self._broadcast(table, since)
        if after.is_over:
            table.status = "finished"
            self._announce(table)
            self.turns.forget(table)
            self._hold(table)
            for hook in self.on_finished:
                hook(table)
        self.turns.schedule(table)

    def _broadcast(self, table: LiveTable, since: int) -> None:
        """Send every session of ``table`` the events after ``since`` and its state."""
        listeners = self.sessions.at(table.id)
        if not listeners:
            return
        version = table.version
        shared = table.events_json(since)
        make = table.states()
        states: dict[int | None, str] = {}
        for session in listeners:
            if session.seat not in states:
                states[session.seat] = make(session.seat)
            events = shared if session.version == since else table.events_json(session.version)
            session.send(Update(version, events, states[session.seat]))
            session.version = version
        self.stand_ins.announce(table)

    def _announce(self, table: LiveTable) -> None:
        self._lobby.clear()  # the lobby is read again (it may list this table)
        text = encode(TableShown(table.to_api()))
        for session in self.sessions.at(table.id):
            session.send_text(text)
        self.stand_ins.announce(table)
        if self.peers is not None and table.owned:
            self.peers.bus.publish(table.id, _record_message(table))

    # ------------------------------------------------------- replicas (cluster)

    def follow(self, table: LiveTable, entry: LoggedAction) -> None:
        """A replica applies its owner's logged ``entry`` (the next one) and shows it to
        its own connections, each its own view."""
        since = table.version
        table.record_action(entry)
        table.moved.set()
        table.moved = asyncio.Event()
        if self.peers is not None:
            self.peers.acknowledge(table, entry)
        self._broadcast(table, since)
        if table.game.is_over and table.status != "finished":
            table.status = "finished"
            self._announce(table)
            self._hold(table)

    def apply_record(self, table: LiveTable, message: Mapping[str, Any]) -> None:
        """A replica takes the owner's change of seats, status or next game."""
        starts = table.status == "waiting" and message.get("status") == "playing"
        for seat in message.get("seats", ()):
            mine = table.seats[int(seat["seat"])]
            mine.name, mine.bot, mine.token_hash = seat["name"], seat["bot"], seat["token_hash"]
            mine.locked = bool(seat.get("locked", False))
            mine.account_id, mine.account = seat.get("account_id"), seat.get("account")
        if "status" in message and table.status != "finished":
            table.status = str(message["status"])
        if message.get("next_table") is not None:
            table.next_table = str(message["next_table"])
        if isinstance(message.get("clock"), dict):
            table.clock = dict(message["clock"])
        if isinstance(message.get("votes"), dict):
            table.votes = {int(s): {int(v) for v in vs} for s, vs in message["votes"].items()}
        self._announce(table)
        if starts:
            self._broadcast(table, table.version)
        if table.status in ("expired", "cancelled"):
            self.drop(table)

    async def refresh_record(self, table: LiveTable) -> None:
        """Seats, status and next game as stored (a table being taken over)."""
        stored = await self.store.load(table.id)
        if stored is None:
            raise _not_found()
        record = stored.table
        self.apply_record(
            table,
            {
                "seats": [
                    {
                        "seat": s.seat,
                        "name": s.name,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                        "locked": s.locked,
                        "account_id": s.account_id,
                        "account": s.account,
                    }
                    for s in record.seats
                ],
                "status": record.status if not table.game.is_over else "finished",
                "next_table": record.next_table,
                "clock": record.clock,
            },
        )

    def _presence_changed(self, table: LiveTable) -> None:
        """Presence changed: the lobby reads it again; the owner shows it to its replicas,
        a replica tells the owner about its own connections."""
        self._lobby.clear()
        if self.peers is not None:
            if table.owned:
                self.peers.shown(table)
            else:
                self.peers.presence(table)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _record_message(table: LiveTable) -> dict[str, Any]:
    """The bus message that carries a table's seats (token hashes too: replicas check
    ``hello`` tokens), status and next game to its replicas."""
    return {
        "kind": "table",
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "token_hash": s.token_hash,
                "locked": s.locked,
                "account_id": s.account_id,
                "account": s.account,
            }
            for s in table.seats
        ],
        "status": table.status,
        "next_table": table.next_table,
        "clock": table.clock,
        "votes": {str(seat): sorted(voters) for seat, voters in table.votes.items()},
    }


def _new_id() -> str:
    return secrets.token_urlsafe(6)


def _new_seed() -> int:
    return secrets.randbits(63)
