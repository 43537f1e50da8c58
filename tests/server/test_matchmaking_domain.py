"""Play now's pure part: the rating window, who may sit together, how a group is chosen,
the bot level near a rating, and the checked choices."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from odin_cards.games import plugin_of, registered
from odin_cards.odin.rules.odin import OdinRules
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.people.matchmaking import (
    Rules,
    check_choice,
    choice_clock,
    choice_setup,
    compatible,
    nearest_bot,
    pick_group,
    window,
)
from odin_cards.server.core.ports.people import Choice, Ticket

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
RULES = Rules()
FOUR = Choice(4, "15", "normal", "odin")


def ticket(
    name: str,
    rating: float | None,
    waited: float = 0.0,
    account: bool = True,
    choice: Choice = FOUR,
) -> Ticket:
    created = NOW - timedelta(seconds=waited)
    return Ticket(
        name, "h" + name, choice, name, name if account else None, rating, "a", created, created
    )


def test_the_window_widens_with_waiting_up_to_its_cap() -> None:
    assert window(RULES, 0) == 100
    assert window(RULES, 30) == 400
    assert window(RULES, 10_000) == RULES.window_max == 1000


def test_two_tickets_sit_together_only_inside_both_windows() -> None:
    old, new = ticket("old", 1000, waited=60), ticket("new", 1500)
    assert not compatible(RULES, old, new, NOW, set())  # 500 > the newcomer's 100
    assert compatible(RULES, old, ticket("near", 1090), NOW, set())
    assert compatible(RULES, ticket("a", 1000, 40), ticket("b", 1500, 40), NOW, set())


def test_blocks_same_account_and_guests_keep_people_apart() -> None:
    ann, bob = ticket("ann", 500), ticket("bob", 500)
    assert not compatible(RULES, ann, bob, NOW, {frozenset(("ann", "bob"))})
    assert not compatible(RULES, ann, ticket("ann", 500), NOW, set())
    guest = ticket("guest", None, account=False)
    assert not compatible(RULES, ann, guest, NOW, set())
    assert compatible(RULES, guest, ticket("other", None, account=False), NOW, set())


def test_a_group_is_the_anchor_and_the_closest_acceptable_ratings() -> None:
    anchor = ticket("anchor", 1000, waited=5)
    waiting = [
        ticket("far", 1400, waited=50),
        ticket("c", 1060, waited=1),
        ticket("b", 960, waited=2),
        ticket("a", 1020, waited=3),
        ticket("other-choice", 1000, choice=Choice(3, "15", "normal", "odin")),
    ]
    group = pick_group(RULES, anchor, waiting, NOW, set())
    assert group is not None
    assert [t.id for t in group] == ["anchor", "a", "b", "c"]
    # Without one of them the group is short: nobody is matched yet.
    assert pick_group(RULES, anchor, waiting[:3], NOW, set()) is None
    # A block between two candidates keeps one of them out.
    blocked = {frozenset(("a", "b"))}
    assert pick_group(RULES, anchor, waiting, NOW, blocked) is None


def test_the_bot_level_nearest_a_rating() -> None:
    assert nearest_bot("odin", None) == "heuristic"  # a guest: a new person's rating
    assert nearest_bot("odin", 470) == "heuristic"
    assert nearest_bot("odin", 0) == "random"
    assert nearest_bot("odin", 900) == "expert"


@pytest.mark.parametrize(
    ("players", "target", "clock"),
    [
        (1, "15", "fast"),
        (7, "15", "fast"),
        (True, "15", "fast"),
        (2, "12", "fast"),
        (2, 15, "fast"),
        (2, "15", "blitz"),
        (2.0, "15", "fast"),
    ],
)
def test_a_bad_choice_is_refused(players: object, target: object, clock: object) -> None:
    with pytest.raises(DomainError) as refused:
        check_choice("odin", players, target, clock)
    assert refused.value.code == "bad_choice"


def test_a_choice_gives_the_tables_options_and_clock() -> None:
    one = check_choice("odin", 2, "one", "fast")
    assert choice_setup(one) == {"target": 15, "one_hand": True}
    assert choice_clock(one) == {"kind": "realtime", "preset": "fast"}
    assert choice_setup(check_choice("odin", 6, "20", "slow")) == {"target": 20, "one_hand": False}


def test_play_now_is_per_game_and_offers_the_games_presets() -> None:
    """A choice names its game; a game without presets is not offered; tickets of two games
    never share a table even with equal seats, preset and clock."""
    with pytest.raises(DomainError, match="Play now offers the games odin") as refused:
        check_choice("name-of-odin", 2, "15", "fast")
    assert refused.value.code == "bad_choice"
    odin_too = replace(plugin_of("odin"), key="odin-too", rules=f"{__name__}:ODIN_TOO")
    with registered(odin_too):
        mine = check_choice("odin-too", 4, "15", "normal")
        assert mine.game == "odin-too" and choice_setup(mine) == {"target": 15, "one_hand": False}
        anchor = ticket("anchor", 1000)
        others = [ticket(f"p{n}", 1000, choice=mine) for n in range(3)]
        assert pick_group(Rules(), anchor, others, NOW, set()) is None
        same = [ticket(f"q{n}", 1000) for n in range(3)]
        assert pick_group(Rules(), anchor, others + same, NOW, set()) == [anchor, *same]


class _OdinToo(OdinRules):
    key = "odin-too"


ODIN_TOO = _OdinToo()
