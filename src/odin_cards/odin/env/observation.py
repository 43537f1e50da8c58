"""One seat's observation as numbers: a flat ``float32`` vector and the same facts as a dict.

Everything is computed from the seat's :class:`~odin_cards.odin.rules.View` (never the game),
so an observation cannot hold a card the seat has not seen: its own hand, the cards each
other seat is known to hold (taken from a beaten set and not played since: public), the
discards, the table, the set being taken from, the deck, hand sizes, scores, passes, the
decision and the target.

Seats are *relative*: slot 0 is the observer, slot ``k`` the seat ``k`` places to its left
(the ``k``-th to play after it). Six slots always, so one network fits every number of
players; the slots of absent seats are 0 and ``seats`` says which exist.

The dict form (:func:`observe`) holds natural units (0/1 card flags, card counts, points,
the target); the flat form (:func:`encode`) is the dict's fields concatenated in
:data:`FIELDS` order and scaled into small floats. :func:`to_flat` and :func:`to_dict`
convert exactly between them (for targets up to :data:`MAX_TARGET`). The index table is
in ``docs/research.md``; :data:`FIELDS` is its source.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from odin_cards.extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the observation encoder", "research") from missing

from odin_cards.odin.rules import View
from odin_cards.odin.rules.cards import CARD_TEXT, COLOURS, GOAT, HAND_SIZE, NUM_CARDS

SLOTS: Final = 6
"""Seat slots in every observation: the most players a game has."""
MAX_TARGET: Final = 1000
"""The highest target the environments accept: ``1 / target`` must invert exactly."""
MAX_HAND_POINTS: Final = 13
"""The most points one hand can cost (9 cards, the Goat at 5): a final score is below
``target + MAX_HAND_POINTS``, so a flat score is at most ``MAX_HAND_POINTS``."""
DECISIONS: Final = ("lead", "follow", "take", "over")
"""The ``decision`` one-hot, in order (all 0 while cards are being dealt: OpenSpiel)."""

FlatObs = npt.NDArray[np.float32]
DictObs = dict[str, npt.NDArray[np.int32]]

_CARD_INDEX: Final = {text: index for index, text in enumerate(CARD_TEXT)}


@dataclass(frozen=True, slots=True)
class Field:
    """One block of the observation: its place in the flat vector and its meaning."""

    name: str
    shape: tuple[int, ...]
    start: int
    scale: str
    """How the dict value becomes the flat value: ``flag`` (as is), ``/9`` (hand size),
    ``/target`` (points), ``1/x`` (the target)."""
    high: int
    """The largest value the dict form holds (its space's bound)."""
    description: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def stop(self) -> int:
        return self.start + self.size


def _fields() -> tuple[Field, ...]:
    specs: list[tuple[str, tuple[int, ...], str, int, str]] = [
        ("hand", (NUM_CARDS,), "flag", 1, "the observer's own cards"),
        (
            "known",
            (SLOTS - 1, NUM_CARDS),
            "flag",
            1,
            "row k-1: cards slot k is known to hold (taken from a beaten set, not played since)",
        ),
        ("discards", (NUM_CARDS,), "flag", 1, "cards out of play for the rest of this hand"),
        ("table", (NUM_CARDS,), "flag", 1, "the set on the table"),
        ("beaten", (NUM_CARDS,), "flag", 1, "the set just beaten, while its beater takes"),
        ("deck", (NUM_CARDS,), "flag", 1, "every card of this game's deck"),
        ("hand_sizes", (SLOTS,), "/9", HAND_SIZE, "cards in each slot's hand"),
        ("scores", (SLOTS,), "/target", MAX_TARGET + MAX_HAND_POINTS, "each slot's points so far"),
        ("seats", (SLOTS,), "flag", 1, "1 for a slot with a player"),
        ("to_move", (SLOTS,), "flag", 1, "one-hot: the slot to move"),
        ("table_player", (SLOTS,), "flag", 1, "one-hot: the slot that played the table"),
        ("hand_leader", (SLOTS,), "flag", 1, "one-hot: the slot that led this hand"),
        ("passed", (SLOTS,), "flag", 1, "slots that passed since the table's set was played"),
        ("decision", (len(DECISIONS),), "flag", 1, "one-hot: lead, follow, take, over"),
        ("target", (1,), "1/x", MAX_TARGET, "the game's target (points that end it)"),
        ("one_hand", (1,), "flag", 1, "1 when the game is a single hand"),
    ]
    fields = []
    start = 0
    for name, shape, scale, high, description in specs:
        field = Field(name, shape, start, scale, high, description)
        fields.append(field)
        start = field.stop
    return tuple(fields)


FIELDS: Final = _fields()
"""The observation's blocks, in flat order."""
FIELD: Final = {f.name: f for f in FIELDS}
FLAT_SIZE: Final = FIELDS[-1].stop
"""Length of the flat observation vector."""


_HAND, _KNOWN, _DISCARDS, _TABLE, _BEATEN, _DECK = (
    FIELD[name].start for name in ("hand", "known", "discards", "table", "beaten", "deck")
)
_HAND_SIZES, _SCORES, _SEATS, _TO_MOVE, _TABLE_PLAYER, _HAND_LEADER, _PASSED = (
    FIELD[name].start
    for name in (
        "hand_sizes",
        "scores",
        "seats",
        "to_move",
        "table_player",
        "hand_leader",
        "passed",
    )
)
_DECISION, _TARGET, _ONE_HAND = (FIELD[name].start for name in ("decision", "target", "one_hand"))


def flat_high() -> FlatObs:
    """The upper bound of every entry of the flat vector (the lower bound is 0)."""
    high = np.ones(FLAT_SIZE, dtype=np.float32)
    high[FIELD["scores"].start : FIELD["scores"].stop] = MAX_HAND_POINTS
    return high


def _cards(cards: Iterable[str]) -> list[int]:
    return [_CARD_INDEX[c] for c in cards]


def slot_of(seat: int, observer: int, players: int) -> int:
    """The slot of ``seat`` as seen from ``observer``: how many places to its left."""
    return (seat - observer) % players


def observe(view: View) -> DictObs:
    """The dict form of ``view``'s seat's observation (natural units; see :data:`FIELDS`)."""
    seat = view.seat
    if seat is None:
        raise ValueError("an observation belongs to a seat; a spectator's view has none")
    players = view.players
    obs = blank()
    obs["hand"][_cards(view.hand or ())] = 1
    for other in range(players):
        if other != seat and view.known[other]:
            obs["known"][slot_of(other, seat, players) - 1, _cards(view.known[other])] = 1
    obs["discards"][_cards(view.discards)] = 1
    obs["table"][_cards(view.table)] = 1
    obs["beaten"][_cards(view.beaten)] = 1
    deck = obs["deck"]
    for colour in view.colours:
        start = COLOURS.index(colour) * 9
        deck[start : start + 9] = 1
    if view.options.goat:
        deck[GOAT] = 1
    for other in range(players):
        slot = slot_of(other, seat, players)
        obs["hand_sizes"][slot] = view.hand_sizes[other]
        obs["scores"][slot] = view.scores[other]
        obs["seats"][slot] = 1
    if view.to_move is not None:
        obs["to_move"][slot_of(view.to_move, seat, players)] = 1
        for back in range(1, view.passes + 1):
            obs["passed"][slot_of(view.to_move - back, seat, players)] = 1
    if view.table_player is not None:
        obs["table_player"][slot_of(view.table_player, seat, players)] = 1
    obs["hand_leader"][slot_of(view.hand_leader, seat, players)] = 1
    obs["decision"][DECISIONS.index(view.decision or "over")] = 1
    obs["target"][0] = view.options.target
    obs["one_hand"][0] = int(view.options.one_hand)
    return obs


def blank() -> DictObs:
    """A dict observation of zeros (every field present): what :func:`observe` fills in."""
    return {f.name: np.zeros(f.shape, dtype=np.int32) for f in FIELDS}


def encode(view: View) -> FlatObs:
    """The flat form of ``view``'s seat's observation: ``float32[FLAT_SIZE]``.

    Equal to ``to_flat(observe(view))`` (tested), written straight into the vector because
    the environments call it on every step.
    """
    seat = view.seat
    if seat is None:
        raise ValueError("an observation belongs to a seat; a spectator's view has none")
    players = view.players
    index = _CARD_INDEX
    ones = [_HAND + index[c] for c in view.hand or ()]
    for other in range(players):
        if other != seat and view.known[other]:
            row = _KNOWN + ((other - seat) % players - 1) * NUM_CARDS
            ones += [row + index[c] for c in view.known[other]]
    ones += [_DISCARDS + index[c] for c in view.discards]
    ones += [_TABLE + index[c] for c in view.table]
    ones += [_BEATEN + index[c] for c in view.beaten]
    for colour in view.colours:
        start = _DECK + COLOURS.index(colour) * 9
        ones += range(start, start + 9)
    if view.options.goat:
        ones.append(_DECK + GOAT)
    ones += [_SEATS + slot for slot in range(players)]
    if view.to_move is not None:
        to_move = view.to_move
        ones.append(_TO_MOVE + (to_move - seat) % players)
        ones += [_PASSED + (to_move - back - seat) % players for back in range(1, view.passes + 1)]
    if view.table_player is not None:
        ones.append(_TABLE_PLAYER + (view.table_player - seat) % players)
    ones.append(_HAND_LEADER + (view.hand_leader - seat) % players)
    ones.append(_DECISION + DECISIONS.index(view.decision or "over"))
    if view.options.one_hand:
        ones.append(_ONE_HAND)
    flat = np.zeros(FLAT_SIZE, dtype=np.float32)
    flat[ones] = 1.0
    target = view.options.target
    for other in range(players):
        slot = (other - seat) % players
        flat[_HAND_SIZES + slot] = view.hand_sizes[other] / HAND_SIZE
        flat[_SCORES + slot] = view.scores[other] / target
    flat[_TARGET] = 1.0 / target
    return flat


def to_flat(obs: Mapping[str, npt.ArrayLike]) -> FlatObs:
    """The flat vector of a dict observation (every field of :data:`FIELDS` required)."""
    flat = np.empty(FLAT_SIZE, dtype=np.float32)
    target = int(np.asarray(obs["target"]).reshape(-1)[0])
    if not 1 <= target <= MAX_TARGET:
        raise ValueError(f"the target is 1 to {MAX_TARGET}, not {target}")
    for field in FIELDS:
        value = np.asarray(obs[field.name], dtype=np.float64).reshape(-1)
        if value.size != field.size:
            raise ValueError(f"{field.name} has {value.size} entries, not {field.size}")
        if field.scale == "/9":
            value = value / HAND_SIZE
        elif field.scale == "/target":
            value = value / target
        elif field.scale == "1/x":
            value = 1.0 / value
        flat[field.start : field.stop] = value
    return flat


def to_dict(flat: Sequence[float] | npt.NDArray[np.floating]) -> DictObs:
    """The dict observation a flat vector encodes (inverse of :func:`to_flat`)."""
    vector = np.asarray(flat, dtype=np.float64)
    if vector.shape != (FLAT_SIZE,):
        raise ValueError(f"a flat observation has shape ({FLAT_SIZE},), not {vector.shape}")
    target_field = FIELD["target"]
    target = round(float(1.0 / vector[target_field.start]))
    obs: DictObs = {}
    for field in FIELDS:
        value = vector[field.start : field.stop]
        if field.scale == "/9":
            value = value * HAND_SIZE
        elif field.scale == "/target":
            value = value * target
        elif field.scale == "1/x":
            value = 1.0 / value
        obs[field.name] = np.rint(value).astype(np.int32).reshape(field.shape)
    return obs


__all__ = [
    "DECISIONS",
    "FIELD",
    "FIELDS",
    "FLAT_SIZE",
    "MAX_HAND_POINTS",
    "MAX_TARGET",
    "SLOTS",
    "DictObs",
    "Field",
    "FlatObs",
    "blank",
    "encode",
    "flat_high",
    "observe",
    "slot_of",
    "to_dict",
    "to_flat",
]
