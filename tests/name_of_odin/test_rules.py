"""The rules of docs/name-of-odin/RULES.md one by one (the examples are in test_examples)."""

from __future__ import annotations

import pytest

from odin_cards.contract import ActionError
from odin_cards.name_of_odin.rules.state import Longship

from .tables import SMALL_HEROES, table, texts, village


def test_the_leftmost_hero_costs_most_gives_glory_and_the_others_move_right() -> None:
    game = table(2, cards=SMALL_HEROES)
    left, second, third, fourth = game.hero_display
    assert None not in (left, second, third, fourth)
    top = game.hero_deck[0]
    village(game, 0, hand=["WH", "TH", "SH", "WC"])
    assert f"hero {left} WH TH SH" in texts(game, "hero")
    game.apply(f"hero {left} WH TH SH", 0)
    assert game.villages[0].hero == left and game.villages[0].glory == 1
    assert game.hero_display == [top, second, third, fourth]


def test_a_hero_from_the_middle_shifts_only_those_left_of_it() -> None:
    game = table(2, cards=SMALL_HEROES)
    left, second, third, fourth = game.hero_display
    top, mine = game.hero_deck[0], game.hero_deck[-1]
    village(game, 0, hand=["WH", "TH"], hero=mine)
    game.apply(f"hero {third} WH TH", 0)
    assert game.villages[0].glory == 0
    assert game.hero_display == [top, left, second, fourth]
    assert game.hero_deck[-1] == mine  # one hero at a time: the old one goes under the deck


def test_swap_once_a_turn() -> None:
    game = table(2)
    village(game, 0, hand=["WH", "WC"])
    theirs = next(c for c in game.action_display if c not in ("WH",))
    game.apply(f"swap WH {theirs}", 0)
    assert "WH" in game.action_display and theirs in game.villages[0].hand
    assert texts(game, "swap") == [] and texts(game, "refresh") == []


def test_refresh_then_swap_only_as_the_next_action() -> None:
    game = table(2)
    village(game, 0, hand=["WH", "WC", "TC", "SN"])
    old = list(game.action_display)
    game.apply("refresh SN", 0)
    assert game.action_discard[-5:] == ["SN", *old]
    assert len(game.action_display) == 4
    assert texts(game, "swap") and texts(game, "refresh") == []
    game.apply("recruit WH", 0)
    assert texts(game, "swap") == []  # forfeited: not immediately after the refresh


def test_draw_up_to_six_or_seven_with_a_rune_circle_and_reshuffle() -> None:
    game = table(2)
    village(game, 0, hand=["WH"])
    game.apply("end", 0)
    assert len(game.villages[0].hand) == 6 and game.active == 1
    village(game, 1, hand=[], buildings=["rune-circle-high"])
    game.action_discard.extend(game.action_deck[:-3])
    game.action_deck = game.action_deck[-3:]
    game.apply("end", 1)
    assert len(game.villages[1].hand) == 7  # 3 from the deck, 4 after the reshuffle
    assert any(event.kind == "reshuffle" for event in game.history)
    village(game, 1, buildings=["rune-circle-wise"])  # a hand-size ability: 6 + 1 + 1
    assert game.hand_limit(1) == 8


def test_a_second_longship_needs_a_shipyard() -> None:
    game = table(2)
    ships = [s for s in game.ship_display if s]
    village(game, 0, hand=["WN", "TN", "SN"], ships=[Longship("knarr")])
    assert texts(game, "ship") == []
    village(
        game, 0, hand=["WN", "TN", "SN"], ships=[Longship("knarr")], buildings=["shipyard-royal"]
    )
    assert {t.split()[1] for t in texts(game, "ship")} == set(ships)


def test_return_and_repair_cost_two_sailing_each() -> None:
    game = table(2)
    village(game, 0, hand=["WN", "TN", "SH"], ships=[Longship("knarr", damage=2, away=True)])
    assert texts(game, "return") == ["return knarr WN TN"]
    assert texts(game, "repair") == ["repair knarr WN TN"]
    game.apply("repair knarr TN WN", 0)
    ship = game.villages[0].ships[0]
    assert (ship.damage, ship.away) == (1, True)


