"""The id space of In the Name of Odin's actions (``docs/name-of-odin/actions.md``).

Pinned for the starter set (the ids do not change without a new major version), checked
id by id in both directions, refusing what can never be legal, depending on a card set
only through the numbers the document names, and agreeing with the legal actions over
seeded games (``test_conformance.py`` checks every step of many more).
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

import pytest

from odin_cards.name_of_odin.rules import (
    NAME_OF_ODIN,
    ActionSpace,
    CardSet,
    MalformedActionError,
    parse,
    parse_cards,
    starter_cards,
)

from .tables import SMALL_HEROES

STARTER_LAYOUT = [
    ("end", 0, 1),
    ("stop", 1, 1),
    ("pass", 2, 1),
    ("done", 3, 1),
    ("refresh", 4, 9),
    ("modify", 13, 9),
    ("match", 22, 9),
    ("pick", 31, 9),
    ("swap", 40, 72),
    ("recruit", 112, 57),
    ("release", 169, 3),
    ("take", 172, 5),
    ("material", 177, 89),
    ("hero", 266, 3434),
    ("ability", 3700, 13),
    ("build", 3713, 560),
    ("ship", 4273, 336),
    ("return", 4609, 144),
    ("repair", 4753, 144),
    ("raid", 4897, 15936),
]
FIXED = 266
"""Ids of the actions that name no card of the set: the same in every card set."""


def multisets(largest: int) -> int:
    return comb(largest + 3, 3) - 1


def payments(largest: int) -> int:
    return multisets(largest) + multisets(largest - 1)


def expected_size(cards: CardSet) -> int:
    """The size ``docs/name-of-odin/actions.md`` gives for a card set."""
    buildings, heroes, ships, raids = (
        len(cards.buildings),
        len(cards.heroes),
        len(cards.ships),
        len(cards.raids),
    )
    dearest = max(slot.cost for slot in cards.board.hero_slots)
    marker = any(zone.marker for zone in cards.board.ocean)
    sent = max(len(r.vikings) for r in cards.raids) + marker
    return (
        FIXED
        + heroes * payments(dearest)
        + 1
        + ships
        + buildings * payments(3)
        + ships * (payments(3) + 2 * payments(2))
        + raids * ships * multisets(sent)
    )


def test_the_starter_sets_ids_are_pinned() -> None:
    space = ActionSpace(starter_cards())
    assert space.layout() == STARTER_LAYOUT
    assert space.size == 20833 == expected_size(starter_cards())
    pinned = {
        0: "end",
        4: "refresh WH",
        40: "swap WH WC",
        112: "recruit WH",
        130: "recruit WN WN WN",
        169: "release W",
        172: "take 0",
        177: "material WC",
        265: "material SC SC SC SC +C",
        266: "hero ulf WH",
        3700: "ability",
        3701: "ability karvi",
        3713: "build forge-anvil WC",
        4897: "raid lindisfarne karvi W",
        20832: "raid kiev wave-cutter S S S S S S",
    }
    assert {i: space.action(i).text for i in pinned} == pinned
    assert {parse(text, space).id for text in pinned.values()} == set(pinned)


def test_every_id_turns_into_an_action_and_back() -> None:
    space = ActionSpace(starter_cards())
    texts = set()
    for action_id in range(space.size):
        action = space.action(action_id)
        assert action.id == action_id and action.space is space
        again = parse(action.text, space)  # the text is canonical notation
        assert again == action and again.text == action.text and again.id == action_id
        texts.add(action.text)
    assert len(texts) == space.size


@pytest.mark.parametrize(
    "text",
    [
        "recruit WH TH",  # two viking types: never legal
        "material WH",  # a hero symbol pays no material
        "material WC WC WC WC WC +C",  # 5 cards and the forge: more than the dearest cost
        "build forge-anvil WC WC WC WC",
        "return karvi WN WN +N",
        "hero ulf WH WH WH WH WH WH WH WH",  # more than the dearest hero slot
        "hero forge-anvil WH",  # not a hero
        "hero nobody WH",  # no such card
        "ability ulf",  # not a longship
        "raid karvi lindisfarne W",  # raid and ship swapped
        "raid lindisfarne karvi W W W W W W W",  # more than any raid of the set asks
        "take 5",
        "take 12",
        "swap WH WH",
    ],
)
def test_actions_that_can_never_be_legal_have_no_id(text: str) -> None:
    action = parse(text, ActionSpace(starter_cards()))
    with pytest.raises(MalformedActionError, match="no action of this card set"):
        _ = action.id


def test_an_action_read_without_a_game_has_no_id() -> None:
    with pytest.raises(MalformedActionError, match="no id outside a game"):
        _ = parse("end").id
    game = NAME_OF_ODIN.new_game(2, {}, seed=1)
    assert game.parse("end").id == 0
    assert parse("end") == game.parse("end")  # equal whatever their spaces


@pytest.mark.parametrize("bad", [-1, 20833, True, 1.0, "3", None])
def test_ids_outside_the_space_are_refused(bad: Any) -> None:
    with pytest.raises(MalformedActionError):
        ActionSpace(starter_cards()).action(bad)


def test_ids_depend_on_a_card_set_only_through_its_numbers() -> None:
    starter = ActionSpace(starter_cards())
    cheap = parse_cards(SMALL_HEROES)
    space = ActionSpace(cheap)
    assert space.size == expected_size(cheap) < starter.size
    assert [space.action(i).text for i in range(FIXED)] == [
        starter.action(i).text for i in range(FIXED)
    ]
    data = starter_cards().to_dict()
    data["building"] = data["building"][::-1]
    data["raid"] = data["raid"][:14]
    changed = ActionSpace(parse_cards(data))
    assert changed.size == expected_size(parse_cards(data))
    first = changed.layout()[[verb for verb, _, _ in changed.layout()].index("build")][1]
    assert changed.action(first).text == f"build {data['building'][0]['id']} WC"


def test_the_largest_space_a_card_set_can_have() -> None:
    """The card format's most: 200 cards of each type, a hero slot costing 9, a raid asking
    9 vikings (and a zone with a marker): 11,493,067 ids, computed, never listed."""
    data = starter_cards().to_dict()
    for kind in ("building", "hero", "ship", "raid"):
        cards = data[kind]
        data[kind] = [{**cards[n % len(cards)], "id": f"{kind}-{n}"} for n in range(200)]
    data["board"]["hero_slots"][0]["cost"] = 9
    data["raid"][0]["vikings"] = ["warrior"] * 9
    largest = parse_cards(data)
    space = ActionSpace(largest)
    assert space.size == expected_size(largest) == 11_493_067
    last = space.action(space.size - 1)
    assert last.text == "raid raid-199 ship-199 " + " ".join(["S"] * 10)
    assert last.id == space.size - 1


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (5, 6)])
def test_the_mask_agrees_with_the_legal_actions(players: int, seed: int) -> None:
    game = NAME_OF_ODIN.new_game(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(400):
        if game.is_over:
            break
        legal = game.legal_actions()
        mask = game.legal_mask()
        assert [i for i, flag in enumerate(mask) if flag] == sorted(a.id for a in legal)
        assert game.legal_action_ids() == sorted(a.id for a in legal)
        action_id = legal[rng.randrange(len(legal))].id
        game.apply(action_id, game.current_player)  # ids are accepted wherever actions are
    assert game.action_count > 100
