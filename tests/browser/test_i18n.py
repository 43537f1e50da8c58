"""The translations are complete: every language has every key the pages use, with the
same placeholders as English. (Static checks; no browser needed.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "odin_cards" / "server" / "static"
LANGUAGES = ("en", "de", "fr", "sv", "ca")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _strings(lang: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _used_keys() -> set[str]:
    """Keys named literally in t("...") calls and data-i18n attributes."""
    keys: set[str] = set()
    for path in (STATIC / "js").glob("*.js"):
        keys |= set(re.findall(r"\bt\(\s*\"([a-z0-9_]+)\"", path.read_text(encoding="utf-8")))
    for path in STATIC.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'data-i18n="([a-z0-9_]+)"', text))
        keys |= set(re.findall(r'data-i18n-attr="[a-z-]+:([a-z0-9_]+)"', text))
    return keys


def test_english_has_every_key_the_pages_use() -> None:
    english = _strings("en")
    plural = {k.rsplit("_", 1)[0] for k in english if k.endswith(("_one", "_other"))}
    missing = {k for k in _used_keys() if k not in english and k not in plural}
    assert not missing


def test_the_language_menu_lists_exactly_the_translated_languages() -> None:
    module = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    menu = re.search(r"export const LANGUAGES = \{(.*?)\};", module, re.S)
    assert menu is not None
    assert tuple(re.findall(r"^\s*(\w\w):", menu.group(1), re.M)) == LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_translation_is_complete_with_the_same_placeholders(lang: str) -> None:
    english, other = _strings("en"), _strings(lang)
    assert set(other) == set(english)
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), key
        if text:
            assert other[key].strip(), key
