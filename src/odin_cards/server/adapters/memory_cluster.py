"""Several processes in one: leases, bus and router in memory, for tests of the domain.

:class:`MemoryLeaseStore` keeps its leases and heartbeats in a
:class:`~.memory.MemoryDatabase` (whose event log fences appends by them), on a clock the
test controls; :class:`MemoryHub` joins the :class:`MemoryBus` and :class:`MemoryRouter`
of each "process", delivering in order like Redis pub/sub (and, like it, to nobody when a
process is gone: :meth:`MemoryHub.kill`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from datetime import datetime
from typing import Any

from odin_cards.server.adapters.memory import MemoryDatabase
from odin_cards.server.core.ports import BusHandler, RequestHandler


class MemoryLeaseStore:
    """:class:`~..domain.ports.LeaseStore` in a :class:`MemoryDatabase`."""

    def __init__(
        self, database: MemoryDatabase, owner: str, seconds: float, clock: Callable[[], float]
    ) -> None:
        self.db = database
        self.owner = owner
        self.seconds = seconds
        self.clock = clock
        self.heartbeats = database.heartbeats
        self._registered = False

    def _alive(self, owner: str | None) -> bool:
        return owner is not None and self.heartbeats.get(owner, -1.0) > self.clock()

    async def renew(self) -> bool:
        alive = self._alive(self.owner)
        self.heartbeats[self.owner] = self.clock() + self.seconds
        first, self._registered = not self._registered, True
        return alive or first

    async def acquire(self, table_id: str) -> int | None:
        owner, token = self.db.leases.get(table_id, (None, 0))
        if owner is not None and owner != self.owner and self._alive(owner):
            return None
        self.db.leases[table_id] = (self.owner, token + 1)
        return token + 1

    async def release(self, table_id: str, token: int) -> None:
        if self.db.leases.get(table_id) == (self.owner, token):
            self.db.leases[table_id] = (None, token)

    async def holder(self, table_id: str) -> str | None:
        owner, _ = self.db.leases.get(table_id, (None, 0))
        return owner if self._alive(owner) else None

    async def tokens(self, table_ids: Collection[str]) -> dict[str, tuple[str | None, int]]:
        return {t: self.db.leases[t] for t in table_ids if t in self.db.leases}

    async def orphans(self, waiting_since: datetime, limit: int) -> list[str]:
        found = [
            t.id
            for t in sorted(self.db.tables.values(), key=lambda t: (t.created, t.id))
            if (t.status == "playing" or (t.status == "waiting" and t.created >= waiting_since))
            and not self._alive(self.db.leases.get(t.id, (None, 0))[0])
        ]
        return found[:limit]

    async def stop(self) -> None:
        for table_id, (owner, token) in list(self.db.leases.items()):
            if owner == self.owner:
                self.db.leases[table_id] = (None, token)
        self.heartbeats.pop(self.owner, None)


class MemoryHub:
    """The message broker of processes in one event loop."""

    def __init__(self) -> None:
        self.buses: dict[str, MemoryBus] = {}
        self.routers: dict[str, MemoryRouter] = {}

    def join(self, owner: str) -> tuple[MemoryBus, MemoryRouter]:
        bus, router = MemoryBus(self, owner), MemoryRouter(self, owner)
        self.buses[owner], self.routers[owner] = bus, router
        return bus, router

    def kill(self, owner: str) -> None:
        """The process is gone: it receives nothing more and answers nothing."""
        bus = self.buses.pop(owner, None)
        if bus is not None:
            bus.stop()
        self.routers.pop(owner, None)


class MemoryBus:
    """:class:`~..domain.ports.Bus` through a :class:`MemoryHub`: in order, one at a time."""

    def __init__(self, hub: MemoryHub, owner: str) -> None:
        self.hub = hub
        self.owner = owner
        self.following: set[str] = set()
        self.inbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def follow(self, table_id: str) -> None:
        self.following.add(table_id)

    def unfollow(self, table_id: str) -> None:
        self.following.discard(table_id)

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        for bus in list(self.hub.buses.values()):
            if table_id in bus.following:
                bus.inbox.put_nowait((table_id, dict(message)))

    def listen(self, handler: BusHandler) -> None:
        async def run() -> None:
            while True:
                table_id, message = await self.inbox.get()
                await handler(table_id, message)

        self.task = asyncio.ensure_future(run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()


class MemoryRouter:
    """:class:`~..domain.ports.Router` through a :class:`MemoryHub`."""

    def __init__(self, hub: MemoryHub, owner: str) -> None:
        self.hub = hub
        self.owner = owner
        self.handler: RequestHandler | None = None

    async def request(self, process: str, message: dict[str, Any], timeout: float) -> Any:
        router = self.hub.routers.get(process)
        if router is None or router.handler is None:
            raise TimeoutError(f"process {process} does not answer")
        return await asyncio.wait_for(router.handler(dict(message)), timeout)

    def serve(self, handler: RequestHandler) -> None:
        self.handler = handler
