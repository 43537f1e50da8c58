"""The registry of games: every installed :class:`~odin_cards.plugin.GamePlugin` by key.

Filled from the entry-point group :data:`odin_cards.plugin.GROUP` the first time it is
asked, so a package installed beside odin-cards adds a game without a change here;
:func:`registered` adds one for a while (tests). A stored table or record names its game
by key: :func:`plugin_of` and :func:`rules_of` turn the key back into the game.

Every part of the platform (server, command line, tools, workers) asks this registry;
none imports a game. Listing the games imports no game's rules (see
:mod:`odin_cards.plugin`). Standard library only.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib.metadata import entry_points

from odin_cards.contract import GameRules, SetupError
from odin_cards.plugin import GROUP, GamePlugin

log = logging.getLogger(__name__)

_installed: dict[str, GamePlugin] | None = None
_added: dict[str, GamePlugin] = {}
_rules: dict[str, GameRules] = {}


def _discover() -> dict[str, GamePlugin]:
    """The plugins of the entry-point group, checked: one per key, each a GamePlugin."""
    found: dict[str, GamePlugin] = {}
    for point in entry_points(group=GROUP):
        try:
            plugin = point.load()
        except Exception as error:  # a broken package must not take the others down
            log.error("game plugin %r cannot be loaded: %s: %s", point.value, type(error), error)
            continue
        if not isinstance(plugin, GamePlugin):
            log.error("entry point %r is not a GamePlugin; ignored", point.value)
            continue
        if plugin.key != point.name:
            log.error("game plugin %r says its key is %r; ignored", point.name, plugin.key)
            continue
        if plugin.key in found:
            log.error("two game plugins are called %r; the second is ignored", plugin.key)
            continue
        found[plugin.key] = plugin
    return found


_ordered: dict[str, GamePlugin] | None = None
"""Every game in order, worked out once (asked on every broadcast): reset by :func:`registered`."""


def plugins() -> Mapping[str, GamePlugin]:
    """Every game, in the order lists show them (by rank, then key); the first is the
    default game. (The dict is shared: read it, never change it.)"""
    global _installed, _ordered
    if _ordered is None:
        if _installed is None:
            _installed = _discover()
        merged = {**_installed, **_added}
        _ordered = {k: merged[k] for k in sorted(merged, key=lambda k: (merged[k].rank, k))}
    return _ordered


def keys() -> tuple[str, ...]:
    return tuple(plugins())


def default_key() -> str:
    """The key of the game offered first (the lowest rank)."""
    every = plugins()
    if not every:
        raise SetupError("no game is installed (is the odin-cards package installed?)")
    return next(iter(every))


def plugin_of(key: str) -> GamePlugin:
    """The game called ``key``; :class:`SetupError` (never ``KeyError``) if none."""
    every = plugins()
    plugin = every.get(key) if isinstance(key, str) else None
    if plugin is None:
        shown = key[:40] if isinstance(key, str) else type(key).__name__
        raise SetupError(f"unknown game {shown!r}; games: {', '.join(every) or 'none'}")
    return plugin


def rules_of(key: str) -> GameRules:
    """The rules of the game ``key`` (loaded once); :class:`SetupError` if unknown."""
    rules = _rules.get(key) if isinstance(key, str) else None
    if rules is None:
        plugin = plugin_of(key)
        rules = plugin.load_rules()
        if rules.key != plugin.key:
            raise SetupError(f"the game {plugin.key!r} loads the rules of {rules.key!r}")
        _rules[key] = rules
    return rules


@contextmanager
def registered(*added: GamePlugin) -> Iterator[Mapping[str, GamePlugin]]:
    """The registry with ``added`` games besides the installed ones, until the block ends
    (a game of the same key as an installed one stands in for it)."""
    global _ordered
    before = dict(_added)
    for plugin in added:
        _added[plugin.key] = plugin
        _rules.pop(plugin.key, None)
    _ordered = None
    try:
        yield plugins()
    finally:
        _added.clear()
        _added.update(before)
        _ordered = None
        for plugin in added:
            _rules.pop(plugin.key, None)


__all__ = ["default_key", "keys", "plugin_of", "plugins", "registered", "rules_of"]
