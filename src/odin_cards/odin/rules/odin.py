"""Odin's side of the game contract (:mod:`odin_cards.contract`): the rules object.

``ODIN`` is what :mod:`odin_cards.games` registers under ``"odin"``; :class:`Game`
itself is the contract's ``GameState`` and :class:`GameRecord` its ``Record``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from odin_cards.odin.rules.game import Game, GameRecord
from odin_cards.odin.rules.options import MAX_PLAYERS, MIN_PLAYERS, Options
from odin_cards.odin.rules.record import FORMAT, GAME


class OdinRules:
    """The rules of Odin as the contract's ``GameRules``."""

    key: str = GAME
    rules_version: int = 2
    """Bump when a stored game (set-up, seed, actions) may replay differently.

    2: the ``removal`` option (a set-up without it now means ``red-or-black``; server
    migration 0003 wrote ``any-two`` into the 4-colour set-ups stored at version 1).
    """
    record_format: str = FORMAT
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The options of ``setup`` with every default filled in; :class:`OptionsError` if bad.

        ``setup`` holds :class:`Options` fields by name (``target``, ``one_hand``,
        ``next_leader``, ``first_leader``, ``colours``, ``goat``, ``removal``); unknown names and
        wrong types (a ``bool`` or ``float`` for a whole number) are refused.
        """
        options = Options.from_dict(setup)
        options.check(players)
        return options.to_dict()

    def new_game(
        self,
        players: int,
        setup: Mapping[str, Any],
        seed: int | str,
        chance: Sequence[Any] | None = None,
    ) -> Game:
        """A new game; ``chance`` injects the deals of the first hands (seat -> card codes)."""
        options = Options.from_dict(self.check_setup(players, setup))
        return Game.new(players, options, seed, deals=chance)

    def load_record(self, data: Mapping[str, Any]) -> GameRecord:
        """A record of format ``odin-cards-record/3``, ``/2`` or ``/1``; :class:`RecordError`."""
        return GameRecord.from_dict(data)

    def __repr__(self) -> str:
        return f"<rules {self.key!r} v{self.rules_version}>"


ODIN = OdinRules()
"""The rules of Odin."""

__all__ = ["ODIN", "OdinRules"]
