"""Ratings, profiles and leaderboards through the real server (SQLite file and PostgreSQL):
rated tables only, once per table across restarts and concurrent settling, bots fixed,
classes apart, leaderboards paged, a deleted account's profile gone."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import secrets
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from odin_cards.server.adapters import sql_schema as db
from odin_cards.server.adapters.sql_ratings import SqlRatingStore
from odin_cards.server.adapters.sql_store import SqlTableStore
from odin_cards.server.core.clock import SystemClock
from odin_cards.server.core.people.ratings import Results, bot_ratings, places
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.settings import Settings

from .conftest import REDIS
from .harness import Server, open_client, running, running_two
from .test_play import play_out
from .test_ratings_domain import MU, SIGMA, plackett_luce

PASSWORD = "a long enough password"


async def sign_up(http: httpx.AsyncClient, name: str) -> httpx.AsyncClient:
    answer = await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    http.headers["X-CSRF-Token"] = answer.json()["csrf"]  # a rated table is a checked write
    return http


async def rated_table(
    http: httpx.AsyncClient, players: int, bots: dict[int, str] | None = None, rated: bool = True
) -> str:
    answer = await http.post(
        "/api/tables",
        json={
            "players": players,
            "bots": {str(s): b for s, b in (bots or {}).items()},
            "options": {"one_hand": True},
            "rated": rated,
        },
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["table"]["status"] in ("waiting", "playing")
    return str(answer.json()["table"]["id"])


async def sit(http: httpx.AsyncClient, table_id: str, seat: int, name: str) -> str:
    answer = await http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


async def finish(server: Server, table_id: str, tokens: list[str], seed: int = 1) -> Any:
    clients = [await open_client(server, table_id, t) for t in tokens]
    await play_out(clients, random.Random(seed))
    for client in clients:
        await client.close()
    assert server.app is not None
    table = await server.app.state.hall.get(table_id)
    await server.app.state.results.settle(table)  # (the hook's, or after it: once either way)
    return table


async def profile(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    answer = await http.get(f"/api/people/{name}")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


async def test_a_rated_heads_up_game_gives_both_people_the_models_ratings(server: Server) -> None:
    async with server.http() as ann, server.http() as bo:
        await sign_up(ann, "Ann"), await sign_up(bo, "Bob")
        table_id = await rated_table(ann, 2)
        tokens = [await sit(ann, table_id, 0, "Ann"), await sit(bo, table_id, 1, "Bob")]
        table = await finish(server, table_id, tokens)
        scores = table.game.outcome.scores
        place = places(scores)
        expected = plackett_luce([(MU, SIGMA), (MU, SIGMA)], list(place))
        for name, seat in (("Ann", 0), ("bob", 1)):
            seen = await profile(ann, name)
            rating = seen["ratings"]["heads-up"]["rating"]
            assert rating["mu"] == pytest.approx(expected[seat][0], abs=1e-3)
            assert rating["sigma"] == pytest.approx(expected[seat][1], abs=1e-3)
            assert rating["games"] == 1 and rating["provisional"] is True
            assert seen["ratings"]["multi"]["rating"] is None
            history = seen["ratings"]["heads-up"]["history"]
            assert [(h["table"], h["place"]) for h in history] == [(table_id, place[seat])]
            assert seen["games"] == 1 and seen["by_players"][0]["players"] == 2
            assert seen["won"] == (1 if place[seat] == 1 else 0)
            assert seen["recent"][0]["url"] == f"/t/{table_id}/replay"
            assert seen["recent"][0]["rated"] is True
            assert seen["statistics"]["games"] == 1 and seen["statistics"]["cards_played"] > 0
        assert (await ann.get("/api/leaderboard")).json()["total"] == 0  # both provisional
        board = (await ann.get("/api/leaderboard?provisional=true")).json()
        assert [e["name"] for e in board["entries"]] == (
            ["Ann", "Bob"] if place[0] < place[1] else ["Bob", "Ann"]
        ) or place[0] == place[1]
        again = await server.app.state.results.settle(table)  # type: ignore[union-attr]
        assert again is not None and not again.new
        assert (await profile(ann, "Ann"))["ratings"]["heads-up"]["rating"]["games"] == 1


async def test_a_rematch_of_a_rated_table_is_rated_and_on_both_profiles(server: Server) -> None:
    """The following table's seats keep their accounts (seats.account_id, linked in the
    database when each person sat down), so its game is rated too."""
    async with server.http() as ann, server.http() as bo:
        await sign_up(ann, "Ann"), await sign_up(bo, "Bob")
        table_id = await rated_table(ann, 2)
        tokens = [await sit(ann, table_id, 0, "Ann"), await sit(bo, table_id, 1, "Bob")]
        await finish(server, table_id, tokens)
        path = f"/api/tables/{table_id}/rematch"
        for http, token in ((ann, tokens[0]), (bo, tokens[1])):
            answer = await http.post(path, json={"token": token, "answer": "accept"})
            assert answer.status_code == 200, answer.text
        following = answer.json()["rematch"]["next_table"]
        assert following
        await finish(server, following, tokens, seed=2)
        for name in ("Ann", "Bob"):
            seen = await profile(ann, name)
            assert {g["table"]: g["rated"] for g in seen["recent"]} == {
                table_id: True,
                following: True,
            }
            heads_up = seen["ratings"]["heads-up"]
            assert heads_up["rating"]["games"] == 2
            assert [h["table"] for h in heads_up["history"]] == [table_id, following]


async def test_only_rated_tables_change_ratings_and_guests_cannot_play_them(server: Server) -> None:
    async with server.http() as ann, server.http() as bo, server.http() as guest:
        await sign_up(ann, "Ann"), await sign_up(bo, "Bob")
        refused = await guest.post("/api/tables", json={"players": 2, "rated": True})
        assert refused.status_code == 401 and refused.json()["error"] == "login_required"
        hinted = await ann.post("/api/tables", json={"players": 2, "rated": True, "hints": True})
        assert hinted.status_code == 422 and hinted.json()["error"] == "bad_options"
        table_id = await rated_table(ann, 2)
        seat = await guest.post(f"/api/tables/{table_id}/seats/1", json={"name": "Guest"})
        assert seat.status_code == 401
        unrated = await rated_table(ann, 2, rated=False)
        tokens = [await sit(ann, unrated, 0, "Ann"), await sit(bo, unrated, 1, "Bob")]
        await finish(server, unrated, tokens)
        seen = await profile(bo, "Ann")
        assert seen["games"] == 1 and seen["recent"][0]["rated"] is False
        assert seen["ratings"]["heads-up"]["rating"] is None


async def test_a_bot_moving_for_a_person_leaves_the_table_unrated(server: Server) -> None:
    async with server.http() as ann, server.http() as bo:
        await sign_up(ann, "Ann"), await sign_up(bo, "Bob")
        table_id = await rated_table(ann, 2)
        tokens = [await sit(ann, table_id, 0, "Ann"), await sit(bo, table_id, 1, "Bob")]
        left = await bo.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]})
        assert left.status_code == 200, left.text
        await finish(server, table_id, tokens[:1])
        seen = await profile(ann, "Ann")
        assert seen["recent"][0]["rated"] is False
        assert seen["ratings"]["heads-up"]["rating"] is None
        assert (await profile(ann, "Bob"))["ratings"]["heads-up"]["rating"] is None


async def test_three_players_rate_the_multi_class_with_a_fixed_bot(server: Server) -> None:
    async with server.http() as ann, server.http() as bo:
        await sign_up(ann, "Ann"), await sign_up(bo, "Bob")
        table_id = await rated_table(ann, 3, {2: "heuristic"})
        tokens = [await sit(ann, table_id, 0, "Ann"), await sit(bo, table_id, 1, "Bob")]
        table = await finish(server, table_id, tokens)
        place = list(places(table.game.outcome.scores))
        bot = bot_ratings("odin")["heuristic"]
        expected = plackett_luce([(MU, SIGMA), (MU, SIGMA), (bot.mu, bot.sigma)], place)
        seen = await profile(ann, "Ann")
        assert seen["ratings"]["heads-up"]["rating"] is None
        assert seen["ratings"]["multi"]["rating"]["mu"] == pytest.approx(expected[0][0], abs=1e-3)
        assert bot_ratings("odin")["heuristic"] == bot
        bots = (await ann.get("/api/ratings/bots")).json()["levels"]
        assert {b["level"]: b["mu"] for b in bots}["heuristic"] == bot.mu


async def test_a_rating_is_applied_once_across_a_restart_and_concurrent_settling(
    settings: Settings,
) -> None:
    async with running(settings) as server:
        assert server.app is not None
        server.app.state.hall.on_finished.clear()  # the process stops before it rates
        async with server.http() as ann:
            await sign_up(ann, "Ann")
            table_id = await rated_table(ann, 2, {1: "random"})
            token = await sit(ann, table_id, 0, "Ann")
            clients = [await open_client(server, table_id, token)]
            await play_out(clients, random.Random(4))
            await clients[0].close()
            assert (await profile(ann, "Ann"))["ratings"]["heads-up"]["rating"] is None
    for _ in range(2):
        async with running(settings) as server, server.http() as http:
            assert server.app is not None
            await server.app.state.results.sweep()  # (after the start's sweep, or before it)
            seen = await profile(http, "Ann")
            assert seen["ratings"]["heads-up"]["rating"]["games"] == 1
            assert len(seen["ratings"]["heads-up"]["history"]) == 1
    # Two processes settling one table at once: one does it.
    engine = create_async_engine(settings.database_url)
    try:
        async with engine.begin() as connection:
            await connection.execute(sa.delete(db.rating_history))
            await connection.execute(sa.delete(db.ratings))
            await connection.execute(sa.delete(db.seat_results))
            await connection.execute(sa.delete(db.table_results))
        stored = await SqlTableStore(engine).load(table_id)
        assert stored is not None
        table = LiveTable.replay(stored)
        store = SqlRatingStore(engine)

        async def nothing(_: str) -> LiveTable:
            raise AssertionError("not swept here")

        twins = [Results(store, nothing, SystemClock(), lambda _: None) for _ in range(2)]
        done = await asyncio.gather(*(r.settle(table) for r in twins))
        assert sorted(d.new for d in done if d is not None) == [False, True]
        async with running(settings) as server, server.http() as http:
            seen = await profile(http, "Ann")
            assert seen["ratings"]["heads-up"]["rating"]["games"] == 1
            assert len(seen["ratings"]["heads-up"]["history"]) == 1
    finally:
        await engine.dispose()


async def test_leaderboards_order_page_and_leave_out_deleted_banned_and_provisional(
    server: Server,
) -> None:
    now = datetime.now(UTC)
    engine = create_async_engine(server.settings.database_url)
    try:
        async with engine.begin() as connection:
            for i in range(30):
                account = secrets.token_hex(16)
                await connection.execute(
                    sa.insert(db.accounts).values(
                        id=account,
                        name=f"P{i:02d}",
                        name_key=f"p{i:02d}",
                        password_hash="x",
                        created=now,
                        deleted=now if i == 29 else None,
                        banned=now if i == 28 else None,
                    )
                )
                for rating_class, games in (("heads-up", 20 if i % 5 else 3), ("multi", 12)):
                    await connection.execute(
                        sa.insert(db.ratings).values(
                            account_id=account,
                            rating_class=rating_class,
                            mu=20.0 + i,
                            sigma=3.0,
                            games=games,
                            updated=now,
                        )
                    )
    finally:
        await engine.dispose()
    async with server.http() as http:
        first = (await http.get("/api/leaderboard?class=multi&limit=10")).json()
        assert first["total"] == 28
        assert [e["name"] for e in first["entries"]] == [f"P{i:02d}" for i in range(27, 17, -1)]
        assert [e["rank"] for e in first["entries"]] == list(range(1, 11))
        third = (await http.get("/api/leaderboard?class=multi&limit=10&offset=20")).json()
        assert [e["name"] for e in third["entries"]] == [f"P{i:02d}" for i in range(7, -1, -1)]
        heads_up = (await http.get("/api/leaderboard?class=heads-up&limit=100")).json()
        assert all(int(e["name"][1:]) % 5 for e in heads_up["entries"])
        assert not any(e["provisional"] for e in heads_up["entries"])
        marked = (await http.get("/api/leaderboard?class=heads-up&limit=100&provisional=1")).json()
        assert marked["total"] == 28 and any(e["provisional"] for e in marked["entries"])
        for bad in ("class=elo", "limit=0", "limit=101", "offset=-1", "offset=99999999"):
            answer = await http.get(f"/api/leaderboard?{bad}")
            assert answer.status_code == 422, bad
        assert (await http.get("/api/people/P05")).status_code == 200
        assert (await http.get("/api/people/P29")).status_code == 404  # deleted
        assert (await http.get("/api/people/" + "x" * 40)).status_code == 404


async def test_a_deleted_accounts_profile_is_gone(server: Server) -> None:
    async with server.http() as cleo:
        await sign_up(cleo, "Cleo")
        assert (await profile(cleo, "cleo"))["name"] == "Cleo"
        csrf = (await cleo.get("/api/account")).json()["csrf"]
        answer = await cleo.post(
            "/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf}
        )
        assert answer.status_code == 200, answer.text
        gone = await cleo.get("/api/people/Cleo")
        assert gone.status_code == 404 and gone.json()["error"] == "not_found"


@pytest.mark.multiprocess
@pytest.mark.redis
@pytest.mark.parametrize("processes", ["two"], indirect=True)  # (never on SQLite: conftest)
async def test_two_processes_rate_a_table_once(settings: Settings, processes: str) -> None:
    clustered = dataclasses.replace(
        settings, redis_url=REDIS, redis_prefix=f"odin-test-{secrets.token_hex(4)}:"
    )
    async with running_two(clustered) as server, server.http() as ann, server.http() as bob:
        await sign_up(ann, "Ann"), await sign_up(bob, "Bob")
        table_id = await rated_table(ann, 2)
        tokens = [await sit(ann, table_id, 0, "Ann"), await sit(bob, table_id, 1, "Bob")]
        clients = [await open_client(server, table_id, t) for t in tokens]
        await play_out(clients, random.Random(2))
        for client in clients:
            await client.close()
        # Both processes settle it (one of them is its owner, whose hook did too).
        async with running(clustered) as third:
            assert third.app is not None and server.app is not None
            for results in (server.app.state.results, third.app.state.results):
                table = await results.load(table_id)
                await results.settle(table)
        for name in ("Ann", "Bob"):
            seen = await profile(ann, name)
            assert seen["ratings"]["heads-up"]["rating"]["games"] == 1
            assert len(seen["ratings"]["heads-up"]["history"]) == 1
