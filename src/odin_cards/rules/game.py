"""The game state machine: one object holding a whole game of Odin.

``Game`` is the single place where rules are applied. Its public entry point,
:meth:`Game.apply`, validates and explains; the private ``_step`` trusts its input so
that simulations (``apply_unchecked``) run at full speed. The state is a handful of
ints and short lists, so :meth:`Game.clone` is cheap enough for search bots to copy it
thousands of times per decision.

Chance is explicit: every hand's deal comes from the injected ``deals`` or from the
seed (see :mod:`.deal`), and is written into the history as a ``deal`` event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from . import deal as chance
from .actions import (
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
from .cards import GOAT, HAND_SIZE, cards_of, deck_mask, mask_text, number_mask_of
from .errors import (
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    OptionsError,
)
from .legal import beating_plays, finishing_lead, leads
from .options import Options

if TYPE_CHECKING:
    from .record import GameRecord
    from .view import View

LEAD: Final = 0
FOLLOW: Final = 1
CHOOSE_TAKE: Final = 2
OVER: Final = 3
DECISIONS: Final = ("lead", "follow", "take", None)

GOAT_POINTS: Final = 5
_GOAT_BIT: Final = 1 << GOAT

Event = tuple[str, int, object]
"""A history entry ``(kind, seat, data)``; see :func:`odin_cards.rules.view.public_event`.

* ``("deal", leader, hands)``: a new hand; ``hands`` holds every seat's cards (secret).
* ``("play", seat, action)``, ``("pass", seat, None)``, ``("take", seat, card)``
* ``("discard", seat, mask)``: the rest of the set ``seat`` beat, or (seat -1) the
  table at the end of a round.
