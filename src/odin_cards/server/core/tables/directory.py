"""The tables this process holds: loading (one load per table), the cache, expiry, lobby.

Each table's game is rebuilt from its stored definition and log (through the game
contract) when it is first needed, so a killed server resumes every table exactly; a
table whose log does not replay is marked ``broken`` with its reason, never dropped in
silence. Running tables stay in memory; finished ones while recently used (an LRU of
``finished_in_memory``, never one with a connection). A waiting table nobody completes
expires after ``waiting_expiry``. New tables are made here (checked against the game's
rules, bot levels and limits, and the server's limits) and owned by this process.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping
from datetime import datetime, timedelta
from typing import Any

from odin_cards.contract import SetupError
from odin_cards.games import default_key, plugin_of, rules_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.access import listed, visibility
from odin_cards.server.core.features.bot_work import BotWork
from odin_cards.server.core.features.chat import chat_settings
from odin_cards.server.core.features.clocks import normalize
from odin_cards.server.core.features.hints import hints_setting
from odin_cards.server.core.features.rematch import SeatPlan
from odin_cards.server.core.people.ratings import rated_setting
from odin_cards.server.core.ports import (
    Clock,
    Metrics,
    StoredTable,
    StoreUnavailable,
    TableRecord,
    TableStore,
)
from odin_cards.server.core.tables.bot_turns import BotTurns
from odin_cards.server.core.tables.fanout import FanOut
from odin_cards.server.core.tables.ownership import Ownership
from odin_cards.server.core.tables.presenters import presenter_of
from odin_cards.server.core.tables.sessions import Sessions
from odin_cards.server.core.tables.table import LiveTable, ReplayError, hash_token, new_record
from odin_cards.server.core.tables.turns import my_turns_first, turn_entry
from odin_cards.server.core.tables.writes import StoreWrites, unavailable
from odin_cards.server.settings import Settings

log = logging.getLogger(__name__)

MINE_LIMIT = 50
OPEN_LIMIT = 100
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def not_found() -> DomainError:
    return DomainError("not_found", "there is no such table")


def _broken(table_id: str) -> DomainError:
    return DomainError(
        "broken", f"table {table_id} cannot be restored from its log; it is kept aside"
    )


class Directory:
    """Every table of this process in memory (finished ones while recently used)."""

    def __init__(
        self,
        store: TableStore,
        writes: StoreWrites,
        ownership: Ownership,
        sessions: Sessions,
        fanout: FanOut,
        turns: BotTurns,
        clock: Clock,
        settings: Settings,
        metrics: Metrics,
        bot_work: BotWork,
    ) -> None:
        self.store = store
        self.writes = writes
        self.ownership = ownership
        self.sessions = sessions
        self.fanout = fanout
        self.turns = turns
        self.clock = clock
        self.settings = settings
        self.metrics = metrics
        self.bot_work = bot_work
        self.tables: dict[str, LiveTable] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()
        """Finished tables in memory, least recently used first (evicted beyond the cap)."""
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        """Tables being loaded from the store, by id."""
        self.touched: dict[str, float] = {}
        """Monotonic time each table was last asked for (replicas nobody uses are dropped)."""
        self.on_drop: list[Callable[[str], None]] = []
        """Called when a table leaves memory: whatever is kept about it by id goes too."""
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ loading

    async def start(self) -> None:
        """Expire abandoned waiting tables; take up the others (``Ownership.start``)."""
        since = self.clock.now() - timedelta(seconds=self.settings.waiting_expiry)
        expired = await self.store.expire_waiting(since)
        log.info("%d waiting tables expired", len(expired))
        await self.ownership.start(self._resume)
        self.spawn(self._expire_periodically())

    async def _resume(self) -> None:
        """Rebuild every running table (one process); bots to move carry on."""
        since = self.clock.now() - timedelta(seconds=self.settings.waiting_expiry)
        for stored in await self.store.load_resumable(since):
            table = await self._rebuild(stored)
            if table is not None:
                self.hold(table)
                self.turns.schedule(table)
        broken = await self.store.broken()
        if broken:
            log.error("%d tables broken; `odin tables broken` lists them", len(broken))
        log.info("resumed %d tables", len(self.tables))

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in a task of its own, cancelled when the server stops."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def get(self, table_id: str) -> LiveTable:
        """The table ``table_id``, loaded from the store when not in memory.

        Raises ``not_found``, ``broken`` (its log does not replay) or ``unavailable``.
        """
        table = self.tables.get(table_id)
        if table is None:
            if not TABLE_ID.fullmatch(table_id):
                raise not_found()
            loading = self._loading.get(table_id)
            if loading is None:  # one load per table, however many ask at once
                loading = self._loading[table_id] = asyncio.ensure_future(
                    self.ownership.load(table_id, lambda: self._load(table_id))
                )
                loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
            table = await asyncio.shield(loading)
        if table.status == "broken":
            raise _broken(table_id)
        if table.id in self._finished:
            self._finished.move_to_end(table.id)
        self.touched[table.id] = self.clock.monotonic()
        return table

    def loading(self, table_id: str) -> asyncio.Future[LiveTable] | None:
        """The load of ``table_id`` under way, if any."""
        return self._loading.get(table_id)

    async def get_current(self, table_id: str) -> LiveTable:
        """The table as its log has it now, for an answer that depends on whether its game
        is over (its record, its analysis): a player who saw the game end never hears
        "still running" from another process (``Ownership.current``)."""
        table = await self.get(table_id)
        if table.status in ("playing", "finished") and not table.game.is_over:
            await self.ownership.current(table)
        return table

    async def _load(self, table_id: str) -> LiveTable:
        try:
            stored = await self.store.load(table_id)
        except StoreUnavailable:
            raise unavailable() from None
        if stored is None:
            raise not_found()
        if stored.table.status == "broken":
            raise _broken(table_id)
        table = await self._rebuild(stored)
        if table is None:
            raise _broken(table_id)
        self.touched[table.id] = self.clock.monotonic()
        self.hold(table)
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
        self.turns.saw_person(table)
        if table.status == "finished" and stored.table.status != "finished":
            await self.writes.status(table.id, "finished")
        return table

    def holds(self, table: LiveTable) -> bool:
        """Whether ``table`` is the one this process holds under its id."""
        return self.tables.get(table.id) is table

    def hold(self, table: LiveTable) -> None:
        """Keep ``table`` in memory; finished ones join the LRU and may push others out."""
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
            if table_id in self.sessions:
                continue
            del self._finished[table_id]
            self.drop(self.tables[table_id])
            excess -= 1

    def drop(self, table: LiveTable) -> None:
        """The table leaves memory (its lease, if any, is released)."""
        if self.tables.pop(table.id, None) is not None:
            self.metrics.table_evicted()
        self._finished.pop(table.id, None)
        self.touched.pop(table.id, None)
        for hook in self.on_drop:
            hook(table.id)
        self.ownership.dropped(table)

    def closes(self, table: LiveTable) -> datetime | None:
        """When ``table`` closes if it still waits for players then."""
        if table.status != "waiting":
            return None
        return table.created + timedelta(seconds=self.settings.waiting_expiry)

    # ------------------------------------------------------------ expiry

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
                self.fanout.announce(table)
                self.drop(table)
            else:
                self.ownership.expired(table_id)
        return ids

    # ------------------------------------------------------------ new tables

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
        account: str | None = None,
    ) -> LiveTable:
        """A new table: bot seats taken, the others free (``waiting`` until all are).
        ``table_settings`` (``TableRecord.settings``) is normalized by each key's module.
        Its bot seats draw on the bot work of ``client`` (an address's quota key) and of
        the creator's ``account``."""
        game = game or default_key()
        normal = self.check_new(game, players, bots, setup)
        chosen = dict(table_settings or {})
        chosen["chat"] = chat_settings(chosen.get("chat"))
        chosen["clock"] = normalize(chosen.get("clock"))
        chosen["visibility"] = visibility(chosen.get("visibility"))
        chosen["rated"] = rated_setting(chosen.get("rated"), game, players - len(bots))
        chosen["hints"] = hints_setting(chosen.get("hints"), chosen["rated"])
        if bots and client is not None:
            running = self._bot_seats_of(client)
            if running + len(bots) > self.settings.max_bot_seats:
                raise DomainError(
                    "too_many_bots",
                    f"you have {running} bot seats at running tables; at most "
                    f"{self.settings.max_bot_seats} at once",
                )
        if bots and (client is not None or account is not None):
            self.bot_work.seats(len(bots), client, account)
        if len(bots) < players:
            await self._room_to_wait(client)
        record = self.new_record(game, players, normal, bots)
        record.settings = chosen
        record.creator_hash = creator_hash
        return await self.open_new(record, client)

    async def _room_to_wait(self, client: str | None) -> None:
        """Make room for one more waiting table of ``client``, or say why there is none.

        One client (a quota key: an address, an IPv6 /64) may hold
        ``waiting_tables_per_address`` waiting tables at once. When the server's
        ``max_waiting_tables`` are reached, an abandoned one (nobody connected) is given
        up (``expired``), of the client holding the most, its oldest first, so that
        nobody can fill the server and lock everyone else out."""
        waiting = [t for t in self.tables.values() if t.status == "waiting"]
        share = self.settings.waiting_tables_per_address
        if client is not None and sum(1 for t in waiting if t.client == client) >= share:
            raise DomainError(
                "rate_limited",
                f"at most {share} of your tables may wait for players at once; "
                "cancel one, or wait until people join them",
            )
        if len(waiting) < self.settings.max_waiting_tables:
            return
        held: dict[str | None, int] = {}
        for table in waiting:
            held[table.client] = held.get(table.client, 0) + 1
        abandoned = [
            t
            for t in waiting
            if self.ownership.owns(t)
            and t.id not in self.sessions
            and not self.ownership.elsewhere(t)[1]
        ]
        abandoned.sort(key=lambda t: (-held[t.client], t.created, t.id))
        for table in abandoned:
            if await self._give_up(table):
                return
        raise DomainError(
            "too_many_tables", "too many tables are waiting for players; join one or try later"
        )

    async def _give_up(self, table: LiveTable) -> bool:
        """Close an abandoned waiting table (``expired``) to make room; whether it was."""
        async with table.lock:
            if table.status != "waiting" or not self.ownership.owns(table):
                return False
            try:
                await self.writes.write(self.store.set_status(table.id, "expired"), table.id)
            except DomainError:
                return False
            table.status = "expired"
            log.info("waiting table %s given up to make room for a new one", table.id)
            self.fanout.announce(table)
            self.drop(table)
            return True

    def new_record(
        self, game: str, players: int, setup: dict[str, Any], bots: Mapping[int, str]
    ) -> TableRecord:
        """A new table's record: a fresh id and seed, bot seats taken (``setup`` checked
        by :meth:`check_new`)."""
        return new_record(_new_id(), game, players, setup, _new_seed(), bots, self.clock.now())

    async def open_new(self, record: TableRecord, client: str | None = None) -> LiveTable:
        """Store a new table's ``record`` and run it here: owned, held in memory, its turns
        scheduled. Tables made elsewhere in the core (matchmaking) open through here, as
        :meth:`create`'s do."""
        await self.writes.write(self.store.insert(record), record.id)
        return await self._opened(LiveTable(record, client))

    async def _opened(self, table: LiveTable) -> LiveTable:
        self.touched[table.id] = self.clock.monotonic()
        self.turns.saw_person(table)
        await self.ownership.opened(table)
        self.hold(table)
        self.turns.schedule(table)
        return table

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
        await self.writes.write(self.store.insert_following(table.to_record(), record), record.id)
        following = await self._opened(LiveTable(record, table.client))
        table.next_table = following.id
        self.fanout.announce(table)
        return following

    def _bot_seats_of(self, client: str) -> int:
        return sum(
            sum(1 for s in t.seats if s.bot is not None)
            for t in self.tables.values()
            if t.client == client and t.status in ("waiting", "playing")
        )

    # ------------------------------------------------------------ lists

    async def lobby(self, game: str | None = None) -> list[dict[str, Any]]:
        """Tables of ``game`` waiting for players, newest first (``Ownership.lobby``: from
        memory in one process, from the database with several).

        One game a list: a lobby that offers only Odin must never show another game's table
        as if it were Odin's, and one game's tables cannot push another's out of the list.
        """
        try:
            game = game or default_key()
            rules_of(game)
        except SetupError as error:
            raise DomainError("bad_game", str(error)) from None
        chosen = game
        return await self.ownership.lobby(game, lambda: self.open_tables(chosen))

    def open_tables(self, game: str | None = None) -> list[dict[str, Any]]:
        """Tables of ``game`` (default: the default game) waiting for players that this
        process holds, newest first; abandoned ones have expired."""
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
        return [self.fanout.view(t) for t in waiting[:OPEN_LIMIT]]

    async def mine(self, tokens: list[str]) -> list[dict[str, Any]]:
        """The tables where these seat tokens sit, those waiting on them first."""
        hashes = [hash_token(t) for t in tokens]
        if not hashes:
            return []
        try:
            found = await self.store.tables_of(hashes, MINE_LIMIT)
        except StoreUnavailable:
            raise unavailable() from None
        tables = []
        for table_id in found:
            try:
                table = await self.get(table_id)
            except DomainError as error:
                if error.code == "unavailable":
                    raise
                continue
            tables.append(turn_entry(table, self.fanout.view(table), hashes))
        return my_turns_first(tables)


def _new_id() -> str:
    return secrets.token_urlsafe(6)


def _new_seed() -> int:
    return secrets.randbits(63)
