"""Several server processes: who owns a table, commands to the owner, takeover, hand-over.

Every process may hold any table in memory. The process holding the table's lease (a
fencing token in the database, :class:`~..ports.LeaseStore`) *owns* it: it alone applies
actions, takes seats, starts the next game and runs the bots. Every other process holding
the table keeps a *replica* that follows the owner's log (:mod:`.replicas`). A command
asked of a replica goes to the owner through the :class:`~..ports.Router` and its answer
comes back, by the one retry rule of :mod:`.ownership`; the owner runs it with the handler
registered for its type.

Failover: every process scans for running tables without a live owner (a dead heartbeat
or a released lease) and takes them over: lease first (the fencing token moves on, so the
old owner can never write again), then the log is read and the bots carry on. A process
that finds its own heartbeat expired checks the tokens of all its tables and steps down
from those taken over. A graceful stop releases every lease at once and says so on the
bus, so that a follower takes the table over without waiting for the lease to expire.

Ownership follows the connections: a proxy sends all of a table's sockets to one process
(nginx's ``hash $table``), which is often not the process that created the table. An owner
with no connection at a table, while exactly one other process has them all, hands the
table to that process the same way (release to a named successor) once that has held for
:data:`HANDOVER_AFTER`; connections on both sides never make it change hands. A replica
nobody here uses stops following after :data:`~.replicas.REPLICA_IDLE`. So in the normal
case every action is applied where its connections are, and no other process spends
anything on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.access import listed
from odin_cards.server.core.features.seats import facts_of
from odin_cards.server.core.ports import (
    Bus,
    LeaseStore,
    LoggedAction,
    Metrics,
    Router,
    StoreUnavailable,
    TableRecord,
    TableStore,
)
from odin_cards.server.core.protocol.process import (
    ActionLogged,
    Answer,
    BusMessage,
    Command,
    Malformed,
    Moved,
    NewOwner,
    Refused,
    Released,
    TableFacts,
    decode_answer,
    decode_request,
    encode_answer,
    encode_bus,
    encode_request,
)
from odin_cards.server.core.tables.ownership import Commands, Listeners, NotOwner, unavailable
from odin_cards.server.core.tables.replicas import ReplicaContext, Replicas
from odin_cards.server.core.tables.table import LiveTable, api_of
from odin_cards.server.settings import Settings

log = logging.getLogger(__name__)

REQUEST_SECONDS = 2.0
"""How long a request waits for the owner's answer before it is sent again."""

RETRY_SECONDS = 0.1
"""Pause before asking again when a table has no reachable owner (yet)."""

HANDOVER_AFTER = 1.5
"""Seconds an owner without connections at a table waits, while one other process has
them all, before handing the table to it (a socket moving for a moment moves nothing)."""

ORPHANS_PER_SCAN = 200
"""Tables taken over at most per scan (spreading a dead owner's tables over the others)."""

OPEN_LIMIT = 100
"""Waiting tables a lobby lists at most."""

LOBBY_SECONDS = 1.0
"""How long the lobby's list of open tables read from the database is reused (each process
holds only some tables). A change this process makes or hears of reads it again at once;
another process's new table shows within this time."""


@dataclass(frozen=True, slots=True)
class ClusterPorts:
    """What several processes share: table leases (database) and messaging (Redis)."""

    leases: LeaseStore
    bus: Bus
    router: Router
    lease_seconds: float = 3.0


class ClusterContext(ReplicaContext, Protocol):
    """What owning tables among several processes needs of the core besides following:
    the table store (the lobby), settings and metrics, loading a table, reading its seats
    again, the log's catch-up under the lock, the bots' turns and presence reset."""

    store: TableStore
    settings: Settings
    metrics: Metrics

    async def get(self, table_id: str) -> LiveTable: ...

    async def catch_up(self, table: LiveTable) -> None: ...

    def unsettle(self, table: LiveTable) -> None: ...

    async def reread(self, table: LiveTable) -> None: ...

    def again(self, table: LiveTable) -> None: ...

    def forget_turn(self, table: LiveTable) -> None: ...

    def clear_remote_presence(self, table: LiveTable) -> None: ...

    def listed(self, table: LiveTable) -> dict[str, Any]: ...

    def closes_at(self, record: TableRecord) -> datetime: ...


