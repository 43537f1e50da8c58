"""Hands consistent with what one seat knows: the one hand sampler, for search bots.

A seat does not know the other hands. A search bot builds a :class:`HandSampler` from
its :class:`View` once (hand sizes, cards known to be held, cards already out, all as
bitmasks), draws whole deals from it as often as it likes, and gets a full game for
each with :meth:`Game.from_view <odin_cards.odin.rules.game.Game.from_view>` (or
:meth:`Game.with_hands <odin_cards.odin.rules.game.Game.with_hands>` on a first one).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from odin_cards.odin.rules.cards import COLOURS, GOAT, cards_of, deck_mask, parse_card
from odin_cards.odin.rules.view import View

_GOAT_BIT = 1 << GOAT


def _mask(cards: Sequence[str] | None) -> int:
    mask = 0
    for card in cards or ():
        mask |= 1 << parse_card(card)
    return mask


def deck_of(view: View) -> int:
    """Every card of this game's deck."""
    return deck_mask((COLOURS.index(c) for c in view.colours), view.options.goat)


def unseen_mask(view: View) -> int:
    """Cards that may be in another seat's hand without that seat being known to hold them.

    The deck minus the viewer's own hand, the table, the set being taken from, the
    discards and every card a seat is known to hold.
    """
    seen = _mask(view.hand) | _mask(view.table) | _mask(view.beaten) | _mask(view.discards)
    for cards in view.known:
        seen |= _mask(cards)
    return deck_of(view) & ~seen


@dataclass(frozen=True, slots=True)
class HandSampler:
    """Draws every seat's hand uniformly among the deals consistent with one view.

    The viewer keeps its own hand (a spectator's view samples every hand); every other
    seat keeps the cards it is known to hold and gets unseen cards up to its hand size.
    One more fact every seat knows: the Goat is always dealt, so while it is unseen it
    is in some hand, never among the undealt cards. It goes to a free place chosen
    uniformly among all free places, which is the exact conditional distribution; the
    other unseen cards fill the remaining places uniformly.
    """

    seat: int | None
    base: tuple[int, ...]
    """Per seat, the cards it surely holds: the viewer's hand, else its known cards."""
    free: tuple[int, ...]
    """Per seat, how many cards to draw."""
    pool: tuple[int, ...]
    """The unseen cards (an unseen Goat apart), ascending."""
    goat: bool
    """The Goat is unseen: it goes to a free place first."""

    @classmethod
    def of(cls, view: View) -> HandSampler:
        unseen = unseen_mask(view)
        known = [_mask(k) for k in view.known]
        base = [
            _mask(view.hand) if seat == view.seat else known[seat] for seat in range(view.players)
        ]
        free = [
            0 if seat == view.seat else view.hand_sizes[seat] - base[seat].bit_count()
            for seat in range(view.players)
        ]
        goat = bool(unseen & _GOAT_BIT) and sum(free) > 0
        return cls(
            seat=view.seat,
            base=tuple(base),
            free=tuple(free),
            pool=tuple(cards_of(unseen & ~_GOAT_BIT)),
            goat=goat,
        )

    def draw(self, rng: random.Random) -> list[int]:
        """One deal: every seat's hand as a bitmask."""
        pool = list(self.pool)
        rng.shuffle(pool)
        hands = list(self.base)
        free = self.free
        if self.goat:
            place = rng.randrange(sum(free))
            for seat, n in enumerate(free):
                if place < n:
                    hands[seat] |= _GOAT_BIT
                    free = (*free[:seat], n - 1, *free[seat + 1 :])
                    break
                place -= n
        pop = pool.pop
        for seat, n in enumerate(free):
            if n:
                hand = hands[seat]
                for _ in range(n):
                    hand |= 1 << pop()
                hands[seat] = hand
        return hands


def sample_hands(view: View, rng: random.Random) -> list[int]:
    """One deal consistent with ``view`` (see :class:`HandSampler`; build one to draw often)."""
    return HandSampler.of(view).draw(rng)


__all__ = ["HandSampler", "deck_of", "sample_hands", "unseen_mask"]
