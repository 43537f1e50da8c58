"""The results, ratings and profiles store's contract, on memory, SQLite and PostgreSQL
alike: a table is settled once, all or nothing; ratings and their history; what profiles
and leaderboards read."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import pytest

from odin_cards.server.core.ports import Storage, StoreUnavailable
from odin_cards.server.core.ports.people import (
    BoardEntry,
    HistoryPoint,
    Member,
    Played,
    PlayedTable,
    Rating,
    RatingChange,
    SeatResult,
    Settled,
    TableResult,
)

from .data import NOW, a_table, an_account, seated_table


def result(
    table_id: str,
    players: int = 2,
    rated: bool = False,
    age: timedelta = timedelta(0),
    **extra: Any,
) -> TableResult:
    """Seat 0 won; every seat a person's unless ``bots`` says otherwise."""
    bots: dict[int, str] = extra.get("bots", {})
    seats = tuple(
        SeatResult(
            seat,
            seat not in bots,
            bots.get(seat),
            1 + min(seat, 1),
            seat == 0,
            seat * 5,
            {"rounds_won": 3 - seat, "table": table_id},
        )
        for seat in range(players)
    )
    return TableResult(table_id, extra.get("game", "odin"), players, NOW - age, seats, rated, None)


def raise_by(points: float) -> Any:
    """A rater that raises every account's mu by ``points`` (and counts a game)."""

    def rate(accounts: Mapping[int, str | None], current: Mapping[str, Rating]) -> Any:
        changes = []
        for seat, account in sorted(accounts.items()):
            if account is not None:
                before = current.get(account, Rating())
                after = Rating(before.mu + points, before.sigma - 0.5, before.games + 1)
                changes.append(RatingChange(account, seat, 1 + seat, before, after))
        return changes

    return rate


