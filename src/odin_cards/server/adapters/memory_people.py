"""Friends and Play now's queue in memory: the core's
:class:`~odin_cards.server.core.ports.PeopleStore` and
:class:`~odin_cards.server.core.ports.MatchStore`, with the faults of their database.

A claim is one write, as on SQL: every check and ``pick`` happen before anything changes,
and a group whose tickets changed meanwhile (never, in one event loop) would be refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from odin_cards.server.adapters.memory_data import InviteRow, MemoryData
from odin_cards.server.core.ports import StoreUnavailable
from odin_cards.server.core.ports.people import (
    Blocked,
    Choice,
    Invite,
    Person,
    Report,
    SeatAt,
    Ticket,
)

CANDIDATES = 200
"""Waiting tickets of one choice read per match (the oldest first), as on SQL."""

TABLES_EACH = 10
"""Tables listed per person by :meth:`MemoryPeopleStore.tables_of` (20 read a person)."""


class MemoryPeopleStore:
    """Follows, blocks, reports, invitations and ``last_seen`` in memory."""

    def __init__(self, database: MemoryData) -> None:
        self.db = database

    def _by_name(self, account_ids: list[str], live: bool) -> list[Person]:
        rows = [self.db.account_rows[a] for a in account_ids if a in self.db.account_rows]
        rows = [row for row in rows if not live or row.deleted is None]
        rows.sort(key=lambda row: row.name_key)
        return [Person(row.id, row.name, row.last_seen) for row in rows]

    async def person(self, name_key: str) -> Person | None:
        self.db.reading()
        for row in self.db.account_rows.values():
            if row.name_key == name_key and row.deleted is None:
                return Person(row.id, row.name, row.last_seen)
        return None

    async def follow(self, follower: str, followed: str, when: datetime, limit: int) -> bool:
        async with self.db.writing() as kept:
            if (follower, followed) in self.db.follows:
                return True
            if sum(1 for (a, _) in self.db.follows if a == follower) >= limit:
                return False
            if kept:
                self.db.follows[(follower, followed)] = when
            return True

    async def unfollow(self, follower: str, followed: str) -> None:
        async with self.db.writing() as kept:
            if kept:
                self.db.follows.pop((follower, followed), None)

    async def following(self, follower: str, limit: int) -> list[Person]:
        self.db.reading()
        followed = [b for (a, b) in self.db.follows if a == follower]
        return self._by_name(followed, live=True)[: max(limit, 0)]

    async def follows(self, follower: str, followed: str) -> bool:
        self.db.reading()
        return (follower, followed) in self.db.follows

    async def block(self, blocker: str, blocked: str, when: datetime, limit: int) -> bool:
        async with self.db.writing() as kept:
            known = (blocker, blocked) in self.db.blocks
            if not known and sum(1 for (a, _) in self.db.blocks if a == blocker) >= limit:
                return False
            if kept:
                if not known:
                    self.db.blocks[(blocker, blocked)] = when
                self.db.follows.pop((blocked, blocker), None)
                for invite_id, invite in list(self.db.invites.items()):
                    if invite.sender == blocked and invite.recipient == blocker:
                        del self.db.invites[invite_id]
            return True

    async def unblock(self, blocker: str, blocked: str) -> None:
        async with self.db.writing() as kept:
            if kept:
                self.db.blocks.pop((blocker, blocked), None)

    async def blocked_by(self, blocker: str, limit: int) -> list[Person]:
        self.db.reading()
        blocked = [b for (a, b) in self.db.blocks if a == blocker]
        return self._by_name(blocked, live=False)[: max(limit, 0)]

    async def blocks_between(self, a: str, b: str) -> bool:
        self.db.reading()
        return (a, b) in self.db.blocks or (b, a) in self.db.blocks

    async def blocked_ids(self, blocker: str) -> set[str]:
        self.db.reading()
        return {b for (a, b) in self.db.blocks if a == blocker}

    async def seat_accounts(self, table_id: str) -> dict[int, str]:
        self.db.reading()
        table = self.db.tables.get(table_id)
        seats = [] if table is None else table.seats
        return {s.seat: s.account_id for s in seats if s.account_id is not None}

    async def seen(self, account_id: str, when: datetime) -> None:
        async with self.db.writing() as kept:
            row = self.db.account_rows.get(account_id)
            if row is not None and kept:
                row.last_seen = when

    def _seats_at(self, account_ids: set[str]) -> list[tuple[str, SeatAt]]:
        """(account, table) of each seat these accounts hold at a running or waiting
        table, newest table first."""
        found = []
        tables = sorted(self.db.tables.values(), key=lambda t: t.id)
        tables.sort(key=lambda t: t.created, reverse=True)
        for table in tables:
            if table.status not in ("waiting", "playing"):
                continue
            free = sum(1 for s in table.seats if s.name is None and s.bot is None and not s.locked)
            private = table.settings.get("visibility") == "private"
            at = SeatAt(table.id, table.status, private, free, table.players)
            for seat in sorted(table.seats, key=lambda s: s.seat):
                if seat.account_id in account_ids:
                    found.append((seat.account_id, at))
        return found

    async def tables_of(
        self, account_ids: Sequence[str], viewer: str, invited_since: datetime
    ) -> dict[str, list[SeatAt]]:
        self.db.reading()
        if not account_ids:
            return {}
        invited = {
            i.table_id
            for i in self.db.invites.values()
            if i.recipient == viewer and i.created >= invited_since
        }
        seated = {
            table.id
            for table in self.db.tables.values()
            if any(seat.account_id == viewer for seat in table.seats)
        }
        seats = [
            (account, at)
            for account, at in self._seats_at(set(account_ids))
            if self.db.listed(at.table_id) or at.table_id in invited or at.table_id in seated
        ]
        found: dict[str, list[SeatAt]] = {}
        for account, at in seats[: 20 * len(account_ids)]:
            mine = found.setdefault(account, [])
            if len(mine) < TABLES_EACH:
                mine.append(at)
        return found

    async def table_seated(self, table_id: str, account_id: str) -> SeatAt | None:
        self.db.reading()
        for _, at in self._seats_at({account_id}):
            if at.table_id == table_id:
                return at
        return None

    async def invite(
        self, invite_id: str, sender: str, recipient: str, table_id: str, when: datetime
    ) -> None:
        async with self.db.writing() as kept:
            invites = self.db.invites
            older = [
                i.id
                for i in invites.values()
                if (i.sender, i.recipient, i.table_id) == (sender, recipient, table_id)
            ]
            if invite_id in invites and invite_id not in older:
                raise StoreUnavailable(f"invitation {invite_id} exists already")
            if kept:
                for old in older:
                    del invites[old]
                invites[invite_id] = InviteRow(invite_id, sender, recipient, table_id, when)

    async def invites_to(self, recipient: str, since: datetime, limit: int) -> list[Invite]:
        self.db.reading()
        found = []
        for invite in self.db.invites.values():
            row = self.db.account_rows.get(invite.sender)
            if invite.recipient != recipient or invite.created < since:
                continue
            if row is None or row.deleted is not None:
                continue
            found.append(
                Invite(invite.id, Person(row.id, row.name), invite.table_id, invite.created)
            )
        found.sort(key=lambda i: i.id)
        found.sort(key=lambda i: i.created, reverse=True)
        return found[: max(limit, 0)]

    async def answer_invite(self, invite_id: str, recipient: str) -> str | None:
        async with self.db.writing() as kept:
            invite = self.db.invites.get(invite_id)
            if invite is None or invite.recipient != recipient:
                return None
            if kept:
                del self.db.invites[invite_id]
            return invite.table_id

    async def report(
        self,
        reporter: str,
        reported: str,
        reason: str,
        text: str | None,
        table_id: str | None,
        when: datetime,
    ) -> None:
        async with self.db.writing() as kept:
            number = 1 + max((r.id for r in self.db.reports), default=0)
            if kept:
                self.db.reports.append(
                    Report(number, reporter, reported, reason, text, table_id, when)
                )

    async def reports(self, limit: int) -> list[Report]:
        self.db.reading()
        found = sorted(self.db.reports, key=lambda r: (r.created, r.id), reverse=True)
        return found[: max(limit, 0)]

    async def names(self, account_ids: Sequence[str]) -> dict[str, str]:
        """Account id -> name (for the operators' lists)."""
        self.db.reading()
        rows = self.db.account_rows
        return {a: rows[a].name for a in set(account_ids) if a in rows}


class MemoryMatchStore:
    """Play now's queue in memory: tickets by id, claimed in one write."""

    def __init__(self, database: MemoryData) -> None:
        self.db = database

    def _unwelcome(self, account_id: str | None) -> bool:
        """Whether a ticket's account was banned or deleted since it joined the queue."""
        row = None if account_id is None else self.db.account_rows.get(account_id)
        return row is not None and (row.banned is not None or row.deleted is not None)

    async def add(self, ticket: Ticket, replaces: str | None) -> None:
        async with self.db.writing() as kept:
            tickets = self.db.tickets
            if ticket.id in tickets:
                raise StoreUnavailable(f"ticket {ticket.id} exists already")
            older = [
                t
                for t in tickets.values()
                if replaces is not None
                and t.state == "waiting"
                and replaces in (t.account_id, t.token_hash)
            ]
            if any(t.token_hash == ticket.token_hash for t in tickets.values()):
                raise StoreUnavailable("the ticket's token is taken (even by an old ticket)")
            if kept:
                for old in older:
                    tickets[old.id] = dataclasses.replace(old, state="cancelled")
                tickets[ticket.id] = dataclasses.replace(
                    ticket, state="waiting", table_id=None, seat=None, claimed=None
                )

    async def by_token(self, token_hash: str) -> Ticket | None:
        self.db.reading()
        for ticket in self.db.tickets.values():
            if ticket.token_hash == token_hash:
                return ticket
        return None

    async def seen(self, ticket_id: str, now: datetime) -> None:
        async with self.db.writing() as kept:
            ticket = self.db.tickets.get(ticket_id)
            if ticket is not None and ticket.state == "waiting" and kept:
                self.db.tickets[ticket_id] = dataclasses.replace(ticket, seen=now)

    async def cancel(self, ticket_id: str) -> bool:
        async with self.db.writing() as kept:
            ticket = self.db.tickets.get(ticket_id)
            if ticket is None or ticket.state != "waiting":
                return False
            if kept:
                self.db.tickets[ticket_id] = dataclasses.replace(ticket, state="cancelled")
            return True

    def _fresh(self, stale_before: datetime) -> list[Ticket]:
        return [
            t for t in self.db.tickets.values() if t.state == "waiting" and t.seen >= stale_before
        ]

    async def counts(self, choice: Choice, stale_before: datetime) -> tuple[int, int]:
        self.db.reading()
        fresh = self._fresh(stale_before)
        return sum(1 for t in fresh if t.choice == choice), len(fresh)

    async def waiting_of(self, address: str, stale_before: datetime) -> int:
        self.db.reading()
        return sum(1 for t in self._fresh(stale_before) if t.address == address)

    async def claim(
        self,
        anchor_id: str,
        stale_before: datetime,
        now: datetime,
        pick: Callable[[Ticket, list[Ticket], Blocked], list[Ticket] | None],
    ) -> list[Ticket] | None:
        db = self.db
        async with db.writing() as kept:
            anchor = db.tickets.get(anchor_id)
            if anchor is None or anchor.state != "waiting":
                return None  # matched, cancelled, or being matched
            if self._unwelcome(anchor.account_id):
                if kept:
                    db.tickets[anchor_id] = dataclasses.replace(anchor, state="cancelled")
                return None
            others = [
                t
                for t in self._fresh(stale_before)
                if t.choice == anchor.choice and t.id != anchor_id
            ]
            others.sort(key=lambda t: (t.created, t.id))
            others = [t for t in others[:CANDIDATES] if not self._unwelcome(t.account_id)]
            accounts = {t.account_id for t in [anchor, *others] if t.account_id is not None}
            blocked = {
                frozenset(pair)
                for pair in db.blocks
                if len(accounts) > 1 and pair[0] in accounts and pair[1] in accounts
            }
            group = pick(anchor, others, blocked)
            if not group:
                return None
            if any(db.tickets.get(t.id, t).state != "waiting" for t in group):
                raise StoreUnavailable("a ticket of the group changed meanwhile; try again")
            if kept:
                for ticket in group:
                    stored = db.tickets[ticket.id]
                    db.tickets[ticket.id] = dataclasses.replace(
                        stored, state="matching", claimed=now
                    )
            return group

    async def seated(self, seats: Mapping[str, int], table_id: str) -> None:
        async with self.db.writing() as kept:
            for ticket_id, seat in seats.items():
                ticket = self.db.tickets.get(ticket_id)
                if ticket is not None and kept:
                    self.db.tickets[ticket_id] = dataclasses.replace(
                        ticket, state="matched", table_id=table_id, seat=seat
                    )

    async def release(self, ticket_ids: Sequence[str]) -> None:
        async with self.db.writing() as kept:
            for ticket_id in ticket_ids:
                ticket = self.db.tickets.get(ticket_id)
                if ticket is not None and ticket.state == "matching" and kept:
                    self.db.tickets[ticket_id] = dataclasses.replace(
                        ticket, state="waiting", claimed=None
                    )

    async def sweep(self, stale_before: datetime, stuck_before: datetime, now: datetime) -> int:
        async with self.db.writing() as kept:
            tickets = self.db.tickets
            stale = [t for t in tickets.values() if t.state == "waiting" and t.seen < stale_before]
            stuck = [
                t
                for t in tickets.values()
                if t.state == "matching" and t.claimed is not None and t.claimed < stuck_before
            ]
            if kept:
                for ticket in stale:
                    tickets[ticket.id] = dataclasses.replace(ticket, state="expired")
                for ticket in stuck:
                    tickets[ticket.id] = dataclasses.replace(
                        ticket, state="waiting", claimed=None, seen=now
                    )
            return len(stale) + len(stuck)
