"""Seats: a person takes a free seat with a token made for them; replicas learn seats.

A seat is given by the table's owner (the command ``TakeSeat``): the token is made where
the person asked and only its SHA-256 hash travels and is stored, so no other process ever
holds it. The last free seat taken starts the game. A seat that an earlier try of the same
request already gave (its answer was lost) is answered as given: the hash says so.

A replica takes its owner's facts about seats, status, next game and clock as they are
published (:class:`~..protocol.process.TableFacts`), and the seats stored when an account's
seats changed (the command ``Refresh``, ``core/people/accounts.py``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.access import check_open, check_seat_open
from odin_cards.server.core.ports import SeatHolder, SeatTaken, StoredTable, TableStore
from odin_cards.server.core.protocol.process import (
    Answer,
    Command,
    Done,
    Refresh,
    SeatFacts,
    TableFacts,
    TakeSeat,
)
from odin_cards.server.core.tables.ownership import Commands, Listeners, NotOwner
from odin_cards.server.core.tables.table import LiveTable, clean_name, hash_token


class SeatsContext(Protocol):
    """What seating needs of the core: the table store and its settled writes, the owner,
    telling a table's change (and a game's start), letting the bots move, dropping a
    closed table."""

    store: TableStore

    @property
    def commands(self) -> Commands: ...

    @property
    def listeners(self) -> Listeners: ...

    def owns(self, table: LiveTable) -> bool: ...

    async def execute(self, table: LiveTable, command: Command) -> Answer: ...

    async def write(
        self,
        write: Coroutine[Any, Any, None],
        table_id: str,
        holds: Callable[[StoredTable], bool],
    ) -> None: ...

    def announce(self, table: LiveTable) -> None: ...

    def broadcast(self, table: LiveTable, since: int) -> None: ...

    def schedule(self, table: LiveTable) -> None: ...

    def seated(self, table: LiveTable) -> None: ...

    def drop(self, table: LiveTable) -> None: ...


class Seats:
    """Seats of the tables this process holds (commands ``TakeSeat`` and ``Refresh``)."""

    def __init__(self, context: SeatsContext) -> None:
        self.context = context
        self.refreshed: list[Callable[[str], None]] = []
        """Called when a table's seats are read again from the store after an account
        changed them (the chat reads its names again)."""
        context.commands.on(TakeSeat, self._take)
        context.commands.on(Refresh, self._refresh)
        context.listeners.on(TableFacts, self._heard)

    async def take(
        self, table: LiveTable, seat: int, name: str, holder: SeatHolder | None = None
    ) -> str:
        """Seat a person (``holder``: the account that holds the seat, whose name it
        shows); return the seat's token (shown once; only its hash is kept)."""
        name = clean_name(name if holder is None else holder.name)
        if not 0 <= seat < table.players:
            raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
        check_open(table)
        token = secrets.token_urlsafe(32)
        digest = hash_token(token)
        await self.context.execute(table, TakeSeat(seat, name, digest, holder))
        self._learn(table, seat, name, digest, holder)
        return token

    def _learn(
        self, table: LiveTable, seat: int, name: str, digest: str, holder: SeatHolder | None
    ) -> None:
        """The owner gave the seat: a replica knows it at once, since the player's
        ``hello`` with its token may come before the owner's fan-out does."""
        mine = table.seats[seat]
        if not mine.taken:
            mine.name, mine.token_hash = name, digest
            if holder is not None:
                mine.account_id, mine.account = holder.account_id, holder.name

    async def _take(self, table: LiveTable, command: TakeSeat) -> Answer:
        """Give the seat (this process owns the table)."""
        context, seat, digest, holder = self.context, command.seat, command.hash, command.holder
        async with table.lock:
            if not context.owns(table):
                raise NotOwner(table.id)
            if not 0 <= seat < table.players:
                raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
            if table.status == "expired":
                raise DomainError("expired", "nobody joined this table for too long; it closed")
            if table.seats[seat].token_hash == digest:
                return Done()  # an earlier try of this request seated them (its answer was lost)
            check_seat_open(table, seat)
            if table.seats[seat].taken:
                raise DomainError("taken", f"seat {seat} is taken")
            starts = all(s.taken for s in table.seats if s.seat != seat)
            account = None if holder is None else holder.account_id
            try:
                await context.write(
                    context.store.take_seat(table.id, seat, command.name, digest, starts, account),
                    table.id,
                    lambda stored: stored.table.seats[seat].token_hash == digest,
                )
            except SeatTaken:
                raise DomainError("taken", f"seat {seat} is taken") from None
            place = table.seats[seat]
            place.name, place.token_hash = command.name, digest
            if holder is not None:
                place.account_id, place.account = holder.account_id, holder.name
            if starts:
                table.status = "playing"
            context.seated(table)  # a new person: offline until they connect
            context.announce(table)
            if starts:
                context.broadcast(table, table.version)
                context.schedule(table)
        return Done()

    # ------------------------------------------------------------ seats as stored

    async def refresh(self, table: LiveTable) -> None:
        """The seats changed in the store (an account's seat got a new token, or a deleted
        account's name went): the owner reads them and shows them to every replica, then
        this process reads them too."""
        await self.context.execute(table, Refresh())
        if not self.context.owns(table):  # (the owner read them just now)
            for hook in self.refreshed:
                hook(table.id)
            await self.reread(table)

    async def _refresh(self, table: LiveTable, command: Refresh) -> Answer:
        for hook in self.refreshed:
            hook(table.id)
        await self.reread(table)
        return Done()

    async def reread(self, table: LiveTable) -> None:
        """Seats, status and next game as stored (a table being taken over, or changed
        in the store by its people's accounts)."""
        stored = await self.context.store.load(table.id)
        if stored is None:
            raise DomainError("not_found", "there is no such table")
        record = stored.table
        seats = tuple(
            SeatFacts(s.seat, s.name, s.bot, s.token_hash, s.locked, s.account_id, s.account)
            for s in record.seats
        )
        status = record.status if not table.game.is_over else "finished"
        self.take_facts(table, TableFacts(status, seats, record.next_table, record.clock))

    async def _heard(self, table: LiveTable, facts: TableFacts) -> None:
        if not self.context.owns(table):
            self.take_facts(table, facts)

    def take_facts(self, table: LiveTable, facts: TableFacts) -> None:
        """Take the owner's seats, status, next game and clock facts, and show them."""
        starts = table.status == "waiting" and facts.status == "playing"
        for seat in facts.seats or ():
            mine = table.seats[seat.seat]
            mine.name, mine.bot, mine.token_hash = seat.name, seat.bot, seat.token_hash
            mine.locked, mine.account_id, mine.account = seat.locked, seat.account_id, seat.account
        if facts.status is not None and table.status != "finished":
            table.status = facts.status
        if facts.next_table is not None:
            table.next_table = facts.next_table
        if facts.clock is not None:
            table.clock = dict(facts.clock)
        if facts.votes is not None:
            table.votes = {seat: set(voters) for seat, voters in facts.votes.items()}
        self.context.announce(table)
        if starts:
            self.context.broadcast(table, table.version)
        if table.status in ("expired", "cancelled"):
            self.context.drop(table)


def facts_of(table: LiveTable) -> TableFacts:
    """The table's seats (token hashes too: replicas check ``hello`` tokens), status, next
    game, clock facts and votes, as its owner tells its replicas."""
    seats = tuple(
        SeatFacts(s.seat, s.name, s.bot, s.token_hash, s.locked, s.account_id, s.account)
        for s in table.seats
    )
    votes = {seat: frozenset(voters) for seat, voters in table.votes.items()}
    return TableFacts(table.status, seats, table.next_table, table.clock, votes)
