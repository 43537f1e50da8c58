"""Several processes, the bus's side: replicas following their owner, presence, the lobby.

Every process holding a table it does not own keeps a *replica* that follows the owner's
log through the :class:`~..ports.Bus` (action by action, in order; a gap is filled from
the log: ``core/tables/moves.py``) and sends each of its own connections that seat's view,
computed locally: no view ever crosses between processes. Each message a process hears is
decoded once (:func:`~..protocol.process.decode_bus`: one that does not decode is dropped
here, logged) and handed, by its type, to whoever registered for it
(:class:`~.ownership.Listeners`): the move pipeline, seats, chat, rematch, and the
ownership itself.

Presence across processes: each replica tells the table's owner who is connected to it
there (:class:`~..protocol.process.Connections`); the owner merges them with its own
(``core/features/presence.py``), counts people and connections for its bots, and sends
what everyone is shown back (:class:`~..protocol.process.Seen`); while the table waits for
players it also says so on the lobby channel :data:`LOBBY`, so that any process's lobby
lists it with presence.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

from odin_cards.server.core.ports import Bus, Clock
from odin_cards.server.core.protocol.process import (
    BusMessage,
    Connections,
    LobbySeen,
    Malformed,
    Resync,
    Seen,
    State,
    decode_bus,
    decode_lobby,
    encode_bus,
    encode_lobby,
    state_of,
)
from odin_cards.server.core.tables.ownership import Listeners
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable

log = logging.getLogger(__name__)

LOBBY = "~lobby"
"""The bus channel on which owners tell every process who is at their waiting tables (the
lobby of any process lists them with presence); no table id can be this name."""

LOBBY_REMEMBERED = 1000
"""Waiting tables whose presence a process remembers at most (the oldest heard go first)."""

REPLICA_IDLE = 3.0
"""Seconds a replica nobody here uses (no connection, no request) is kept; then it stops
following the table and costs this process nothing."""

REPLICA_CHECK = 10.0
"""Seconds without any message after which a watched replica reads its log anyway (a lost
last message is noticed within this time even if nothing else happens at the table)."""


class ReplicaContext(Protocol):
    """What following needs of the core: time, the tables held here and being loaded,
    their sessions, the log's catch-up, presence, and the bots' turns."""

    clock: Clock

    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def held_table(self, table_id: str) -> LiveTable | None: ...

    def held_tables(self) -> list[LiveTable]: ...

    def loading(self, table_id: str) -> asyncio.Future[LiveTable] | None: ...

    def idle_since(self, table: LiveTable) -> float: ...

    def drop(self, table: LiveTable) -> None: ...

    def sessions_at(self, table: LiveTable) -> tuple[Session, ...]: ...

    async def catch_up_quietly(self, table: LiveTable) -> None: ...

    def local_presence(self, table: LiveTable) -> dict[int, State]: ...

    def remote_presence(self, table: LiveTable, process: str, seats: dict[int, State]) -> None: ...

    def show_presence(self, table: LiveTable, states: Sequence[State | None]) -> None: ...

    def shown_at(self, table: LiveTable) -> Sequence[str | None]: ...

    def saw_person(self, table: LiveTable) -> None: ...

    def schedule(self, table: LiveTable) -> None: ...


class Replicas:
    """This process's side of the bus (see the module doc)."""

    def __init__(
        self,
        bus: Bus,
        me: str,
        listeners: Listeners,
        context: ReplicaContext,
        owns: Callable[[LiveTable], bool],
    ) -> None:
        self.bus = bus
        self.me = me
        self.listeners = listeners
        self.context = context
        self.owns = owns
        self.heard: dict[str, float] = {}
        """Monotonic time each replica last heard of its table from its owner."""
        self.remote: dict[str, dict[str, tuple[int, int]]] = {}
        """(Owner) other processes' (seated people, connections) at each table."""
        self.lobby: OrderedDict[str, tuple[State | None, ...]] = OrderedDict()
        """Presence at waiting tables as their owners last told it (:data:`LOBBY`)."""
        listeners.on(Connections, self._connections)
        listeners.on(Seen, self._seen)

    async def start(self) -> None:
        self.bus.listen(self._on_message)
        await self.bus.follow(LOBBY)

    def publish(self, table: LiveTable, message: BusMessage) -> None:
        self.bus.publish(table.id, encode_bus(message))

    # ------------------------------------------------------------ hearing

    async def _on_message(self, table_id: str | None, data: dict[str, Any]) -> None:
        if table_id == LOBBY:
            try:
                self._heard_lobby(decode_lobby(data))
            except Malformed as error:
                log.warning("a lobby message that does not decode is dropped: %s", error)
            return
        try:
            message = decode_bus(data, self.context.clock.now())
        except Malformed as error:
            log.warning(
                "table %s: a bus message that does not decode is dropped: %s", table_id, error
            )
            return
        if table_id is None or isinstance(message, Resync):
            for replica in self.context.held_tables():  # messages may have been lost
                if not self.owns(replica):
                    await self.context.catch_up_quietly(replica)
            return
        table = self.context.held_table(table_id)
        if table is None:
            loading = self.context.loading(table_id)
            if loading is None:
                return
            try:  # a message that came while the table was read: after the read
                table = await asyncio.shield(loading)
            except Exception:
                return
        self.heard[table.id] = self.context.clock.monotonic()
        await self.listeners.deliver(table, message)

    def _heard_lobby(self, message: LobbySeen) -> None:
        self.lobby[message.table] = message.seats
        self.lobby.move_to_end(message.table)
        while len(self.lobby) > LOBBY_REMEMBERED:
            self.lobby.popitem(last=False)

    # ------------------------------------------------------------ presence

    def report(self, table: LiveTable) -> None:
        """(Replica) tell the table's owner who is connected to it here (its bots wait
        for nobody; its presence merges ours)."""
        if self.owns(table):
            return
        listeners = self.context.sessions_at(table)
        people = sum(1 for s in listeners if s.seat is not None)
        seats = self.context.local_presence(table)
        self.publish(table, Connections(self.me, people, len(listeners), seats))

    def shown(self, table: LiveTable) -> None:
        """(Owner) what the table's seats are shown changed: its replicas show it, and,
        while it waits for players, every process's lobby."""
        seats = _states(self.context.shown_at(table))
        self.publish(table, Seen(seats))
        if table.status == "waiting":
            self.bus.publish(LOBBY, encode_lobby(LobbySeen(table.id, seats)))

    async def _connections(self, table: LiveTable, message: Connections) -> None:
        """(Owner) another process's connections, by seat; what everyone is shown is sent
        back even if unchanged (a new replica learns it so)."""
        if not self.owns(table):
            return
        elsewhere = self.remote.setdefault(table.id, {})
        before = elsewhere.get(message.process, (0, 0))[0]
        elsewhere[message.process] = (message.people, message.watchers)
        if message.people or before:
            self.context.saw_person(table)
        self.context.schedule(table)
        seats = {seat: state for seat, state in message.seats.items() if seat < table.players}
        self.context.remote_presence(table, message.process, seats)
        self.publish(table, Seen(_states(self.context.shown_at(table))))

    async def _seen(self, table: LiveTable, message: Seen) -> None:
        if not self.owns(table):
            self.context.show_presence(table, message.seats)

    def elsewhere(self, table: LiveTable) -> tuple[int, int]:
        """Seated people and connections at the table in other processes (its owner)."""
        counts = self.remote.get(table.id, {}).values()
        return sum(people for people, _ in counts), sum(watchers for _, watchers in counts)

    def successor(self, table: LiveTable) -> str | None:
        """The one other process with every connection at this owned table, if so."""
        if table.status not in ("waiting", "playing") or self.context.sessions_at(table):
            return None
        there = [p for p, (_, watchers) in self.remote.get(table.id, {}).items() if watchers]
        return there[0] if len(there) == 1 else None

    # ------------------------------------------------------------ upkeep

    def forget(self, table_id: str) -> None:
        """The table changed hands or left memory: what was heard of it goes."""
        self.remote.pop(table_id, None)
        self.heard.pop(table_id, None)

    def drop_idle(self) -> None:
        """Replicas nobody here uses leave memory (:data:`REPLICA_IDLE`)."""
        now = self.context.clock.monotonic()
        for table in self.context.held_tables():
            if self.owns(table) or self.context.sessions_at(table):
                continue
            if now - self.context.idle_since(table) > REPLICA_IDLE:
                self.context.drop(table)

    def check_quiet(self) -> None:
        """Watched replicas that heard nothing for :data:`REPLICA_CHECK` read their log."""
        now = self.context.clock.monotonic()
        for table in self.context.held_tables():
            if self.owns(table) or table.status != "playing":
                continue
            if now - self.heard.get(table.id, 0.0) < REPLICA_CHECK:
                continue
            if self.context.sessions_at(table):
                self.heard[table.id] = now
                self.context.spawn(self.context.catch_up_quietly(table))


def _states(shown: Sequence[str | None]) -> tuple[State | None, ...]:
    return tuple(state_of(state) for state in shown)
