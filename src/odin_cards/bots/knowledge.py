"""What a seat knows, as bitmasks: the bridge from a :class:`View` to the bots' fast code.

Built once per decision from the view (the only thing a bot receives), it holds the
seat's hand, every card another seat may hold, hand sizes and known holdings, and
samples whole deals consistent with all of it for the search.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import View
from ..rules.actions import PLAY_BY_MASK, Action
from ..rules.cards import GOAT, mask_of, parse_card
from ..rules.position import unseen_mask

DECISION_CODES = {"lead": 0, "follow": 1, "take": 2}


def cards_mask(cards: tuple[str, ...] | None) -> int:
    return mask_of(parse_card(c) for c in cards or ())


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge of the current hand, as masks.

    ``unseen``: cards whose place the seat does not know (another hand or undealt).
    ``others``: every card another seat may hold: ``unseen`` plus the cards other seats
    are known to hold (they took them and have not played them since).
    """

    seat: int
    players: int
    decision: int
    hand: int
    known: tuple[int, ...]
    sizes: tuple[int, ...]
    unseen: int
    others: int
    table: Action | None
    table_player: int
    beaten: Action | None
    goat_in_play: bool

    @classmethod
    def of(cls, view: View) -> Knowledge:
        if view.seat is None or view.decision is None or view.to_move != view.seat:
            raise ValueError("a bot decides only for its own seat, on its turn")
        known = tuple(cards_mask(k) for k in view.known)
        unseen = unseen_mask(view)
        others = unseen
        for seat, mask in enumerate(known):
            if seat != view.seat:
                others |= mask
        return cls(
            seat=view.seat,
            players=view.players,
            decision=DECISION_CODES[view.decision],
            hand=cards_mask(view.hand),
            known=known,
            sizes=view.hand_sizes,
            unseen=unseen,
            others=others,
            table=PLAY_BY_MASK[cards_mask(view.table)] if view.table else None,
            table_player=-1 if view.table_player is None else view.table_player,
            beaten=PLAY_BY_MASK[cards_mask(view.beaten)] if view.beaten else None,
            goat_in_play=view.options.goat,
        )

    def sample_hands(self, rng: random.Random) -> list[int]:
        """Hands for every seat drawn uniformly among the deals consistent with this seat.

        Like :func:`odin_cards.rules.position.sample_hands` (own hand kept, known
        holdings kept, hand sizes respected, the rest drawn from the unseen cards),
        and one more fact every seat knows: the Goat is always dealt, so while it is
        unseen it is in some other hand, never among the undealt cards. It goes to
        a free place in another hand chosen uniformly, which is the exact
        conditional distribution.
        """
        pool: list[int] = []
        mask = self.unseen
        goat_bit = 1 << GOAT
        goat_unseen = self.goat_in_play and bool(mask & goat_bit)
        if goat_unseen:
            mask ^= goat_bit
        while mask:
            low = mask & -mask
            pool.append(low.bit_length() - 1)
            mask ^= low
        rng.shuffle(pool)
        hands = list(self.known)
        free = [
            0 if seat == self.seat else self.sizes[seat] - self.known[seat].bit_count()
            for seat in range(self.players)
        ]
        places: int = sum(free)
        if goat_unseen and places:
            place = rng.randrange(places)
            for seat, n in enumerate(free):
                if place < n:
                    hands[seat] |= goat_bit
                    free[seat] -= 1
                    break
                place -= n
        for seat in range(self.players):
            if seat == self.seat:
                hands[seat] = self.hand
                continue
            hand = hands[seat]
            for _ in range(free[seat]):
                hand |= 1 << pool.pop()
            hands[seat] = hand
        return hands


__all__ = ["Knowledge", "cards_mask"]
