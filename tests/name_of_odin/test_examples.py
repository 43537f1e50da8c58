"""The rulebook's worked examples (Beispiel 1-12), each set up as the example describes."""

from __future__ import annotations

from typing import Any

import pytest

from odin_cards.contract import ActionError
from odin_cards.name_of_odin.rules import Game, starter_cards
from odin_cards.name_of_odin.rules.state import Longship
from odin_cards.name_of_odin.rules.symbols import sort_cards

from .tables import RAGNAR, SIF, SKADI, SMALL_HEROES, THORSTEN, table, texts, village


def test_example_1_ragnar_recruits_three_warriors_and_sends_a_trader_back() -> None:
    game = table()
    game.active = RAGNAR
    village(game, RAGNAR, hand=["WH", "WC", "SN", "TC"], vikings={"S": 4, "T": 4})
    reserve = dict(game.reserve)
    game.apply("recruit WH WC", RAGNAR)
    ragnar = game.villages[RAGNAR]
    assert ragnar.vikings == {"W": 3, "T": 4, "S": 4}  # 11 of 10: one must go back at once
    assert game.decision == "release-viking" and game.current_player == RAGNAR
    assert texts(game, "end") == []  # nothing else until the limit holds
    game.apply("release T", RAGNAR)
    assert ragnar.vikings == {"W": 3, "T": 3, "S": 4}
    assert game.decision == "turn"
    assert game.reserve == {"W": reserve["W"] - 3, "T": reserve["T"] + 1, "S": reserve["S"]}
    assert sorted(game.action_discard[-2:]) == ["WC", "WH"]


@pytest.mark.parametrize(("spent", "recruited"), [(1, 1), (2, 3), (3, 6)])
def test_recruiting_one_two_three_symbols_brings_one_three_six(spent: int, recruited: int) -> None:
    game = table()
    village(game, SKADI, hand=["TH", "TC", "TN", "SN"])
    with pytest.raises(ActionError, match="one type"):
        game.apply("recruit TN SN", SKADI)
    game.apply("recruit " + " ".join(["TH", "TC", "TN"][:spent]), SKADI)
    assert game.villages[SKADI].vikings == {"W": 0, "T": recruited, "S": 0}


def test_example_2_thorsten_builds_a_shipyard_not_a_second_forge() -> None:
    game = table()
    game.active = THORSTEN
    shown = ["forge-anvil", "forge-bellows", "rune-circle-high", "shipyard-keel"]
    every = game.building_deck + [b for b in game.building_display if b is not None]
    game.building_deck = [b for b in every if b not in shown]
    game.building_display = list[str | None](shown)
    top = game.building_deck[0]
    village(
        game,
        THORSTEN,
        hand=["WC", "TC", "SC", "WH"],
        buildings=["forge-great"],
        materials=1,
    )
    builds = {a.split()[1] for a in texts(game, "build")}
    assert builds == {"rune-circle-high", "shipyard-keel"}
    with pytest.raises(ActionError, match="already have a building of that kind"):
        game.apply("build forge-anvil WC TC SC", THORSTEN)
    game.apply("build shipyard-keel WC TC SC", THORSTEN)
    thorsten = game.villages[THORSTEN]
    assert thorsten.buildings == ["forge-great", "shipyard-keel"]
    assert thorsten.materials == 0 and thorsten.hand == ["WH"]
    assert game.building_display == ["forge-anvil", "forge-bellows", "rune-circle-high", top]


def test_building_needs_a_material_and_three_craft() -> None:
    game = table()
    village(game, SKADI, hand=["WC", "TC", "SC"], materials=0)
    assert texts(game, "build") == []
    village(game, SKADI, hand=["WC", "TC", "SH"], materials=1)
    assert texts(game, "build") == []


def test_example_3_skadi_pays_five_craft_for_her_second_material() -> None:
    game = table()
    village(
        game,
        SKADI,
        hand=["WC", "WC", "TC", "SC", "SC", "WH"],
        buildings=["rune-circle-high", "inn-great", "jarls-house-hall"],
        materials=1,
    )
    assert game.material_cost(SKADI) == 5
    assert texts(game, "material") == ["material WC WC TC SC SC"]
    game.apply("material WC WC TC SC SC", SKADI)
    skadi = game.villages[SKADI]
    assert skadi.materials == 2 == game.empty_plots(SKADI)
    skadi.hand = sort_cards(["WC"] * 6)
    assert texts(game, "material") == []  # as many materials as empty plots


