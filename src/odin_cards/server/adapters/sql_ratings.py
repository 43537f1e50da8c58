"""Results, ratings, profiles and leaderboards on SQL (migration 0010): the core's
:class:`~odin_cards.server.core.ports.RatingStore` and
:class:`~odin_cards.server.core.ports.ProfileStore`, one class on the same tables."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from odin_cards.server.adapters import sql_schema as schema
from odin_cards.server.adapters.sql_store import reading, transaction, utc
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


class SqlRatingStore:
    """Results and ratings on SQLite or PostgreSQL. A table is settled in one
    transaction whose first write is its ``table_results`` row (the primary key): a second
    settling, here or in another process, finds it and changes nothing, or fails on the
    key and is tried again."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # ------------------------------------------------------------ settling

    async def settle(self, result: TableResult, rater: Rater) -> Settled:
        r = schema.table_results.c
        async with transaction(self.engine, "store a table's results") as connection:
            done = await connection.scalar(
                sa.select(r.table_id).where(r.table_id == result.table_id)
            )
            if done is not None:
                return Settled(False, False)
            await connection.execute(
                sa.insert(schema.table_results).values(
                    table_id=result.table_id,
                    game=result.game,
                    players=result.players,
                    rating_class=result.rating_class,
                    finished=utc(result.finished),
                    rated=False,
                    note=None,
                )
            )
            people = [seat for seat in result.seats if seat.person or seat.bot is not None]
            if people:
                await connection.execute(
                    sa.insert(schema.seat_results),
                    [
                        {
                            "table_id": result.table_id,
                            "seat": seat.seat,
                            "person": seat.person,
                            "bot": seat.bot,
                            "place": seat.place,
                            "won": seat.won,
                            "score": seat.score,
                            "statistics": seat.statistics,
                        }
                        for seat in people
                    ],
                )
            if not result.rated:
                return Settled(True, False)
            outcome = await self._rate(connection, result, rater)
            rated = not isinstance(outcome, str)
            await connection.execute(
                sa.update(schema.table_results)
                .where(r.table_id == result.table_id)
                .values(rated=rated, note=None if rated else str(outcome)[:120])
            )
            return Settled(True, rated, None if rated else str(outcome))

    async def _rate(
        self, connection: AsyncConnection, result: TableResult, rater: Rater
    ) -> str | None:
        s, g = schema.seats.c, schema.ratings.c
        accounts: dict[int, str | None] = {
            row.seat: row.account_id
            for row in await connection.execute(
                sa.select(s.seat, s.account_id).where(s.table_id == result.table_id)
            )
        }
        owners = sorted({a for a in accounts.values() if a is not None})
        current: dict[str, Rating] = {}
        if owners:
            rows = await connection.execute(
                sa.select(g.account_id, g.mu, g.sigma, g.games)
                .where(g.account_id.in_(owners), g.rating_class == result.rating_class)
                .order_by(g.account_id)
                .with_for_update()  # (PostgreSQL: two processes rate one account in turn)
            )
            current = {row.account_id: Rating(row.mu, row.sigma, row.games) for row in rows}
        changes = rater(accounts, current)
        if isinstance(changes, str):
            return changes
        for change in changes:
            values = {
                "mu": change.after.mu,
                "sigma": change.after.sigma,
                "games": change.after.games,
                "updated": utc(result.finished),
            }
            if change.account in current:
                await connection.execute(
                    sa.update(schema.ratings)
                    .where(g.account_id == change.account, g.rating_class == result.rating_class)
                    .values(**values)
                )
            else:  # (a new rating: another process's at once fails on the key, tried again)
                await connection.execute(
                    sa.insert(schema.ratings).values(
                        account_id=change.account, rating_class=result.rating_class, **values
                    )
                )
            await connection.execute(
                sa.insert(schema.rating_history).values(
                    account_id=change.account,
                    table_id=result.table_id,
                    rating_class=result.rating_class,
                    seat=change.seat,
                    place=change.place,
                    players=result.players,
                    mu_before=change.before.mu,
                    sigma_before=change.before.sigma,
                    mu=change.after.mu,
                    sigma=change.after.sigma,
                    created=utc(result.finished),
                )
            )
        return None

    async def unsettled(self, limit: int) -> list[str]:
        t, r = schema.tables.c, schema.table_results.c
        async with reading(self.engine, "find unsettled tables") as connection:
            rows = await connection.execute(
                sa.select(t.id)
                .outerjoin(schema.table_results, r.table_id == t.id)
                .where(t.status == "finished", r.table_id.is_(None))
                .order_by(t.created, t.id)
                .limit(limit)
            )
            return list(rows.scalars())

    async def rating(self, account: str, rating_class: str) -> Rating:
        g = schema.ratings.c
        async with reading(self.engine, "read a rating") as connection:
            row = (
                await connection.execute(
                    sa.select(g.mu, g.sigma, g.games).where(
                        g.account_id == account, g.rating_class == rating_class
                    )
                )
            ).first()
        return Rating() if row is None else Rating(row.mu, row.sigma, row.games)

    # ------------------------------------------------------------ profiles

    async def person(self, name_key: str) -> Member | None:
        a = schema.accounts.c
        if len(name_key) > 32 or "\x00" in name_key:
            return None
        async with reading(self.engine, "find an account") as connection:
            row = (
                await connection.execute(
                    sa.select(a.id, a.name, a.created).where(
                        a.name_key == name_key, a.deleted.is_(None)
                    )
                )
            ).first()
        return None if row is None else Member(row.id, row.name, utc(row.created))

    async def ratings_of(self, account: str) -> dict[str, Rating]:
        g = schema.ratings.c
        async with reading(self.engine, "read ratings") as connection:
            rows = await connection.execute(
                sa.select(g.rating_class, g.mu, g.sigma, g.games).where(g.account_id == account)
            )
            return {row.rating_class: Rating(row.mu, row.sigma, row.games) for row in rows}

    async def history(self, account: str, limit: int) -> list[HistoryPoint]:
        h = schema.rating_history.c
        points: list[HistoryPoint] = []
        async with reading(self.engine, "read a rating's history") as connection:
            for rating_class in CLASSES:
                rows = await connection.execute(
                    sa.select(schema.rating_history)
                    .join(schema.tables, schema.tables.c.id == h.table_id)
                    .where(
                        h.account_id == account,
                        h.rating_class == rating_class,
                        schema.listed_table(),
                    )
                    .order_by(h.created.desc(), h.table_id.desc())
                    .limit(limit)
                )
                found = [
                    HistoryPoint(
                        row.table_id,
                        row.rating_class,
                        utc(row.created),
                        row.place,
                        row.players,
                        Rating(row.mu_before, row.sigma_before),
                        Rating(row.mu, row.sigma),
                    )
                    for row in rows
                ]
                points.extend(reversed(found))
        return points

    def _mine(self, account: str) -> Any:
        s, sr = schema.seats.c, schema.seat_results.c
        return (
            sa.select(schema.seat_results)
            .join(schema.seats, (s.table_id == sr.table_id) & (s.seat == sr.seat))
            .where(s.account_id == account, sr.person.is_(True))
        )

    async def played(self, account: str) -> list[Played]:
        s, sr, r = schema.seats.c, schema.seat_results.c, schema.table_results.c
        won = sa.func.sum(sa.case((sr.won.is_(True), 1), else_=0))
        async with reading(self.engine, "count an account's games") as connection:
            rows = await connection.execute(
                sa.select(r.players, sa.func.count().label("games"), won.label("won"))
                .select_from(schema.seat_results)
                .join(schema.seats, (s.table_id == sr.table_id) & (s.seat == sr.seat))
                .join(schema.table_results, r.table_id == sr.table_id)
                .where(s.account_id == account, sr.person.is_(True))
                .group_by(r.players)
                .order_by(r.players)
            )
            return [Played(row.players, int(row.games), int(row.won or 0)) for row in rows]

    async def recent(self, account: str, limit: int) -> list[PlayedTable]:
        s, t = schema.seats.c, schema.tables.c
        sr, r = schema.seat_results.c, schema.table_results.c
        async with reading(self.engine, "list an account's tables") as connection:
            rows = await connection.execute(
                sa.select(
                    t.id,
                    t.game,
                    t.players,
                    t.status,
                    t.created,
                    s.seat,
                    sr.place,
                    sr.won,
                    r.rated,
                )
                .select_from(schema.seats)
                .join(schema.tables, t.id == s.table_id)
                .outerjoin(schema.seat_results, (sr.table_id == s.table_id) & (sr.seat == s.seat))
                .outerjoin(schema.table_results, r.table_id == s.table_id)
                .where(s.account_id == account, schema.listed_table())
                .order_by(t.created.desc(), t.id, s.seat)
                .limit(limit)
            )
            return [
                PlayedTable(
                    row.id,
                    row.game,
                    row.players,
                    row.status,
                    utc(row.created),
                    row.seat,
                    row.place,
                    row.won,
                    row.rated,
                )
                for row in rows
            ]

    async def figures(
        self, account: str, limit: int, games: Collection[str]
    ) -> list[dict[str, Any]]:
        if not games:
            return []
        s, sr, r = schema.seats.c, schema.seat_results.c, schema.table_results.c
        async with reading(self.engine, "read an account's figures") as connection:
            rows = await connection.execute(
                sa.select(sr.statistics)
                .select_from(schema.seat_results)
                .join(schema.seats, (s.table_id == sr.table_id) & (s.seat == sr.seat))
                .join(schema.table_results, r.table_id == sr.table_id)
                .where(s.account_id == account, sr.person.is_(True), r.game.in_(list(games)))
                .order_by(r.finished.desc(), r.table_id, sr.seat)
                .limit(limit)
            )
            return [dict(row.statistics or {}) for row in rows]

    async def board(
        self, rating_class: str, offset: int, limit: int, provisional: bool
    ) -> tuple[int, list[BoardEntry]]:
        g, a = schema.ratings.c, schema.accounts.c
        where = [g.rating_class == rating_class, a.deleted.is_(None), a.banned.is_(None)]
        if not provisional:
            where += [g.games >= PROVISIONAL_GAMES, g.sigma <= PROVISIONAL_SIGMA]
        joined = schema.ratings.join(schema.accounts, a.id == g.account_id)
        async with reading(self.engine, "read a leaderboard") as connection:
            total = await connection.scalar(
                sa.select(sa.func.count()).select_from(joined).where(*where)
            )
            rows = await connection.execute(
                sa.select(a.name, g.mu, g.sigma, g.games)
                .select_from(joined)
                .where(*where)
                .order_by(g.mu.desc(), a.name_key)
                .offset(offset)
                .limit(limit)
            )
            entries = [BoardEntry(row.name, Rating(row.mu, row.sigma, row.games)) for row in rows]
        return int(total or 0), entries
