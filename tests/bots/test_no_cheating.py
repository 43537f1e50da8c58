"""Bots cannot cheat: they get the seat's view, never the game, and hidden cards change nothing.

For positions from many games, the other seats' hidden cards are swapped for other
cards consistent with everything the seat to move knows. Asked with the same
random seed, every bot must choose the same action in the real and in the swapped
game. A deliberately cheating bot shows that the check catches a peek.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Sequence

import pytest

from odin_cards.odin.bots import LEVELS, Bot, Budget, ask, make_bot
from odin_cards.odin.rules import Action, Game, View
from odin_cards.odin.rules.position import sample_hands, unseen_mask

from .positions import positions


def swapped(game: Game, rng: random.Random) -> Game:
    """``game`` with every other seat's unknown cards redrawn, consistently with the seat's view.

    Known holdings, hand sizes, the table and the discards stay; so does the mover's hand.
    """
    seat = game.to_move
    view = game.view(seat)
    other = game.with_hands(sample_hands(view, rng))
    assert other.view(seat) == view
    return other


def budget_for(key: str) -> Budget:
    return Budget() if LEVELS[key].budget == Budget() else Budget(iterations=15)


class SpyBot(Bot):
    """Records what it is given."""

    level = "spy"

    def __init__(self) -> None:
        self.arguments: list[tuple[object, ...]] = []

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        self.arguments.append((view, legal, budget, rng))
        return legal[0]


class PeekingBot(Bot):
    """Cheats by reading the caller's frame; the swap test must catch it."""

    level = "peeking"

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        frame = inspect.currentframe()
        assert frame is not None and frame.f_back is not None
        game: Game = frame.f_back.f_locals["game"]
        hidden = sum(h for s, h in enumerate(game.hands) if s != view.seat)
        return legal[hidden % len(legal)]


def decisions_differ(bot_key: str | None, count: int) -> int:
    """In how many of ``count`` positions the bot's choice changes when hidden cards change."""
    differ = 0
    rng = random.Random(1)
    for index, game in enumerate(positions(count, seed=7)):
        if not unseen_mask(game.view(game.to_move)):
            continue  # six players and nothing hidden from the seat: nothing to swap
        bot = PeekingBot() if bot_key is None else make_bot(bot_key)
        budget = Budget() if bot_key is None else budget_for(bot_key)
        real = ask(bot, game, budget, random.Random(index))
        fake = ask(bot, swapped(game, rng), budget, random.Random(index))
        differ += real != fake
    return differ


@pytest.mark.parametrize("key", list(LEVELS))
def test_hidden_cards_do_not_change_decisions(key: str) -> None:
    count = 200 if LEVELS[key].budget == Budget() else 25
    if key == "network":
        count = 60  # milliseconds a move: fewer positions
    assert decisions_differ(key, count) == 0


def test_the_check_catches_a_cheat() -> None:
    assert decisions_differ(None, 40) > 0


def test_bots_receive_a_view_never_the_game() -> None:
    spy = SpyBot()
    for game in positions(20, seed=3):
        ask(spy, game, Budget(iterations=1), random.Random(0))
    for view, legal, budget, rng in spy.arguments:
        assert type(view) is View
        assert view.seat == view.to_move and view.hand is not None
        assert isinstance(legal, tuple) and all(type(a) is Action for a in legal)
        assert type(budget) is Budget and type(rng) is random.Random
        for value in vars(type(view)).get("__slots__", ()):
            assert not isinstance(getattr(view, value), Game)