def raid_table() -> Game:
    """Examples 4-9: Skadi's raid on Iona in the middle zone (4 players)."""
    game = ocean_table(4)
    village(
        game,
        SKADI,
        hand=["TC", "SH", "WN", "TN"],
        vikings={"W": 2, "T": 3, "S": 1},
        hero="sven",  # a sailor hero; its ability is an action, not for raids
        ships=[Longship("knarr", damage=1)],  # 3 range symbols, a trader discount
    )
    village(game, RAGNAR, hand=["WC", "WH", "TN", "SN", "TH", "SC"])
    village(game, SIF, hand=["WH", "WN", "TN", "SN", "TH", "SH"])
    village(game, THORSTEN, hand=["SC", "WH", "TN", "SN", "TH", "SH"])
    game.action_deck.append("TH")  # the top card: a hero symbol (example 6)
    return game


def test_examples_4_to_9_skadis_raid_on_iona() -> None:
    game = raid_table()
    skadi = game.villages[SKADI]
    ship = skadi.ships[0]
    # 4: three range symbols, one damage: range 2, just enough for the middle zone
    assert game.ship_range(ship) == 2
    raids = texts(game, "raid")
    assert {r.split()[1] for r in raids} <= {"lindisfarne", "jarrow", "iona", "york"}
    assert not any(r.split()[1] == "paris" for r in raids)  # the lower zone needs range 3
    # 5: Iona shows 1 sailor + 3 traders, the zone's marker a warrior; the hero's sailor
    # symbol and the ship's trader discount leave 2 traders and 1 warrior to send
    assert [r for r in raids if r.split()[1] == "iona"] == ["raid iona knarr W T T"]
    reserve = dict(game.reserve)
    game.apply("raid iona knarr T T W", SKADI)
    assert skadi.vikings == {"W": 1, "T": 1, "S": 1}
    assert game.reserve == {"W": reserve["W"] + 1, "T": reserve["T"] + 2, "S": reserve["S"]}
    # 6: the others modify clockwise from Skadi's left: Ragnar craft, Sif passes, Thorsten craft
    assert (game.decision, game.current_player) == ("modify", RAGNAR)
    with pytest.raises(ActionError):
        game.apply("modify WC", SIF)
    game.apply("modify WC", RAGNAR)
    assert game.current_player == SIF
    game.apply("pass", SIF)
    game.apply("modify SC", THORSTEN)
    raid = game.raid
    assert raid is not None and raid.requirements == ["WC", "SC", "TH"]  # one revealed: hero
    # 7: Skadi matches a craft and a hero card; one craft requirement stays open
    assert (game.decision, game.current_player) == ("match", SKADI)
    assert sorted(texts(game, "match")) == ["match SH", "match TC"]
    game.apply("match TC", SKADI)
    game.apply("match SH", SKADI)
    # 8: 3 for Iona + 1 for the middle zone + 0 for one unmatched card = 4
    assert skadi.glory == 4
    assert skadi.raids == ["iona"]
    # 9: one more damage: 2 of 3, range 1, turned over (away)
    assert (ship.damage, ship.away, game.ship_range(ship)) == (2, True, 1)
    assert skadi.ships == [ship]
    assert skadi.hero is None and game.hero_deck[-1] == "sven"  # a hero goes after a raid
    # H: the marker swap, the raids moving up, a new raid in the lowest slot
    assert game.markers[1] == "T" and game.spare_markers == ["W"]
    assert game.ocean[:4] == ["lindisfarne", "jarrow", "york", "paris"]
    # then Ragnar and Thorsten (who modified) pick from the display, clockwise
    display = list(game.action_display)
    assert (game.decision, game.current_player) == ("pick", RAGNAR)
    game.apply(f"pick {display[0]}", RAGNAR)
    assert game.current_player == THORSTEN and len(game.action_display) == 3
    game.apply(f"pick {game.action_display[0]}", THORSTEN)
    assert (game.decision, game.current_player) == ("turn", SKADI)
    assert len(game.action_display) == 4  # refilled only after every pick
    assert len(game.villages[RAGNAR].hand) == 6 and len(game.villages[SIF].hand) == 6
    assert len(skadi.hand) == 2  # the raider draws nothing now
    assert not texts(game, "raid")  # no hero, the ship away


