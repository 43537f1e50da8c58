"""In the Name of Odin's side of the game contract: the rules object ``NAME_OF_ODIN``.

:mod:`odin_cards.games` registers it under ``"name-of-odin"``. The set-up names the card
set: ``"starter"`` (the project's set, the default) or a whole card set inline (the
format of ``docs/name-of-odin/cards.md``), so that a stored game replays with its cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from odin_cards.name_of_odin.rules.cards import CardsError, CardSet, parse_cards, starter_cards
from odin_cards.name_of_odin.rules.errors import SetupRefusedError, brief
from odin_cards.name_of_odin.rules.game import Game
from odin_cards.name_of_odin.rules.record import FORMAT, GAME, GameRecord

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
STARTER: Final = "starter"
_SETUP_KEYS: Final = ("cards", "first_player")
MAX_SEED_TEXT: Final = 200
MAX_SEED_BITS: Final = 256


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
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupRefusedError(f"players is a whole number, not {brief(players)}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise SetupRefusedError(
                f"In the Name of Odin is for {MIN_PLAYERS}-{MAX_PLAYERS} players"
            )
        if not isinstance(setup, Mapping):
            raise SetupRefusedError("the set-up is an object")
        for key in setup:
            if key not in _SETUP_KEYS:
                raise SetupRefusedError(
                    f"unknown set-up key {brief(key)}; keys: {', '.join(_SETUP_KEYS)}"
                )
        cards = setup.get("cards", STARTER)
        if cards != STARTER:
            try:
                cards = parse_cards(cards, "set-up 'cards'").to_dict()
            except CardsError as error:
                raise SetupRefusedError(str(error)) from None
        first = setup.get("first_player")
        if first is not None and (
            isinstance(first, bool) or not isinstance(first, int) or first not in range(players)
        ):
            raise SetupRefusedError(
                f"first_player is a seat 0..{players - 1} or null, not {brief(first)}"
            )
        return {"cards": cards, "first_player": first}

    def card_set(self, setup: Mapping[str, Any]) -> CardSet:
        """The cards a (checked) set-up names."""
        cards = setup.get("cards", STARTER)
        return starter_cards() if cards == STARTER else parse_cards(cards, "set-up 'cards'")

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
        checked = self.check_setup(players, setup)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise SetupRefusedError(f"the seed is a whole number or a text, not {brief(seed)}")
        if (isinstance(seed, str) and len(seed) > MAX_SEED_TEXT) or (
            isinstance(seed, int) and seed.bit_length() > MAX_SEED_BITS
        ):
            raise SetupRefusedError(
                f"a seed is at most {MAX_SEED_TEXT} characters or {MAX_SEED_BITS} bits"
            )
        draws = None
        if chance is not None:
            if len(chance) != 1 or not isinstance(chance[0], Mapping):
                raise SetupRefusedError("chance is [draws]: one object of deck orders")
            draws = chance[0]
        return Game(players, self.card_set(checked), checked, seed, draws)

    def load_record(self, data: Mapping[str, Any]) -> GameRecord:
        return GameRecord.from_dict(data)

    def __repr__(self) -> str:
        return f"<rules {self.key!r} v{self.rules_version}>"


NAME_OF_ODIN = NameOfOdinRules()
"""The rules of In the Name of Odin."""

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "NAME_OF_ODIN", "NameOfOdinRules"]
