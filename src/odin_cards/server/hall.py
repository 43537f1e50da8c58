"""The tables: each one's game held in memory, every change stored first, then announced.

The server is authoritative. A table's :class:`~odin_cards.rules.Game` is rebuilt from its
stored definition and event log when the server starts, so a killed server resumes every
table exactly. One asyncio lock per table serializes its changes: an action is checked
(turn, version, rules), written to the log (committed), applied, acknowledged and broadcast,
in that order. Each connection is sent its own seat's state; spectators the public one.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ..rules import (
    MalformedActionError,
    Options,
    parse_action,
)
from . import db
from . import messages as msg
from .bots import BotPool
from .connection import Connection
from .journal import Journal
from .messages import Refusal
from .settings import Settings
from .table import (
    MINE_LIMIT,
    OPEN_FOR,
    OPEN_LIMIT,
    ApiError,
    LiveTable,
    Seat,
    clean_name,
    hash_token,
)

log = logging.getLogger(__name__)


class Hall:
    """Every table of the server, and the only code that changes them."""

    def __init__(
        self, engine: AsyncEngine, journal: Journal, bots: BotPool, settings: Settings
    ) -> None:
        self.engine = engine
        self.journal = journal
        self.bots = bots
        self.settings = settings
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ loading

    async def start(self) -> None:
        """Rebuild every unfinished table from the database; bots to move carry on."""
        for table in await self._load(db.tables.c.status != "finished"):
            self.tables[table.id] = table
            self.schedule_bot(table)
        log.info("resumed %d unfinished tables", len(self.tables))

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def get(self, table_id: str) -> LiveTable | None:
        """The table ``table_id``, loaded from the database on first use (finished games)."""
        table = self.tables.get(table_id)
        if table is not None or len(table_id) > 16:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                found = await self._load(db.tables.c.id == table_id)
                if found:
                    table = self.tables[table_id] = found[0]
            return table

    async def _load(self, where: sa.ColumnElement[bool]) -> list[LiveTable]:
        ids = sa.select(db.tables.c.id).where(where).scalar_subquery()
        async with self.engine.connect() as connection:
            table_rows = (await connection.execute(sa.select(db.tables).where(where))).all()
            seat_rows = (
                await connection.execute(
                    sa.select(db.seats)
                    .where(db.seats.c.table_id.in_(ids))
                    .order_by(db.seats.c.table_id, db.seats.c.seat)
                )
            ).all()
            event_rows = (
                await connection.execute(
                    sa.select(db.events)
                    .where(db.events.c.table_id.in_(ids))
                    .order_by(db.events.c.table_id, db.events.c.version)
                )
            ).all()
        seats: dict[str, list[Seat]] = {}
        for row in seat_rows:
            seats.setdefault(row.table_id, []).append(
                Seat(row.seat, row.name, row.bot, row.token_hash)
            )
        log_rows: dict[str, list[Any]] = {}
        for row in event_rows:
            log_rows.setdefault(row.table_id, []).append(row)
        loaded = []
        for row in table_rows:
            try:
                table = LiveTable(
                    row.id,
                    row.players,
                    Options.from_dict(row.options),
                    row.seed,
                    seats.get(row.id, []),
                    row.status,
                    _utc(row.created),
                    row.previous_table,
                    row.next_table,
                )
                for event in log_rows.get(row.id, []):
                    if event.version != table.version:
                        raise ValueError(f"log row {event.version} at version {table.version}")
                    table.record_action(event.seat, event.action, event.client_id)
                table.events = []
                table.add_events(0)
            except Exception:
                log.exception("table %s does not replay; it is left out", row.id)
                continue
            if table.game.is_over:
                table.status = "finished"
            loaded.append(table)
        return loaded

    # -------------------------------------------------------------- lobby

    async def create(self, players: int, bots: dict[int, str], options: Options) -> LiveTable:
        seats = [Seat(seat, bot=bots.get(seat)) for seat in range(players)]
        status = "playing" if all(s.taken for s in seats) else "waiting"
        table = LiveTable(
            _new_id(), players, options, _new_seed(), seats, status, datetime.now(UTC)
        )
        async with self.engine.begin() as connection:
            await _insert_table(connection, table)
        self.tables[table.id] = table
        self.schedule_bot(table)
        return table

    def open_tables(self) -> list[dict[str, Any]]:
        """Tables waiting for players, newest first; abandoned ones (a day old) drop off."""
        since = datetime.now(UTC) - OPEN_FOR
        waiting = [t for t in self.tables.values() if t.status == "waiting" and t.created > since]
        waiting.sort(key=lambda t: t.created, reverse=True)
        return [t.to_api() for t in waiting[:OPEN_LIMIT]]

    async def mine(self, tokens: list[str]) -> list[dict[str, Any]]:
        hashes = [hash_token(t) for t in tokens]
        if not hashes:
            return []
        async with self.engine.connect() as connection:
            ids = (
                await connection.execute(
                    sa.select(db.seats.c.table_id)
                    .join(db.tables, db.tables.c.id == db.seats.c.table_id)
                    .where(db.seats.c.token_hash.in_(hashes))
                    .group_by(db.seats.c.table_id, db.tables.c.created)
                    .order_by(db.tables.c.created.desc())
                    .limit(MINE_LIMIT)
                )
            ).scalars()
            found = list(ids)
        tables = [await self.get(table_id) for table_id in found]
        return [t.to_api() for t in tables if t is not None]

    async def take_seat(self, table: LiveTable, seat: int, name: str) -> str:
        """Seat a person; return the seat's token (shown once; only its hash is kept)."""
        name = clean_name(name)
        async with table.lock:
            if not 0 <= seat < table.players:
                raise ApiError(404, "no_seat", f"this table has seats 0 to {table.players - 1}")
            if table.seats[seat].taken:
                raise ApiError(409, "taken", f"seat {seat} is taken")
            token = secrets.token_urlsafe(32)
            digest = hash_token(token)
            starts = all(s.taken for s in table.seats if s.seat != seat)
            async with self.engine.begin() as connection:
                done = await connection.execute(
                    sa.update(db.seats)
                    .where(
                        db.seats.c.table_id == table.id,
                        db.seats.c.seat == seat,
                        db.seats.c.name.is_(None),
                        db.seats.c.bot.is_(None),
                    )
                    .values(name=name, token_hash=digest)
                )
                if done.rowcount != 1:
                    raise ApiError(409, "taken", f"seat {seat} is taken")
                if starts:
                    await connection.execute(
                        sa.update(db.tables)
                        .where(db.tables.c.id == table.id)
                        .values(status="playing")
                    )
            table.seats[seat].name = name
            table.seats[seat].token_hash = digest
            if starts:
                table.status = "playing"
            self._announce(table)
            if starts:
                self._broadcast(table, table.version)
                self.schedule_bot(table)
            return token

    async def again(self, table: LiveTable, token: str) -> LiveTable:
        """The next game of the same players: a new table, every seat as it was."""
        if table.seat_of(token) is None:
            raise ApiError(403, "unauthorized", "only a player of this table can start another")
        async with table.lock:
            if table.status != "finished":
                raise ApiError(409, "not_finished", "the game is still being played")
            if table.next_table is not None:
                following = await self.get(table.next_table)
                if following is not None:
                    return following
            seats = [Seat(s.seat, s.name, s.bot, s.token_hash) for s in table.seats]
            following = LiveTable(
                _new_id(),
                table.players,
                table.options,
                _new_seed(),
                seats,
                "playing",
                datetime.now(UTC),
                previous_table=table.id,
            )
            async with self.engine.begin() as connection:
                await _insert_table(connection, following)
                await connection.execute(
                    sa.update(db.tables)
                    .where(db.tables.c.id == table.id)
                    .values(next_table=following.id)
                )
            self.tables[following.id] = following
            table.next_table = following.id
            self._announce(table)
            self.schedule_bot(following)
            return following

    # --------------------------------------------------------------- play

    async def hello(
        self, connection: Connection, table: LiveTable, token: str | None, version: int | None
    ) -> None:
        async with table.lock:
            seat = None
            if token is not None:
                seat = table.seat_of(token)
                if seat is None:
                    raise Refusal("unauthorized", "this token holds no seat at this table")
            connection.seat = seat
            connection.greeted = True
            table.connections.add(connection)
            connection.send(msg.welcome(seat, table.to_api()))
            resync = version is None or version > table.version
            since = 0 if resync else version
            assert since is not None
            connection.send(
                msg.update(table.version, table.events_json(since), table.state(seat), resync)
            )
            connection.version = table.version

    async def act(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        reply: Connection | None = None,
    ) -> int:
        """Validate, store, apply and announce one action; return the version after it."""
        async with table.lock:
            if client_id is not None and client_id in table.client_ids:
                owner, after = table.client_ids[client_id]
                if owner != seat:
                    raise Refusal("malformed", "this id was used by another seat", client_id)
                if reply is not None:
                    reply.send(msg.ack(client_id, after))
                return after
            game = table.game
            if table.status == "waiting":
                raise Refusal("not_started", "the game starts when every seat is taken", client_id)
            if game.is_over:
                raise Refusal("game_over", "the game is over", client_id)
            if version != table.version:
                raise Refusal(
                    "stale",
                    f"the table is at version {table.version}, not {version}: update first",
                    client_id,
                )
            if seat != game.to_move:
                who = table.seats[game.to_move].display() or f"seat {game.to_move}"
                raise Refusal("not_your_turn", f"it is {who}'s turn", client_id)
            try:
                action = parse_action(text)
            except MalformedActionError as error:
                raise Refusal("malformed", str(error), client_id) from None
            problem = game.problem(action)
            if problem is not None:
                raise Refusal("illegal", problem, client_id)
            trial = game.clone(history=False)
            trial.apply_unchecked(action)
            after = version + len(trial.history)
            row = {
                "table_id": table.id,
                "version": version,
                "result_version": after,
                "seat": seat,
                "action": action.text,
                "client_id": client_id,
                "created": datetime.now(UTC),
            }
            try:
                await self.journal.write([row], table.id if trial.is_over else None)
            except Exception:
                raise Refusal(
                    "unavailable", "the action could not be stored; try again", client_id
                ) from None
            game.apply(action, seat=seat)
            table.actions.append(action.text)
            if client_id is not None:
                table.client_ids[client_id] = (seat, after)
            table.add_events(version)
            if reply is not None and client_id is not None:
                reply.send(msg.ack(client_id, after))
            self._broadcast(table, version)
            if game.is_over:
                table.status = "finished"
                self._announce(table)
            self.schedule_bot(table)
            return after

    def _broadcast(self, table: LiveTable, since: int) -> None:
        """Send every connection of ``table`` the events after ``since`` and its state."""
        version = table.version
        shared = table.events_json(since)
        make = table.states()
        states: dict[int | None, str] = {}
        for connection in list(table.connections):
            if connection.seat not in states:
                states[connection.seat] = make(connection.seat)
            events = (
                shared if connection.version == since else table.events_json(connection.version)
            )
            connection.send(msg.update(version, events, states[connection.seat]))
            connection.version = version

    def _announce(self, table: LiveTable) -> None:
        text = msg.table(table.to_api())
        for connection in list(table.connections):
            connection.send(text)

    # --------------------------------------------------------------- bots

    def schedule_bot(self, table: LiveTable) -> None:
        """If a bot is to move at ``table``, let it move (once per version)."""
        game = table.game
        if table.status != "playing" or game.is_over:
            return
        seat = game.to_move
        level = table.seats[seat].bot
        if level is None or table.bot_version == table.version:
            return
        table.bot_version = table.version
        task = asyncio.create_task(self._bot_turn(table, seat, level, table.version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bot_turn(self, table: LiveTable, seat: int, level: str, version: int) -> None:
        delay = self.settings.bot_delay
        pause = random.uniform(delay * 2 / 3, delay * 4 / 3) if delay > 0 else 0.0
        try:
            action, _ = await asyncio.gather(
                self.bots.move(level, table.players, table.options, table.seed, table.actions[:]),
                asyncio.sleep(pause),
            )
            await self.act(table, seat, action, version, None)
            return
        except Refusal as refusal:
            if refusal.code != "unavailable":  # the table moved on: nothing to do
                log.warning("bot move at table %s refused: %s", table.id, refusal.message)
                return
            log.error("bot move at table %s not stored; trying again", table.id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot move at table %s failed; trying again", table.id)
        await asyncio.sleep(1.0)
        if table.bot_version == version:
            table.bot_version = -1
            self.schedule_bot(table)


def _new_id() -> str:
    return secrets.token_urlsafe(6)


def _new_seed() -> int:
    return secrets.randbits(63)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def _insert_table(connection: Any, table: LiveTable) -> None:
    await connection.execute(
        sa.insert(db.tables).values(
            id=table.id,
            players=table.players,
            options=table.options.to_dict(),
            seed=table.seed,
            status=table.status,
            created=table.created,
            previous_table=table.previous_table,
            next_table=table.next_table,
        )
    )
    await connection.execute(
        sa.insert(db.seats),
        [
            {
                "table_id": table.id,
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "token_hash": s.token_hash,
            }
            for s in table.seats
        ],
    )
