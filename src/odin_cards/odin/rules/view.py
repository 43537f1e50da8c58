"""What one seat, or a spectator, may see: the only way hidden cards leave the core.

A view holds the seat's own hand and everything public: hand sizes, the table, the
cards each seat is known to hold (taken and not played since), the discards, scores,
and the whole public history (whose ``hand_end`` events show the cards every seat had
left in a hand that is over). It never holds another seat's running hand, a deal, the seed
or the deck order. The history is the same for every viewer, so a server can build
it once and send it to all.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from odin_cards.odin.rules.cards import CARD_TEXT, COLOURS, cards_of
from odin_cards.odin.rules.errors import OdinError, SeatError, brief
from odin_cards.odin.rules.events import (
    Deal,
    Discard,
    Event,
    GameEnd,
    HandEnd,
    Pass,
    Play,
    RoundEnd,
    Take,
)
from odin_cards.odin.rules.options import Options
from odin_cards.odin.rules.state import Outcome, State


def _cards(mask: int) -> tuple[str, ...]:
    return tuple(CARD_TEXT[c] for c in cards_of(mask))


def public_event(event: Event, index: int, hand: int) -> dict[str, Any]:
    """The public form of one history entry: the one decoder of events for clients.

    ``index`` is its position in the history (a version number for clients), ``hand``
    the 1-based number of the hand it belongs to. The dict has ``index``, ``type``
    (the event's ``kind``) and that type's fields; see ``docs/api.md``.
    """
    data: dict[str, Any] = {"index": index, "type": event.kind}
    match event:
        case Play(seat, action):
            data.update(seat=seat, cards=list(action.cards), value=action.value, text=action.text)
        case Pass(seat):
            data.update(seat=seat, text="pass")
        case Take(seat, action):
            card = CARD_TEXT[action.card]
            data.update(seat=seat, card=card, text=action.text)
        case Discard(seat, cards):
            data.update(seat=seat, cards=list(_cards(cards)))
        case RoundEnd(leader):
            data.update(leader=leader)
        case Deal(leader, hands):
            data.update(hand=hand, leader=leader, hand_sizes=[m.bit_count() for m in hands])
        case HandEnd(seat, points, hands):
            data.update(seat=seat, points=list(points), cards=[list(_cards(m)) for m in hands])
        case GameEnd(winners):
            data.update(winners=list(winners))
    return data


def public_events(history: Sequence[Event], start: int = 0) -> Iterator[dict[str, Any]]:
    """History entries from index ``start`` on, stripped to what everybody may know.

    See :func:`public_event`; nothing is yielded when ``start`` is past the end.
    """
    if not isinstance(start, int) or isinstance(start, bool) or start < 0:
        raise OdinError(f"a history position is a whole number from 0, not {brief(start)}")
    hand = sum(1 for e in history[:start] if e.kind == "deal")
    for index in range(start, len(history)):
        event = history[index]
        if event.kind == "deal":
            hand += 1
        yield public_event(event, index, hand)


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat (``seat``) or a spectator (``seat is None``) may know."""

    seat: int | None
    players: int
    options: Options
    hand_number: int
    """1-based number of the hand being played (or last played, once the game is over)."""
    scores: tuple[int, ...]
    hand: tuple[str, ...] | None
    """The viewer's own cards in canonical order; ``None`` for a spectator."""
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[str, ...], ...]
    """Per seat, the cards it is known to hold: taken from a beaten set, not played since."""
    table: tuple[str, ...]
    table_player: int | None
    table_value: int | None
    beaten: tuple[str, ...]
    """The set just beaten, while its beater chooses the card to take."""
    discards: tuple[str, ...]
    """Cards out of play for the rest of this hand."""
    hand_leader: int
    colours: tuple[str, ...]
    """Colour codes in this game's deck (two colours fewer in the 4-colour variant)."""
    to_move: int | None
    decision: str | None
    passes: int
    """Passes in a row since the set on the table was played."""
    history: tuple[dict[str, Any], ...]
    outcome: Outcome | None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = self.options.to_dict()
        return data


def make_view(game: State, seat: int | None, history: bool = True) -> View:
    """The view of ``seat``; ``history=False`` leaves the history out (an empty tuple).

    A server sends the public history once, as events shared by every viewer, and needs
    only the rest of each seat's view after every action.
    """
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players
    ):
        raise SeatError(f"there is no seat {brief(seat)} in a {game.players}-player game")
    table = game.table
    beaten = game.beaten
    over = game.is_over
    return View(
        seat=seat,
        players=game.players,
        options=game.options,
        hand_number=game.hand_number if over else game.hand_number + 1,
        scores=tuple(game.scores),
        hand=None if seat is None else _cards(game.hands[seat]),
        hand_sizes=tuple(h.bit_count() for h in game.hands),
        known=tuple(_cards(k) for k in game.known),
        table=() if table is None else table.cards,
        table_player=None if table is None else game.table_player,
        table_value=None if table is None else table.value,
        beaten=() if beaten is None else beaten.cards,
        discards=_cards(game.discards),
        hand_leader=game.hand_leader,
        colours=tuple(COLOURS[c] for c in range(6) if c not in game.removed),
        to_move=None if over else game.to_move,
        decision=game.decision,
        passes=game.passes,
        history=tuple(public_events(game.history)) if history else (),
        outcome=game.outcome,
    )
