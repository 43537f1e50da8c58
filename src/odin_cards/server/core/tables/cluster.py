"""Several server processes: who owns a table, routing to the owner, following its log.

Every process may hold any table in memory. The process holding the table's lease (a
fencing token in the database, :class:`~.ports.LeaseStore`) *owns* it: it alone applies
actions, takes seats, starts the next game and runs the bots. Every other process holding
the table keeps a *replica* that follows the owner's log through the :class:`~.ports.Bus`
(action by action, in order; a gap is filled from the log) and sends each of its own
connections that seat's view, computed locally: no view ever crosses between processes.
A change asked of a replica goes to the owner through the :class:`~.ports.Router` and its
answer comes back; a request to an owner that died is tried again until another process
has taken the table over (``lease_seconds`` after the owner's last heartbeat at most).

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
nobody here uses stops following after :data:`REPLICA_IDLE`. So in the normal case every
action is applied where its connections are, and no other process spends anything on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.presence import STATES, State
from odin_cards.server.core.ports import (
    Bus,
    LeaseStore,
    LoggedAction,
    Router,
    SeatHolder,
    StoreUnavailable,
)
from odin_cards.server.core.protocol.server import Ack
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable

if TYPE_CHECKING:
    from odin_cards.server.core.tables.hall import Hall

log = logging.getLogger(__name__)

REQUEST_SECONDS = 2.0
"""How long a request waits for the owner's answer before it is sent again."""

RETRY_SECONDS = 0.1
"""Pause before asking again when a table has no reachable owner (yet)."""

REPLICA_IDLE = 3.0
"""Seconds a replica nobody here uses (no connection, no request) is kept; then it stops
following the table and costs this process nothing."""

HANDOVER_AFTER = 1.5
"""Seconds an owner without connections at a table waits, while one other process has
them all, before handing the table to it (a socket moving for a moment moves nothing)."""

REPLICA_CHECK = 10.0
"""Seconds without any message after which a watched replica reads its log anyway (a lost
last message is noticed within this time even if nothing else happens at the table)."""

ORPHANS_PER_SCAN = 200

LOBBY = "~lobby"
"""The bus channel on which owners tell every process who is at their waiting tables (the
lobby of any process lists them with presence); no table id can be this name."""

LOBBY_REMEMBERED = 1000
"""Waiting tables whose presence a process remembers at most (the oldest heard go first)."""
"""Tables taken over at most per scan (spreading a dead owner's tables over the others)."""


class NotOwner(Exception):
    """This process does not (or no longer) own the table: ask its owner."""


@dataclass(frozen=True, slots=True)
class ClusterPorts:
    """What several processes share: table leases (database) and messaging (Redis)."""

    leases: LeaseStore
    bus: Bus
    router: Router
    lease_seconds: float = 3.0


def entry_message(owner: str, entry: LoggedAction, finished: bool) -> dict[str, Any]:
    return {
        "kind": "action",
        "owner": owner,
        "number": entry.number,
        "seat": entry.seat,
        "action": entry.action,
        "client_id": entry.client_id,
        "created": entry.created.isoformat(),
        "finished": finished,
        "by": entry.by,
    }


