"""Fan-out: what a table's connections in this process are sent, and how it is encoded.

After an action (or when a game starts) every session gets the events since the version
it was last sent and its seat's state, computed through the game's presenter once per seat
and position, and spliced into one ``update`` text per session from JSON encoded once
(:class:`~..protocol.server.Update`): a table of six seats and twenty spectators presents
at most seven states and encodes each event once. Spectators share the public state. A
change of seats, status or next game is one ``table`` message for everyone.

What else must follow a table's update or change (its clock, the lobby's cache, its
replicas) registers with :attr:`FanOut.after_update` and :attr:`FanOut.after_announce`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from odin_cards.server.core.protocol.server import ServerMessage, TableShown, encode, update_text
from odin_cards.server.core.tables.sessions import Sessions
from odin_cards.server.core.tables.table import LiveTable

Hook = Callable[[LiveTable], None]


class FanOut:
    """Sends a table's changes to its sessions here."""

    def __init__(
        self,
        sessions: Sessions,
        presence: Callable[[str], Sequence[str | None]],
        closes: Callable[[LiveTable], datetime | None],
    ) -> None:
        self.sessions = sessions
        self.presence = presence
        """Each seat's presence as shown at a table (``core/features/presence.py``)."""
        self.closes = closes
        """When a waiting table closes (the directory's expiry)."""
        self.after_update: list[Hook] = []
        """Called after every update of a table's sessions (its clock follows it)."""
        self.after_announce: list[Hook] = []
        """Called after every change of a table's seats, status or next game."""

    def view(self, table: LiveTable) -> dict[str, Any]:
        """The table as the API, the lobby and its ``table`` messages show it."""
        return table.to_api(self.presence(table.id), self.closes(table))

    def broadcast(self, table: LiveTable, since: int) -> None:
        """Send every session of ``table`` the events after ``since`` (or after its own
        version, if it lags) and its seat's state."""
        listeners = self.sessions.at(table.id)
        if listeners:
            version = table.version
            shared = table.events_json(since)
            make = table.states()
            states: dict[int | None, str] = {}
            for session in listeners:
                seat = session.seat
                state = states.get(seat)
                if state is None:
                    state = states[seat] = make(seat)
                events = shared if session.version == since else table.events_json(session.version)
                session.send_text(update_text(version, events, state))
                session.version = version
        for hook in self.after_update:
            hook(table)

    def announce(self, table: LiveTable) -> None:
        """The table's seats, status or next game changed: its sessions are shown it."""
        self.tell(table, TableShown(self.view(table)))
        for hook in self.after_announce:
            hook(table)

    def tell(self, table: LiveTable, message: ServerMessage) -> None:
        """Send ``message`` to every session of ``table`` here (encoded once)."""
        listeners = self.sessions.at(table.id)
        if listeners:
            text = encode(message)
            for session in listeners:
                session.send_text(text)
