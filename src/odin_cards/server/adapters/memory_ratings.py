"""Results, ratings, profiles and leaderboards in memory: the core's
:class:`~odin_cards.server.core.ports.RatingStore` and
:class:`~odin_cards.server.core.ports.ProfileStore`, one class on the same rows (as on
SQL), with the faults of its database."""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

from odin_cards.server.adapters.memory_data import (
    HistoryRow,
    MemoryData,
    ResultRow,
    SeatResultRow,
)
from odin_cards.server.core.ports import StoreUnavailable
from odin_cards.server.core.ports.people import (
    CLASSES,
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    BoardEntry,
    HistoryPoint,
    Member,
    Played,
    PlayedTable,
    Rater,
    Rating,
    Settled,
    TableResult,
)

NOTE_LENGTH = 120
"""Characters kept of why a rated table was not rated (``table_results.note``)."""


class MemoryRatingStore:
    """Results and ratings in memory: a table is settled once, all or nothing (the rater
    is asked before anything is written)."""

    def __init__(self, database: MemoryData) -> None:
        self.db = database

    # ------------------------------------------------------------ settling

    async def settle(self, result: TableResult, rater: Rater) -> Settled:
        db = self.db
        async with db.writing() as kept:
            if result.table_id in db.results:
                return Settled(False, False)
            table = db.tables.get(result.table_id)
            if table is None:
                raise StoreUnavailable(f"no table {result.table_id} to store the results of")
            rating_class = result.rating_class
            changes: list[Any] | str = "not rated"
            if result.rated:
                accounts = {seat.seat: seat.account_id for seat in table.seats}
                owners = {a for a in accounts.values() if a is not None}
                current = {
                    a: db.rating_rows[(a, rating_class)]
                    for a in sorted(owners)
                    if (a, rating_class) in db.rating_rows
                }
                changes = rater(accounts, current)
            rated = result.rated and not isinstance(changes, str)
            note = None if rated or not result.rated else str(changes)
            if kept:
                db.results[result.table_id] = ResultRow(
                    result.table_id,
                    result.game,
                    result.players,
                    rating_class,
                    result.finished,
                    rated,
                    None if note is None else note[:NOTE_LENGTH],
                )
                for seat in result.seats:
                    if seat.person or seat.bot is not None:
                        db.seat_results[(result.table_id, seat.seat)] = SeatResultRow(
                            result.table_id,
                            seat.seat,
                            seat.person,
                            seat.bot,
                            seat.place,
                            seat.won,
                            seat.score,
                            copy.deepcopy(seat.statistics),
                        )
                for change in changes if not isinstance(changes, str) else ():
                    db.rating_rows[(change.account, rating_class)] = change.after
                    db.history[(change.account, result.table_id)] = HistoryRow(
                        change.account,
                        result.table_id,
                        rating_class,
                        change.seat,
                        change.place,
                        result.players,
                        change.before,
                        change.after,
                        result.finished,
                    )
            return Settled(True, rated, note)

    async def unsettled(self, limit: int) -> list[str]:
        self.db.reading()
        found = [
            t
            for t in self.db.tables.values()
            if t.status == "finished" and t.id not in self.db.results
        ]
        found.sort(key=lambda t: (t.created, t.id))
        return [t.id for t in found[: max(limit, 0)]]

    async def rating(self, account: str, rating_class: str) -> Rating:
        self.db.reading()
        return self.db.rating_rows.get((account, rating_class), Rating())

    # ------------------------------------------------------------ profiles

    async def person(self, name_key: str) -> Member | None:
        self.db.reading()
        for row in self.db.account_rows.values():
            if row.name_key == name_key and row.deleted is None:
                return Member(row.id, row.name, row.created)
        return None

    async def ratings_of(self, account: str) -> dict[str, Rating]:
        self.db.reading()
        return {
            rating_class: rating
            for (owner, rating_class), rating in self.db.rating_rows.items()
            if owner == account
        }

    async def history(self, account: str, limit: int) -> list[HistoryPoint]:
        self.db.reading()
        points: list[HistoryPoint] = []
        for rating_class in CLASSES:
            rows = [
                row
                for row in self.db.history.values()
                if row.account_id == account
                and row.rating_class == rating_class
                and self.db.listed(row.table_id)
            ]
            rows.sort(key=lambda row: (row.created, row.table_id), reverse=True)
            latest = rows[: max(limit, 0)]
            points.extend(
                HistoryPoint(
                    row.table_id,
                    row.rating_class,
                    row.created,
                    row.place,
                    row.players,
                    Rating(row.before.mu, row.before.sigma),
                    Rating(row.after.mu, row.after.sigma),
                )
                for row in reversed(latest)
            )
        return points

    def _mine(self, account: str) -> list[tuple[SeatResultRow, ResultRow]]:
        """The settled results of the account's seats that a person held."""
        found = []
        for table in self.db.tables.values():
            result = self.db.results.get(table.id)
            if result is None:
                continue
            for seat in table.seats:
                row = self.db.seat_results.get((table.id, seat.seat))
                if seat.account_id == account and row is not None and row.person:
                    found.append((row, result))
        return found

    async def played(self, account: str) -> list[Played]:
        self.db.reading()
        counts: dict[int, tuple[int, int]] = {}
        for row, result in self._mine(account):
            games, won = counts.get(result.players, (0, 0))
            counts[result.players] = (games + 1, won + (1 if row.won else 0))
        return [Played(players, *counts[players]) for players in sorted(counts)]

    async def recent(self, account: str, limit: int) -> list[PlayedTable]:
        self.db.reading()
        found = []
        for table in self.db.tables.values():
            if not self.db.listed(table.id):
                continue
            result = self.db.results.get(table.id)
            for seat in table.seats:
                if seat.account_id != account:
                    continue
                row = self.db.seat_results.get((table.id, seat.seat))
                found.append(
                    PlayedTable(
                        table.id,
                        table.game,
                        table.players,
                        table.status,
                        table.created,
                        seat.seat,
                        None if row is None else row.place,
                        None if row is None else row.won,
                        None if result is None else result.rated,
                    )
                )
        found.sort(key=lambda t: (t.table_id, t.seat))
        found.sort(key=lambda t: t.created, reverse=True)
        return found[: max(limit, 0)]

    async def figures(
        self, account: str, limit: int, games: Collection[str]
    ) -> list[dict[str, Any]]:
        self.db.reading()
        mine = [(row, result) for row, result in self._mine(account) if result.game in games]
        mine.sort(key=lambda found: (found[1].table_id, found[0].seat))
        mine.sort(key=lambda found: found[1].finished, reverse=True)
        return [copy.deepcopy(row.statistics) for row, _ in mine[: max(limit, 0)]]

    async def board(
        self, rating_class: str, offset: int, limit: int, provisional: bool
    ) -> tuple[int, list[BoardEntry]]:
        self.db.reading()
        listed = []
        for (account, kind), rating in self.db.rating_rows.items():
            row = self.db.account_rows.get(account)
            if kind != rating_class or row is None or row.deleted or row.banned:
                continue
            if not provisional and (
                rating.games < PROVISIONAL_GAMES or rating.sigma > PROVISIONAL_SIGMA
            ):
                continue
            listed.append((row.name_key, row.name, rating))
        listed.sort(key=lambda entry: entry[0])
        listed.sort(key=lambda entry: entry[2].mu, reverse=True)
        page = listed[max(offset, 0) : max(offset, 0) + max(limit, 0)]
        return len(listed), [BoardEntry(name, rating) for _, name, rating in page]
