"""Actions: ``pass``, ``play <cards>`` and ``take <card>``, as text and as integer ids.

Every possible action exists once, as an interned :class:`Action`, built at import.
The engine hands these objects out and compares them by id, so generating legal
actions never allocates.

Integer id space (stable; see ``docs/actions.md``):

* ``0``: ``pass``
* ``1 .. 55``: ``take <card>``, id = 1 + card index (colour-major; ``X0`` is 55)
* ``56 ..``: ``play <set>`` for every set the rules allow, including the Goat's sets,
  ordered by (number of cards, value, canonical text).
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Final

from odin_cards.odin.rules.cards import (
    CARD_TEXT,
    GOAT,
    NUM_CARDS,
    cards_of,
    mask_text,
    number_mask_of,
    parse_card,
)
from odin_cards.odin.rules.errors import MalformedActionError
from odin_cards.odin.rules.sets import set_problem, set_value


class ActionKind(IntEnum):
    """The three kinds of action (an ``IntEnum``: compared as fast as the ints they are)."""

    PASS = 0
    TAKE = 1
    PLAY = 2


PASS: Final = ActionKind.PASS
TAKE: Final = ActionKind.TAKE
PLAY: Final = ActionKind.PLAY


class Action:
    """One action of the game; immutable and interned (use the module's constructors)."""

    __slots__ = ("id", "kind", "mask", "nmask", "size", "value", "text", "card")

    id: int
    kind: ActionKind
    mask: int
    """Colour-major bitmask of the cards played (``PLAY``) or taken (``TAKE``)."""
    nmask: int
    """The same cards in the number-major layout."""
    size: int
    value: int
    text: str
    card: int
    """The card taken (``TAKE``), else -1."""

    def __init__(self, kind: ActionKind, mask: int, text: str, card: int = -1) -> None:
        self.id = -1
        self.kind = kind
        self.mask = mask
        self.nmask = number_mask_of(mask)
        self.size = mask.bit_count()
        self.value = set_value(mask) if kind == PLAY else 0
        self.text = text
        self.card = card

    @property
    def cards(self) -> tuple[str, ...]:
        """Card codes of the action in canonical order."""
        return tuple(CARD_TEXT[c] for c in cards_of(self.mask))

    @property
    def is_pass(self) -> bool:
        return self.kind == PASS

    @property
    def is_play(self) -> bool:
        return self.kind == PLAY

    @property
    def is_take(self) -> bool:
        return self.kind == TAKE

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.id == self.id

    def __hash__(self) -> int:
        return self.id

    def __lt__(self, other: Action) -> bool:
        return self.id < other.id

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Pickles (e.g. to worker processes) come back as the interned object.
        return (action_from_id, (self.id,))


def _all_play_masks() -> list[int]:
    masks: set[int] = set()
    for colour in range(6):
        for sub in range(1, 512):
            masks.add(sub << (9 * colour))
            masks.add((sub << (9 * colour)) | (1 << GOAT))
    masks.add(1 << GOAT)
    for number in range(9):
        for sub in range(64):
            if sub.bit_count() >= 2:
                masks.add(sum(1 << (c * 9 + number) for c in range(6) if sub >> c & 1))
    return list(masks)


def _build() -> tuple[Action, tuple[Action, ...], tuple[Action, ...], dict[int, Action]]:
    pass_action = Action(PASS, 0, "pass")
    takes = tuple(Action(TAKE, 1 << c, f"take {CARD_TEXT[c]}", c) for c in range(NUM_CARDS))
    plays = [Action(PLAY, m, f"play {mask_text(m)}") for m in _all_play_masks()]
    plays.sort(key=lambda a: (a.size, a.value, a.text))
    for index, action in enumerate([pass_action, *takes, *plays]):
        action.id = index
    return pass_action, takes, tuple(plays), {a.mask: a for a in plays}


PASS_ACTION, TAKE_ACTIONS, PLAY_ACTIONS, PLAY_BY_MASK = _build()
ALL_ACTIONS: Final[tuple[Action, ...]] = (PASS_ACTION, *TAKE_ACTIONS, *PLAY_ACTIONS)
NUM_ACTIONS: Final = len(ALL_ACTIONS)
FIRST_PLAY_ID: Final = 1 + NUM_CARDS


def action_from_id(action_id: int) -> Action:
    """The action with this integer id; raises :class:`MalformedActionError` otherwise."""
    if (
        not isinstance(action_id, int)
        or isinstance(action_id, bool)
        or not 0 <= action_id < NUM_ACTIONS
    ):
        raise MalformedActionError(f"there is no action with id {action_id!r}")
    return ALL_ACTIONS[action_id]


_SPLIT = re.compile(r"[\s,]+")


def parse_cards(words: list[str]) -> int:
    """Card words to a mask; malformed or repeated cards raise."""
    if not words:
        raise MalformedActionError("name at least one card, e.g. B7")
    mask = 0
    for word in words:
        card = parse_card(word)
        if mask >> card & 1:
            raise MalformedActionError(f"{CARD_TEXT[card]} is named twice")
        mask |= 1 << card
    return mask


def parse_action(text: str) -> Action:
    """Read an action in the canonical notation: ``pass``, ``play B3 B7``, ``take R5``.

    Case and the order of the cards do not matter. Cards that are not a set at all are
    malformed (no position could allow them); whether a set may be played now is the
    game's question.
    """
    if not isinstance(text, str):
        raise MalformedActionError(f"an action is text, not {type(text).__name__}")
    words = [w for w in _SPLIT.split(text.strip()) if w]
    if not words:
        raise MalformedActionError("empty action: write pass, play <cards> or take <card>")
    verb, rest = words[0].lower(), words[1:]
    if verb == "pass":
        if rest:
            raise MalformedActionError("pass takes no cards")
        return PASS_ACTION
    if verb == "take":
        mask = parse_cards(rest)
        if len(rest) != 1:
            raise MalformedActionError("take exactly one card, e.g. take R5")
        return TAKE_ACTIONS[mask.bit_length() - 1]
    if verb == "play":
        mask = parse_cards(rest)
        action = PLAY_BY_MASK.get(mask)
        if action is None:
            raise MalformedActionError(f"{mask_text(mask)} is not a set: {set_problem(mask)}")
        return action
    raise MalformedActionError(
        f"unknown action {words[0]!r}: write pass, play <cards> or take <card>"
    )
