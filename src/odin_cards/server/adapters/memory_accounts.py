"""Accounts, sessions and login attempts in memory
(:class:`~odin_cards.server.core.ports.AccountStore`), with the faults of its database.

An account's seats are the seats of the database's tables (``seats.account_id``), and
deleting an account anonymizes them and their chat lines, as on SQL."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime, timedelta

from odin_cards.server.adapters.memory_data import AccountRow, MemoryData
from odin_cards.server.core.ports import NameTaken, StoreUnavailable
from odin_cards.server.core.ports.people import (
    AccountRecord,
    Attempts,
    HeldSeat,
    SessionRecord,
)

NAME_LENGTH = 32
"""Characters an account's name and name key may have as stored (``accounts.name``)."""


class MemoryAccountStore:
    """:class:`~odin_cards.server.core.ports.AccountStore` on a :class:`MemoryData`."""

    def __init__(self, database: MemoryData) -> None:
        self.db = database

    async def create(self, record: AccountRecord) -> None:
        account = record.account
        async with self.db.writing() as kept:
            rows = self.db.account_rows
            if account.id in rows or any(r.name_key == record.name_key for r in rows.values()):
                raise NameTaken(record.name_key)
            if kept:
                rows[account.id] = AccountRow(
                    account.id,
                    account.name,
                    record.name_key,
                    record.password_hash,
                    account.created,
                    look_alike=record.look_alike,
                )

    async def by_key(self, key: str) -> AccountRecord | None:
        self.db.reading()
        for row in self.db.account_rows.values():
            if row.name_key == key and row.deleted is None:
                return row.record()
        return None

    async def by_look_alike(self, key: str) -> AccountRecord | None:
        self.db.reading()
        for row in self.db.account_rows.values():
            if row.look_alike == key and row.deleted is None:
                return row.record()
        return None

    async def by_id(self, account_id: str) -> AccountRecord | None:
        self.db.reading()
        row = self.db.account_rows.get(account_id)
        return None if row is None else row.record()

    async def set_password(self, account_id: str, password_hash: str) -> None:
        async with self.db.writing() as kept:
            row = self.db.account_rows.get(account_id)
            if row is not None and kept:
                row.password_hash = password_hash

    async def add_session(self, session: SessionRecord) -> None:
        async with self.db.writing() as kept:
            if session.account_id not in self.db.account_rows:
                raise StoreUnavailable(f"no account {session.account_id} to open a session of")
            if session.id in self.db.sessions:
                raise StoreUnavailable("the session exists already")
            if kept:
                self.db.sessions[session.id] = session

    async def session(self, session_id: str) -> tuple[SessionRecord, AccountRecord] | None:
        self.db.reading()
        session = self.db.sessions.get(session_id)
        if session is None:
            return None
        return session, self.db.account_rows[session.account_id].record()

    async def touch_session(self, session_id: str, when: datetime) -> None:
        async with self.db.writing() as kept:
            session = self.db.sessions.get(session_id)
            if session is not None and kept:
                self.db.sessions[session_id] = dataclasses.replace(session, last_used=when)
                self.db.account_rows[session.account_id].last_seen = when

    async def end_session(self, session_id: str) -> None:
        async with self.db.writing() as kept:
            if kept:
                self.db.sessions.pop(session_id, None)

    async def end_sessions(self, account_id: str, keep: str | None = None) -> None:
        async with self.db.writing() as kept:
            if kept:
                self._end_sessions(account_id, keep)

    async def attempts(self, key: str) -> Attempts | None:
        self.db.reading()
        return self.db.attempts.get(key)

    async def count_failure(
        self, key: str, now: datetime, window: timedelta, limit: int, lock: timedelta
    ) -> Attempts:
        async with self.db.writing() as kept:
            known = self.db.attempts.get(key)
            if known is None or known.first <= now - window:
                counted = Attempts(1, now, None)  # a new window
            else:
                counted = dataclasses.replace(known, failures=known.failures + 1)
            if counted.failures >= limit and counted.locked_until is None:
                counted = dataclasses.replace(counted, locked_until=now + lock)
            if kept:
                self.db.attempts[key] = counted
            return counted

    async def clear_attempts(self, key: str) -> None:
        async with self.db.writing() as kept:
            if kept:
                self.db.attempts.pop(key, None)

    async def link_seats(self, account_id: str, token_hashes: Sequence[str]) -> int:
        async with self.db.writing() as kept:
            wanted = set(token_hashes)
            seats = [
                seat
                for table in self.db.tables.values()
                for seat in table.seats
                if seat.token_hash in wanted and seat.account_id is None
            ]
            if kept:
                for seat in seats:
                    seat.account_id = account_id
            return len(seats)

    async def seats_of(self, account_id: str, limit: int) -> list[HeldSeat]:
        self.db.reading()
        held = [
            (table.created, table.id, seat.seat)
            for table in self.db.tables.values()
            for seat in table.seats
            if seat.account_id == account_id
        ]
        held.sort(key=lambda h: (h[1], h[2]))
        held.sort(key=lambda h: h[0], reverse=True)
        return [HeldSeat(table_id, seat) for _, table_id, seat in held[: max(limit, 0)]]

    async def set_seat_token(
        self, table_id: str, seat: int, account_id: str, token_hash: str
    ) -> bool:
        async with self.db.writing() as kept:
            table = self.db.tables.get(table_id)
            places = [] if table is None else table.seats
            held = [s for s in places if s.seat == seat and s.account_id == account_id]
            if kept:
                for place in held:
                    place.token_hash = token_hash
            return bool(held)

    async def delete(self, account_id: str, when: datetime, neutral_name: str) -> list[HeldSeat]:
        async with self.db.writing() as kept:
            held = sorted(
                (table.id, seat.seat)
                for table in self.db.tables.values()
                for seat in table.seats
                if seat.account_id == account_id
            )
            row = self.db.account_rows.get(account_id)
            if kept:
                if row is not None:
                    # The name is freed: the key can never clash with a real name's key
                    # ('~' is not allowed in names), and the old name is not kept.
                    row.name = neutral_name[:NAME_LENGTH]
                    row.name_key = f"~{account_id}"[:NAME_LENGTH]
                    row.look_alike = ""
                    row.password_hash = ""
                    row.deleted = when
                    row.last_seen = None
                self._end_sessions(account_id, None)
                for table_id, number in held:
                    for seat in self.db.tables[table_id].seats:
                        if seat.seat == number:
                            seat.account_id, seat.name = None, neutral_name
                    lines = self.db.chat.get(table_id, [])
                    lines[:] = [
                        dataclasses.replace(line, name=neutral_name)
                        if line.author == f"s{number}"
                        else line
                        for line in lines
                    ]
            return [HeldSeat(table_id, seat) for table_id, seat in held]

    async def set_banned(self, account_id: str, when: datetime | None) -> None:
        async with self.db.writing() as kept:
            row = self.db.account_rows.get(account_id)
            if kept:
                if row is not None:
                    row.banned = when
                if when is not None:
                    self._end_sessions(account_id, None)

    def _end_sessions(self, account_id: str, keep: str | None) -> None:
        for session_id, session in list(self.db.sessions.items()):
            if session.account_id == account_id and session_id != keep:
                del self.db.sessions[session_id]
