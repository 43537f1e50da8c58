"""Who is at each table: every person's seat is ``online``, ``away`` or ``offline``.

A seat is *online* while one of its connections shows the page, *away* while all of them
are hidden (the page reports its visibility), *offline* with no connection. A seat whose
last connection goes keeps its last state for a short grace (``presence_grace``), so a
reload or a moment without network never shows anyone as gone; then it is offline.

The table's owner decides what everyone sees. With several processes each replica tells
the owner its own connections' states (:meth:`Presence.local`, carried by the cluster's
``presence`` message); the owner merges them with its own, applies the grace, and sends
the result to its replicas (:meth:`Presence.shown`). Every change reaches the table's
connections as a ``presence`` message and the lobby through the table's API view.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from odin_cards.server.core.ports import Clock
from odin_cards.server.core.protocol.process import STATES, State
from odin_cards.server.core.protocol.server import PresenceShown, encode
from odin_cards.server.core.tables.sessions import Session, Sessions
from odin_cards.server.core.tables.table import LiveTable

CLOSED = ("expired", "cancelled", "broken")
"""Statuses of tables that left play for good (their connections may still go away)."""

Changed = Callable[[LiveTable], None]
Spawn = Callable[[Coroutine[Any, Any, None]], None]
Owns = Callable[[LiveTable], bool]


def presence_message(states: Sequence[str | None]) -> str:
    """The protocol's ``presence`` message: each seat's state, ``null`` for bots and
    free seats."""
    return encode(PresenceShown(states))


def _best(states: list[State]) -> State:
    """The seat's state from its connections' states: any online one wins."""
    if "online" in states:
        return "online"
    if "away" in states:
        return "away"
    return "offline"


@dataclass
class _Seen:
    """What the owner knows of one table's seats besides its own connections."""

    hidden: set[Session] = field(default_factory=set)
    """This process's connections whose page is hidden."""
    remote: dict[str, dict[int, State]] = field(default_factory=dict)
    """Other processes' connections: process -> seat -> state."""
    last: dict[int, State] = field(default_factory=dict)
    """Each seat's last state before it lost its connections (for the grace)."""
    gone: dict[int, float] = field(default_factory=dict)
    """Monotonic time each seat lost its last connection (within the grace)."""


