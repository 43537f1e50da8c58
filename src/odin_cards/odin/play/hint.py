"""``hint``: what a bot level would do in the player's seat, and why, in one line.

The bot gets exactly what the player sees (the seat's view and legal actions), so a
hint never leaks a hidden card. A bot that can say why it chose (a method
``explain(view, legal, budget, rng) -> (action, reason)``) gives its own reason;
otherwise the reason is the move's plain effect on the player's hand and the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from odin_cards.odin.bots import LEVELS, Budget, ask, make_bot
from odin_cards.odin.bots.hand import decompose
from odin_cards.odin.rules import Action, Game, View, mask_text
from odin_cards.odin.rules.cards import COLOUR_NAMES, COLOURS, mask_of, parse_card


@runtime_checkable
class Explains(Protocol):
    """A bot that returns its reason with its choice."""

    def explain(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> tuple[Action, str]: ...


def strongest_level() -> str:
    """The hint's default level: the last of :data:`LEVELS` (which lists levels weakest
    first) that this install plays (the core install: the heuristic)."""
    here = [key for key, level in LEVELS.items() if level.facts is None or level.facts.installed]
    return (here or list(LEVELS))[-1]


@dataclass(frozen=True, slots=True)
class Hint:
    level: str
    action: Action
    reason: str

    def line(self) -> str:
        return f"{LEVELS[self.level].name} would {self.action.text}: {self.reason}"


def give_hint(level: str, game: Game, rng: random.Random) -> Hint:
    """Ask ``level`` for the move of the seat to move in ``game``, with a reason."""
    bot = make_bot(level)
    budget = LEVELS[level].budget
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: there is nothing to hint")
    legal = game.legal_actions()
    if isinstance(bot, Explains):
        action, reason = bot.explain(game.view(seat), tuple(legal), budget, rng)
        if action not in legal:
            raise ValueError(f"{level} bot hinted {action}, which is not legal here")
        return Hint(level, action, reason)
    action = ask(bot, game, budget, rng)
    return Hint(level, action, describe(game.view(seat), action, legal))


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards)


def split_text(cards: Sequence[str]) -> str:
    """The cards as the fewest sets that could empty them: ``3 sets: B2 B5 · R5 K5 · P9``."""
    if not cards:
        return "no cards"
    sets = sorted(decompose(mask_of(parse_card(c) for c in cards)), key=lambda m: -m.bit_count())
    return f"{len(sets)} set{'s' if len(sets) != 1 else ''}: " + " · ".join(
        mask_text(m) for m in sets
    )


def describe(view: View, action: Action, legal: Sequence[Action]) -> str:
    """The plain effect of ``action`` for the seat of ``view`` (a reason when a bot gives none)."""
    hand = list(view.hand or ())
    if len(legal) == 1:
        return "it is the only legal move"
    if action.is_pass:
        if not any(a.is_play for a in legal):
            return f"nothing you hold beats {view.table_value}"
        return f"keeps your hand ({split_text(hand)}) rather than spend it on {view.table_value}"
    if action.is_take:
        card = action.cards[0]
        after = split_text([*hand, card])
        same_colour = [c for c in hand if c[0] == card[0] and card[0] != "X"]
        same_number = [c for c in hand if c[1] == card[1]]
        if same_colour and len(same_colour) >= len(same_number):
            name = COLOUR_NAMES[COLOURS.index(card[0])]
            return f"it joins your {name} cards; your hand then makes {after}"
        if same_number:
            return f"it matches your {card[1]}s; your hand then makes {after}"
        return f"your hand then makes {after}"
    rest = [c for c in hand if c not in action.cards]
    if not rest:
        return "it empties your hand and ends it: you score nothing"
    keep = f"you keep {split_text(rest)}"
    if view.decision == "lead":
        values = sorted(int(c[1]) for c in hand)
        if action.value == values[0]:
            return f"a single lead of your lowest card; {keep}"
        if action.value == values[-1]:
            return f"a single lead of your highest card; {keep}"
        return f"a single lead; {keep}"
    return f"{_cards(action.cards)} ({action.value}) beats {view.table_value}; {keep}"
