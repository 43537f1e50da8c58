"""Game options: every choice ``RULES.md`` leaves to the players, with its default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from odin_cards.odin.rules.errors import OptionsError, brief

NextLeader = Literal["rotate", "winner"]
Removal = Literal["red-or-black", "any-two"]
REMOVALS: tuple[Removal, ...] = ("red-or-black", "any-two")

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options of one game.

    ``target``: the game ends after a hand in which someone reaches this many points.
    ``one_hand``: the first hand ends the game whatever the points.
    ``next_leader``: ``rotate`` (left of the previous hand's first leader, the English
    rulebook) or ``winner`` (whoever ended the previous hand).
    ``first_leader``: a fixed seat, or ``None`` for a seeded random choice.
    ``colours``: 6, or 4 for the two-player variant that removes two colours.
    ``goat``: add the Grumpy Goat promo card ``X0``.
    ``removal``: which two colours a 4-colour game leaves out (ignored with 6):
    ``red-or-black`` (red or black, and one of the four other colours, so red and black
    are never both in play, as on Board Game Arena) or ``any-two`` (any two, the rule of
    0.1 and of every game stored before this option existed; see ``RULES.md``).
    """

    target: int = 15
    one_hand: bool = False
    next_leader: NextLeader = "rotate"
    first_leader: int | None = None
    colours: int = 6
    goat: bool = False
    removal: Removal = "red-or-black"

    def check(self, players: int) -> None:
        """Raise :class:`OptionsError` unless these options fit a game of ``players``.

        Strict about types: whole numbers are ``int`` (never ``bool`` or ``float``),
        switches are ``bool``.
        """
        if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionsError(f"Odin is played by 2 to 6 players, not {brief(players)}")
        if not _is_int(self.target) or self.target < 1:
            raise OptionsError(
                f"the target must be a positive whole number, not {brief(self.target)}"
            )
        if not isinstance(self.next_leader, str) or self.next_leader not in ("rotate", "winner"):
            raise OptionsError(
                f"next_leader must be 'rotate' or 'winner', not {brief(self.next_leader)}"
            )
        if self.first_leader is not None and (
            not _is_int(self.first_leader) or not 0 <= self.first_leader < players
        ):
            raise OptionsError(
                f"first_leader must be a seat from 0 to {players - 1},"
                f" not {brief(self.first_leader)}"
            )
        if not _is_int(self.colours) or self.colours not in (4, 6):
            raise OptionsError(
                f"colours must be 6, or 4 in a two-player game, not {brief(self.colours)}"
            )
        if self.colours == 4 and players != 2:
            raise OptionsError("the 4-colour deck is for two players only")
        if not isinstance(self.goat, bool) or not isinstance(self.one_hand, bool):
            raise OptionsError("goat and one_hand are true or false")
        if not isinstance(self.removal, str) or self.removal not in REMOVALS:
            raise OptionsError(
                f"removal must be 'red-or-black' or 'any-two', not {brief(self.removal)}"
            )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        """Options from their dict (missing ones take their default); not yet checked."""
        if not isinstance(data, Mapping):
            raise OptionsError(f"options are an object of names and values, not {brief(data)}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(k if isinstance(k, str) else brief(k) for k in data if k not in known)
        if unknown:
            raise OptionsError(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)


def _is_int(value: object) -> bool:
    """A whole number: an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)
