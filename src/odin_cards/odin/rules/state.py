"""The state of a game of Odin and its transitions: the one place where rules are applied.

:class:`State` holds a whole game as plain fields; its public entry point,
:meth:`State.apply`, validates and explains; the private ``_step`` trusts its input so
that simulations (``apply_unchecked``) run at full speed. The state is a handful of
ints and short lists, so :meth:`State.clone` is cheap enough for search bots to copy it
thousands of times per decision.

Chance is explicit: every hand's deal comes from the injected ``deals`` or from the
seed (see :mod:`.deal`), and is written into the history as a :class:`.events.Deal`.

Views, records and the public history are built from a state by the modules above this
one (:mod:`.view`, :mod:`.record`); :class:`~.game.Game`, the facade on top, adds them
as methods. So the layers import downwards only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from enum import IntEnum
from operator import attrgetter
from typing import Any, Final, Self

from odin_cards.contract import ActionLike
from odin_cards.odin.rules import deal as chance
from odin_cards.odin.rules.actions import (
    NUM_ACTIONS,
    PASS,
    PASS_ACTION,
    PLAY,
    TAKE,
    TAKE_ACTIONS,
    Action,
    action_from_id,
    parse_action,
    parse_cards,
)
from odin_cards.odin.rules.cards import (
    GOAT,
    HAND_SIZE,
    cards_of,
    deck_mask,
    mask_text,
    number_mask_of,
    points,
)
from odin_cards.odin.rules.errors import (
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    OptionsError,
)
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
from odin_cards.odin.rules.legal import beating_plays, finishing_lead, leads
from odin_cards.odin.rules.options import Options


class Phase(IntEnum):
    """Where a game stands: the decision asked of the seat to move, or over."""

    LEAD = 0
    FOLLOW = 1
    TAKE = 2
    OVER = 3

    @property
    def decision(self) -> str | None:
        """The decision's name (``lead``, ``follow``, ``take``); ``None`` once over."""
        return DECISIONS[self]

    @classmethod
    def of_decision(cls, decision: str | None) -> Phase:
        """The phase in which ``decision`` is asked (``None``: over)."""
        return _PHASE_OF_DECISION[decision]


DECISIONS: Final = ("lead", "follow", "take", None)
_PHASE_OF_DECISION: Final = {d: Phase(i) for i, d in enumerate(DECISIONS)}

# Module aliases: the hot paths read globals, not enum class attributes.
LEAD: Final = Phase.LEAD
FOLLOW: Final = Phase.FOLLOW
CHOOSE_TAKE: Final = Phase.TAKE
OVER: Final = Phase.OVER

