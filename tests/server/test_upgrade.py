"""A database written by odin-cards 0.1 upgrades in place with nothing lost.

``tests/data/odin-0.1.sqlite3`` was written by the 0.1 server (``scripts/make-database-0.1.py``)
with games of every kind: finished ones (bots only, people, a play-again pair), running ones,
waiting ones and an abandoned one. Its sidecar ``odin-0.1.json`` says what 0.1 held in memory
at the end. After the migration every table is loaded through the table store and replayed
through the game contract: finished games end as recorded, running games stand at exactly
the same position (wire version, every seat's view), seat tokens still hash to their seats,
acknowledged client ids are where they were acknowledged, waiting tables and play-again links
survive. The PostgreSQL variant copies the same rows into a PostgreSQL database at schema
0001 and upgrades it.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from odin_cards.games import rules_of
from odin_cards.odin.rules.deal import removed_colours
from odin_cards.server.adapters import open_database
from odin_cards.server.adapters.sql_schema import (
    head_revision,
    make_engine,
    migrate,
    schema_revision,
)
from odin_cards.server.core.ports import StoredTable, TableStore
from odin_cards.server.settings import Settings, sqlite_url

from .harness import open_client, running

DATA = Path(__file__).parent.parent / "data"
DATABASE = DATA / "odin-0.1.sqlite3"
SIDECAR = json.loads((DATA / "odin-0.1.json").read_text())
TABLES: list[dict[str, Any]] = SIDECAR["tables"]
MADE = datetime.fromisoformat(SIDECAR["made"])
OPEN_FOR = timedelta(days=1)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def check_upgraded(store: TableStore) -> None:
    """Every table of the sidecar, loaded through ``store``, is as 0.1 left it."""
    for expected in TABLES:
        stored = await store.load(expected["id"])
        assert stored is not None, expected["id"]
        check_table(stored, expected)
        for token in expected["tokens"].values():
            assert expected["id"] in await store.tables_of([digest(token)], 100)
    kinds = {t["status"] for t in TABLES} | {"abandoned" for t in TABLES if t.get("abandoned")}
    assert kinds == {"finished", "playing", "waiting", "abandoned"}  # the data has every kind

    # The abandoned waiting table expires; the others resume.
    abandoned = sorted(t["id"] for t in TABLES if t.get("abandoned"))
    assert await store.expire_waiting(MADE - OPEN_FOR) == abandoned
    resumed = {s.table.id for s in await store.load_resumable(MADE - OPEN_FOR)}
    live = {t["id"] for t in TABLES if t["status"] != "finished" and not t.get("abandoned")}
    assert resumed == live


def check_table(stored: StoredTable, expected: dict[str, Any]) -> None:
    table, log = stored.table, stored.log
    where = f"table {table.id}"
    assert (table.game, table.rules_version, table.status) == ("odin", 2, expected["status"])
    # Migration 0003: a 4-colour game of 0.1 removed any two colours, and now says so.
    setup = expected["options"]
    if setup["colours"] == 4:
        setup = {**setup, "removal": "any-two"}
    assert (table.players, table.setup) == (expected["players"], setup), where
    assert (table.previous_table, table.next_table) == (
        expected["previous_table"],
        expected["next_table"],
    ), where
    assert [(s.seat, s.name, s.bot) for s in table.seats] == [
        (s["seat"], s["name"], s["bot"]) for s in expected["seats"]
    ], where
    for seat, token in expected["tokens"].items():
        assert table.seats[int(seat)].token_hash == digest(token), where
    assert [a.number for a in log] == list(range(expected["actions"])), where

    # Replay through the contract: the stored setup, seed and log give 0.1's game.
    rules = rules_of(table.game)
    game = rules.new_game(table.players, table.setup, table.seed)
    acknowledged: dict[str, tuple[int, int]] = {}
    for action in log:
        game.apply(action.action, action.seat)
        if action.client_id is not None:
            acknowledged[action.client_id] = (action.seat, game.public_length)
    assert acknowledged == {a["id"]: (a["seat"], a["version"]) for a in expected["acks"]}, where
    assert game.action_count == expected["actions"], where
    assert game.public_length == expected["version"], where

    recorded = rules.load_record(expected["record"]).replay()
    assert game.public_events() == recorded.public_events(), where
    for seat in [None, *range(table.players)]:
        assert game.view(seat) == recorded.view(seat), f"{where}, seat {seat}"
    assert game.current_player == recorded.current_player, where
    assert game.is_over == (expected["status"] == "finished"), where
    if game.is_over:
        assert game.outcome is not None and recorded.outcome is not None
        assert (game.outcome.scores, game.outcome.winners) == (
            recorded.outcome.scores,
            recorded.outcome.winners,
        ), where


async def test_a_0_1_sqlite_database_upgrades_with_nothing_lost(tmp_path: Path) -> None:
    shutil.copy(DATABASE, tmp_path / "odin.sqlite3")
    url = sqlite_url(tmp_path)
    engine = make_engine(url)
    try:
        assert await schema_revision(engine) == "0001"
    finally:
        await engine.dispose()
    async with open_database(url) as database:  # what odin serve does at start
        assert await schema_revision(database.engine) == head_revision()
        await check_upgraded(database.store)


async def test_the_upgraded_server_resumes_every_game_for_its_players(tmp_path: Path) -> None:
    shutil.copy(DATABASE, tmp_path / "odin.sqlite3")
    settings = Settings(
        database_url=sqlite_url(tmp_path),
        bot_delay=3600,  # the bots wait: every running game stays where 0.1 left it
        bot_workers=0,
        rate=1000,
        burst=1000,
        waiting_expiry=100 * 365 * 86400.0,  # the data's waiting tables stay open
    )
    rules = rules_of("odin")
    async with running(settings) as server, server.http() as http:
        for expected in TABLES:
            answer = await http.get(f"/api/tables/{expected['id']}")
            assert answer.status_code == 200, answer.text
            table = answer.json()["table"]
            assert (table["status"], table["next_table"]) == (
                expected["status"],
                expected["next_table"],
            )
            for seat, token in expected["tokens"].items():
                client = await open_client(server, expected["id"], token)
                assert client.seat == int(seat)
                assert client.version == expected["version"]
                if expected["status"] == "playing" and expected["acks"]:
                    # An action acknowledged by 0.1, sent again, is acknowledged again.
                    last = expected["acks"][-1]
                    if last["seat"] == int(seat):
                        again = await client.act("pass", last["id"])
                        assert (again["type"], again["version"]) == ("ack", last["version"])
                await client.close()
            if expected["status"] == "finished":
                record = (await http.get(f"/api/tables/{expected['id']}/record")).json()
                replayed = rules.load_record(record).replay().outcome
                recorded = rules.load_record(expected["record"]).replay().outcome
                assert replayed is not None and recorded is not None
                assert (replayed.scores, replayed.winners) == (recorded.scores, recorded.winners)


async def test_an_upgrade_that_fails_midway_changes_nothing(tmp_path: Path) -> None:
    shutil.copy(DATABASE, tmp_path / "odin.sqlite3")
    before = dump(tmp_path / "odin.sqlite3")
    # A leftover table in the way of the log's copy makes the upgrade fail after it has
    # already added columns to ``tables`` and numbered the log.
    obstacle = sqlite3.connect(tmp_path / "odin.sqlite3")
    obstacle.execute("CREATE TABLE _alembic_tmp_events (x INTEGER)")
    obstacle.commit()
    engine = make_engine(sqlite_url(tmp_path))
    try:
        with pytest.raises(sa.exc.OperationalError, match="_alembic_tmp_events"):
            await migrate(engine)
        assert await schema_revision(engine) == "0001"
    finally:
        await engine.dispose()
    after = dump(tmp_path / "odin.sqlite3")
    assert after.pop("_alembic_tmp_events") == []
    assert after == before  # every row and every column as 0.1 left them
    obstacle.execute("DROP TABLE _alembic_tmp_events")
    obstacle.commit()
    obstacle.close()
    async with open_database(sqlite_url(tmp_path)) as database:  # the next start upgrades
        await check_upgraded(database.store)


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of a SQLite file (its column names and rows) and its schema."""
    connection = sqlite3.connect(path)
    try:
        names = [
            r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        dumped = {}
        for name in names:
            cursor = connection.execute(f"SELECT * FROM {name} ORDER BY rowid")
            rows = cursor.fetchall()
            dumped[name] = [tuple(c[0] for c in cursor.description), *rows] if rows else []
        schema = connection.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        dumped["sqlite_master"] = [r for r in schema if r[1] != "_alembic_tmp_events"]
        return dumped
    finally:
        connection.close()


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_0_1_postgresql_database_upgrades_with_nothing_lost(
    database_url: str, tmp_path: Path
) -> None:
    shutil.copy(DATABASE, tmp_path / "odin.sqlite3")
    engine = make_engine(database_url)
    try:
        await migrate(engine, "0001")
        await copy_rows(tmp_path / "odin.sqlite3", engine)
    finally:
        await engine.dispose()
    async with open_database(database_url) as database:
        assert await schema_revision(database.engine) == head_revision()
        await check_upgraded(database.store)


async def copy_rows(source: Path, engine: Any) -> None:
    """Copy the 0.1 file's rows into a database at schema 0001, as 0.1 would have written
    them there (timestamps and JSON through SQLAlchemy's types)."""
    old = sa.MetaData()
    async with engine.connect() as connection:
        await connection.run_sync(old.reflect)
    sqlite = sqlite3.connect(source)
    sqlite.row_factory = sqlite3.Row
    try:
        async with engine.begin() as connection:
            for name in ("tables", "seats", "events"):
                rows = [dict(r) for r in sqlite.execute(f"SELECT * FROM {name}")]
                for row in rows:
                    if "options" in row:
                        row["options"] = json.loads(row["options"])
                    if "created" in row:
                        row["created"] = datetime.fromisoformat(row["created"] + "+00:00")
                await connection.execute(sa.insert(old.tables[name]), rows)
    finally:
        sqlite.close()


async def test_a_four_colour_game_stored_before_the_removal_option_resumes_exactly(
    tmp_path: Path,
) -> None:
    """Rows written by 0.2 before ``removal`` existed (schema 0002, rules version 1): after
    migration 0003 a running 4-colour game says ``any-two`` and stands where it stood; a
    6-colour set-up is left as it was."""
    rules = rules_of("odin")
    old_setup = {"target": 15, "one_hand": False, "next_leader": "rotate"}
    old_setup |= {"first_leader": None, "colours": 4, "goat": False}
    # A seed whose two rules leave out different colours, so only the right one replays.
    seed = next(
        s
        for s in range(100)
        if removed_colours(s, 4, "any-two") != removed_colours(s, 4, "red-or-black")
    )
    game = rules.new_game(2, {**old_setup, "removal": "any-two"}, seed)
    rng = random.Random(seed)
    log = []
    for _ in range(25):
        seat, action = game.current_player, rng.choice(game.legal_actions()).text
        game.apply(action, seat)
        log.append((seat, action))

    url = sqlite_url(tmp_path)
    engine = make_engine(url)
    try:
        await migrate(engine, "0002")
        old = sa.MetaData()
        async with engine.connect() as connection:
            await connection.run_sync(old.reflect)
        async with engine.begin() as connection:
            for table_id, setup, status in (("four", old_setup, "playing"), ("six", {}, "waiting")):
                row = {"id": table_id, "game": "odin", "rules_version": 1, "players": 2}
                row |= {"setup": setup, "seed": seed, "status": status, "created": MADE}
                await connection.execute(sa.insert(old.tables["tables"]), [row])
                seats = [{"table_id": table_id, "seat": s, "name": f"p{s}"} for s in (0, 1)]
                await connection.execute(sa.insert(old.tables["seats"]), seats)
            events = [
                {"table_id": "four", "number": n, "seat": s, "action": a, "created": MADE}
                for n, (s, a) in enumerate(log)
            ]
            await connection.execute(sa.insert(old.tables["events"]), events)
    finally:
        await engine.dispose()

    async with open_database(url) as database:
        six = await database.store.load("six")
        assert six is not None and (six.table.rules_version, six.table.setup) == (2, {})
        four = await database.store.load("four")
        assert four is not None
        assert four.table.rules_version == 2
        assert four.table.setup == {**old_setup, "removal": "any-two"}
        resumed = rules.new_game(2, four.table.setup, four.table.seed)
        for logged in four.log:
            resumed.apply(logged.action, logged.seat)
        for seat in (None, 0, 1):
            assert resumed.view(seat) == game.view(seat)
