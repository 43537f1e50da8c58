"""The calls the core's parts make of each other, in one object that the hall wires.

Each feature (and the ownership, the replicas) declares the few calls it needs as a
``Protocol`` of its own (``AccessContext``, ``ChatContext``, ``StandInsContext``...) and is
given this object, typed by that protocol: it can announce a table's change, write with
read-back settling, spawn, read the clock, execute a command at the owner, and so on,
but never reach the directory, the pipeline or another feature as such. The parts are
bound here as the hall builds them (:class:`~.hall.Hall`); nothing else imports this
module.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from odin_cards.server.core.ports import (
    BotRunner,
    Clock,
    Metrics,
    StoredTable,
    TableRecord,
    TableStore,
)
from odin_cards.server.core.protocol.process import Answer, BusMessage, Command, State
from odin_cards.server.core.protocol.server import ServerMessage
from odin_cards.server.core.tables.ownership import Commands, Listeners, Ownership
from odin_cards.server.core.tables.sessions import Session, Sessions
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.core.tables.writes import StoreWrites
from odin_cards.server.settings import Settings

if TYPE_CHECKING:
    from odin_cards.server.core.features.presence import Presence
    from odin_cards.server.core.features.rematch import SeatPlan
    from odin_cards.server.core.features.seats import Seats
    from odin_cards.server.core.tables.bot_turns import BotTurns
    from odin_cards.server.core.tables.directory import Directory
    from odin_cards.server.core.tables.fanout import FanOut
    from odin_cards.server.core.tables.moves import MovePipeline


class TableContext:
    """Implements every narrow context of the core by delegating to the part that owns
    each call (see the module doc)."""

    ownership: Ownership
    directory: Directory
    fanout: FanOut
    pipeline: MovePipeline
    turns: BotTurns
    presence: Presence
    seats: Seats

    def __init__(
        self,
        store: TableStore,
        bots: BotRunner,
        clock: Clock,
        settings: Settings,
        metrics: Metrics,
        sessions: Sessions,
        writes: StoreWrites,
    ) -> None:
        self.store = store
        self.bots = bots
        self.clock = clock
        self.settings = settings
        self.metrics = metrics
        self.sessions = sessions
        self.writes = writes

    # ------------------------------------------------------------ ownership

    @property
    def commands(self) -> Commands:
        return self.ownership.commands

    @property
    def listeners(self) -> Listeners:
        return self.ownership.listeners

    def owns(self, table: LiveTable) -> bool:
        return self.ownership.owns(table)

    async def execute(self, table: LiveTable, command: Command) -> Answer:
        return await self.ownership.execute(table, command)

    def publish(self, table: LiveTable, message: BusMessage) -> None:
        self.ownership.publish(table, message)

    # ------------------------------------------------------------ the directory

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        self.directory.spawn(work)

    async def get(self, table_id: str) -> LiveTable:
        return await self.directory.get(table_id)

    def held(self, table: LiveTable) -> bool:
        return self.directory.holds(table)

    def held_table(self, table_id: str) -> LiveTable | None:
        return self.directory.tables.get(table_id)

    def held_tables(self) -> list[LiveTable]:
        return list(self.directory.tables.values())

    def loading(self, table_id: str) -> asyncio.Future[LiveTable] | None:
        return self.directory.loading(table_id)

    def idle_since(self, table: LiveTable) -> float:
        return self.directory.touched.get(table.id, 0.0)

    def drop(self, table: LiveTable) -> None:
        self.directory.drop(table)

    async def start_following(self, table: LiveTable, plan: list[SeatPlan]) -> LiveTable:
        return await self.directory.start_following(table, plan)

    def closes_at(self, record: TableRecord) -> datetime:
        return record.created + timedelta(seconds=self.settings.waiting_expiry)

    # ------------------------------------------------------------ writes, fan-out, sessions

    async def write(
        self,
        write: Coroutine[Any, Any, None],
        table_id: str,
        holds: Callable[[StoredTable], bool],
    ) -> None:
        await self.writes.write(write, table_id, holds)

    def announce(self, table: LiveTable) -> None:
        self.fanout.announce(table)

    def broadcast(self, table: LiveTable, since: int) -> None:
        self.fanout.broadcast(table, since)

    def tell(self, table: LiveTable, message: ServerMessage) -> None:
        self.fanout.tell(table, message)

    def listed(self, table: LiveTable) -> dict[str, Any]:
        return self.fanout.view(table)

    def sessions_at(self, table: LiveTable) -> tuple[Session, ...]:
        return tuple(self.sessions.at(table.id))

    # ------------------------------------------------------------ moves and turns

    async def move(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        by: str | None = None,
    ) -> int:
        return await self.pipeline.move(table, seat, text, version, client_id, by)

    async def catch_up(self, table: LiveTable) -> None:
        await self.pipeline.catch_up(table)

    async def catch_up_quietly(self, table: LiveTable) -> None:
        await self.pipeline.catch_up_quietly(table)

    def unsettle(self, table: LiveTable) -> None:
        self.pipeline.unsettle(table)

    def schedule(self, table: LiveTable) -> None:
        self.turns.schedule(table)

    def again(self, table: LiveTable) -> None:
        self.turns.again(table)

    def forget_turn(self, table: LiveTable) -> None:
        self.turns.forget(table)

    def saw_person(self, table: LiveTable) -> None:
        self.turns.saw_person(table)

    # ------------------------------------------------------------ seats and presence

    async def reread(self, table: LiveTable) -> None:
        await self.seats.reread(table)

    def seated(self, table: LiveTable) -> None:
        self.presence.update(table)

    def seat_presence(self, table: LiveTable, seat: int) -> State:
        return self.presence.seat_presence(table, seat)

    def local_presence(self, table: LiveTable) -> dict[int, State]:
        return self.presence.local(table)

    def remote_presence(self, table: LiveTable, process: str, seats: dict[int, State]) -> None:
        self.presence.remote(table, process, seats)

    def show_presence(self, table: LiveTable, states: Sequence[State | None]) -> None:
        self.presence.shown(table, states)

    def shown_at(self, table: LiveTable) -> Sequence[str | None]:
        return self.presence.shown_at(table.id)

    def clear_remote_presence(self, table: LiveTable) -> None:
        self.presence.clear_remote(table)
