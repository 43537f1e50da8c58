"""Play now's pure part: the rating window, who may sit together, how a group is chosen,
the bot level near a rating, and the checked choices."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.people.matchmaking import (
    Choice,
    Rules,
    Ticket,
    compatible,
    nearest_bot,
    pick_group,
    window,
)

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
RULES = Rules()
FOUR = Choice(4, "15", "normal")


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
        ticket("other-choice", 1000, choice=Choice(3, "15", "normal")),
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
    assert nearest_bot(None) == "heuristic"  # a guest: a new person's rating
    assert nearest_bot(470) == "heuristic"
    assert nearest_bot(0) == "random"
    assert nearest_bot(900) == "expert"


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
        Choice.of(players, target, clock)
    assert refused.value.code == "bad_choice"


def test_a_choice_gives_the_tables_options_and_clock() -> None:
    one = Choice.of(2, "one", "fast")
    assert one.setup() == {"target": 15, "one_hand": True}
    assert one.clock_setting() == {"kind": "realtime", "preset": "fast"}
    assert Choice.of(6, "20", "slow").setup() == {"target": 20, "one_hand": False}
