"""The registry of games: every game's rules (:class:`~odin_cards.contract.GameRules`) by key.

A stored table or record names its game by key; :func:`rules_of` turns the key back
into the rules that start, replay and judge it.
"""

from __future__ import annotations

from odin_cards.contract import GameRules, SetupError
from odin_cards.name_of_odin.rules.name_of_odin import NAME_OF_ODIN
from odin_cards.odin.rules.odin import ODIN

GAMES: dict[str, GameRules] = {ODIN.key: ODIN, NAME_OF_ODIN.key: NAME_OF_ODIN}


def rules_of(key: str) -> GameRules:
    """The rules registered as ``key``; :class:`SetupError` (never ``KeyError``) if none."""
    rules = GAMES.get(key) if isinstance(key, str) else None
    if rules is None:
        shown = key[:40] if isinstance(key, str) else type(key).__name__
        raise SetupError(f"unknown game {shown!r}; games: {', '.join(GAMES)}")
    return rules


__all__ = ["GAMES", "rules_of"]