def ocean_table(players: int, cards: dict[str, Any] | None = None) -> Game:
    game = table(players, cards=cards)
    game.ocean = ["lindisfarne", "jarrow", "iona", "york", "paris"]
    for raid in game.ocean:
        if raid in game.raid_deck:
            game.raid_deck.remove(raid)
    game.markers = {1: "W", 2: "S"}
    game.spare_markers = ["T"]
    return game


def test_at_most_three_modification_cards() -> None:
    game = ocean_table(5)
    village(
        game, 0, hand=["WH"], vikings={"W": 5, "T": 5}, hero="sven", ships=[Longship("faering")]
    )
    for seat in range(1, 5):
        village(game, seat, hand=["WC", "TC"])
    game.apply("raid lindisfarne faering W T", 0)
    for seat in (1, 2, 3):
        game.apply("modify WC", seat)
    # the fourth other player must pass: three cards lie already, so nobody asks them
    assert game.raid is None and game.decision == "pick" and game.current_player == 1
    assert game.villages[0].glory == 2 + 0 - 2  # Lindisfarne 2, upper zone 0, 3 open: -2
    assert len(game.villages[4].hand) == 2


def test_glory_never_drops_below_zero() -> None:
    cards = starter_cards().to_dict()
    for raid in cards["raid"]:
        if raid["id"] == "lindisfarne":
            raid["glory"] = 0
    game = ocean_table(2, cards)
    village(
        game, 0, hand=["WH"], vikings={"W": 5, "T": 5}, hero="sven", ships=[Longship("faering")]
    )
    village(game, 1, hand=["WC", "TC"])
    game.action_deck.extend(["SC", "SC"])
    game.apply("raid lindisfarne faering W T", 0)
    game.apply("modify WC", 1)
    assert game.villages[0].glory == 0  # 0 + 0, then -2 for three open cards, but never < 0


def test_every_raid_sends_at_least_one_viking() -> None:
    game = ocean_table(2)
    # a warrior hero and a trader ship cover Lindisfarne's warrior and trader
    village(game, 0, vikings={"W": 1, "T": 1}, hero="ulf", ships=[Longship("knarr")])
    lindisfarne = [t for t in texts(game, "raid") if t.split()[1] == "lindisfarne"]
    assert lindisfarne == ["raid lindisfarne knarr T", "raid lindisfarne knarr W"]
    village(game, 0, vikings={"S": 4}, hero="ulf", ships=[Longship("knarr")])
    assert not [t for t in texts(game, "raid") if t.split()[1] == "lindisfarne"]


def test_a_raid_needs_a_hero_and_a_longship_at_home() -> None:
    game = ocean_table(2)
    village(game, 0, vikings={"W": 5, "T": 5, "S": 5}, ships=[Longship("knarr")])
    assert texts(game, "raid") == []
    village(
        game, 0, vikings={"W": 5, "T": 5, "S": 5}, hero="ulf", ships=[Longship("knarr", 0, True)]
    )
    assert texts(game, "raid") == []


def test_example_10_sif_takes_sailors_from_the_players_with_the_most() -> None:
    game = table(4)
    game.active = SIF
    village(game, RAGNAR, vikings={"S": 8})
    village(game, SKADI, vikings={"S": 8})
    village(game, THORSTEN, vikings={"S": 5})
    village(game, SIF, hand=["SH", "SC", "SN"], vikings={"W": 3, "T": 3})
    game.reserve["S"] = 3
    game.apply("recruit SH SC SN", SIF)
    sif = game.villages[SIF]
    assert sif.vikings["S"] == 3 and game.reserve["S"] == 0
    assert game.decision == "take-viking"
    assert sorted(texts(game, "take")) == sorted([f"take {RAGNAR}", f"take {SKADI}"])  # a tie
    game.apply(f"take {SKADI}", SIF)
    assert sif.viking_count == 10
    assert texts(game, "take") == [f"take {RAGNAR}"]  # Ragnar has the most now
    game.apply("stop", SIF)
    assert game.decision == "turn"
    assert sif.vikings == {"W": 3, "T": 3, "S": 4}
    assert game.villages[SKADI].vikings["S"] == 7 and game.villages[RAGNAR].vikings["S"] == 8


