"""The facade of the Odin core: :class:`Game` and :class:`GameRecord`, the contract's
``GameState`` and ``Record``.

The core is layered so that it imports downwards only: the state and its transitions
(:mod:`.state`) at the bottom, what is built from a state above it (views and the public
history in :mod:`.view`, records and their replay in :mod:`.record`), and this module on
top. The contract's methods join those layers (a game gives its views and its record, a
record replays to a game), so they live here: :class:`Game` is :class:`~.state.State`
plus them and no field, :class:`GameRecord` is :class:`~.record.RecordData` plus
``replay``. Everything else the project uses of a game is the state's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from odin_cards.odin.rules import deal as chance
from odin_cards.odin.rules.actions import PLAY_BY_MASK
from odin_cards.odin.rules.cards import COLOURS, number_mask_of, parse_card
from odin_cards.odin.rules.errors import OptionsError
from odin_cards.odin.rules.record import RecordData, replayed
from odin_cards.odin.rules.state import (
    CHOOSE_TAKE,
    DECISIONS,
    FOLLOW,
    LEAD,
    OVER,
    Outcome,
    Phase,
    State,
)
from odin_cards.odin.rules.view import View, make_view, public_events


class Game(State):
    """A whole game of Odin, from the first deal to the winner(s): its state (the fields
    of :class:`~.state.State`), its views and its record."""

    __slots__ = ()

    @classmethod
    def from_view(cls, view: View, hands: Sequence[int], seed: chance.Seed = 0) -> Game:
        """A game in the position ``view`` shows, with ``hands`` (bitmasks) for the seats.

        What search bots simulate: the hidden hands come from a sampler (see
        :func:`odin_cards.odin.rules.position.sample_hands`). The game has no history
        before this point, and later hands are dealt from ``seed``.
        """
        if len(hands) != view.players:
            raise OptionsError(f"give {view.players} hands, not {len(hands)}")
        for seat, hand in enumerate(hands):
            if hand.bit_count() != view.hand_sizes[seat]:
                raise OptionsError(f"seat {seat} holds {view.hand_sizes[seat]} cards")
        over = view.outcome is not None
        table = _mask(view.table)
        beaten = _mask(view.beaten)
        return cls(
            players=view.players,
            options=view.options,
            seed=seed,
            deals=(),
            removed=tuple(i for i, c in enumerate(COLOURS) if c not in view.colours),
            first_leader=view.hand_leader,
            hand_number=view.hand_number if over else view.hand_number - 1,
            hand_leader=view.hand_leader,
            scores=list(view.scores),
            hands=list(hands),
            hands_n=[number_mask_of(h) for h in hands],
            known=[_mask(k) for k in view.known],
            phase=Phase.of_decision(view.decision),
            to_move=-1 if view.to_move is None else view.to_move,
            table=PLAY_BY_MASK[table] if table else None,
            table_player=-1 if view.table_player is None else view.table_player,
            beaten=PLAY_BY_MASK[beaten] if beaten else None,
            passes=view.passes,
            discards=_mask(view.discards),
            history=[],
            outcome=view.outcome,
            action_count=0,
        )

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (or, with ``None``, a spectator) may see."""
        return make_view(self, seat)

    def record(self) -> GameRecord:
        """The full record (secret: every deal). Replays to an identical game."""
        return GameRecord.of(self)

    def public_events(self, start: int = 0) -> list[dict[str, Any]]:
        """The public history from entry ``start`` on (see :func:`.view.public_events`)."""
        return list(public_events(self.history, start))


class GameRecord(RecordData):
    """Every chance event and action of a game of Odin (see :mod:`.record`)."""

    __slots__ = ()

    def replay(self) -> Game:
        """Rebuild the game; a record that the rules do not accept raises RecordError.

        So does a record whose stored outcome is not the one its actions lead to.
        """
        return replayed(self, Game)


def _mask(cards: Sequence[str]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << parse_card(card)
    return mask


__all__ = [
    "CHOOSE_TAKE",
    "DECISIONS",
    "FOLLOW",
    "LEAD",
    "OVER",
    "Game",
    "GameRecord",
    "Outcome",
    "Phase",
]
