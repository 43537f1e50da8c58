"""The 4-colour two-player deck: which colours it leaves out, and old games still replay.

New games remove one of red and black and one of the four other colours
(``removal="red-or-black"``), so red and black are never both in play; games stored
before the option existed removed any two colours and keep replaying with
``removal="any-two"`` (records of formats 1 and 2; the server's migration 0003).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from odin_cards.odin.rules import ODIN, Game, GameRecord, Options, OptionsError, RecordError
from odin_cards.odin.rules.deal import removed_colours

RECORD_01 = Path(__file__).parents[1] / "data" / "records-0.1" / "2p-4colours-goat.json"
RED, BLACK = 1, 4
OTHERS = {0, 2, 3, 5}  # blue, pink, green, orange

seeds = st.one_of(st.integers(min_value=-(2**63), max_value=2**63), st.text(max_size=20))


@given(seeds)
def test_a_new_4_colour_game_never_has_both_red_and_black(seed: int | str) -> None:
    game = Game.new(2, Options(colours=4), seed=seed)
    colours = set(game.view(0).colours)
    assert len(colours) == 4
    assert len(colours & {"R", "K"}) == 1  # exactly one of red and black
    hand = {card[0] for seat in range(2) for card in game.view(seat).hand or ()}
    assert hand <= colours


def test_the_removed_pair_is_one_of_red_and_black_and_any_other_colour() -> None:
    pairs = Counter(removed_colours(seed, 4, "red-or-black") for seed in range(800))
    expected = {tuple(sorted((dark, other))) for dark in (RED, BLACK) for other in OTHERS}
    assert set(pairs) == expected  # all 8 pairs occur, and no other
    assert min(pairs.values()) > 800 / 8 / 2  # none is rare


def test_the_default_is_the_new_rule_and_6_colours_remove_nothing() -> None:
    assert Options().removal == "red-or-black"
    assert Options().to_dict()["removal"] == "red-or-black"
    assert ODIN.check_setup(2, {"colours": 4})["removal"] == "red-or-black"  # the lobby
    for removal in ("red-or-black", "any-two"):
        assert removed_colours(7, 6, removal) == ()


@pytest.mark.parametrize("seed", [*range(300), "a", "golden-2", -5])
def test_any_two_is_0_1s_rule_draw_for_draw(seed: int | str) -> None:
    # 0.1's deal.removed_colours, restated: two colours sampled from all six.
    rng = random.Random(f"odin-cards:{seed!r}:colours")
    assert removed_colours(seed, 4, "any-two") == tuple(sorted(rng.sample(range(6), 2)))


@pytest.mark.parametrize(
    ("removal", "message"),
    [
        ("red", "removal must be 'red-or-black' or 'any-two', not 'red'"),
        ("", "removal must be 'red-or-black' or 'any-two', not ''"),
        (None, "removal must be 'red-or-black' or 'any-two', not None"),
        (1, "removal must be 'red-or-black' or 'any-two', not 1"),
        (True, "removal must be 'red-or-black' or 'any-two', not True"),
        (["any-two"], "removal must be 'red-or-black' or 'any-two', not"),
    ],
)
def test_a_bad_removal_is_refused_clearly(removal: Any, message: str) -> None:
    with pytest.raises(OptionsError, match=message.replace("(", r"\(").replace("[", r"\[")):
        ODIN.check_setup(2, {"colours": 4, "removal": removal})
    with pytest.raises(OptionsError, match="removal must be"):
        Game.new(2, Options(colours=4, removal=removal), seed=1)


def test_a_new_record_names_its_rule_and_round_trips() -> None:
    for removal in ("red-or-black", "any-two"):
        game = Game.new(2, Options(colours=4, removal=removal, target=5), seed=11)
        _play_out(game)
        data = json.loads(game.record().to_json())
        assert data["format"] == "odin-cards-record/3"
        assert data["options"]["removal"] == removal
        assert GameRecord.from_dict(data).replay() == game


def test_a_0_1_4_colour_record_replays_with_any_two_and_only_so() -> None:
    data = json.loads(RECORD_01.read_text())
    assert data["options"]["colours"] == 4 and "removal" not in data["options"]
    record = GameRecord.from_dict(data)
    assert record.options.removal == "any-two"
    assert record.replay().outcome is not None
    # Read with the new rule, the same deals are not in the game's deck: the rule matters.
    as_new = GameRecord(record.players, Options(**{**data["options"]}), record.seed, record.events)
    assert as_new.options.removal == "red-or-black"
    assert removed_colours(data["seed"], 4, "any-two") != removed_colours(
        data["seed"], 4, "red-or-black"
    )
    with pytest.raises(RecordError, match="not in this game's deck"):
        as_new.replay()


def test_a_format_2_record_is_read_as_any_two() -> None:
    game = Game.new(2, Options(colours=4, removal="any-two", target=5), seed="v2")
    _play_out(game)
    data = game.record().to_dict()
    data["format"] = "odin-cards-record/2"
    del data["options"]["removal"]  # format 2 had no such option
    assert GameRecord.from_dict(data).replay() == game
    data["options"]["removal"] = "any-two"
    with pytest.raises(RecordError, match="'removal' is an option of format"):
        GameRecord.from_dict(data)  # an option format 2 cannot hold: a broken record


def test_a_6_colour_format_2_record_keeps_the_default_options() -> None:
    game = Game.new(3, Options(target=5), seed=4)
    data = game.record().to_dict()
    data["format"] = "odin-cards-record/2"
    del data["options"]["removal"]
    assert GameRecord.from_dict(data).options == Options(target=5)


def _play_out(game: Game) -> None:
    rng = random.Random(0)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