class ClusteredOwnership:
    """This process among the others (see the module doc): an :class:`~.ownership.Ownership`."""

    def __init__(self, ports: ClusterPorts, context: ClusterContext) -> None:
        self.leases = ports.leases
        self.router = ports.router
        self.lease_seconds = ports.lease_seconds
        self.context = context
        self.me = ports.leases.owner
        self.commands = Commands()
        self.listeners = Listeners()
        self.replicas = Replicas(ports.bus, self.me, self.listeners, context, self.owns)
        self.fences: dict[str, int] = {}
        """The tables this process owns -> the fencing token of its lease."""
        self.owners: dict[str, str] = {}
        """Last known owner process of tables held here as replicas."""
        self.claiming: dict[str, asyncio.Task[bool]] = {}
        self.leaning: dict[str, tuple[str, float]] = {}
        """Owned tables whose connections are all at one other process -> (that process,
        since when), for :data:`HANDOVER_AFTER`."""
        self.handed: dict[str, float] = {}
        """Tables handed to another process -> monotonic time until which this process
        does not claim them back (their successor takes them first)."""
        self._draining = False
        self._random = random.Random()
        self._lobby: dict[str, tuple[float, list[dict[str, Any]]]] = {}
        """Each game's open tables read from the database, and when."""
        self.listeners.on(ActionLogged, self._heard_action)
        self.listeners.on(TableFacts, self._heard_facts)
        self.listeners.on(NewOwner, self._heard_owner)
        self.listeners.on(Released, self._heard_released)

    @property
    def draining(self) -> bool:
        return self._draining

    def owns(self, table: LiveTable) -> bool:
        return table.id in self.fences

    def fence(self, table: LiveTable) -> int | None:
        return self.fences.get(table.id)

    def held(self) -> int:
        return len(self.fences)

    # ------------------------------------------------------------ life

    async def start(self, resume: Callable[[], Awaitable[None]]) -> None:
        """Tables without a live owner are taken over (``resume`` is one process's way)."""
        await self.leases.renew()
        self.router.serve(self._serve)
        await self.replicas.start()
        await self._take_orphans()
        self.context.spawn(self._keep())

    async def hand_over(self) -> None:
        """Graceful stop: release every lease now (no action in flight) and say so."""
        self._draining = True
        for table in self._owned():
            async with table.lock:
                await self._release(table)
        try:
            await self.leases.stop()
        except StoreUnavailable:
            log.warning("this process's heartbeat could not be ended; its leases expire")

    def _owned(self) -> list[LiveTable]:
        return [t for t in self.context.held_tables() if self.owns(t)]

    async def _release(self, table: LiveTable, successor: str | None = None) -> None:
        """Give the lease up (the caller holds the table's lock, so no action is in flight)
        and say so: to ``successor`` alone if named, else to any follower."""
        token = self.fences.get(table.id)
        if token is None:
            return
        self._step_down(table, "released")
        try:
            await self.leases.release(table.id, token)
        except StoreUnavailable:
            log.warning("table %s: lease not released (store unavailable); it expires", table.id)
        self.replicas.publish(table, Released(self.me, successor))

    async def _release_quietly(self, table: LiveTable) -> None:
        async with table.lock:
            await self._release(table)

    # ------------------------------------------------------------ leases

    async def _keep(self) -> None:
        """Heartbeat, takeover of orphaned tables, hand-over, dropping unused replicas."""
        period = max(0.05, self.lease_seconds / 3)
        while not self._draining:
            await self.context.clock.sleep(period)
            if self._draining:  # a graceful stop ends the heartbeat: renewing would revive it
                return
            try:
                if not await self.leases.renew():
                    log.warning("this process's heartbeat had expired; checking its tables")
                    self.context.metrics.lease_changed("renewed-lost")
                    await self._verify(self._owned())
                await self._take_orphans()
            except StoreUnavailable as error:
                log.warning("leases not renewed now (%s); trying again", error)
            await self._follow_connections()
            self.replicas.drop_idle()
            self.replicas.check_quiet()

    async def _follow_connections(self) -> None:
        """Hand each owned table whose connections have all been at one other process for
        :data:`HANDOVER_AFTER` to that process."""
        now = self.context.clock.monotonic()
        self.handed = {table: until for table, until in self.handed.items() if until > now}
        for table in self._owned():
            successor = self.replicas.successor(table)
            if successor is None:
                self.leaning.pop(table.id, None)
                continue
            leaning = self.leaning.get(table.id)
            if leaning is None or leaning[0] != successor:
                self.leaning[table.id] = (successor, now)
            elif now - leaning[1] >= HANDOVER_AFTER and not self._draining:
                await self._hand_to(table, successor)

    async def _hand_to(self, table: LiveTable, successor: str) -> None:
        """Release ``table`` to ``successor``. An action applied before the release is in
        the log its successor reads; one asked after it is answered "moved" and sent again
        to the successor (its id makes a repeat harmless)."""
        async with table.lock:
            self.leaning.pop(table.id, None)
            if not self.owns(table) or self.replicas.successor(table) != successor:
                return
            self.handed[table.id] = self.context.clock.monotonic() + self.lease_seconds
            await self._release(table, successor)
        log.info("table %s: handed over to %s, where its connections are", table.id, successor)

    async def _take_orphans(self) -> None:
        since = self.context.clock.now() - timedelta(seconds=self.context.settings.waiting_expiry)
        orphans = await self.leases.orphans(since, ORPHANS_PER_SCAN)
        self._random.shuffle(orphans)  # processes scanning at once do not fight in order
        for table_id in orphans:
            if self._draining:
                return
            await self.claim(table_id)

    async def _verify(self, tables: list[LiveTable]) -> None:
        """Step down from every table whose lease is no longer this process's."""
        held = await self.leases.tokens([t.id for t in tables])
        for table in tables:
            token = self.fences.get(table.id)
            if token is not None and held.get(table.id) != (self.me, token):
                log.warning("table %s was taken over by another process; stepping down", table.id)
                self._step_down(table, "fenced")
                self.context.spawn(self.context.catch_up_quietly(table))

    def claim(self, table_id: str) -> asyncio.Task[bool]:
        """Take the table over if nobody alive owns it (one attempt per table at a time);
        the task answers whether this process owns it now."""
        task = self.claiming.get(table_id)
        if task is None:
            task = self.claiming[table_id] = asyncio.ensure_future(self._claim(table_id))
            task.add_done_callback(lambda _: self.claiming.pop(table_id, None))
        return task

    async def _claim(self, table_id: str) -> bool:
        held = self.context.held_table(table_id)
        if held is not None and self.owns(held):
            return True
        if self._draining or self.context.clock.monotonic() < self.handed.get(table_id, 0.0):
            return False
        try:
            token = await self.leases.acquire(table_id)
        except StoreUnavailable:
            return False
        if token is None:
            return False
        try:
            # The lease is ours before the log is read: whatever the old owner managed to
            # write is in it, and it can write nothing more. A load that begins now reads
            # everything stored under the old owner; a replica, or a load that began before
            # the lease, may lag behind and is brought up to date.
            fresh = held is None and self.context.loading(table_id) is None
            table = await self.context.get(table_id)
            async with table.lock:
                if not fresh:
                    await self.context.catch_up(table)
                    await self.context.reread(table)
                if table.status not in ("waiting", "playing", "finished"):
                    await self.leases.release(table_id, token)
                    return False
                self.fences[table_id] = token
                self.context.unsettle(table)
                self.context.again(table)
                self.replicas.forget(table_id)
                self.context.clear_remote_presence(table)
        except (DomainError, StoreUnavailable) as error:
            log.warning("table %s: taken over but not loaded (%s); releasing", table_id, error)
            with contextlib.suppress(StoreUnavailable):
                await self.leases.release(table_id, token)
            return False
        self.owners.pop(table_id, None)
        self.context.metrics.lease_changed("taken-over" if token > 1 else "acquired")
        log.info("table %s: this process owns it now (token %d)", table_id, token)
        self.replicas.publish(table, NewOwner(self.me))
        self.context.schedule(table)
        return True

    async def opened(self, table: LiveTable) -> None:
        """A table this process just created: it takes its lease and follows it (stored
        but not leased, the first process to ask takes it over)."""
        self._lobby.clear()
        try:
            await self.replicas.bus.follow(table.id)
            token = await self.leases.acquire(table.id)
        except StoreUnavailable:
            return
        if token is None:  # cannot happen to a new id; stay a replica if it does
            return
        self.fences[table.id] = token
        self.context.metrics.lease_changed("acquired")

    def _step_down(self, table: LiveTable, event: str) -> None:
        self.fences.pop(table.id, None)
        self.context.unsettle(table)
        self.replicas.forget(table.id)
        self.context.clear_remote_presence(table)
        self.leaning.pop(table.id, None)
        self.context.forget_turn(table)
        self.context.metrics.lease_changed(event)

    def fenced(self, table: LiveTable) -> None:
        """The log refused this process's write: another process owns the table now."""
        log.warning("table %s: write refused (lease moved on); stepping down", table.id)
        self._step_down(table, "fenced")
        self.context.spawn(self.context.catch_up_quietly(table))

    # ------------------------------------------------------------ holding tables

    async def load(self, table_id: str, read: Callable[[], Awaitable[LiveTable]]) -> LiveTable:
        """Follow the table's channel before it is read (no update is missed); a running
        table nobody alive owns is claimed, and its owner is told who is connected here."""
        await self.replicas.bus.follow(table_id)
        try:
            table = await read()
        except BaseException:
            self.forget(table_id)  # (an unknown id must not stay subscribed)
            raise
        if table.status in ("waiting", "playing"):
            self.claim(table_id)  # if nobody alive owns it
            self.replicas.report(table)  # its owner answers with what it shows
        return table

    async def rejoined(self, table: LiveTable) -> None:
        await self.replicas.bus.follow(table.id)  # it stopped following its owner's log
        with contextlib.suppress(StoreUnavailable):
            await self.context.catch_up(table)

    async def current(self, table: LiveTable) -> None:
        if self.owns(table):
            return
        try:
            async with table.lock:
                await self.context.catch_up(table)
        except StoreUnavailable:
            raise DomainError("unavailable", "the table cannot be read now") from None

    def forget(self, table_id: str) -> None:
        """Stop following the table (it left memory)."""
        self.replicas.bus.unfollow(table_id)
        self.owners.pop(table_id, None)
        self.leaning.pop(table_id, None)
        self.replicas.forget(table_id)

    def dropped(self, table: LiveTable) -> None:
        self.forget(table.id)
        if self.owns(table):
            self.context.spawn(self._release_quietly(table))

    def expired(self, table_id: str) -> None:
        self.replicas.bus.publish(table_id, encode_bus(TableFacts("expired")))

    # ------------------------------------------------------------ telling

    def publish(self, table: LiveTable, message: BusMessage) -> None:
        self.replicas.publish(table, message)

    def applied(self, table: LiveTable, entry: LoggedAction, finished: bool) -> None:
        self.replicas.publish(table, ActionLogged(self.me, entry, finished))

    def announced(self, table: LiveTable) -> None:
        self._lobby.clear()  # the lobby is read again (it may list this table)
        if self.owns(table):
            self.replicas.publish(table, facts_of(table))

    def connections_changed(self, table: LiveTable) -> None:
        self.replicas.report(table)

    def presence_changed(self, table: LiveTable) -> None:
        """The owner shows it to its replicas, a replica tells the owner about its own
        connections; the lobby is read again."""
        self._lobby.clear()
        if self.owns(table):
            self.replicas.shown(table)
        else:
            self.replicas.report(table)

    def elsewhere(self, table: LiveTable) -> tuple[int, int]:
        return self.replicas.elsewhere(table)

    # ------------------------------------------------------------ hearing

    async def _heard_action(self, table: LiveTable, message: ActionLogged) -> None:
        if self.owns(table) and message.owner != self.me:
            await self._verify([table])

    async def _heard_facts(self, table: LiveTable, facts: TableFacts) -> None:
        self._lobby.clear()
        if not self.owns(table) and facts.status == "finished" and not table.game.is_over:
            await self.context.catch_up_quietly(table)  # its last action's message was lost

    async def _heard_owner(self, table: LiveTable, message: NewOwner) -> None:
        if message.owner == self.me:
            return
        self.owners[table.id] = message.owner
        if self.owns(table):
            await self._verify([table])
        self.replicas.report(table)

    async def _heard_released(self, table: LiveTable, message: Released) -> None:
        self.owners.pop(table.id, None)
        running = table.status in ("waiting", "playing")
        mine = message.to in (None, self.me)  # (a named successor goes first)
        if running and mine and not self.owns(table) and message.owner != self.me:
            self.claim(table.id)  # at once: no need to wait for a scan

    # ------------------------------------------------------------ commands

    async def execute(self, table: LiveTable, command: Command) -> Answer:
        """Carry ``command`` out at the table's owner, by the retry rule of
        :mod:`.ownership`: here when this process owns the table, else sent to its owner."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.lease_seconds + 2 * REQUEST_SECONDS
        while True:
            if self.owns(table):
                with contextlib.suppress(NotOwner):  # it moved while this waited: ask again
                    return await self.commands.run(table, command)
            elif self._draining:
                raise unavailable()
            else:
                answer = await self._ask_owner(table, command)
                if isinstance(answer, Refused):
                    raise DomainError(answer.code, answer.message)
                if answer is not None:
                    return answer
            if loop.time() > deadline:
                raise unavailable()

    async def _ask_owner(self, table: LiveTable, command: Command) -> Answer | None:
        """One try at the table's owner: its answer, or ``None`` if none came (no owner
        alive yet, no answer in time, or it says the table moved: looked up again)."""
        owner = self.owners.get(table.id)
        if owner is None:
            try:
                owner = await self.leases.holder(table.id)
            except StoreUnavailable:
                owner = None
            if owner is None or owner == self.me:
                if not await self.claim(table.id):
                    await asyncio.sleep(RETRY_SECONDS)
                return None
            self.owners[table.id] = owner
        try:
            data = await self.router.request(
                owner, encode_request(table.id, command), REQUEST_SECONDS
            )
            answer = decode_answer(command, data)
        except (TimeoutError, Malformed):
            answer = Moved()
        if isinstance(answer, Moved):
            self.owners.pop(table.id, None)
            await asyncio.sleep(RETRY_SECONDS)
            return None
        return answer

    async def _serve(self, data: dict[str, Any]) -> dict[str, Any]:
        """Answer another process's command for a table this process owns."""
        try:
            table_id, command = decode_request(data)
        except Malformed as error:
            return encode_answer(Refused("malformed", str(error)))
        try:
            table = await self.context.get(table_id)
            if not self.owns(table) and not await self.claim(table.id):
                return encode_answer(Moved())
            return encode_answer(await self.commands.run(table, command))
        except NotOwner:
            return encode_answer(Moved())
        except DomainError as refusal:
            return encode_answer(Refused(refusal.code, refusal.message))

    # ------------------------------------------------------------ lobby

    async def lobby(
        self, game: str, here: Callable[[], list[dict[str, Any]]]
    ) -> list[dict[str, Any]]:
        """The waiting tables of ``game`` from the database (reused for a second), with
        presence as this process knows it."""
        now = self.context.clock.monotonic()
        cached = self._lobby.get(game)
        if cached is not None and now - cached[0] < LOBBY_SECONDS:
            return cached[1]
        since = self.context.clock.now() - timedelta(seconds=self.context.settings.waiting_expiry)
        try:
            records = await self.context.store.waiting(game, since, OPEN_LIMIT)
        except StoreUnavailable:
            raise DomainError("unavailable", "the server cannot read this now; try again") from None
        tables = [self._listed(record) for record in records if listed(record.settings)]
        self._lobby[game] = (now, tables)
        return tables

    def _listed(self, record: TableRecord) -> dict[str, Any]:
        """A waiting table read from the database, as the lobby lists it (presence as this
        process knows it, when it holds the table, else as its owner told every process)."""
        held = self.context.held_table(record.id)
        if held is not None and held.status == "waiting":
            return self.context.listed(held)
        view = api_of(record)
        seen = self.replicas.lobby.get(record.id)
        if seen is not None and len(seen) == len(view["seats"]):
            for seat, state in zip(view["seats"], seen, strict=True):
                if seat["name"] is not None and state is not None:
                    seat["presence"] = state
        view["closes_at"] = self.context.closes_at(record).isoformat()
        return view
