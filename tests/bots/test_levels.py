"""A game's bot levels are written once, in its plugin: the bots add only how each level
plays (Odin's take their budget from the plugin's seconds)."""

from __future__ import annotations

from odin_cards.games import plugin_of
from odin_cards.name_of_odin import bots as noo_bots
from odin_cards.name_of_odin.plugin import LEVELS as NOO_LEVELS
from odin_cards.odin.bots import LEVELS, Budget, Level, RandomBot, added_level, make_bot
from odin_cards.odin.bots.search import SearchBot
from odin_cards.odin.plugin import PLUGIN


def test_odins_levels_are_the_plugins_with_its_seconds_as_their_budget() -> None:
    assert list(LEVELS) == list(PLUGIN.level_keys)
    for facts in PLUGIN.bot_levels:
        level = LEVELS[facts.key]
        assert level.budget == Budget(seconds=facts.seconds)
        assert (level.name, level.description) == (facts.name, facts.description)
    expert = make_bot("expert")
    assert isinstance(expert, SearchBot) and expert.seconds == PLUGIN.level("expert").seconds  # type: ignore[union-attr]


def test_the_second_games_levels_are_its_plugins() -> None:
    assert list(noo_bots.LEVELS) == list(plugin_of("name-of-odin").level_keys)
    assert plugin_of("name-of-odin").bot_levels == NOO_LEVELS


def test_a_level_added_for_a_while_is_offered_everywhere_and_then_gone() -> None:
    with added_level(Level("dice", RandomBot), "Dice", "rolls"):
        assert plugin_of("odin").level("dice") is not None
        assert LEVELS["dice"].name == "Dice"
    assert plugin_of("odin").level("dice") is None and "dice" not in LEVELS