* ``("round", leader, None)``: everybody else passed; ``leader`` leads the next round.
* ``("hand_end", ender, points)``, ``("game_end", -1, winners)``
"""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: final points per seat and the seat(s) sharing victory."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    hands_played: int


class Game:
    """A whole game of Odin, from the first deal to the winner(s)."""

    __slots__ = (
        "players",
        "options",
        "seed",
        "deals",
        "removed",
        "first_leader",
        "hand_number",
        "hand_leader",
        "scores",
        "hands",
        "hands_n",
        "known",
        "phase",
        "to_move",
        "table",
        "table_player",
        "beaten",
        "passes",
        "discards",
        "history",
        "outcome",
    )

    players: int
    options: Options
    seed: chance.Seed
    deals: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...]
    first_leader: int
    hand_number: int
    hand_leader: int
    scores: list[int]
    hands: list[int]
    hands_n: list[int]
    known: list[int]
    phase: int
    to_move: int
    table: Action | None
    table_player: int
    beaten: Action | None
    passes: int
    discards: int
    history: list[Event]
    outcome: Outcome | None

    # ------------------------------------------------------------------ set-up

    @classmethod
    def new(
        cls,
        players: int,
        options: Options | None = None,
        seed: chance.Seed = 0,
        deals: Sequence[Sequence[Sequence[str]]] | None = None,
    ) -> Game:
        """Start a game: the first hand is dealt and the first leader is to lead.

        ``deals`` injects the cards of successive hands (seat -> card codes); hands
        beyond the injected ones are dealt from ``seed``.
        """
        options = options or Options()
        options.check(players)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise OptionsError(f"the seed is a whole number or text, not {seed!r}")
        game = cls.__new__(cls)
        game.players = players
        game.options = options
        game.seed = seed
        game.removed = chance.removed_colours(seed, options.colours)
        game.deals = tuple(game._check_deal(hand) for hand in deals or ())
        game.first_leader = (
            options.first_leader
            if options.first_leader is not None
            else chance.first_leader(seed, players)
        )
        game.hand_number = 0
        game.scores = [0] * players
        game.history = []
        game.outcome = None
        game._deal(game.first_leader)
        return game

    def _check_deal(self, hand: Sequence[Sequence[str]]) -> tuple[int, ...]:
        if len(hand) != self.players:
            raise OptionsError(f"a deal gives cards to {self.players} seats, not {len(hand)}")
        deck = deck_mask((c for c in range(6) if c not in self.removed), self.options.goat)
        seen = 0
        masks = []
        for seat, cards in enumerate(hand):
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
        if self.options.goat and not seen & _GOAT_BIT:
            raise OptionsError("with the Goat in play, X0 is always dealt")
        return tuple(masks)

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
        self.history.append(("deal", leader, hands))

    # --------------------------------------------------------------- questions

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def decision(self) -> str | None:
        """What the seat to move decides: ``lead``, ``follow``, ``take``; ``None`` at the end."""
        return DECISIONS[self.phase]

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.to_move

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move (empty only when the game is over)."""
        phase = self.phase
        if phase == FOLLOW:
            table = self.table
            assert table is not None
            seat = self.to_move
            plays = beating_plays(self.hands[seat], self.hands_n[seat], table.size, table.value)
            plays.append(PASS_ACTION)
            return plays
        if phase == LEAD:
            return leads(self.hands[self.to_move])
        if phase == CHOOSE_TAKE:
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
        if phase == OVER:
            return "over"
        kind = action.kind
        if phase == CHOOSE_TAKE:
            beaten = self.beaten
            assert beaten is not None
            return None if kind == TAKE and action.mask & beaten.mask else "must_take"
        if kind == TAKE:
            return "nothing_to_take"
        if kind == PASS:
            return "leader_pass" if phase == LEAD else None
        hand = self.hands[self.to_move]
        if action.mask & ~hand:
            return "not_held"
        if phase == LEAD:
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

    def apply(self, action: Action | str | int, seat: int | None = None) -> list[Event]:
        """Validate and apply one action; return the events it produced.

        ``action`` may be an :class:`Action`, its text or its id. With ``seat``, the
        action is refused unless that seat is the one to move. A refused action
        raises (:class:`MalformedActionError` or :class:`IllegalActionError`) and
        changes nothing.
        """
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, Action):
            action = action_from_id(action)
        if self.phase == OVER:
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
        if kind == PLAY:
            hand = self.hands[seat] ^ action.mask
            self.hands[seat] = hand
            self.hands_n[seat] ^= action.nmask
            self.known[seat] &= ~action.mask
            history.append(("play", seat, action))
            if not hand:
                self._end_hand(seat)
                return
            self.passes = 0
            self.table_player = seat
            if self.phase == LEAD:
                self.table = action
                self.phase = FOLLOW
                self.to_move = (seat + 1) % self.players
            else:
                self.beaten = self.table
                self.table = action
                self.phase = CHOOSE_TAKE
        elif kind == TAKE:
            beaten = self.beaten
            assert beaten is not None
            self.hands[seat] |= action.mask
            self.hands_n[seat] |= action.nmask
            self.known[seat] |= action.mask
            history.append(("take", seat, action.card))
            rest = beaten.mask & ~action.mask
            if rest:
                self.discards |= rest
                history.append(("discard", seat, rest))
            self.beaten = None
            self.phase = FOLLOW
            self.to_move = (seat + 1) % self.players
        else:
            history.append(("pass", seat, None))
            self.passes += 1
            if self.passes == self.players - 1:
                table = self.table
                assert table is not None
                self.discards |= table.mask
                history.append(("discard", -1, table.mask))
                history.append(("round", self.table_player, None))
                self.table = None
                self.passes = 0
                self.phase = LEAD
                self.to_move = self.table_player
                self.table_player = -1
            else:
                self.to_move = (seat + 1) % self.players

    def _end_hand(self, ender: int) -> None:
        points = tuple(
            h.bit_count() + (GOAT_POINTS - 1 if h & _GOAT_BIT else 0) for h in self.hands
        )
        for seat, p in enumerate(points):
            self.scores[seat] += p
        self.history.append(("hand_end", ender, points))
        self.hand_number += 1
        if self.options.one_hand or max(self.scores) >= self.options.target:
            best = min(self.scores)
            winners = tuple(s for s, p in enumerate(self.scores) if p == best)
            self.outcome = Outcome(tuple(self.scores), winners, self.hand_number)
            self.phase = OVER
            self.to_move = -1
            self.table = None
            self.beaten = None
            self.history.append(("game_end", -1, winners))
            return
        if self.options.next_leader == "winner":
            leader = ender
        else:
            leader = (self.hand_leader + 1) % self.players
        self._deal(leader)

    # ---------------------------------------------------------------- copies

    def clone(self, history: bool = True) -> Game:
        """An independent copy; ``history=False`` drops the history (for simulations)."""
        other = Game.__new__(Game)
        other.players = self.players
        other.options = self.options
        other.seed = self.seed
        other.deals = self.deals
        other.removed = self.removed
        other.first_leader = self.first_leader
        other.hand_number = self.hand_number
        other.hand_leader = self.hand_leader
        other.scores = self.scores[:]
        other.hands = self.hands[:]
        other.hands_n = self.hands_n[:]
        other.known = self.known[:]
        other.phase = self.phase
        other.to_move = self.to_move
        other.table = self.table
        other.table_player = self.table_player
        other.beaten = self.beaten
        other.passes = self.passes
        other.discards = self.discards
        other.history = self.history[:] if history else []
        other.outcome = self.outcome
        return other

    def _key(self) -> tuple[object, ...]:
        # ``deals`` is where the cards came from, not part of the position: a replayed
        # record injects the deals that the original drew from its seed.
        return tuple(getattr(self, name) for name in Game.__slots__ if name != "deals")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self.phase == OVER:
            return (
                f"<Game {self.players} players, over after {self.hand_number} hands, {self.scores}>"
            )
        return (
            f"<Game {self.players} players, hand {self.hand_number + 1}, scores {self.scores},"
            f" {self.decision}>"
        )

    # ------------------------------------------------------- views and records

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (or, with ``None``, a spectator) may see."""
        from .view import make_view

        return make_view(self, seat)

    def record(self) -> GameRecord:
        """The full record (secret: every deal). Replays to an identical game."""
        from .record import make_record

        return make_record(self)


def _and(text: str) -> str:
    words = text.split()
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"
