"""What a seat knows, as bitmasks: the bridge from a :class:`View` to the bots' fast code.

Built once per decision from the view (the only thing a bot receives), it holds the
seat's hand, every card another seat may hold, hand sizes and known holdings. (Whole
deals consistent with it are drawn by the rules' one sampler,
:class:`odin_cards.odin.rules.position.HandSampler`.)
"""

from __future__ import annotations

from dataclasses import dataclass

from odin_cards.odin.rules import Game, Phase, View
from odin_cards.odin.rules.actions import PLAY_BY_MASK, Action
from odin_cards.odin.rules.cards import mask_of, parse_card
from odin_cards.odin.rules.position import unseen_mask


def cards_mask(cards: tuple[str, ...] | None) -> int:
    return mask_of(parse_card(c) for c in cards or ())


def others_of_mover(game: Game, deck: int) -> int:
    """Inside a full (sampled) game, the cards the seat to move may think another seat
    holds: all of ``deck`` that it has not seen (its hand, the table, the set being taken
    from, the discards). The rollouts and the learned policy judge a seat from this, never
    from the other hands of the deal."""
    seen = game.hands[game.to_move] | game.discards
    if game.table is not None:
        seen |= game.table.mask
    if game.beaten is not None:
        seen |= game.beaten.mask
    return deck & ~seen


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge of the current hand, as masks.

    ``unseen``: cards whose place the seat does not know (another hand or undealt).
    ``others``: every card another seat may hold: ``unseen`` plus the cards other seats
    are known to hold (they took them and have not played them since).
    """

    seat: int
    players: int
    decision: Phase
    hand: int
    known: tuple[int, ...]
    sizes: tuple[int, ...]
    unseen: int
    others: int
    table: Action | None
    table_player: int
    beaten: Action | None

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
            decision=Phase.of_decision(view.decision),
            hand=cards_mask(view.hand),
            known=known,
            sizes=view.hand_sizes,
            unseen=unseen,
            others=others,
            table=PLAY_BY_MASK[cards_mask(view.table)] if view.table else None,
            table_player=-1 if view.table_player is None else view.table_player,
            beaten=PLAY_BY_MASK[cards_mask(view.beaten)] if view.beaten else None,
        )


__all__ = ["Knowledge", "cards_mask"]