class Presence:
    """Presence of every table held here; the hall calls it as connections come and go."""

    def __init__(
        self,
        sessions: Sessions,
        clock: Clock,
        grace: float,
        spawn: Spawn,
        owns: Owns,
        changed: Changed,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.grace = grace
        self.spawn = spawn
        self.owns = owns
        """Whether this process owns a table (its owner decides what everyone sees)."""
        self.changed = changed
        """Called after this process's connections changed at a replica (its owner must
        hear of it) and after what is shown changed at an owner (lobby, replicas)."""
        self._tables: dict[str, _Seen] = {}
        self._shown: dict[str, list[str | None]] = {}
        """Each table's seats' presence as shown (``None``: not worked out yet)."""

    # ------------------------------------------------------------ reading

    def shown_at(self, table_id: str) -> Sequence[str | None]:
        """What each seat of the table is shown as (empty: not known here yet)."""
        return self._shown.get(table_id, ())

    def seat_presence(self, table: LiveTable, seat: int) -> State:
        """``online``, ``away`` or ``offline``: what everyone at the table is shown for
        ``seat`` now (``offline`` for a bot or a free seat)."""
        shown = self.shown_at(table.id)
        state = shown[seat] if 0 <= seat < len(shown) else None
        for known in STATES:
            if state == known:
                return known
        return "offline"

    def local(self, table: LiveTable) -> dict[int, State]:
        """The states of the seats with a connection to this process (the rest: none)."""
        seen = self._tables.get(table.id)
        hidden = seen.hidden if seen is not None else set()
        found: dict[int, list[State]] = {}
        for session in self.sessions.at(table.id):
            if session.seat is not None:
                state: State = "away" if session in hidden else "online"
                found.setdefault(session.seat, []).append(state)
        return {seat: _best(states) for seat, states in found.items()}

    # ------------------------------------------------------------ changes here

    def joined(self, table: LiveTable, session: Session) -> None:
        """A connection said hello (it shows the page until it says otherwise)."""
        self._seen(table).hidden.discard(session)
        self.update(table)

    def left(self, table: LiveTable, session: Session) -> None:
        seen = self._tables.get(table.id)
        if seen is not None:
            seen.hidden.discard(session)
        self.update(table)

    def visibility(self, table: LiveTable, session: Session, visible: bool) -> None:
        """The connection's page was shown or hidden."""
        hidden = self._seen(table).hidden
        if visible:
            hidden.discard(session)
        else:
            hidden.add(session)
        self.update(table)

    def remote(self, table: LiveTable, process: str, seats: Mapping[int, State]) -> None:
        """(Owner) another process's connections at the table, as it reported them."""
        seen = self._seen(table)
        if seats:
            seen.remote[process] = dict(seats)
        else:
            seen.remote.pop(process, None)
        self.update(table)

    def clear_remote(self, table: LiveTable) -> None:
        """(Owner) forget other processes' reports: the table changed hands, and each
        process reports again to its new owner."""
        seen = self._tables.get(table.id)
        if seen is not None:
            seen.remote.clear()

    def keeps(self, table_id: str) -> bool:
        """Whether anything of the table's connections is kept here (a closed table, or
        one that left memory, keeps nothing)."""
        return table_id in self._tables

    def forget(self, table_id: str) -> None:
        """The table left memory."""
        self._tables.pop(table_id, None)
        self._shown.pop(table_id, None)

    # ------------------------------------------------------------ what is shown

    def update(self, table: LiveTable) -> None:
        """Work out what is shown after a change; tell whoever must know."""
        if table.status in CLOSED:
            self._tables.pop(table.id, None)  # nobody plays there: nothing to work out
            return
        if not self.owns(table):
            self.changed(table)  # the owner decides; it hears of this process's change
            return
        states = self._merge(table)
        if states != list(self.shown_at(table.id)):
            self.shown(table, states)
            self.changed(table)

    def shown(self, table: LiveTable, states: Sequence[str | None]) -> None:
        """Show ``states`` to this process's connections at the table (from the owner's
        merge, here or on the bus)."""
        if len(states) != table.players or list(states) == list(self.shown_at(table.id)):
            return
        self._shown[table.id] = list(states)
        text = presence_message(states)
        for session in self.sessions.at(table.id):
            session.send_text(text)

    def _seen(self, table: LiveTable) -> _Seen:
        seen = self._tables.get(table.id)
        if seen is None:
            seen = self._tables[table.id] = _Seen()
        return seen

    def _merge(self, table: LiveTable) -> list[str | None]:
        """Each seat's state from every process's connections, the grace applied."""
        seen = self._seen(table)
        now = self.clock.monotonic()
        here = self.local(table)
        states: list[str | None] = []
        for seat in table.seats:
            number = seat.seat
            if seat.name is None:
                seen.last.pop(number, None)
                seen.gone.pop(number, None)
                states.append(None)
                continue
            found = [here[number]] if number in here else []
            found += [seats[number] for seats in seen.remote.values() if number in seats]
            state = _best(found)
            if state != "offline":
                seen.last[number] = state
                seen.gone.pop(number, None)
            elif number in seen.last:
                since = seen.gone.get(number)
                if since is None:
                    since = seen.gone[number] = now
                    self.spawn(self._after_grace(table, number, since))
                if now - since < self.grace:
                    state = seen.last[number]
                else:
                    del seen.last[number], seen.gone[number]
            states.append(state)
        return states

    async def _after_grace(self, table: LiveTable, number: int, since: float) -> None:
        """Show seat ``number`` offline once the grace after ``since`` has passed, unless
        it came back. An event loop's timer may wake a little early by the monotonic clock
        (uvloop counts whole milliseconds): what is left is slept again, or the seat would
        keep its last state for good, with nothing left to wake it."""
        while True:
            seen = self._tables.get(table.id)
            if seen is None or seen.gone.get(number) != since:
                return  # it came back (a new loss has its own timer), or the table left
            left = since + self.grace - self.clock.monotonic()
            if left <= 0:
                break
            await self.clock.sleep(left)
        self.update(table)
