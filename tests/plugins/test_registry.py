"""The game registry: filled from the entry-point group, light to list, strict on keys."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from odin_cards.contract import SetupError
from odin_cards.games import default_key, keys, plugin_of, plugins, registered, rules_of
from odin_cards.odin.rules.odin import OdinRules
from odin_cards.plugin import GROUP, BotLevel, GamePlugin, resolve

INSTALLED = ("odin", "name-of-odin")


def test_the_installed_games_come_from_the_entry_point_group() -> None:
    from importlib.metadata import entry_points

    published = {point.name for point in entry_points(group=GROUP)}
    assert set(INSTALLED) <= published
    assert keys()[: len(INSTALLED)] == INSTALLED and default_key() == "odin"
    for key in INSTALLED:
        assert plugin_of(key).key == key and rules_of(key).key == key


def test_listing_the_games_imports_none_of_them() -> None:
    """Names, levels and presets are data: a lobby lists games without loading a rules
    core, a bot or a presenter (each loads where it runs)."""
    script = (
        "import json, sys\n"
        "from odin_cards.games import plugins\n"
        "every = plugins()\n"
        "facts = [(p.name, p.level_keys, p.play_now) for p in every.values()]\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('odin_cards'))))\n"
    )
    loaded = json.loads(subprocess.check_output([sys.executable, "-c", script], text=True))
    games = [m for m in loaded if m.startswith(("odin_cards.odin.", "odin_cards.name_of_odin."))]
    assert games == ["odin_cards.name_of_odin.plugin", "odin_cards.odin.plugin"]


def test_an_unknown_game_is_a_setup_error_listing_the_games() -> None:
    with pytest.raises(SetupError, match="unknown game 'chess'; games: odin, name-of-odin"):
        plugin_of("chess")
    with pytest.raises(SetupError, match="unknown game 'int'"):
        rules_of(3)  # type: ignore[arg-type]


def test_a_game_registered_for_a_while_is_listed_then_gone() -> None:
    other = GamePlugin(
        key="odin-again",
        name="Odin again",
        rules=f"{__name__}:ODIN_AGAIN",
        bot_levels=(BotLevel("quick", "Quick", "at once"), BotLevel("slow", "Slow", "2 s", 2.0)),
    )
    with registered(other) as every:
        assert list(every)[-1] == "odin-again"
        assert rules_of("odin-again") is ODIN_AGAIN
        assert other.stand_in_level() == "quick" and other.hint() == "slow"
    assert "odin-again" not in plugins()
    with pytest.raises(SetupError):
        rules_of("odin-again")


def test_the_plugins_parts_resolve_and_the_rules_say_their_key() -> None:
    for key in INSTALLED:
        plugin = plugin_of(key)
        assert callable(plugin.load_bots())
        assert plugin.stand_in_level() in plugin.level_keys
        assert plugin.hint() == plugin.level_keys[-1]
    assert resolve("odin_cards.odin.plugin:PLUGIN") is plugin_of("odin")
    with pytest.raises(ValueError, match=r"package\.module:attribute"):
        resolve("odin_cards.odin.plugin")
    mismatched = GamePlugin(key="not-odin", name="?", rules="odin_cards.odin.rules.odin:ODIN")
    with registered(mismatched), pytest.raises(SetupError, match="loads the rules of 'odin'"):
        rules_of("not-odin")


class _OdinAgain(OdinRules):
    """Odin's rules under another key (the registry keeps a game's rules by its key)."""

    key = "odin-again"


ODIN_AGAIN = _OdinAgain()
