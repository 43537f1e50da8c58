"""Who changes a table: its owner. One object says where that is and runs commands there.

Every change of a table (an action, a seat, a chat line, a rematch answer, the creator's
powers, a seat handed to a bot) is a typed command (:mod:`..protocol.process`) carried out
by the table's *owner* under the table's lock, by the handler that the module owning the
command registered (:class:`Commands`). :meth:`Ownership.execute` is the one way to run
one, wherever it is asked:

- :class:`LocalOwnership`: one process owns every table; a command runs here, at once;
- ``ClusteredOwnership`` (:mod:`.cluster`): several processes share the tables through
  leases; a command asked of a replica is sent to the owner and its answer comes back.

The retry rule, the same for every command: a command is sent to the table's owner; while
no owner answers (none alive yet, a request timed out, the process asked says the table
moved, or the table moved away from this process while the command waited for its lock)
it is sent again, to the owner looked up again or taken over here, until ``lease_seconds
+ 2 × REQUEST_SECONDS`` have passed; then it is refused ``unavailable``. The owner's answer,
a refusal included, is final. Every command is idempotent at the owner (an action's client
id, a seat's token hash, a closed status, an answer stored as such), so a repeat after a
lost answer changes nothing twice.

Whatever else differs between one process and several (loading a table as a replica,
telling replicas, presence from other processes, the lobby's source) is a method of the
ownership object too, so the rest of the core never asks which one it has.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import LoggedAction
from odin_cards.server.core.protocol.process import Answer, BusMessage, Command
from odin_cards.server.core.tables.table import LiveTable

log = logging.getLogger(__name__)

C = TypeVar("C", bound=Command)
M = TypeVar("M", bound=BusMessage)

Handler = Callable[[LiveTable, Any], Awaitable[Answer]]
Listener = Callable[[LiveTable, Any], Awaitable[None]]


class NotOwner(Exception):
    """This process does not (or no longer) own the table: ask its owner."""


def unavailable(id: str | None = None) -> DomainError:
    return DomainError("unavailable", "the table is changing hands; try again", id)


class Commands:
    """The handler of each command type, registered by the module that owns the command
    (a feature, the move pipeline); the owner dispatches by type, nothing else decides."""

    def __init__(self) -> None:
        self._handlers: dict[type[Any], Handler] = {}

    def on(self, kind: type[C], handler: Callable[[LiveTable, C], Awaitable[Answer]]) -> None:
        if kind in self._handlers:
            raise ValueError(f"{kind.__name__} has a handler already")
        self._handlers[kind] = handler

    async def run(self, table: LiveTable, command: Command) -> Answer:
        """Carry ``command`` out here (the handler raises :class:`NotOwner` if this process
        does not own the table once it holds its lock, ``DomainError`` to refuse)."""
        return await self._handlers[type(command)](table, command)


class Listeners:
    """Who hears each kind of bus message about a table (its owner's facts at a replica,
    a replica's connections at the owner): handlers registered by type, in order."""

    def __init__(self) -> None:
        self._listeners: dict[type[Any], list[Listener]] = {}

    def on(self, kind: type[M], listener: Callable[[LiveTable, M], Awaitable[None]]) -> None:
        self._listeners.setdefault(kind, []).append(listener)

    async def deliver(self, table: LiveTable, message: BusMessage) -> None:
        for listener in self._listeners.get(type(message), ()):
            await listener(table, message)


class Ownership(Protocol):
    """Where each table is owned, and everything that depends on it (see the module doc)."""

    commands: Commands
    listeners: Listeners

    @property
    def draining(self) -> bool:
        """A graceful stop is under way (several processes): tables are being handed over."""

    def owns(self, table: LiveTable) -> bool:
        """Whether this process applies the table's changes now."""

    async def execute(self, table: LiveTable, command: Command) -> Answer:
        """Carry ``command`` out at the table's owner; its answer (a refusal is raised as a
        ``DomainError``; no owner in time: ``unavailable``)."""

    def publish(self, table: LiveTable, message: BusMessage) -> None:
        """Tell the table's other processes (the owner its replicas); one process: nobody."""

    def applied(self, table: LiveTable, entry: LoggedAction, finished: bool) -> None:
        """(Owner) the log's next entry was stored and applied here: replicas follow it."""

    def announced(self, table: LiveTable) -> None:
        """(Owner) the table's seats, status or next game changed: replicas take them."""

    def fence(self, table: LiveTable) -> int | None:
        """The fencing token the log's appends carry (several processes; else ``None``)."""

    def fenced(self, table: LiveTable) -> None:
        """The log refused an append: another process owns the table now."""

    async def start(self, resume: Callable[[], Awaitable[None]]) -> None:
        """Take up the tables this process will run: ``resume`` (every stored running
        table) with one process; with several, those no live process owns."""

    async def hand_over(self) -> None:
        """A graceful stop: give every table up at once (several processes)."""

    async def load(self, table_id: str, read: Callable[[], Awaitable[LiveTable]]) -> LiveTable:
        """The table ``read`` from the store, as this process holds it (a replica of it
        with several processes, following its owner from before the read)."""

    async def opened(self, table: LiveTable) -> None:
        """This process just stored a new table: it owns it."""

    async def rejoined(self, table: LiveTable) -> None:
        """A connection came to a table that had left memory (the caller holds its lock)."""

    async def current(self, table: LiveTable) -> None:
        """Bring a replica whose game is not over up to its log (an answer that depends on
        whether the game is over); ``unavailable`` if the log cannot be read."""

    def dropped(self, table: LiveTable) -> None:
        """The table left memory (its lease, if any, is given up)."""

    def expired(self, table_id: str) -> None:
        """A waiting table this process does not hold expired in the store."""

    def connections_changed(self, table: LiveTable) -> None:
        """This process's connections at the table changed (its owner counts them)."""

    def presence_changed(self, table: LiveTable) -> None:
        """What the table's seats are shown, or this process's part of it, changed."""

    def elsewhere(self, table: LiveTable) -> tuple[int, int]:
        """Seated people and connections at the table in other processes."""

    async def lobby(
        self, game: str, here: Callable[[], list[dict[str, Any]]]
    ) -> list[dict[str, Any]]:
        """The waiting tables of ``game`` to list (``here``: those held in memory)."""

    def held(self) -> int:
        """Tables whose lease this process holds (several processes; else 0)."""


class LocalOwnership:
    """One process owns every table it holds: commands run here, nobody is told."""

    def __init__(self) -> None:
        self.commands = Commands()
        self.listeners = Listeners()

    @property
    def draining(self) -> bool:
        return False

    def owns(self, table: LiveTable) -> bool:
        return True

    async def execute(self, table: LiveTable, command: Command) -> Answer:
        try:
            return await self.commands.run(table, command)
        except NotOwner:  # (no other process can own it: a bug)
            log.error("table %s: %s refused as not owned by the only process", table.id, command)
            raise unavailable() from None

    def publish(self, table: LiveTable, message: BusMessage) -> None:
        pass

    def applied(self, table: LiveTable, entry: LoggedAction, finished: bool) -> None:
        pass

    def announced(self, table: LiveTable) -> None:
        pass

    def fence(self, table: LiveTable) -> int | None:
        return None

    def fenced(self, table: LiveTable) -> None:  # (no fence, no refusal)
        pass

    async def start(self, resume: Callable[[], Awaitable[None]]) -> None:
        await resume()

    async def hand_over(self) -> None:
        pass

    async def load(self, table_id: str, read: Callable[[], Awaitable[LiveTable]]) -> LiveTable:
        return await read()

    async def opened(self, table: LiveTable) -> None:
        pass

    async def rejoined(self, table: LiveTable) -> None:
        pass

    async def current(self, table: LiveTable) -> None:
        pass

    def dropped(self, table: LiveTable) -> None:
        pass

    def expired(self, table_id: str) -> None:
        pass

    def connections_changed(self, table: LiveTable) -> None:
        pass

    def presence_changed(self, table: LiveTable) -> None:
        pass

    def elsewhere(self, table: LiveTable) -> tuple[int, int]:
        return 0, 0

    async def lobby(
        self, game: str, here: Callable[[], list[dict[str, Any]]]
    ) -> list[dict[str, Any]]:
        return here()

    def held(self) -> int:
        return 0
