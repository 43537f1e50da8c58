"""Ratings without a database: OpenSkill's Plackett-Luce worked out by hand, places, the
rules that make a table rated or not, bots' fixed ratings, provisional ratings."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from odin_cards.games import plugin_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.people.profiles import PlayedTable, add_up, table_entry
from odin_cards.server.core.people.ratings import (
    Rating,
    SeatResult,
    TableResult,
    bot_ratings,
    class_of,
    places,
    points,
    rate_table,
    rated_setting,
    result_of,
)
from odin_cards.server.core.ports import LoggedAction, SeatRecord, TableRecord
from odin_cards.server.core.tables.table import LiveTable

ODIN_BOTS = bot_ratings("odin")

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)

# The model's constants, written out again (not imported): the test checks the scale.
MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0


def plackett_luce(
    ratings: list[tuple[float, float]], ranks: list[int]
) -> list[tuple[float, float]]:
    """Weng and Lin's Algorithm 4 (Plackett-Luce, one player a team), from the paper:
    sigma grows by tau first; c^2 = sum(sigma^2 + beta^2); for each i, over every q whose
    rank is not after i's, omega_i gets (delta(i == q) - p_iq) / A_q and delta_i
    p_iq (1 - p_iq) / A_q, with p_iq = exp(mu_i / c) / sum over the ranks from q's on."""
    widened = [(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in ratings]
    c = math.sqrt(sum(sigma**2 + BETA**2 for _, sigma in widened))
    exp = [math.exp(mu / c) for mu, _ in widened]
    n = len(ratings)
    sums = [sum(exp[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    counts = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i, (mu, sigma) in enumerate(widened):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = exp[i] / sums[q]
                omega += ((1.0 if q == i else 0.0) - p) / counts[q]
                delta += p * (1 - p) / counts[q]
        omega *= sigma**2 / c
        delta *= (sigma**2 / c**2) * (sigma / c)  # gamma = sigma / c
        out.append((mu + omega, sigma * math.sqrt(max(1 - delta, 0.0001))))
    return out


def result(
    places_: list[int],
    bots: dict[int, str] | None = None,
    rated: bool = True,
    unrated: str | None = None,
) -> TableResult:
    bots = bots or {}
    seats = tuple(
        SeatResult(seat, seat not in bots, bots.get(seat), place, place == 1, 10 * place)
        for seat, place in enumerate(places_)
    )
    return TableResult("t1", "odin", len(places_), NOW, seats, rated, unrated)


def test_a_heads_up_win_between_new_players_gives_the_papers_ratings() -> None:
    (winner, loser) = plackett_luce([(MU, SIGMA), (MU, SIGMA)], [1, 2])
    changes = rate_table(result([1, 2]), {0: "ann", 1: "bo"}, {})
    assert isinstance(changes, list)
    by = {c.account: c for c in changes}
    assert by["ann"].after.mu == pytest.approx(winner[0], abs=1e-9)
    assert by["ann"].after.sigma == pytest.approx(winner[1], abs=1e-9)
    assert by["bo"].after.mu == pytest.approx(loser[0], abs=1e-9)
    assert by["bo"].after.sigma == pytest.approx(loser[1], abs=1e-9)
    # By hand: sigma^2 = 69.4514 with tau, c = sqrt(2 (69.4514 + 17.3611)) = 13.1767,
    # omega = 69.4514 / 13.1767 / 2 = 2.6354.
    assert by["ann"].after.mu == pytest.approx(27.6354, abs=1e-4)
    assert by["bo"].after.mu == pytest.approx(22.3646, abs=1e-4)
    assert by["ann"].before == Rating() and by["ann"].after.games == 1


def test_three_players_with_known_ratings_and_a_shared_place() -> None:
    current = {"a": Rating(30.0, 4.0, 12), "b": Rating(22.0, 6.0, 3), "c": Rating(25.0, 2.0, 40)}
    changes = rate_table(result([2, 1, 2]), {0: "a", 1: "b", 2: "c"}, current)
    assert isinstance(changes, list)
    expected = plackett_luce([(30.0, 4.0), (22.0, 6.0), (25.0, 2.0)], [2, 1, 2])
    by = {c.account: c.after for c in changes}
    # The paper's update for every place, the shared one included (A_q counts the tie).
    for account, (mu, _) in zip("abc", expected, strict=True):
        assert by[account].mu == pytest.approx(mu, abs=1e-9)
    assert by["b"].mu > 22.0 and by["a"].mu < 30.0
    for account, (_, sigma) in zip("abc", expected, strict=True):
        assert by[account].sigma == pytest.approx(sigma, abs=1e-9)
    assert [by[a].games for a in "abc"] == [13, 4, 41]


def test_a_tie_between_equal_players_keeps_mu_and_narrows_sigma() -> None:
    changes = rate_table(result([1, 1]), {0: "a", 1: "b"}, {})
    assert isinstance(changes, list)
    for change in changes:
        assert change.after.mu == pytest.approx(MU, abs=1e-12)
        assert change.after.sigma < math.sqrt(SIGMA**2 + TAU**2)


def test_a_bot_takes_part_with_its_fixed_rating_and_is_not_changed() -> None:
    expert = ODIN_BOTS["expert"]
    changes = rate_table(result([1, 2], bots={1: "expert"}), {0: "ann", 1: None}, {})
    assert isinstance(changes, list)
    assert [c.account for c in changes] == ["ann"]
    (beaten_expert, _) = plackett_luce([(MU, SIGMA), (expert.mu, expert.sigma)], [1, 2])
    assert changes[0].after.mu == pytest.approx(beaten_expert[0], abs=1e-9)
    # Beating the expert is worth more than beating the random bot.
    against_random = rate_table(result([1, 2], bots={1: "random"}), {0: "ann", 1: None}, {})
    assert isinstance(against_random, list)
    assert changes[0].after.mu > against_random[0].after.mu > MU
    assert ODIN_BOTS["expert"] == expert  # (fixed)


def test_bot_reference_ratings_follow_the_ladder() -> None:
    ladder = {
        "random": 0,
        "heuristic": 470,
        "network": 528,
        "search-net": 592,
        "search-v1": 631,
        "search": 694,
        "expert": 740,
    }
    for level, elo in ladder.items():
        assert abs(ODIN_BOTS[level].points - elo) <= 1, level
    assert [ODIN_BOTS[level].mu for level in ladder] == sorted(
        ODIN_BOTS[level].mu for level in ladder
    )


def test_every_odin_bot_level_has_a_reference_rating() -> None:
    """Else a rated table with that bot ends unrated (``network`` and ``search-net`` did)."""
    assert set(ODIN_BOTS) == set(plugin_of("odin").level_keys)


def test_places_from_scores_fewest_points_first_with_ties() -> None:
    assert places([12, 3, 7]) == (3, 1, 2)
    assert places([4, 4, 9, 4]) == (1, 1, 4, 1)
    assert class_of(2) == "heads-up" and class_of(3) == class_of(6) == "multi"


@pytest.mark.parametrize(
    ("accounts", "changes", "reason"),
    [
        ({0: "a", 1: None}, {}, "a seat was a guest's"),
        ({0: "a", 1: "a"}, {}, "one account held two seats"),
        ({0: "a", 1: "b"}, {"rated": False}, "not rated"),
        (
            {0: "a", 1: "b"},
            {"unrated": "a move was made for a person (stand-in or bot)"},
            "stand-in",
        ),
    ],
)
def test_what_keeps_a_table_unrated(
    accounts: dict[int, str | None], changes: dict[str, Any], reason: str
) -> None:
    rated, unrated = bool(changes.get("rated", True)), changes.get("unrated")
    outcome = rate_table(result([1, 2], rated=rated, unrated=unrated), accounts, {})
    assert isinstance(outcome, str) and reason in outcome


def test_provisional_until_ten_games_and_a_narrow_sigma() -> None:
    assert Rating().provisional
    assert Rating(30.0, 4.0, 9).provisional
    assert Rating(30.0, 5.5, 50).provisional
    assert not Rating(30.0, 4.0, 10).provisional
    assert points(25.0) == 470


def test_the_rated_option() -> None:
    assert rated_setting(None, "odin") is False and rated_setting(True, "odin") is True
    with pytest.raises(DomainError):
        rated_setting("yes", "odin")
    with pytest.raises(DomainError):
        rated_setting(True, "name-of-odin")
    with pytest.raises(DomainError):
        rated_setting(True, "odin", people=0)


def _played(stand_in_at: int | None = None, rated: bool = True) -> LiveTable:
    record = TableRecord(
        "t1",
        "odin",
        1,
        2,
        {"one_hand": True},
        7,
        "playing",
        NOW,
        [SeatRecord(0, name="Ann"), SeatRecord(1, bot="random")],
        settings={"rated": rated},
    )
    table = LiveTable(record)
    rng = random.Random(1)
    while not table.game.is_over:
        number = table.game.action_count
        seat = table.game.current_player
        assert seat is not None
        action = rng.choice(table.game.legal_actions()).text
        by = "stand-in" if number == stand_in_at and seat == 0 else None
        table.log.record(LoggedAction(number, seat, action, None, NOW, by))
    table.status = "finished"
    return table


def test_a_finished_tables_result_and_a_stand_ins_move_unrates_it() -> None:
    table = _played()
    done = result_of(table, NOW)
    assert done is not None and done.rated and done.unrated is None
    outcome = table.game.outcome
    assert outcome is not None
    assert [s.score for s in done.seats] == list(outcome.scores)
    assert [s.place for s in done.seats] == list(places(outcome.scores))
    assert done.seats[0].person and done.seats[1].bot == "random"
    assert done.seats[0].statistics["cards_played"] >= 1
    stood_in = result_of(_played(stand_in_at=0), NOW)
    assert stood_in is not None and "stand-in" in (stood_in.unrated or "")
    assert isinstance(rate_table(stood_in, {0: "ann", 1: None}, {}), str)
    cancelled = _played()
    cancelled.status = "cancelled"
    assert result_of(cancelled, NOW) is None


def test_profile_figures_add_up_and_links_never_show_a_running_game() -> None:
    figures = [
        {
            "rounds_won": 2,
            "passes": 1,
            "cards_played": 9,
            "points": [3],
            "highest_set": {"cards": ["6a"], "value": 6},
        },
        {
            "rounds_won": 1,
            "passes": 4,
            "cards_played": 5,
            "points": [0, 7],
            "highest_set": {"cards": ["9a", "9b"], "value": 99},
        },
    ]
    total = add_up(figures)
    assert total["games"] == 2 and total["hands"] == 3 and total["rounds_won"] == 3
    assert total["points_per_hand"] == pytest.approx(10 / 3, abs=0.01)
    assert total["highest_set"]["value"] == 99
    running = table_entry(PlayedTable("t9", "odin", 2, "playing", NOW, 0))
    assert running["url"] == "/t/t9/watch"
    assert (
        table_entry(PlayedTable("t8", "odin", 2, "finished", NOW, 0, 1, True))["url"]
        == "/t/t8/replay"
    )
    assert table_entry(PlayedTable("t7", "odin", 2, "cancelled", NOW, 0))["url"] is None