def test_a_longship_sinks_when_damage_reaches_its_range_extra_range_included() -> None:
    game = table(2)
    game.ocean = ["lindisfarne", "jarrow", "iona", "york", "paris"]
    game.markers, game.spare_markers = {1: "W", 2: "S"}, ["T"]
    village(
        game, 0, hand=[], vikings={"W": 3, "T": 3}, hero="sven", ships=[Longship("storm-rider", 2)]
    )
    village(game, 1, hand=["WH"])
    assert game.ship_range(game.villages[0].ships[0]) == 1  # 2 symbols + 1 extra - 2 damage
    game.apply("raid lindisfarne storm-rider W T", 0)
    game.apply("pass", 1)
    assert game.villages[0].ships == [] and game.ship_deck[-1] == "storm-rider"


def test_no_buildable_building_replaces_the_display() -> None:
    game = table(2)
    shown = ["forge-anvil", "forge-bellows", "shipyard-harbour", "inn-great"]
    every = game.building_deck + [b for b in game.building_display if b]
    rest = [b for b in every if b not in [*shown, "shipyard-keel"]]
    game.building_deck = ["shipyard-keel", *rest]
    game.building_display = list[str | None](shown)
    village(game, 1, buildings=["forge-weapon", "shipyard-royal"])
    village(game, 0, hand=["WC", "TC", "SC"], buildings=["forge-great", "shipyard-dry-dock"])
    game.villages[0].materials = 1
    game.apply("build inn-great WC TC SC", 0)
    # forges and shipyards only, and both players have both: the display is replaced
    stale = ["forge-anvil", "forge-bellows", "shipyard-harbour", "shipyard-keel"]
    assert game.building_deck[-4:] == stale
    new = [b for b in game.building_display if b]
    assert len(new) == 4 and not set(new) & set(stale)
    assert any(game.anyone_can_build(b) for b in new)
    assert any(e.kind == "buildings-replaced" for e in game.history)


def test_building_discount_once_a_turn() -> None:
    game = table(2)
    building = next(b for b in game.building_display if b and not b.startswith("forge"))
    village(game, 0, hand=["WC", "TC", "SC", "SC"], buildings=["forge-anvil"], materials=1)
    # the forge's discount (build 1 fewer) and its craft symbol: one card is enough
    assert f"build {building} WC +C" in texts(game, "build")
    game.apply(f"build {building} SC +C", 0)
    assert game.villages[0].hand == ["WC", "TC", "SC"]
    assert game.used_abilities == {"forge-anvil"} and game.used_symbols == {"C"}


def test_a_discount_that_saves_nothing_is_not_used_up() -> None:
    game = table(2, cards=SMALL_HEROES)
    heroes = list(game.hero_display)
    village(game, 0, hand=["WH", "TH", "SH"], buildings=["rune-circle-seer"])
    game.apply(f"hero {heroes[3]} WH", 0)  # cost 1: the discount cannot make it cheaper
    assert game.used_abilities == set()
    assert f"hero {game.hero_display[0]} TH SH" in texts(game, "hero")  # 3 - 1 = 2
    game.apply(f"hero {game.hero_display[0]} TH SH", 0)
    assert game.used_abilities == {"rune-circle-seer"}


def test_extra_vikings_once_a_turn() -> None:
    game = table(2)
    village(game, 0, hand=["WH", "WC"], buildings=["inn-mead"])
    game.apply("recruit WH", 0)
    game.apply("recruit WC", 0)
    assert game.villages[0].vikings["W"] == 3  # 1 + 1 extra, then 1
    assert game.viking_limit(0) == 14


@pytest.mark.parametrize(
    ("hero", "target", "check"),
    [
        ("sven", "", "materials"),
        ("olaf", "", "vikings"),
        ("ivar", "knarr", "repair"),
        ("leif", "knarr", "return"),
    ],
)
def test_hero_action_abilities(hero: str, target: str, check: str) -> None:
    game = table(2)
    village(game, 0, hero=hero, ships=[Longship("knarr", damage=2, away=True)])
    action = ("ability " + target).strip()
    assert texts(game, "ability") == [action]
    game.apply(action, 0)
    me = game.villages[0]
    assert me.hero is None and game.hero_deck[-1] == hero
    ship = me.ships[0]
    expected = {
        "materials": me.materials == 1,
        "vikings": me.vikings["S"] == 3,
        "repair": ship.damage == 0 and ship.away,
        "return": ship.damage == 2 and not ship.away,
    }
    assert expected[check]