async def test_a_table_is_settled_once(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", "finished"))
    first = await storage.ratings.settle(result("t1"), raise_by(1))
    assert first == Settled(True, False)
    assert await storage.ratings.settle(result("t1"), raise_by(1)) == Settled(False, False)
    with pytest.raises(StoreUnavailable):  # a table that is not stored has no results
        await storage.ratings.settle(result("ghost"), raise_by(1))


async def test_finished_tables_not_settled_are_found_oldest_first(storage: Storage) -> None:
    for table_id, age in (("new", 1), ("old", 3), ("mid", 2), ("tie", 2)):
        await storage.store.insert(a_table(table_id, "finished", age=timedelta(hours=age)))
    await storage.store.insert(a_table("running", "playing", age=timedelta(hours=9)))
    assert await storage.ratings.unsettled(10) == ["old", "mid", "tie", "new"]
    await storage.ratings.settle(result("mid"), raise_by(1))
    assert await storage.ratings.unsettled(2) == ["old", "tie"]
    assert await storage.ratings.unsettled(0) == []


async def test_a_rated_table_changes_its_accounts_ratings_with_what_the_rater_says(
    storage: Storage,
) -> None:
    ann, bob = an_account("Ann"), an_account("Bob")
    for account in (ann, bob):
        await storage.accounts.create(account)
    asked: list[tuple[dict[int, str | None], dict[str, Rating]]] = []

    def rater(accounts: Mapping[int, str | None], current: Mapping[str, Rating]) -> Any:
        asked.append((dict(accounts), dict(current)))
        return raise_by(2)(accounts, current)

    await seated_table(storage, "t1", {0: ann, 1: None}, "finished", players=3)
    settled = await storage.ratings.settle(result("t1", 3, rated=True, bots={2: "easy"}), rater)
    assert settled == Settled(True, True)
    assert asked == [({0: ann.account.id, 1: None, 2: None}, {})]
    heads_up = await storage.ratings.rating(ann.account.id, "heads-up")
    assert heads_up == Rating()  # the prior: rated in the other class
    multi = Rating(27.0, Rating().sigma - 0.5, 1)
    assert await storage.ratings.rating(ann.account.id, "multi") == multi
    await seated_table(storage, "t2", {0: ann, 1: bob}, "finished", players=4)
    await storage.ratings.settle(result("t2", 4, rated=True), rater)
    assert asked[1][1] == {ann.account.id: multi}
    assert await storage.profiles.ratings_of(ann.account.id) == {
        "multi": Rating(29.0, multi.sigma - 0.5, 2)
    }
    assert await storage.profiles.ratings_of(bob.account.id) == {
        "multi": Rating(27.0, Rating().sigma - 0.5, 1)
    }


async def test_a_rated_table_the_rater_refuses_is_settled_unrated(storage: Storage) -> None:
    ann = an_account("Ann")
    await storage.accounts.create(ann)
    await seated_table(storage, "t1", {0: ann, 1: None}, "finished")

    def refuse(accounts: Mapping[int, str | None], current: Mapping[str, Rating]) -> str:
        return "a seat was a guest's"

    settled = await storage.ratings.settle(result("t1", rated=True), refuse)
    assert settled == Settled(True, False, "a seat was a guest's")
    assert await storage.profiles.ratings_of(ann.account.id) == {}
    assert await storage.profiles.played(ann.account.id) == [Played(2, 1, 1)]
    [recent] = await storage.profiles.recent(ann.account.id, 10)
    assert (recent.place, recent.won, recent.rated) == (1, True, False)


async def test_a_rater_that_fails_stores_nothing(storage: Storage) -> None:
    ann = an_account("Ann")
    await storage.accounts.create(ann)
    await seated_table(storage, "t1", {0: ann}, "finished")

    def broken(accounts: Mapping[int, str | None], current: Mapping[str, Rating]) -> Any:
        raise RuntimeError("a bug in the rater")

    with pytest.raises(RuntimeError):
        await storage.ratings.settle(result("t1", rated=True), broken)
    assert await storage.ratings.unsettled(10) == ["t1"]
    assert await storage.profiles.played(ann.account.id) == []
    assert await storage.ratings.settle(result("t1", rated=True), raise_by(1)) == Settled(
        True, True
    )


async def test_a_rating_has_a_history_of_each_class_the_latest_kept(storage: Storage) -> None:
    ann = an_account("Ann")
    await storage.accounts.create(ann)
    for i, players in enumerate((2, 3, 2, 2)):
        table_id = f"t{i}"
        await seated_table(storage, table_id, {0: ann}, "finished", players=players)
        await storage.ratings.settle(
            result(table_id, players, rated=True, age=timedelta(hours=10 - i)), raise_by(1)
        )
    sigma = Rating().sigma

    def point(i: int, rating_class: str, mu: float, step: int) -> HistoryPoint:
        before = Rating(mu - 1, sigma - 0.5 * (step - 1))
        return HistoryPoint(
            f"t{i}",
            rating_class,
            NOW - timedelta(hours=10 - i),
            1,
            3 if rating_class == "multi" else 2,
            before,
            Rating(mu, sigma - 0.5 * step),
        )

    heads_up = [
        point(0, "heads-up", 26, 1),
        point(2, "heads-up", 27, 2),
        point(3, "heads-up", 28, 3),
    ]
    multi = [point(1, "multi", 26, 1)]
    assert await storage.profiles.history(ann.account.id, 10) == heads_up + multi
    assert await storage.profiles.history(ann.account.id, 2) == heads_up[1:] + multi
    assert await storage.profiles.history("nobody", 10) == []


async def test_a_profile_counts_games_lists_tables_and_adds_up_figures(storage: Storage) -> None:
    ann, bob = an_account("Ann", age=timedelta(days=3)), an_account("Bob")
    for account in (ann, bob):
        await storage.accounts.create(account)
    assert await storage.profiles.person("ann") == Member(
        ann.account.id, "Ann", ann.account.created
    )
    assert await storage.profiles.person("x" * 40) is None
    assert await storage.profiles.person("a\x00") is None
    # Ann wins t1 (heads-up, seat 0), loses t2 (seat 1), wins t3 (3 players, another
    # game), sits at t4 (still playing) and at t5 (finished, not settled yet).
    for table_id, holders, players, age in (
        ("t1", {0: ann, 1: bob}, 2, 5),
        ("t2", {0: bob, 1: ann}, 2, 4),
        ("t3", {0: ann}, 3, 3),
        ("t5", {1: ann}, 2, 2),
    ):
        await seated_table(storage, table_id, holders, "finished", timedelta(hours=age), players)
    await seated_table(storage, "t4", {0: ann}, "playing", timedelta(hours=1))
    for table_id, players, game, age in (
        ("t1", 2, "odin", 5),
        ("t2", 2, "odin", 4),
        ("t3", 3, "other", 3),
    ):
        await storage.ratings.settle(
            result(table_id, players, game=game, age=timedelta(hours=age)), raise_by(1)
        )
    assert await storage.profiles.played(ann.account.id) == [Played(2, 2, 1), Played(3, 1, 1)]
    recent = await storage.profiles.recent(ann.account.id, 10)
    assert [(t.table_id, t.seat, t.place, t.won, t.rated) for t in recent] == [
        ("t4", 0, None, None, None),
        ("t5", 1, None, None, None),
        ("t3", 0, 1, True, False),
        ("t2", 1, 2, False, False),
        ("t1", 0, 1, True, False),
    ]
    assert recent[0] == PlayedTable("t4", "odin", 2, "playing", NOW - timedelta(hours=1), 0)
    assert [t.table_id for t in await storage.profiles.recent(ann.account.id, 2)] == ["t4", "t5"]
    figures = await storage.profiles.figures(ann.account.id, 10, ["odin"])
    assert figures == [{"rounds_won": 2, "table": "t2"}, {"rounds_won": 3, "table": "t1"}]
    assert await storage.profiles.figures(ann.account.id, 1, ["odin", "other"]) == [
        {"rounds_won": 3, "table": "t3"}
    ]
    assert await storage.profiles.figures(ann.account.id, 10, []) == []
    assert await storage.profiles.played("nobody") == []


async def test_a_leaderboard_ranks_live_established_ratings(storage: Storage) -> None:
    # Ratings come only from settling: each person plays tables that raise their mu. Eve
    # has one game (provisional), Dee ties with Ann (then by name key), Bob is banned and
    # Fay deleted: neither is listed.
    games = {"Ann": (10, 1.0), "Bob": (10, 2.0), "Cy": (10, 0.5), "Dee": (10, 1.0)}
    games |= {"Eve": (1, 1.0), "Fay": (10, 3.0)}
    for name, (count, points) in games.items():
        account = an_account(name)
        await storage.accounts.create(account)
        for game in range(count):
            table_id = f"{name}-{game}"
            await seated_table(storage, table_id, {0: account}, "finished")
            await storage.ratings.settle(result(table_id, rated=True), raise_by(points))
    await storage.accounts.set_banned(an_account("Bob").account.id, NOW)
    await storage.accounts.delete(an_account("Fay").account.id, NOW, "Former player")
    total, page = await storage.profiles.board("heads-up", 0, 10, False)
    assert total == 3
    assert [entry.name for entry in page] == ["Ann", "Dee", "Cy"]
    assert page[0] == BoardEntry("Ann", Rating(35.0, Rating().sigma - 0.5 * 10, 10))
    total, page = await storage.profiles.board("heads-up", 1, 2, True)
    assert total == 4 and [entry.name for entry in page] == ["Dee", "Cy"]
    assert await storage.profiles.board("multi", 0, 10, True) == (0, [])


async def test_a_profile_never_lists_a_private_table_but_counts_its_games(
    storage: Storage,
) -> None:
    ann = an_account("Ann")
    await storage.accounts.create(ann)
    hidden = a_table("hid", "finished", timedelta(hours=1))
    hidden.settings = {"visibility": "private"}
    await storage.store.insert(hidden)
    await storage.store.take_seat("hid", 0, "Ann", "hid-0", False, ann.account.id)
    await seated_table(storage, "pub", {0: ann}, "finished", timedelta(hours=2))
    running = a_table("run", "playing")
    running.settings = {"visibility": "private"}
    await storage.store.insert(running)
    await storage.store.take_seat("run", 1, "Ann", "run-1", False, ann.account.id)
    for table_id, age in (("hid", 1), ("pub", 2)):
        await storage.ratings.settle(
            result(table_id, rated=True, age=timedelta(hours=age)), raise_by(1)
        )
    assert [t.table_id for t in await storage.profiles.recent(ann.account.id, 10)] == ["pub"]
    assert [p.table_id for p in await storage.profiles.history(ann.account.id, 10)] == ["pub"]
    assert await storage.profiles.played(ann.account.id) == [Played(2, 2, 2)]
    assert (await storage.profiles.ratings_of(ann.account.id))["heads-up"].games == 2
