"""What one seat, or a spectator, may see: the only way hidden cards leave the core.

A view holds the seat's own hand and everything public: hand sizes, the table, the
cards each seat is known to hold (taken and not played since), the discards, scores,
and the whole public history. It never holds another seat's hand, a deal, the seed
or the deck order. The history is the same for every viewer, so a server can build
it once and send it to all.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import CARD_TEXT, COLOURS, cards_of
from .options import Options

if TYPE_CHECKING:
    from .game import Event, Game, Outcome


def _cards(mask: int) -> tuple[str, ...]:
    return tuple(CARD_TEXT[c] for c in cards_of(mask))


def public_events(history: list[Event], start: int = 0) -> Iterator[dict[str, Any]]:
    """History entries from index ``start`` on, stripped to what everybody may know.

    Each dict has ``index`` (its position in the history, a version number for
    clients), ``type`` and the fields of that type; see ``docs/api.md``.
    """
    hand = sum(1 for e in history[:start] if e[0] == "deal")
    for index in range(start, len(history)):
        kind, seat, data = history[index]
        event: dict[str, Any] = {"index": index, "type": kind}
        if kind == "deal":
            hand += 1
            assert isinstance(data, tuple)
            event.update(hand=hand, leader=seat, hand_sizes=[m.bit_count() for m in data])
        elif kind == "play":
            assert isinstance(data, Action)
            event.update(seat=seat, cards=list(data.cards), value=data.value, text=data.text)
        elif kind == "take":
            assert isinstance(data, int)
            event.update(seat=seat, card=CARD_TEXT[data], text=f"take {CARD_TEXT[data]}")
        elif kind == "pass":
            event.update(seat=seat, text="pass")
        elif kind == "discard":
            assert isinstance(data, int)
            event.update(seat=None if seat < 0 else seat, cards=list(_cards(data)))
        elif kind == "round":
            event.update(leader=seat)
        elif kind == "hand_end":
            assert isinstance(data, tuple)
            event.update(seat=seat, points=list(data))
        elif kind == "game_end":
            assert isinstance(data, tuple)
            event.update(winners=list(data))
        yield event


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

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = self.options.to_dict()
        return data


def make_view(game: Game, seat: int | None, history: bool = True) -> View:
    """The view of ``seat``; ``history=False`` leaves the history out (an empty tuple).

    A server sends the public history once, as events shared by every viewer, and needs
    only the rest of each seat's view after every action.
    """
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.players):
        raise ValueError(f"there is no seat {seat!r} in a {game.players}-player game")
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