def test_raid_abilities_are_no_actions() -> None:
    game = table(2)
    village(game, 0, hero="ulf")
    assert texts(game, "ability") == []


def test_the_last_raid_ends_the_game_and_fewer_raids_break_a_tie() -> None:
    game = table(2)
    game.raid_deck = []
    game.ocean = ["lindisfarne", None, None, None, None]
    village(game, 0, vikings={"W": 1, "T": 1}, hero="sven", ships=[Longship("faering")])
    village(game, 1, hand=["WC"], glory=3)
    game.villages[0].raids = ["jarrow"]
    game.apply("raid lindisfarne faering T W", 0)
    game.apply("modify WC", 1)
    # nothing to match (an empty hand): 2 + 0 glory, -2 for three open cards
    assert game.is_over and game.current_player is None and game.legal_actions() == []
    with pytest.raises(ActionError):
        game.apply("end", 0)
    outcome = game.outcome
    assert outcome is not None
    assert outcome.scores == (3, 3)  # seat 0: the Faering's 3 glory; seat 1: 3 glory
    assert outcome.raids == (2, 0) and outcome.winners == (1,)
    assert outcome.breakdown[0] == {"glory": 0, "buildings": 0, "ships": 3, "same": 0, "sets": 0}


def test_a_tie_on_points_and_raids_is_shared() -> None:
    game = table(3)
    game.raid_deck = []
    game.ocean = ["lindisfarne", None, None, None, None]
    village(game, 0, hand=[], vikings={"W": 1, "T": 1}, hero="sven", ships=[Longship("faering")])
    village(game, 1, hand=["WC"], glory=3, ships=[Longship("karvi")], vikings={"W": 0})
    village(game, 2, hand=["WC"], glory=3, ships=[Longship("snekkja")])
    game.villages[1].raids = ["jarrow"]
    game.villages[2].raids = ["portland"]
    game.apply("raid lindisfarne faering T W", 0)
    game.apply("pass", 1)
    game.apply("pass", 2)
    outcome = game.outcome
    assert outcome is not None
    assert outcome.scores[1] == outcome.scores[2] == 5
    assert outcome.scores[0] == 2 + 0 - 2 + 3  # Lindisfarne, 3 open cards, Faering 3 glory
    assert outcome.winners == (1, 2)


def test_revealing_requirements_reshuffles_the_discards_when_the_deck_runs_out() -> None:
    game = table(2)
    game.ocean = ["lindisfarne", "jarrow", "iona", "york", "paris"]
    game.markers, game.spare_markers = {1: "W", 2: "S"}, ["T"]
    village(game, 0, vikings={"W": 1, "T": 1}, hero="sven", ships=[Longship("faering")])
    village(game, 1, hand=["WH"])
    game.action_discard.extend(game.action_deck[:-1])
    game.action_deck = game.action_deck[-1:]
    game.apply("raid lindisfarne faering T W", 0)
    game.apply("pass", 1)
    kinds = [e.kind for e in game.history[-6:]]
    assert "reshuffle" in kinds and kinds.index("reshuffle") < kinds.index("reveal")
    reveal = next(e for e in reversed(game.history) if e.kind == "reveal")
    assert len(reveal.public["cards"]) == 3


def test_an_inn_raises_the_viking_limit_by_four() -> None:
    game = table(2)
    village(game, 0, hand=["WH", "WC", "WN"], vikings={"T": 12}, buildings=["inn-harbour"])
    assert game.viking_limit(0) == 10 + 4 + 2  # the inn, and this inn's own +2
    game.apply("recruit WH WC WN", 0)
    assert game.decision == "release-viking"
    game.apply("release T", 0)
    game.apply("release T", 0)
    assert game.decision == "turn" and game.villages[0].vikings == {"W": 6, "T": 10, "S": 0}
