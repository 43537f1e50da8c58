"""In the Name of Odin's side of the game contract: the rules object ``NAME_OF_ODIN``.

:mod:`odin_cards.games` registers it under ``"name-of-odin"``. The set-up names the card
set: ``"starter"`` (the project's set, the default) or a whole card set inline (the
format of ``docs/name-of-odin/cards.md``), so that a stored game replays with its cards
(see :mod:`.setup`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from odin_cards.name_of_odin.rules import setup as setups
from odin_cards.name_of_odin.rules.cards import MAX_PLAYERS, MIN_PLAYERS, CardSet
from odin_cards.name_of_odin.rules.game import Game, GameRecord
from odin_cards.name_of_odin.rules.record import FORMAT, GAME


class NameOfOdinRules:
    """The rules of In the Name of Odin as the contract's ``GameRules``."""

    key: str = GAME
    rules_version: int = 1
    record_format: str = FORMAT
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict[str, Any]:
        """``{"cards": "starter" | {card set}, "first_player": None | seat}`` normalized.

        A card set given inline is validated and written back canonically.
        """
        return setups.check_setup(players, setup)

    def card_set(self, setup: Mapping[str, Any]) -> CardSet:
        """The cards a (checked) set-up names."""
        return setups.card_set(setup)

    def new_game(
        self,
        players: int,
        setup: Mapping[str, Any],
        seed: int | str,
        chance: Sequence[Any] | None = None,
    ) -> Game:
        """A new game. ``chance`` is ``[draws]``: a dict of deck orders fixed in advance
        (``raid_deck``, ``building_deck``, ``ship_deck``, ``hero_deck``, ``action_deck``:
        lists of every card, top first; ``action_deck`` is drawn from its end), ``markers``
        (the zones' viking markers then the spare), ``first_player``."""
        return Game.new(players, setup, seed, chance)

    def load_record(self, data: Mapping[str, Any]) -> GameRecord:
        return GameRecord.from_dict(data)

    def __repr__(self) -> str:
        return f"<rules {self.key!r} v{self.rules_version}>"


NAME_OF_ODIN = NameOfOdinRules()
"""The rules of In the Name of Odin."""

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "NAME_OF_ODIN", "NameOfOdinRules"]
