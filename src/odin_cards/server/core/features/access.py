"""Who may find, join and change a waiting table: visibility, its creator, locked seats.

A *public* table is listed in the lobby; a *private* one never is: only its invite link
leads to it (``settings["visibility"]``). Whoever creates a table gets a *creator token*
(only its hash is stored) with which, while the table waits for players, they may cancel
it (nobody can sit any more; its page says so) or lock a free seat (nobody may take it)
and free it again. A waiting table nobody completes closes by itself after
``waiting_expiry`` (the directory's expiry); its API view says when (``closes_at``).

Changes happen on the table's owner (the commands ``Cancel`` and ``Lock``, carried to it
by the ownership object with the token's hash, never the token).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import SeatTaken, StoredTable, TableStore
from odin_cards.server.core.protocol.process import Answer, Cancel, Command, Done, Lock
from odin_cards.server.core.tables.ownership import Commands, NotOwner
from odin_cards.server.core.tables.table import LiveTable, hash_token


class AccessContext(Protocol):
    """What the creator's powers need of the core: the table store's writes (settled by
    reading back), telling a table's change, dropping a cancelled table, the owner."""

    store: TableStore

    @property
    def commands(self) -> Commands: ...

    def owns(self, table: LiveTable) -> bool: ...

    async def execute(self, table: LiveTable, command: Command) -> Answer: ...

    async def write(
        self,
        write: Coroutine[Any, Any, None],
        table_id: str,
        holds: Callable[[StoredTable], bool],
    ) -> None: ...

    def announce(self, table: LiveTable) -> None: ...

    def drop(self, table: LiveTable) -> None: ...


VISIBILITIES = ("public", "private")
"""``settings["visibility"]``: listed in the lobby, or reached by its invite link only."""


def visibility(value: Any) -> str:
    """The normalized ``settings["visibility"]`` (absent: ``public``), or ``bad_options``."""
    if value is None:
        return "public"
    if value not in VISIBILITIES:
        raise DomainError("bad_options", "visibility is public or private")
    return str(value)


def listed(settings: Mapping[str, Any]) -> bool:
    """Whether a table with these settings is shown in the lobby's lists."""
    return bool(settings.get("visibility", "public") != "private")


def new_creator_token() -> tuple[str, str]:
    """A creator token (given once to the creator) and its hash (stored)."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


def _is_creator(table: LiveTable, digest: str) -> bool:
    return table.creator_hash is not None and secrets.compare_digest(table.creator_hash, digest)


class Access:
    """The creator's powers over a waiting table (commands ``Cancel`` and ``Lock``)."""

    def __init__(self, context: AccessContext) -> None:
        self.context = context
        context.commands.on(Cancel, self._cancel)
        context.commands.on(Lock, self._lock)

    # ------------------------------------------------------------ cancel

    async def cancel(self, table: LiveTable, token: str) -> None:
        """Cancel the waiting ``table`` (``token``: the creator's)."""
        digest = hash_token(token)
        if table.status in ("cancelled", "expired"):  # closed: nobody owns it any more
            if not _is_creator(table, digest):
                raise DomainError("unauthorized", "only the table's creator can cancel it")
            if table.status == "expired":
                check_open(table)
            return  # a second try of a cancel whose answer was lost
        await self.context.execute(table, Cancel(digest))
        table.status = "cancelled"  # (a replica: before its owner's fan-out says so too)

    async def _cancel(self, table: LiveTable, command: Cancel) -> Answer:
        """:meth:`cancel` on the table's owner (``command.hash``: the token's hash)."""
        context = self.context
        async with table.lock:
            if not context.owns(table):
                raise NotOwner(table.id)
            if not _is_creator(table, command.hash):
                raise DomainError("unauthorized", "only the table's creator can cancel it")
            if table.status == "cancelled":
                return Done()  # a second try of a cancel whose answer was lost
            if table.status != "waiting":
                raise DomainError("started", "the game has started: it can no longer be cancelled")
            await context.write(
                context.store.set_status(table.id, "cancelled"),
                table.id,
                lambda stored: stored.table.status == "cancelled",
            )
            table.status = "cancelled"
            context.announce(table)
            context.drop(table)
        return Done()

    # ------------------------------------------------------------ lock / free

    async def lock(self, table: LiveTable, seat: int, locked: bool, token: str) -> None:
        """Lock the free ``seat`` (nobody may take it) or free it (``token``: the creator's)."""
        if not 0 <= seat < table.players:
            raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
        check_open(table)
        await self.context.execute(table, Lock(seat, locked, hash_token(token)))
        table.seats[seat].locked = locked  # (a replica: before its owner's fan-out)

    async def _lock(self, table: LiveTable, command: Lock) -> Answer:
        """:meth:`lock` on the table's owner."""
        context, seat, locked = self.context, command.seat, command.locked
        async with table.lock:
            if not context.owns(table):
                raise NotOwner(table.id)
            if not 0 <= seat < table.players:
                raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
            if not _is_creator(table, command.hash):
                raise DomainError("unauthorized", "only the table's creator can lock seats")
            if table.status != "waiting":
                raise DomainError("started", "seats can be locked only while the table waits")
            place = table.seats[seat]
            if place.taken:
                raise DomainError("taken", f"seat {seat} is taken")
            if place.locked == locked:
                return Done()
            try:
                await context.write(
                    context.store.lock_seat(table.id, seat, locked),
                    table.id,
                    lambda stored: stored.table.seats[seat].locked == locked,
                )
            except SeatTaken:
                raise DomainError("taken", f"seat {seat} is taken") from None
            place.locked = locked
            context.announce(table)
        return Done()


def check_open(table: LiveTable) -> None:
    """Refuse a seat at a closed table (its status never changes again: a replica
    answers without asking the owner, which no longer holds it)."""
    if table.status == "expired":
        raise DomainError("expired", "nobody joined this table for too long; it closed")
    if table.status == "cancelled":
        raise DomainError("cancelled", "the creator cancelled this table")


def check_seat_open(table: LiveTable, seat: int) -> None:
    """Refuse a seat at a closed table, or a seat its creator locked."""
    check_open(table)
    if table.seats[seat].locked:
        raise DomainError("locked", f"seat {seat} is kept free by the table's creator")
