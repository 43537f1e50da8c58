"""Agents for the evaluation tests, loaded by file path (``.../agents.py:name``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from odin_cards.odin.bots import Bot, Budget
from odin_cards.odin.rules import Action, View

CALLS: list[int] = []
"""Seats the recording agent was asked to move for (in this process)."""
HANDS: list[tuple[int, int, tuple[str, ...]]] = []
"""(seat, hand number, cards held) at every call of the hand-recording agent."""


def lowest(view: View, legal: Sequence[Action]) -> Action:
    """The legal action with the lowest id."""
    return min(legal, key=lambda a: a.id)


def by_id(view: View, legal: Sequence[Action]) -> int:
    return max(a.id for a in legal)


def by_text(view: View, legal: Sequence[Action]) -> str:
    return legal[-1].text


def recording(view: View, legal: Sequence[Action]) -> Action:
    assert view.seat is not None and view.hand is not None  # a seat's view, never the game
    CALLS.append(view.seat)
    return legal[0]


def hand_recording(view: View, legal: Sequence[Action]) -> Action:
    assert view.seat is not None and view.hand is not None
    HANDS.append((view.seat, view.hand_number, view.hand))
    return legal[0]


def illegal(view: View, legal: Sequence[Action]) -> str:
    return "play B0" if len(legal) > 1 else legal[0].text


def not_an_action(view: View, legal: Sequence[Action]) -> object:
    return [legal[0]]


def broken(view: View, legal: Sequence[Action]) -> Action:
    raise RuntimeError("out of ideas")


class HighestBot(Bot):
    """A Bot subclass as an agent: the legal action with the highest id."""

    level = "highest"

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        return max(legal, key=lambda a: a.id)


NOT_CALLABLE = 42


class NotABot:
    pass