_GOAT_BIT: Final = 1 << GOAT
_PASSES: Final = tuple(Pass(seat) for seat in range(6))
_ROUND_ENDS: Final = tuple(RoundEnd(seat) for seat in range(6))
_tuple: Final = tuple.__new__
"""Builds the events of :meth:`State._step` without the ``NamedTuple`` constructor's frame."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: final points per seat and the seat(s) sharing victory."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    hands_played: int


_COPIED: Final = {"copied": True}
"""Field metadata: a list that :meth:`State.clone` copies (the others are immutable)."""


@dataclass(slots=True, eq=False, repr=False)
class State:
    """A whole game of Odin, from the first deal to the winner(s).

    Its fields, listed here once, are the whole state: :meth:`new`,
    :meth:`~.game.Game.from_view`, :meth:`clone` and ``==`` all go through this list. Only
    the game changes them.
    """

    players: int
    options: Options
    seed: chance.Seed
    deals: tuple[tuple[int, ...], ...]
    """Injected deals (bitmasks), hand by hand; later hands are dealt from the seed."""
    removed: tuple[int, ...]
    """Colours out of this game's deck (the 4-colour variant)."""
    first_leader: int
    hand_number: int
    """Hands finished so far (0-based number of the hand being played)."""
    hand_leader: int
    scores: list[int] = field(metadata=_COPIED)
    hands: list[int] = field(metadata=_COPIED)
    """Every seat's cards (colour-major bitmasks): full state, never shown to others."""
    hands_n: list[int] = field(metadata=_COPIED)
    """The same hands in the number-major layout."""
    known: list[int] = field(metadata=_COPIED)
    """Per seat, the cards it took from a beaten set and has not played since (public)."""
    phase: Phase
    """Always a :class:`Phase` member: the hot paths compare it by identity."""
    to_move: int
    table: Action | None
    table_player: int
    beaten: Action | None
    """The set just beaten, while its beater chooses the card to take."""
    passes: int
    discards: int
    history: list[Event] = field(metadata=_COPIED)
    outcome: Outcome | None
    action_count: int
    """Actions applied since the start (counted, not derived from the history)."""

    # ------------------------------------------------------------------ set-up

    @classmethod
    def new(
        cls,
        players: int,
        options: Options | None = None,
        seed: chance.Seed = 0,
        deals: Sequence[Sequence[Sequence[str]]] | None = None,
    ) -> Self:
        """Start a game: the first hand is dealt and the first leader is to lead.

        ``deals`` injects the cards of successive hands (seat -> card codes); hands
        beyond the injected ones are dealt from ``seed``.
        """
        options = options if options is not None else Options()
        if not isinstance(options, Options):
            raise OptionsError(f"options are Options, not {type(options).__name__}")
        options.check(players)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise OptionsError(f"the seed is a whole number or text, not {seed!r}")
        removed = chance.removed_colours(seed, options.colours, options.removal)
        if deals is not None and not isinstance(deals, Sequence):
            raise OptionsError("deals are a list of hands, each a list of seats' cards")
        first_leader = (
            options.first_leader
            if options.first_leader is not None
            else chance.first_leader(seed, players)
        )
        game = cls(
            players=players,
            options=options,
            seed=seed,
            deals=tuple(_check_deal(hand, players, removed, options) for hand in deals or ()),
            removed=removed,
            first_leader=first_leader,
            hand_number=0,
            hand_leader=first_leader,
            scores=[0] * players,
            hands=[],
            hands_n=[],
            known=[],
            phase=LEAD,
            to_move=first_leader,
            table=None,
            table_player=-1,
            beaten=None,
            passes=0,
            discards=0,
            history=[],
            outcome=None,
            action_count=0,
        )
        game._deal(first_leader)
        return game

    def with_hands(self, hands: Sequence[int], history: bool = True) -> Self:
        """A copy of this position in which the seats hold ``hands`` (same sizes) instead."""
        if len(hands) != self.players or any(
            h.bit_count() != mine.bit_count() for h, mine in zip(hands, self.hands, strict=True)
        ):
            raise OptionsError("other hands must have the same sizes")
        other = self.clone(history)
        other.hands = list(hands)
        other.hands_n = [number_mask_of(h) for h in hands]
        return other

    def _deal(self, leader: int) -> None:
        if self.hand_number < len(self.deals):
            hands = self.deals[self.hand_number]
        else:
            hands = chance.deal(
                self.seed, self.hand_number, self.players, self.removed, self.options.goat
            )
        self.hands = list(hands)
        self.hands_n = [number_mask_of(h) for h in hands]
        self.known = [0] * self.players
        self.hand_leader = leader
        self.phase = LEAD
        self.to_move = leader
        self.table = None
        self.table_player = -1
        self.beaten = None
        self.passes = 0
        self.discards = 0
        self.history.append(Deal(leader, hands))

    # --------------------------------------------------------------- questions

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def decision(self) -> str | None:
        """What the seat to move decides: ``lead``, ``follow``, ``take``; ``None`` at the end."""
        return DECISIONS[self.phase]

    @property
    def current_player(self) -> int | None:
        return None if self.phase is OVER else self.to_move

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move (empty only when the game is over)."""
        phase = self.phase
        if phase is FOLLOW:
            table = self.table
            assert table is not None
            seat = self.to_move
            plays = beating_plays(self.hands[seat], self.hands_n[seat], table.size, table.value)
            plays.append(PASS_ACTION)
            return plays
        if phase is LEAD:
            return leads(self.hands[self.to_move])
        if phase is CHOOSE_TAKE:
            beaten = self.beaten
            assert beaten is not None
            return [TAKE_ACTIONS[c] for c in cards_of(beaten.mask)]
        return []

    def legal_action_ids(self) -> list[int]:
        return sorted(a.id for a in self.legal_actions())

    def legal_mask(self) -> list[bool]:
        """One flag per action id (see :mod:`.actions`): ``True`` where legal."""
        mask = [False] * NUM_ACTIONS
        for action in self.legal_actions():
            mask[action.id] = True
        return mask

    def hand(self, seat: int) -> int:
        """The cards of ``seat`` as a bitmask (full state: never show this to others)."""
        return self.hands[seat]

    def _verdict(self, action: Action) -> str | None:
        """``None`` if ``action`` is legal, else the name of the rule it breaks.

        Cheap (no text is built), so :meth:`is_legal` can be asked for every action id.
        """
        phase = self.phase
        if phase is OVER:
            return "over"
        kind = action.kind
        if phase is CHOOSE_TAKE:
            beaten = self.beaten
            assert beaten is not None
            return None if kind is TAKE and action.mask & beaten.mask else "must_take"
        if kind is TAKE:
            return "nothing_to_take"
        if kind is PASS:
            return "leader_pass" if phase is LEAD else None
        hand = self.hands[self.to_move]
        if action.mask & ~hand:
            return "not_held"
        if phase is LEAD:
            if action.size == 1 or action is finishing_lead(hand):
                return None
            return "lead_size"
        table = self.table
        assert table is not None
        if action.size != table.size and action.size != table.size + 1:
            return "follow_size"
        if action.value <= table.value:
            return "too_low"
        return None

    def is_legal(self, action: Action) -> bool:
        return self._verdict(action) is None

    def problem(self, action: Action) -> str | None:
        """Why ``action`` is illegal for the seat to move, in game terms; ``None`` if legal."""
        verdict = self._verdict(action)
        if verdict is None:
            return None
        if verdict == "over":
            return "the game is over"
        if verdict == "must_take":
            assert self.beaten is not None
            options = " or ".join(mask_text(self.beaten.mask).split())
            return f"you must take one card of the set you beat: {options}"
        if verdict == "nothing_to_take":
            return "there is nothing to take now: take comes right after you beat a set"
        if verdict == "leader_pass":
            return "the leader cannot pass"
        if verdict == "not_held":
            missing = action.mask & ~self.hands[self.to_move]
            return f"you do not hold {_and(mask_text(missing))}"
        if verdict == "lead_size":
            return (
                "the leader plays one card, or the whole hand at once when it is all one"
                " colour or all one number"
            )
        table = self.table
        assert table is not None
        if verdict == "follow_size":
            n = table.size
            return (
                f"the table has {_cards(n)}: play {n} or {n + 1} cards, or pass (not {action.size})"
            )
        return f"{mask_text(action.mask)} is worth {action.value} and does not beat {table.value}"

    # ----------------------------------------------------------------- changes

    def parse(self, text: str) -> Action:
        """Read an action's notation (``play B3 B7``); raises :class:`MalformedActionError`."""
        return parse_action(text)

    def apply(self, action: ActionLike | str | int, seat: int | None = None) -> list[Event]:
        """Validate and apply one action; return the events it produced.

        ``action`` may be an :class:`Action`, its text or its id. With ``seat``, the
        action is refused unless that seat is the one to move. A refused action
        raises (:class:`MalformedActionError` or :class:`IllegalActionError`) and
        changes nothing.
        """
        if isinstance(action, Action):
            pass
        elif isinstance(action, str):
            action = parse_action(action)
        elif isinstance(action, int):
            action = action_from_id(action)
        else:
            text = getattr(action, "text", None)
            if not isinstance(text, str):
                raise MalformedActionError(
                    f"an action is an Action, its text or its id, not {type(action).__name__}"
                )
            action = parse_action(text)
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise MalformedActionError(f"a seat is a whole number, not {type(seat).__name__}")
        if self.phase is OVER:
            raise GameOverError("the game is over")
        if seat is not None and seat != self.to_move:
            raise NotYourTurnError(f"it is seat {self.to_move}'s turn, not seat {seat}'s")
        if self._verdict(action) is not None:
            raise IllegalActionError(self.problem(action))
        start = len(self.history)
        self._step(action)
        return self.history[start:]

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (from :meth:`legal_actions`), without checks."""
        self._step(action)

    def _step(self, action: Action) -> None:
        seat = self.to_move
        kind = action.kind
        history = self.history
        self.action_count += 1
        if kind is PLAY:
            hand = self.hands[seat] ^ action.mask
            self.hands[seat] = hand
            self.hands_n[seat] ^= action.nmask
            self.known[seat] &= ~action.mask
            history.append(_tuple(Play, (seat, action, "play")))
            if not hand:
                self._end_hand(seat)
                return
            self.passes = 0
            self.table_player = seat
            if self.phase is LEAD:
                self.table = action
                self.phase = FOLLOW
                self.to_move = (seat + 1) % self.players
            else:
                self.beaten = self.table
                self.table = action
                self.phase = CHOOSE_TAKE
        elif kind is TAKE:
            beaten = self.beaten
            assert beaten is not None
            self.hands[seat] |= action.mask
            self.hands_n[seat] |= action.nmask
            self.known[seat] |= action.mask
            history.append(_tuple(Take, (seat, action, "take")))
            rest = beaten.mask & ~action.mask
            if rest:
                self.discards |= rest
                history.append(_tuple(Discard, (seat, rest, "discard")))
            self.beaten = None
            self.phase = FOLLOW
            self.to_move = (seat + 1) % self.players
        else:
            history.append(_PASSES[seat])
            self.passes += 1
            if self.passes == self.players - 1:
                table = self.table
                assert table is not None
                self.discards |= table.mask
                history.append(_tuple(Discard, (None, table.mask, "discard")))
                history.append(_ROUND_ENDS[self.table_player])
                self.table = None
                self.passes = 0
                self.phase = LEAD
                self.to_move = self.table_player
                self.table_player = -1
            else:
                self.to_move = (seat + 1) % self.players

    def _end_hand(self, ender: int) -> None:
        hand_points = tuple(points(h) for h in self.hands)
        for seat, p in enumerate(hand_points):
            self.scores[seat] += p
        self.history.append(HandEnd(ender, hand_points, tuple(self.hands)))
        self.hand_number += 1
        if self.options.one_hand or max(self.scores) >= self.options.target:
            best = min(self.scores)
            winners = tuple(s for s, p in enumerate(self.scores) if p == best)
            self.outcome = Outcome(tuple(self.scores), winners, self.hand_number)
            self.phase = OVER
            self.to_move = -1
            self.table = None
            self.beaten = None
            self.history.append(GameEnd(winners))
            return
        if self.options.next_leader == "winner":
            leader = ender
        else:
            leader = (self.hand_leader + 1) % self.players
        self._deal(leader)

    # ---------------------------------------------------------------- copies

    def clone(self, history: bool = True) -> Self:
        """An independent copy; ``history=False`` drops the history (for simulations)."""
        return _clone(self, history)  # type: ignore[return-value]  # of self's class

    def _key(self) -> tuple[object, ...]:
        return _compared(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self.phase is OVER:
            return (
                f"<Game {self.players} players, over after {self.hand_number} hands, {self.scores}>"
            )
        return (
            f"<Game {self.players} players, hand {self.hand_number + 1}, scores {self.scores},"
            f" {self.decision}>"
        )

    @property
    def public_length(self) -> int:
        """Entries in the public history: one per history entry (a version for clients)."""
        return len(self.history)


def _and(text: str) -> str:
    words = text.split()
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _make_clone() -> Callable[[State, bool], State]:
    """``State.clone``, written out from the field list once (search bots clone per sample).

    A loop over the fields with ``getattr``/``setattr`` would be three times slower; this
    is how ``dataclasses`` builds ``__init__`` too. The copy has the class of the original
    (the facade :class:`~.game.Game`, which adds no fields).
    """
    lines = ["def clone(self, history):", "    other = blank(self.__class__)"]
    for f in fields(State):
        if f.name == "history":
            lines.append("    other.history = self.history[:] if history else []")
        elif f.metadata.get("copied"):
            lines.append(f"    other.{f.name} = self.{f.name}[:]")
        else:
            lines.append(f"    other.{f.name} = self.{f.name}")
    lines.append("    return other")
    namespace: dict[str, Any] = {"blank": object.__new__}
    exec("\n".join(lines), namespace)
    clone: Callable[[State, bool], State] = namespace["clone"]
    return clone


_clone: Final = _make_clone()
_compared: Final = attrgetter(*(f.name for f in fields(State) if f.name != "deals"))
"""The fields ``==`` compares: all but ``deals``, which says where the cards came from, not
where the game stands (a replayed record injects the deals its original drew from a seed)."""


def _check_deal(
    hand: Sequence[Sequence[str]], players: int, removed: tuple[int, ...], options: Options
) -> tuple[int, ...]:
    """One injected hand's cards, checked against the deck and the rules of the deal."""
    if isinstance(hand, str) or not isinstance(hand, Sequence) or len(hand) != players:
        raise OptionsError(f"a deal gives cards to {players} seats")
    deck = deck_mask((c for c in range(6) if c not in removed), options.goat)
    seen = 0
    masks = []
    for seat, cards in enumerate(hand):
        if isinstance(cards, str) or not isinstance(cards, Sequence):
            raise OptionsError(f"seat {seat}'s deal is a list of cards")
        try:
            mask = parse_cards(list(cards))
        except MalformedActionError as error:
            raise OptionsError(f"seat {seat}'s deal: {error}") from None
        if len(cards) != HAND_SIZE:
            raise OptionsError(f"seat {seat} is dealt {len(cards)} cards, not {HAND_SIZE}")
        if mask & ~deck:
            raise OptionsError(f"{mask_text(mask & ~deck)} is not in this game's deck")
        if mask & seen:
            raise OptionsError(f"{mask_text(mask & seen)} is dealt twice")
        seen |= mask
        masks.append(mask)
    if options.goat and not seen & _GOAT_BIT:
        raise OptionsError("with the Goat in play, X0 is always dealt")
    return tuple(masks)
