"""Take-away's rules behind the game contract (:mod:`odin_cards.contract`): pure, seeded."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Self

from odin_cards.contract import ActionError, SetupError

KEY = "take-away"
FORMAT = "take-away-record/1"
NUMBERS = (2, 3, 4)
"""The numbers a hand holds (a turn may always take 1 instead)."""
DECK = 64
"""Numbers drawn from the seed (a game draws at most one per two tokens)."""
PILE = (5, 50, 15)
"""The pile's least and greatest size, and its default."""


@dataclass(frozen=True, slots=True)
class Take:
    """Take ``count`` tokens; ids 0-3 are takes of 1-4."""

    count: int

    @property
    def text(self) -> str:
        return f"take {self.count}"

    @property
    def id(self) -> int:
        return self.count - 1


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    seat: int
    count: int = 0
    pile: int = 0
    number: int = 0
    """The number drawn (``draw`` events only: secret)."""

    def public(self) -> dict[str, Any] | None:
        if self.kind == "draw":
            return None
        return {"kind": self.kind, "seat": self.seat, "count": self.count, "pile": self.pile}


@dataclass(frozen=True, slots=True)
class Outcome:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(slots=True)
class Game:
    """A game of take-away: a plain value (copies share nothing)."""

    pile: int
    hands: list[list[int]]
    deck: tuple[int, ...]
    seed: int | str
    setup: dict[str, Any]
    drawn: int = 4
    mover: int = 0
    winner: int | None = None
    taken: list[str] = field(default_factory=list)
    public: list[dict[str, Any]] = field(default_factory=list)

    players: int = 2

    @property
    def current_player(self) -> int | None:
        return None if self.winner is not None else self.mover

    @property
    def decision(self) -> str | None:
        return None if self.winner is not None else "take"

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(tuple(int(s == self.winner) for s in range(2)), (self.winner,))

    @property
    def action_count(self) -> int:
        return len(self.taken)

    def legal_actions(self) -> list[Take]:
        if self.winner is not None:
            return []
        counts = {1} | {n for n in self.hands[self.mover] if n <= self.pile}
        return [Take(count) for count in sorted(counts)]

    def parse(self, text: str) -> Take:
        word, _, number = text.partition(" ")
        if word != "take" or not number.isdigit() or not 1 <= int(number) <= max(NUMBERS):
            raise ActionError(f"an action is 'take N' (N from 1 to {max(NUMBERS)})")
        return Take(int(number))

    def apply(self, action: Take | Any, seat: int | None = None) -> list[Event]:
        take = self.parse(action) if isinstance(action, str) else action
        if not isinstance(take, Take):
            raise ActionError("not an action of take-away")
        if self.winner is not None:
            raise ActionError("the game is over")
        if seat is not None and seat != self.mover:
            raise ActionError(f"it is seat {self.mover}'s turn")
        if take not in self.legal_actions():
            raise ActionError(f"{take.text} is not possible now")
        seat = self.mover
        self.pile -= take.count
        events = [Event("take", seat, take.count, self.pile)]
        if take.count != 1:
            hand = self.hands[seat]
            hand[hand.index(take.count)] = self.deck[self.drawn % len(self.deck)]
            events.append(Event("draw", seat, number=hand[-1]))
            self.drawn += 1
        self.taken.append(take.text)
        self.public.extend(e for e in (event.public() for event in events) if e is not None)
        if self.pile == 0:
            self.winner = seat
            self.public.append({"kind": "win", "seat": seat, "count": 0, "pile": 0})
        else:
            self.mover = 1 - seat
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees: the pile, whose turn, its own hand only (``None``: none)."""
        return {
            "pile": self.pile,
            "to_move": self.current_player,
            "hand": None if seat is None else sorted(self.hands[seat]),
            "hand_sizes": [len(hand) for hand in self.hands],
            "winner": self.winner,
        }

    def public_events(self, start: int = 0) -> list[dict[str, Any]]:
        return [dict(event) for event in self.public[start:]]

    @property
    def public_length(self) -> int:
        return len(self.public)

    def record(self) -> Record:
        return Record(dict(self.setup), self.seed, tuple(self.taken), self.outcome)

    def clone(self) -> Self:
        return replace(
            self,
            hands=[list(hand) for hand in self.hands],
            setup=dict(self.setup),
            taken=list(self.taken),
            public=[dict(event) for event in self.public],
        )


@dataclass(frozen=True, slots=True)
class Record:
    setup: dict[str, Any]
    seed: int | str
    actions: tuple[str, ...]
    outcome: Outcome | None

    game: str = KEY

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": KEY,
            "format": FORMAT,
            "players": 2,
            "setup": dict(self.setup),
            "seed": self.seed,
            "actions": list(self.actions),
            "outcome": None
            if self.outcome is None
            else {"scores": list(self.outcome.scores), "winners": list(self.outcome.winners)},
        }

    def replay(self) -> Game:
        game = TAKE_AWAY.new_game(2, self.setup, self.seed)
        try:
            for text in self.actions:
                game.apply(text)
        except ActionError as error:
            raise ValueError(f"the record does not replay: {error}") from None
        return game


class TakeAwayRules:
    key = KEY
    rules_version = 1
    record_format = FORMAT
    min_players = 2
    max_players = 2

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict[str, Any]:
        if players != 2:
            raise SetupError("take-away is played by 2")
        unknown = set(setup) - {"pile"}
        if unknown:
            raise SetupError(f"unknown option {sorted(unknown)[0]!r}")
        pile = setup.get("pile", PILE[2])
        if isinstance(pile, bool) or not isinstance(pile, int) or not PILE[0] <= pile <= PILE[1]:
            raise SetupError(f"the pile has {PILE[0]} to {PILE[1]} tokens")
        return {"pile": pile}

    def new_game(
        self,
        players: int,
        setup: Mapping[str, Any],
        seed: int | str,
        chance: Sequence[Any] | None = None,
    ) -> Game:
        normal = self.check_setup(players, setup)
        if chance is not None:
            deck = tuple(int(n) for n in chance)
            if len(deck) < 4 or any(n not in NUMBERS for n in deck):
                raise SetupError(f"injected numbers are at least 4 of {NUMBERS}")
        else:
            dice = random.Random(f"take-away:{seed}")
            deck = tuple(dice.choice(NUMBERS) for _ in range(DECK))
        hands = [list(deck[0:2]), list(deck[2:4])]
        return Game(normal["pile"], hands, deck, seed, normal)

    def load_record(self, data: Mapping[str, Any]) -> Record:
        if data.get("game") != KEY or data.get("format") != FORMAT:
            raise ValueError("not a record of take-away")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("a record's actions are texts")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise ValueError("a record's seed is a number or a text")
        setup = data.get("setup")
        return Record(dict(setup) if isinstance(setup, dict) else {}, seed, tuple(actions), None)


TAKE_AWAY = TakeAwayRules()
