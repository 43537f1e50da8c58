"""The translations are complete: every language has every key the pages use, with the
same placeholders as English, and the keys the pages build at run time (bot levels, error
codes, selection verdicts...) exist too; the shell's words (static/i18n) and Odin's board's
(odin/web/i18n) are apart, none in both. (Static checks; no browser needed.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from odin_cards.server.transport.pages import GAME_PAGE_TEMPLATE, PAGES, page_html

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "odin_cards" / "server" / "static"
ODIN = ROOT / "src" / "odin_cards" / "odin" / "web"
LANGUAGES = ("en", "de", "fr", "sv", "ca")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _words(folder: Path, lang: str) -> dict[str, str]:
    data = json.loads((folder / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _strings(lang: str) -> dict[str, str]:
    """The shell's words."""
    return _words(STATIC, lang)


def _all_strings(lang: str) -> dict[str, str]:
    """The words of Odin's pages: the shell's and its board's."""
    return {**_words(STATIC, lang), **_words(ODIN, lang)}


def _rendered_pages() -> list[str]:
    """Every page's HTML: the shell's and a game's own (Odin's rules)."""
    pages = [page_html(template) for template in sorted(set(PAGES.values()))]
    return [*pages, page_html(GAME_PAGE_TEMPLATE, game="odin", page="rules", css=True)]


def _used_keys(scripts: Path) -> set[str]:
    """Keys named literally in t("...") calls, in the message keys of the pure state
    modules (`key: "..."`) and, for the shell, in the templates' data-i18n attributes."""
    keys: set[str] = set()
    for path in scripts.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"\bt\(\s*\"([a-z0-9_]+)\"", text))
        keys |= set(re.findall(r"[{,]\s*key: \"([a-z0-9_]+)\"", text))
        keys |= set(re.findall(r"\bsay: \"([a-z0-9_]+)\"", text))
    if scripts == STATIC / "js":
        for text in _rendered_pages():
            keys |= set(re.findall(r'data-i18n="([a-z0-9_]+)"', text))
            keys |= set(re.findall(r'data-i18n-attr="[a-z-]+:([a-z0-9_]+)"', text))
    return keys


def _missing(keys: set[str], english: dict[str, str]) -> set[str]:
    plural = {k.rsplit("_", 1)[0] for k in english if k.endswith(("_one", "_other"))}
    return {k for k in keys if k not in english and k not in plural}


def test_english_has_every_key_the_pages_use() -> None:
    assert _used_keys(STATIC / "js")
    assert not _missing(_used_keys(STATIC / "js"), _strings("en"))  # the shell's own words
    assert _used_keys(ODIN)
    assert not _missing(_used_keys(ODIN), _all_strings("en"))  # Odin's board: its and the shell's


def test_the_shell_and_odin_have_no_word_in_common() -> None:
    """A board's words never stand in for the shell's (i18n.js keeps the shell's): each key
    lives in one place."""
    for lang in LANGUAGES:
        assert not set(_words(STATIC, lang)) & set(_words(ODIN, lang)), lang


def _built_keys() -> set[str]:
    """The keys the pages build at run time, family by family."""
    from odin_cards.server.core.people.ratings import CLASSES

    keys = {f"class_{rating_class}" for rating_class in CLASSES}
    protocol = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    codes = re.search(r"code one\s+of (.*?)\.\s", protocol, re.S)
    assert codes is not None
    keys |= {f"error_{code}" for code in re.findall(r"`([a-z_]+)`", codes.group(1))}
    statuses = ("lead_ok", "finish_ok", "lead_one", "beats", "too_low", "size")
    keys |= {f"sel_{s}" for s in (*statuses, "goat_number_set", "not_a_set", "empty")}
    keys |= {f"colour_{c}" for c in ("blue", "red", "pink", "green", "black", "orange")}
    keys |= {f"say_{move}" for move in ("play", "take", "pass")}
    keys |= {f"rules_{i}" for i in range(1, 7)}
    keys |= {f"status_{s}" for s in ("waiting", "playing", "finished")}
    keys |= {"select_hint_tap", "select_hint_click", "sort_colour", "sort_number"}
    keys |= {"score_points", "score_countdown"}
    keys |= {f"motion_{speed}" for speed in ("normal", "fast", "off")}
    keys |= {f"theme_{theme}" for theme in ("auto", "light", "dark")}
    keys |= {f"cards_{size}" for size in ("small", "normal", "large")}
    keys |= {f"an_{v}" for v in ("forced", "best", "good", "inaccuracy", "mistake", "blunder")}
    keys |= {f"presence_{state}" for state in ("online", "away", "offline")}
    keys |= {f"visibility_{v}" for v in ("public", "private", "public_help", "private_help")}
    keys |= {f"closed_{part}_{s}" for s in ("cancelled", "expired") for part in ("title", "help")}
    keys |= {f"status_{s}" for s in ("expired", "cancelled")}
    keys |= {f"clock_{c}" for c in ("none", "fast", "normal", "slow", "custom", "12h", "24h", "3d")}
    return keys


def test_every_key_built_at_run_time_exists() -> None:
    english = _all_strings("en")
    assert not {k for k in _built_keys() if k not in english}


def test_every_run_time_key_family_is_known_to_this_test() -> None:
    """A new t(`prefix_${...}`) in the pages must be added to _built_keys above."""
    families = set()
    for path in [*(STATIC / "js").glob("*.js"), *ODIN.glob("*.js")]:
        text = path.read_text(encoding="utf-8")
        families |= set(re.findall(r"\bt\(\s*`([a-z_]+)\$\{", text))
        families |= set(re.findall(r"\bkey: `([a-z_]+)\$\{", text))
        families |= set(re.findall(r"hasText\(`([a-z_]+)\$\{", text))
    known = {re.sub(r"[a-z0-9]+$", "", key) for key in _built_keys()}
    assert families <= known, families - known


def test_a_games_bot_levels_are_named_in_its_own_words() -> None:
    """Levels are a game's (two games may both have a \"random\" level): Odin names and
    describes each of its levels in its own words, in every language, and the shell names
    none (ui.js's setLevels reads ``level.<key>`` of the table's game, else the server's
    English)."""
    from odin_cards.games import plugin_of

    levels = plugin_of("odin").level_keys
    for lang in LANGUAGES:
        words = _words(ODIN, lang)
        assert {f"level.{key}" for key in levels} <= set(words), lang
        assert {f"level.{key}.desc" for key in levels} <= set(words), lang
        assert not [key for key in _words(STATIC, lang) if key.startswith("level")], lang


def test_the_no_script_message_is_in_every_language() -> None:
    """Without scripts no language can be chosen: every page says it in all five."""
    for text in _rendered_pages():
        noscript = re.search(r"<noscript>(.*?)</noscript>", text, re.S)
        assert noscript is not None
        for lang in LANGUAGES:
            assert f'<span lang="{lang}">{_strings(lang)["noscript"]}</span>' in noscript.group(1)


def test_the_language_menu_lists_exactly_the_translated_languages() -> None:
    module = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    menu = re.search(r"export const LANGUAGES = \{(.*?)\};", module, re.S)
    assert menu is not None
    assert tuple(re.findall(r"^\s*(\w\w):", menu.group(1), re.M)) == LANGUAGES


@pytest.mark.parametrize("folder", [STATIC, ODIN], ids=["shell", "odin"])
@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_translation_is_complete_with_the_same_placeholders(lang: str, folder: Path) -> None:
    english, other = _words(folder, "en"), _words(folder, lang)
    assert set(other) == set(english)
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), key
        if text:
            assert other[key].strip(), key
