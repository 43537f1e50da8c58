"""The typed history of a game: one small immutable event class per kind.

``Game.history`` is a list of these, in order. Every event has ``kind`` (the ``type``
of its public form, see :func:`odin_cards.odin.rules.view.public_event`); secrets (the
deal) are only in :class:`Deal`. They are ``NamedTuple`` s because the engine makes
one or two per action and tuples are the cheapest objects Python builds; ``kind`` is
their last field, with its default, so that two events of different kinds never
compare equal. Build them by keyword or position without ``kind``: ``Play(0, action)``.

* :class:`Deal` a new hand: its leader and every seat's cards (secret).
* :class:`Play`, :class:`Pass`, :class:`Take`: a seat's action.
* :class:`Discard`: the rest of the set a seat beat after its take, or (``seat`` is
  ``None``) the table when a round ends.
* :class:`RoundEnd`: everybody else passed; ``leader`` leads the next round.
* :class:`HandEnd`: ``seat`` emptied its hand; ``points`` per seat for this hand and
  the cards every seat had left, shown to all (they are public from then on).
* :class:`GameEnd`: the winners.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from odin_cards.odin.rules.actions import PASS_ACTION, Action


class Deal(NamedTuple):
    leader: int
    hands: tuple[int, ...]
    """Every seat's cards as bitmasks (secret)."""
    kind: Literal["deal"] = "deal"


class Play(NamedTuple):
    seat: int
    action: Action
    kind: Literal["play"] = "play"


class Pass(NamedTuple):
    seat: int
    kind: Literal["pass"] = "pass"

    @property
    def action(self) -> Action:
        return PASS_ACTION


class Take(NamedTuple):
    seat: int
    action: Action
    """The ``take`` action; its ``card`` is the card taken."""
    kind: Literal["take"] = "take"

    @property
    def card(self) -> int:
        return self.action.card


class Discard(NamedTuple):
    seat: int | None
    """The seat that took from the beaten set, or ``None`` for the table at a round's end."""
    cards: int
    """The discarded cards as a bitmask."""
    kind: Literal["discard"] = "discard"


class RoundEnd(NamedTuple):
    leader: int
    kind: Literal["round"] = "round"


class HandEnd(NamedTuple):
    seat: int
    """The seat that emptied its hand."""
    points: tuple[int, ...]
    hands: tuple[int, ...]
    """Every seat's cards left (bitmasks; 0 for ``seat``): shown at the hand's end, public."""
    kind: Literal["hand_end"] = "hand_end"


class GameEnd(NamedTuple):
    winners: tuple[int, ...]
    kind: Literal["game_end"] = "game_end"


Event = Deal | Play | Pass | Take | Discard | RoundEnd | HandEnd | GameEnd
"""Any entry of ``Game.history``."""

ActionEvent = Play | Pass | Take
"""The events that are a seat's action (what a record stores)."""

__all__ = [
    "ActionEvent",
    "Deal",
    "Discard",
    "Event",
    "GameEnd",
    "HandEnd",
    "Pass",
    "Play",
    "RoundEnd",
    "Take",
]