class Peers:
    """This process among the others (see the module docstring); the hall's partner."""

    def __init__(self, hall: Hall, ports: ClusterPorts) -> None:
        self.hall = hall
        self.leases = ports.leases
        self.bus = ports.bus
        self.router = ports.router
        self.lease_seconds = ports.lease_seconds
        self.me = ports.leases.owner
        self.owners: dict[str, str] = {}
        """Last known owner process of tables held here as replicas."""
        self.claiming: dict[str, asyncio.Task[bool]] = {}
        self.awaiting: dict[tuple[str, str], Session] = {}
        """(table, client id) of actions sent to an owner -> the connection to acknowledge."""
        self.leaning: dict[str, tuple[str, float]] = {}
        """Owned tables whose connections are all at one other process -> (that process,
        since when), for :data:`HANDOVER_AFTER`."""
        self.handed: dict[str, float] = {}
        """Tables handed to another process -> monotonic time until which this process
        does not claim them back (their successor takes them first)."""
        self.draining = False
        self._random = random.Random()
        self.lobby: OrderedDict[str, list[str | None]] = OrderedDict()
        """Presence at waiting tables as their owners last told it (:data:`LOBBY`)."""

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        await self.leases.renew()
        self.router.serve(self._serve)
        self.bus.listen(self._on_message)
        await self.bus.follow(LOBBY)
        await self._take_orphans()
        self.hall._spawn(self._keep())

    async def hand_over(self) -> None:
        """Graceful stop: release every lease now (no action in flight) and say so."""
        self.draining = True
        for table in [t for t in self.hall.tables.values() if t.owned]:
            async with table.lock:
                await self._release(table)
        try:
            await self.leases.stop()
        except StoreUnavailable:
            log.warning("this process's heartbeat could not be ended; its leases expire")

    async def _release(self, table: LiveTable, successor: str | None = None) -> None:
        """Give the lease up (the caller holds the table's lock, so no action is in flight)
        and say so: to ``successor`` alone if named, else to any follower."""
        if not table.owned or table.fence is None:
            return
        token = table.fence
        self._step_down(table, "released")
        try:
            await self.leases.release(table.id, token)
        except StoreUnavailable:
            log.warning("table %s: lease not released (store unavailable); it expires", table.id)
        self.bus.publish(table.id, {"kind": "released", "owner": self.me, "to": successor})

    # ------------------------------------------------------------ leases

    async def _keep(self) -> None:
        """Heartbeat, takeover of orphaned tables, dropping unused replicas."""
        period = max(0.05, self.lease_seconds / 3)
        while not self.draining:
            await self.hall.clock.sleep(period)
            if self.draining:  # a graceful stop ends the heartbeat: renewing would revive it
                return
            try:
                if not await self.leases.renew():
                    log.warning("this process's heartbeat had expired; checking its tables")
                    self.hall.metrics.lease_changed("renewed-lost")
                    await self._verify([t for t in self.hall.tables.values() if t.owned])
                await self._take_orphans()
            except StoreUnavailable as error:
                log.warning("leases not renewed now (%s); trying again", error)
            await self._follow_connections()
            self._drop_idle_replicas()
            self._check_quiet_replicas()

    def _successor(self, table: LiveTable) -> str | None:
        """The one other process with every connection at this owned table, if so."""
        if table.status not in ("waiting", "playing"):
            return None
        if self.hall.sessions.at(table.id):
            return None
        there = [process for process, (_, watchers) in table.remote.items() if watchers]
        return there[0] if len(there) == 1 else None

    async def _follow_connections(self) -> None:
        """Hand each owned table whose connections have all been at one other process for
        :data:`HANDOVER_AFTER` to that process."""
        now = self.hall.clock.monotonic()
        self.handed = {table: until for table, until in self.handed.items() if until > now}
        for table in [t for t in self.hall.tables.values() if t.owned]:
            successor = self._successor(table)
            if successor is None:
                self.leaning.pop(table.id, None)
                continue
            leaning = self.leaning.get(table.id)
            if leaning is None or leaning[0] != successor:
                self.leaning[table.id] = (successor, now)
            elif now - leaning[1] >= HANDOVER_AFTER and not self.draining:
                await self._hand_to(table, successor)

    async def _hand_to(self, table: LiveTable, successor: str) -> None:
        """Release ``table`` to ``successor``. An action applied before the release is in
        the log its successor reads; one asked after it is answered "moved" and sent again
        to the successor (its id makes a repeat harmless)."""
        async with table.lock:
            self.leaning.pop(table.id, None)
            if not table.owned or self._successor(table) != successor:
                return
            self.handed[table.id] = self.hall.clock.monotonic() + self.lease_seconds
            await self._release(table, successor)
        log.info("table %s: handed over to %s, where its connections are", table.id, successor)

    async def _take_orphans(self) -> None:
        since = self.hall.clock.now() - timedelta(seconds=self.hall.settings.waiting_expiry)
        orphans = await self.leases.orphans(since, ORPHANS_PER_SCAN)
        self._random.shuffle(orphans)  # processes scanning at once do not fight in order
        for table_id in orphans:
            if self.draining:
                return
            await self.claim(table_id)

    async def _verify(self, tables: list[LiveTable]) -> None:
        """Step down from every table whose lease is no longer this process's."""
        held = await self.leases.tokens([t.id for t in tables])
        for table in tables:
            if table.owned and held.get(table.id) != (self.me, table.fence):
                log.warning("table %s was taken over by another process; stepping down", table.id)
                self._step_down(table, "fenced")
                self.hall._spawn(self._catch_up_quietly(table))

    def claim(self, table_id: str) -> asyncio.Task[bool]:
        """Take the table over if nobody alive owns it (one attempt per table at a time);
        the task answers whether this process owns it now."""
        task = self.claiming.get(table_id)
        if task is None:
            task = self.claiming[table_id] = asyncio.ensure_future(self._claim(table_id))
            task.add_done_callback(lambda _: self.claiming.pop(table_id, None))
        return task

    async def _claim(self, table_id: str) -> bool:
        table = self.hall.tables.get(table_id)
        if table is not None and table.owned:
            return True
        if self.draining or self.hall.clock.monotonic() < self.handed.get(table_id, 0.0):
            return False
        try:
            token = await self.leases.acquire(table_id)
        except StoreUnavailable:
            return False
        if token is None:
            return False
        try:
            # The lease is ours before the log is read: whatever the old owner managed to
            # write is in it, and it can write nothing more.
            # A load that begins now reads everything stored under the old owner; a replica,
            # or a load that began before the lease, may lag behind and is brought up to date.
            fresh = table_id not in self.hall.tables and table_id not in self.hall._loading
            table = await self.hall.get(table_id)
            async with table.lock:
                if not fresh:
                    await self._catch_up(table)
                    await self.hall.refresh_record(table)
                if table.status not in ("waiting", "playing", "finished"):
                    await self.leases.release(table_id, token)
                    return False
                table.owned, table.fence = True, token
                table.pending = None
                table.bot_version = -1
                table.remote.clear()
                self.hall.presence.clear_remote(table)
        except (DomainError, StoreUnavailable) as error:
            log.warning("table %s: taken over but not loaded (%s); releasing", table_id, error)
            with contextlib.suppress(StoreUnavailable):
                await self.leases.release(table_id, token)
            return False
        self.owners.pop(table_id, None)
        self.hall.metrics.lease_changed("taken-over" if token > 1 else "acquired")
        log.info("table %s: this process owns it now (token %d)", table_id, token)
        self.bus.publish(table_id, {"kind": "owner", "owner": self.me})
        self.hall.turns.schedule(table)
        return True

    async def own_new(self, table: LiveTable) -> None:
        """A table this process just created: it takes its lease and follows it."""
        await self.follow(table)
        token = await self.leases.acquire(table.id)
        if token is None:  # cannot happen to a new id; stay a replica if it does
            table.owned = False
            return
        table.owned, table.fence = True, token
        self.hall.metrics.lease_changed("acquired")

    def _step_down(self, table: LiveTable, event: str) -> None:
        table.owned, table.fence = False, None
        table.pending = None
        table.remote.clear()
        self.hall.presence.clear_remote(table)
        self.leaning.pop(table.id, None)
        self.hall.turns.forget(table)
        self.hall.metrics.lease_changed(event)

    def fenced(self, table: LiveTable) -> None:
        """The log refused this process's write: another process owns the table now."""
        log.warning("table %s: write refused (lease moved on); stepping down", table.id)
        self._step_down(table, "fenced")
        self.hall._spawn(self._catch_up_quietly(table))

    # ------------------------------------------------------------ replicas

    async def follow(self, table: LiveTable | str) -> None:
        """Receive the table's messages from now on (before its log is read)."""
        await self.bus.follow(table if isinstance(table, str) else table.id)

    def forget(self, table_id: str) -> None:
        """Stop following the table (it left memory)."""
        self.bus.unfollow(table_id)
        self.owners.pop(table_id, None)
        self.leaning.pop(table_id, None)

    async def _catch_up(self, table: LiveTable) -> None:
        """Apply the logged actions the replica has not seen (the caller holds its lock)."""
        missing = await self.hall.events.read_from(table.id, table.game.action_count)
        for entry in missing:
            if entry.number == table.game.action_count:
                self.hall.follow(table, entry)

    async def catch_up(self, table: LiveTable) -> None:
        """Apply what the log holds beyond this replica's last action (``unavailable``
        if the log cannot be read)."""
        try:
            async with table.lock:
                await self._catch_up(table)
        except StoreUnavailable:
            raise DomainError("unavailable", "the table cannot be read now") from None

    async def _catch_up_quietly(self, table: LiveTable) -> None:
        try:
            async with table.lock:
                await self._catch_up(table)
        except StoreUnavailable:
            log.warning("table %s: could not read the log to catch up; later", table.id)

    async def reach(self, table: LiveTable, count: int) -> None:
        """Make sure the replica shows ``count`` actions soon: the bus normally brings
        them at once; after a short wait the log is read."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 0.3
        while table.game.action_count < count:
            left = deadline - loop.time()
            if left <= 0:
                await self._catch_up_quietly(table)
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.moved.wait(), left)

    def _drop_idle_replicas(self) -> None:
        now = self.hall.clock.monotonic()
        for table in list(self.hall.tables.values()):
            if table.owned or self.hall.sessions.at(table.id):
                continue
            if now - table.touched > REPLICA_IDLE:
                self.hall.drop(table)

    def _check_quiet_replicas(self) -> None:
        now = self.hall.clock.monotonic()
        for table in list(self.hall.tables.values()):
            if table.owned or table.status != "playing" or now - table.heard < REPLICA_CHECK:
                continue
            if self.hall.sessions.at(table.id):
                table.heard = now
                self.hall._spawn(self._catch_up_quietly(table))

    def presence(self, table: LiveTable) -> None:
        """Tell the table's owner who is connected to it here (its bots wait for nobody)."""
        if table.owned:
            return
        listeners = self.hall.sessions.at(table.id)
        people = sum(1 for s in listeners if s.seat is not None)
        seats = {str(seat): state for seat, state in self.hall.presence.local(table).items()}
        self.bus.publish(
            table.id,
            {
                "kind": "presence",
                "process": self.me,
                "people": people,
                "watchers": len(listeners),
                "seats": seats,
            },
        )

    async def _on_message(self, table_id: str | None, message: dict[str, Any]) -> None:
        if table_id is None:  # the bus lost messages: read every followed log again
            for replica in list(self.hall.tables.values()):
                if not replica.owned:
                    await self._catch_up_quietly(replica)
            return
        if table_id == LOBBY:
            self._heard_lobby(message)
            return
        table = self.hall.tables.get(table_id)
        if table is None:
            loading = self.hall._loading.get(table_id)
            if loading is None:
                return
            try:  # a message that came while the table was read: after the read
                table = await asyncio.shield(loading)
            except Exception:
                return
        table.heard = self.hall.clock.monotonic()
        kind = message.get("kind")
        if kind == "action":
            if table.owned:
                if message.get("owner") != self.me:
                    await self._verify([table])
                return
            async with table.lock:
                number = int(message["number"])
                if number > table.game.action_count:
                    await self._catch_up(table)  # a gap: the log has what was missed
                elif number == table.game.action_count:
                    entry = LoggedAction(
                        number,
                        int(message["seat"]),
                        str(message["action"]),
                        message.get("client_id"),
                        _created(message.get("created"), self.hall.clock.now()),
                        message.get("by"),
                    )
                    self.hall.follow(table, entry)
        elif kind == "table":
            if not table.owned:
                self.hall.apply_record(table, message)
                if message.get("status") == "finished" and not table.game.is_over:
                    await self._catch_up_quietly(table)  # its last action's message was lost
        elif kind == "chat" and not table.owned:
            self.hall.chat.heard(table, message)
        elif kind == "rematch" and not table.owned:
            self.hall.rematches.heard(table, message)
        elif kind == "owner":
            owner = str(message.get("owner"))
            if owner == self.me:
                return
            self.owners[table_id] = owner
            if table.owned:
                await self._verify([table])
            self.presence(table)
        elif kind == "released":
            self.owners.pop(table_id, None)
            running = table.status in ("waiting", "playing")
            mine = message.get("to") in (None, self.me)  # (a named successor goes first)
            if running and mine and not table.owned and message.get("owner") != self.me:
                self.claim(table_id)  # at once: no need to wait for a scan
        elif kind == "presence" and table.owned:
            process = str(message.get("process"))
            people, watchers = int(message.get("people", 0)), int(message.get("watchers", 0))
            before = table.remote.get(process, (0, 0))[0]
            table.remote[process] = (people, watchers)
            if people or before:
                table.person_seen = self.hall.clock.monotonic()
            self.hall.turns.schedule(table)
            self._remote_presence(table, process, message.get("seats"))
        elif kind == "seen" and not table.owned:
            seats = message.get("seats")
            if isinstance(seats, list):
                self.hall.presence.shown(table, [s if s in STATES else None for s in seats])

    def shown(self, table: LiveTable) -> None:
        """(Owner) what the table's seats are shown changed: its replicas show it, and,
        while it waits for players, every process's lobby."""
        self.bus.publish(table.id, {"kind": "seen", "seats": table.presence})
        if table.status == "waiting":
            self.bus.publish(LOBBY, {"table": table.id, "seats": table.presence})

    def _heard_lobby(self, message: dict[str, Any]) -> None:
        table_id, seats = message.get("table"), message.get("seats")
        if not isinstance(table_id, str) or not isinstance(seats, list):
            return
        self.lobby[table_id] = [s if s in STATES else None for s in seats]
        self.lobby.move_to_end(table_id)
        while len(self.lobby) > LOBBY_REMEMBERED:
            self.lobby.popitem(last=False)

    def _remote_presence(self, table: LiveTable, process: str, seats: Any) -> None:
        """(Owner) another process's connections' presence by seat; what everyone is
        shown is sent back even if unchanged (a new replica learns it so)."""
        found: dict[int, State] = {}
        if isinstance(seats, dict):
            for seat, state in seats.items():
                if str(seat).isdigit() and int(seat) < table.players and state in STATES:
                    found[int(seat)] = state
        self.hall.presence.remote(table, process, found)
        self.bus.publish(table.id, {"kind": "seen", "seats": table.presence})

    # ------------------------------------------------------------ routing

    async def route(self, table: LiveTable, request: dict[str, Any]) -> dict[str, Any] | None:
        """Send ``request`` to the table's owner and return its answer; ``None`` once this
        process owns the table (the caller then does it here). ``unavailable`` when no
        owner answers in time (a takeover takes up to ``lease_seconds``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.lease_seconds + 2 * REQUEST_SECONDS
        request = {**request, "table": table.id}
        while True:
            if table.owned:
                return None
            if loop.time() > deadline or self.draining:
                raise DomainError(
                    "unavailable", "the table is changing hands; try again", request.get("id")
                )
            owner = self.owners.get(table.id)
            if owner is None:
                try:
                    owner = await self.leases.holder(table.id)
                except StoreUnavailable:
                    owner = None
                if owner is None or owner == self.me:
                    if not await self.claim(table.id):
                        await asyncio.sleep(RETRY_SECONDS)
                    continue
                self.owners[table.id] = owner
            try:
                answer = await self.router.request(owner, request, REQUEST_SECONDS)
            except TimeoutError:
                self.owners.pop(table.id, None)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if not isinstance(answer, dict) or "moved" in answer:
                self.owners.pop(table.id, None)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            return answer

    async def _serve(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer another process's request for a table this process owns."""
        try:
            table = await self.hall.get(str(request["table"]))
            if not table.owned and not await self.claim(table.id):
                return {"moved": True}
            op = request.get("op")
            if op == "act":
                version = await self.hall.act_here(
                    table,
                    int(request["seat"]),
                    str(request["action"]),
                    int(request["version"]),
                    request.get("id"),
                    None,
                )
                return {"version": version, "count": table.game.action_count}
            if op == "cancel":
                await self.hall.access.cancel_here(table, str(request["hash"]))
                return {"ok": True}
            if op == "lock":
                await self.hall.access.lock_here(
                    table, int(request["seat"]), bool(request["locked"]), str(request["hash"])
                )
                return {"ok": True}
            if op == "seat":
                holder = None
                if request.get("account_id") is not None:
                    holder = SeatHolder(str(request["account_id"]), str(request["account"]))
                await self.hall.seat_here(
                    table,
                    int(request["seat"]),
                    str(request["name"]),
                    str(request["hash"]),
                    holder,
                )
                return {"ok": True}
            if op == "refresh":
                # The seats changed in the store (an account's seat got a new token, or a
                # deleted account's name went, core/people/accounts.py): read them and show
                # them to every replica; the chat's names are read again too.
                self.hall.chat.reread(table.id)
                await self.hall.refresh_record(table)
                return {"ok": True}
            if op in ("leave", "take_back", "vote"):
                await self.hall.stand_ins.serve(table, op, request)
                return {"ok": True}
            if op == "rematch":
                return await self.hall.rematches.answer_here(
                    table,
                    int(request["seat"]),
                    str(request["answer"]),
                    request.get("declined"),
                    bool(request.get("now")),
                )
            if op == "chat":
                await self.hall.chat.say_here(
                    table,
                    str(request["author"]),
                    request.get("name"),
                    request.get("seat"),
                    request.get("text"),
                    request.get("reaction"),
                )
                return {"ok": True}
            return {"error": "malformed", "message": f"unknown request {op!r}"}
        except NotOwner:
            return {"moved": True}
        except DomainError as refusal:
            return {"error": refusal.code, "message": refusal.message}

    async def act(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        reply: Session | None,
    ) -> int | None:
        """An action at a replica: the owner's answer (acknowledged to ``reply``), or
        ``None`` if this process owns the table now."""
        request = {"op": "act", "seat": seat, "action": text, "version": version, "id": client_id}
        key = (table.id, client_id or "")
        if reply is not None and client_id is not None:
            self.awaiting[key] = reply  # acknowledged before its update, as in one process
        try:
            answer = await self.route(table, request)
        finally:
            waiting = self.awaiting.pop(key, None)
        if answer is None:
            return None
        if "error" in answer:
            raise DomainError(str(answer["error"]), str(answer["message"]), client_id)
        after = int(answer["version"])
        if waiting is not None and client_id is not None:
            waiting.send(Ack(client_id, after))  # its update has not come yet
        self.hall._spawn(self.reach(table, int(answer["count"])))
        return after

    def acknowledge(self, table: LiveTable, entry: LoggedAction) -> None:
        """A followed action that a connection here sent: its ``ack`` goes before the
        update (the owner's answer may come after the bus brought the action)."""
        if entry.client_id is None:
            return
        reply = self.awaiting.pop((table.id, entry.client_id), None)
        if reply is not None:
            reply.send(Ack(entry.client_id, table.version))


def _created(text: Any, otherwise: datetime) -> datetime:
    """When the owner logged a followed action (the clock's deadlines follow from it)."""
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return otherwise
