"""Games rebuilt from what one seat knows: the basis of sampling for search bots.

A seat does not know the other hands. A search bot samples hands consistent with
its :class:`View` (hand sizes, cards known to be held, cards already out) and
calls :func:`game_from_view` to get a full :class:`Game` it may simulate freely.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import deal as chance
from .actions import PLAY_BY_MASK
from .cards import COLOURS, GOAT, cards_of, deck_mask, mask_of, number_mask_of, parse_card
from .errors import OptionsError
from .game import CHOOSE_TAKE, FOLLOW, LEAD, OVER, Game
from .view import View


def _mask(cards: Sequence[str]) -> int:
    return mask_of(parse_card(c) for c in cards)


def deck_of(view: View) -> int:
    """Every card of this game's deck."""
    return deck_mask((COLOURS.index(c) for c in view.colours), view.options.goat)


def unseen_mask(view: View) -> int:
    """Cards that may be in another seat's hand without that seat being known to hold them.

    The deck minus the viewer's own hand, the table, the set being taken from, the
    discards and every card another seat is known to hold.
    """
    seen = _mask(view.hand or ()) | _mask(view.table) | _mask(view.beaten) | _mask(view.discards)
    for cards in view.known:
        seen |= _mask(cards)
    return deck_of(view) & ~seen


def sample_hands(view: View, rng: random.Random) -> list[int]:
    """Hands for every seat, consistent with ``view``, drawn uniformly from the unseen cards.

    The viewer keeps its own hand; every other seat keeps the cards it is known to
    hold and gets random unseen cards up to its hand size. (A spectator's view
    samples every hand.) An unseen Goat is always dealt to someone, as the rules deal it.
    """
    pool = cards_of(unseen_mask(view))
    rng.shuffle(pool)
    hands = [
        _mask(view.hand or ()) if seat == view.seat else _mask(view.known[seat])
        for seat in range(view.players)
    ]
    slots = [
        seat
        for seat in range(view.players)
        if seat != view.seat
        for _ in range(view.hand_sizes[seat] - hands[seat].bit_count())
    ]
    if GOAT in pool and slots:
        pool.remove(GOAT)
        pool.insert(rng.randrange(len(slots)), GOAT)  # a random slot of a random seat
    for seat, card in zip(slots, pool, strict=False):
        hands[seat] |= 1 << card
    return hands


def game_from_view(view: View, hands: Sequence[int], seed: chance.Seed = 0) -> Game:
    """A :class:`Game` in the position of ``view`` with the given hands (bitmasks).

    Later hands are dealt from ``seed``; the game has no history before this point.
    """
    if len(hands) != view.players:
        raise OptionsError(f"give {view.players} hands, not {len(hands)}")
    for seat, hand in enumerate(hands):
        if hand.bit_count() != view.hand_sizes[seat]:
            raise OptionsError(f"seat {seat} holds {view.hand_sizes[seat]} cards")
    game = Game.__new__(Game)
    game.players = view.players
    game.options = view.options
    game.seed = seed
    game.deals = ()
    game.removed = tuple(i for i, c in enumerate(COLOURS) if c not in view.colours)
    game.first_leader = view.hand_leader
    game.scores = list(view.scores)
    game.hands = list(hands)
    game.hands_n = [number_mask_of(h) for h in hands]
    game.known = [_mask(k) for k in view.known]
    game.table = PLAY_BY_MASK[_mask(view.table)] if view.table else None
    game.table_player = -1 if view.table_player is None else view.table_player
    game.beaten = PLAY_BY_MASK[_mask(view.beaten)] if view.beaten else None
    game.passes = view.passes
    game.discards = _mask(view.discards)
    game.history = []
    game.outcome = view.outcome
    game.hand_leader = view.hand_leader
    if view.outcome is not None:
        game.hand_number = view.hand_number
        game.phase = OVER
        game.to_move = -1
    else:
        game.hand_number = view.hand_number - 1
        game.phase = {"lead": LEAD, "follow": FOLLOW, "take": CHOOSE_TAKE}[view.decision or ""]
        assert view.to_move is not None
        game.to_move = view.to_move
    return game


__all__ = ["deck_of", "game_from_view", "sample_hands", "unseen_mask"]
