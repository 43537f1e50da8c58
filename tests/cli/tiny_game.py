"""A third game, defined here alone, to show that the command line and the tools need no
change for a game: take-away. Two players take 1 to 3 stones from a pile in turn; whoever
takes the last stone wins. Each player also holds a hidden card (a number dealt from the
seed) that only breaks nothing: it is a secret the views must keep."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from odin_cards.contract import ActionError, SetupError
from odin_cards.plugin import BotLevel, Flag, FlagError, GamePlugin


@dataclass(frozen=True)
class Take:
    stones: int

    @property
    def text(self) -> str:
        return f"take {self.stones}"

    @property
    def id(self) -> int:
        return self.stones


@dataclass(frozen=True)
class Outcome:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Event:
    kind: str
    public: dict[str, Any]


@dataclass
class TinyGame:
    players: int
    pile: int
    seed: int | str
    cards: tuple[int, ...]
    actions: list[str] = field(default_factory=list)
    history: list[Event] = field(default_factory=list)
    winner: int | None = None

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else len(self.actions) % self.players

    @property
    def decision(self) -> str | None:
        return None if self.is_over else "take"

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        scores = tuple(1 if seat == self.winner else 0 for seat in range(self.players))
        return Outcome(scores, (self.winner,))

    @property
    def action_count(self) -> int:
        return len(self.actions)

    def legal_actions(self) -> list[Take]:
        return [] if self.is_over else [Take(n) for n in (1, 2, 3) if n <= self.pile]

    def parse(self, text: str) -> Take:
        words = text.split()
        if len(words) != 2 or words[0] != "take" or words[1] not in ("1", "2", "3"):
            raise ActionError(f"not an action: {text!r} (take 1, take 2 or take 3)")
        return Take(int(words[1]))

    def apply(self, action: Any, seat: int | None = None) -> list[Event]:
        take = self.parse(action) if isinstance(action, str) else action
        if seat is not None and seat != self.current_player:
            raise ActionError("not your turn")
        if take not in self.legal_actions():
            raise ActionError(f"{take.text} is not possible: {self.pile} left")
        mover = self.current_player
        assert mover is not None
        self.pile -= take.stones
        self.actions.append(take.text)
        events = [Event("take", {"seat": mover, "stones": take.stones, "left": self.pile})]
        if self.pile == 0:
            self.winner = mover
            events.append(Event("end", {"winner": mover}))
        self.history.extend(events)
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "pile": self.pile,
            "to_move": self.current_player,
            "card": None if seat is None else self.cards[seat],
            "first_player": 0,
            "turn": len(self.actions),
            "outcome": None if self.winner is None else {"winner": self.winner},
        }

    def public_events(self, start: int = 0) -> list[dict[str, Any]]:
        return [
            {"index": index, "type": event.kind, **event.public}
            for index, event in enumerate(self.history[start:], start=start)
        ]

    @property
    def public_length(self) -> int:
        return len(self.history)

    def record(self) -> TinyRecord:
        outcome = self.outcome
        return TinyRecord(
            self.players,
            self.pile + sum(int(a.split()[1]) for a in self.actions),
            self.seed,
            tuple(self.actions),
            None if outcome is None else {"winners": list(outcome.winners)},
        )

    def clone(self) -> TinyGame:
        return TinyGame(
            self.players,
            self.pile,
            self.seed,
            self.cards,
            list(self.actions),
            list(self.history),
            self.winner,
        )


@dataclass(frozen=True)
class TinyRecord:
    players: int
    pile: int
    seed: int | str
    actions: tuple[str, ...]
    outcome: dict[str, Any] | None

    @property
    def game(self) -> str:
        return "tiny"

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "tiny",
            "format": "tiny/1",
            "players": self.players,
            "setup": {"pile": self.pile},
            "seed": self.seed,
            "actions": list(self.actions),
            "outcome": self.outcome,
        }

    def replay(self) -> TinyGame:
        game = RULES.new_game(self.players, {"pile": self.pile}, self.seed)
        for text in self.actions:
            try:
                game.apply(text)
            except ActionError as error:
                raise ValueError(f"action {text!r} does not replay: {error}") from None
        return game


class TinyRules:
    key = "tiny"
    rules_version = 1
    record_format = "tiny/1"
    min_players = 2
    max_players = 3

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(setup) - {"pile"}
        if unknown:
            raise SetupError(f"unknown set-up {sorted(unknown)}")
        pile = setup.get("pile", 10)
        if not isinstance(pile, int) or isinstance(pile, bool) or not 1 <= pile <= 99:
            raise SetupError(f"the pile is 1 to 99 stones, not {pile!r}")
        return {"pile": pile}

    def new_game(
        self,
        players: int,
        setup: Mapping[str, Any],
        seed: int | str,
        chance: Sequence[Any] | None = None,
    ) -> TinyGame:
        pile = self.check_setup(players, setup)["pile"]
        dealt = random.Random(f"tiny:{seed}")
        cards = tuple(dealt.randrange(100) for _ in range(players))
        return TinyGame(players, pile, seed, cards)

    def load_record(self, data: Mapping[str, Any]) -> TinyRecord:
        try:
            if data["game"] != "tiny":
                raise ValueError("not a record of tiny")
            return TinyRecord(
                int(data["players"]),
                int(data["setup"]["pile"]),
                data["seed"],
                tuple(str(a) for a in data["actions"]),
                data.get("outcome"),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"a broken record of tiny: {error}") from None


RULES = TinyRules()


def choose(state: Any, level: str, seconds: float | None, rng: random.Random) -> str:
    """``random``: any legal take; ``perfect``: leave a multiple of 4 when it can."""
    legal = state.legal_actions()
    if level == "perfect":
        best = [a for a in legal if (state.pile - a.stones) % 4 == 0]
        if best:
            return str(best[0].text)
    elif level != "random":
        raise KeyError(f"no bot level {level!r}")
    return str(legal[rng.randrange(len(legal))].text)


def read_flags(players: int, flags: Mapping[str, Any]) -> dict[str, Any]:
    pile = flags.get("--pile")
    if pile is not None and pile < 1:
        raise FlagError("--pile", f"a pile holds at least 1 stone, not {pile}")
    return {} if pile is None else {"pile": pile}


def plugin() -> GamePlugin:
    """The game's plugin, naming this module by its name wherever the tests import it."""
    return GamePlugin(
        key="tiny",
        name="Tiny",
        rules=f"{__name__}:RULES",
        rank=50,
        bot_levels=(
            BotLevel("random", "Random", "Takes any number of stones."),
            BotLevel("perfect", "Perfect", "Leaves a multiple of four."),
        ),
        bots=f"{__name__}:choose",
        flags=(Flag("--pile", "Stones in the pile (default 10).", "int"),),
        read_flags=f"{__name__}:read_flags",
    )