def test_after_taking_from_others_no_viking_of_that_type_goes_back() -> None:
    game = table(4)
    game.active = SIF
    village(game, RAGNAR, vikings={"S": 8})
    village(game, SIF, hand=["SH", "SC", "SN"], vikings={"W": 3, "T": 3})
    game.reserve["S"] = 3
    game.apply("recruit SH SC SN", SIF)
    game.apply(f"take {RAGNAR}", SIF)
    game.apply(f"take {RAGNAR}", SIF)  # 11 of 10
    game.apply("stop", SIF)  # one more was due: she may forgo it
    assert game.decision == "release-viking"
    assert sorted(texts(game, "release")) == ["release T", "release W"]
    with pytest.raises(ActionError):
        game.apply("release S", SIF)
    game.apply("release W", SIF)
    assert game.villages[SIF].vikings == {"W": 2, "T": 3, "S": 5}


def test_taking_stops_where_the_limit_could_not_be_restored() -> None:
    game = table(2)
    village(game, 1, vikings={"S": 9})
    village(game, 0, hand=["SH", "SC", "SN"], vikings={"S": 8})
    game.reserve["S"] = 1
    game.apply("recruit SH SC SN", 0)
    # 9 sailors: a tenth is fine, an eleventh could never go back (only sailors here)
    assert texts(game, "take") == ["take 1"]
    game.apply("take 1", 0)
    assert game.decision == "turn" and game.villages[0].vikings["S"] == 10


def test_example_11_sif_buys_a_longship_with_her_shipyard_symbol() -> None:
    game = table(4)
    game.active = SIF
    ship = next(s for s in game.ship_display if s)
    village(game, SIF, hand=["WN", "SN", "TH"], buildings=["shipyard-royal"])
    assert f"ship {ship} WN SN +N" in texts(game, "ship")
    game.apply(f"ship {ship} WN SN +N", SIF)
    sif = game.villages[SIF]
    assert [s.id for s in sif.ships] == [ship] and sif.hand == ["TH"]
    # once a turn: a second use of the shipyard symbol is not offered
    sif.hand = ["WN", "SN"]
    assert not any(t.endswith("+N") for t in texts(game, "ship"))


def test_a_building_symbol_never_pays_alone_and_never_raids() -> None:
    game = table(2, cards=SMALL_HEROES)
    village(game, 0, hand=["WN"], buildings=["shipyard-royal"], ships=[Longship("knarr", 1, True)])
    assert texts(game, "return") == ["return knarr WN +N"]
    assert texts(game, "repair") == ["repair knarr WN +N"]
    village(game, 0, hand=["TH"], buildings=["jarls-house-hall"])
    costs = [slot.cost for slot in game.cards.board.hero_slots]
    assert costs == [3, 2, 2, 1]
    heroes = game.hero_display
    # cost 2: one card and the Jarl's house; cost 1: the card alone, never the symbol alone
    assert sorted(texts(game, "hero")) == sorted(
        [f"hero {heroes[1]} TH +H", f"hero {heroes[2]} TH +H", f"hero {heroes[3]} TH"]
    )


def test_example_12_thorsten_scores_29() -> None:
    game = table(4)
    village(
        game,
        THORSTEN,
        vikings={"W": 2, "T": 4, "S": 4},
        # buildings worth 2 + 2 + 2 + 1 = 7 glory, a longship worth 2 (damaged and away)
        buildings=["forge-great", "inn-mead", "jarls-house-throne", "rune-circle-wise"],
        ships=[Longship("karvi", damage=1, away=True)],
        glory=16,  # from his raids
    )
    score = game.score(THORSTEN)
    # 1 for each 3 traders and 3 sailors, 2 sets of warrior + trader + sailor
    assert score == {"glory": 16, "buildings": 7, "ships": 2, "same": 2, "sets": 2}
    assert sum(score.values()) == 29
