"""One game of Odin as the environments drive it: set-up, seeding, steps, rewards.

Shared by the PettingZoo and Gymnasium environments so that both read a seat's
observation, mask, rewards and illegal actions in exactly one way. The game is created
and advanced through the game contract (``odin_cards.games.rules_of("odin")``); a seat's
observation comes from that seat's view only (:func:`odin_cards.odin.rules.view.make_view`
without the history, which would cost a pass over the whole game on every step).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from odin_cards.extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the environments", "research") from missing

from odin_cards.contract import SetupError
from odin_cards.games import rules_of
from odin_cards.odin.env.observation import MAX_TARGET, DictObs, FlatObs, encode, observe
from odin_cards.odin.rules import NUM_ACTIONS, Game, HandEnd, IllegalActionError, View
from odin_cards.odin.rules.view import make_view

RewardKind = Literal["game", "hand"]
IllegalPolicy = Literal["substitute", "raise"]
REWARDS: Final = ("game", "hand")
ILLEGAL: Final = ("substitute", "raise")
Mask = npt.NDArray[np.int8]


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} is one of {', '.join(map(repr, choices))}, not {value!r}")


class Table:
    """A game being played by an environment: who moves, what is legal, what each seat earns.

    ``reward``: ``"game"`` gives each seat, when the game ends, its share of the victory
    (1 split among the winners, 0 to the others); ``"hand"`` gives each seat, when a hand
    ends, minus the points it scored in that hand (so an episode's return is minus the
    seat's final score).
    """

    def __init__(
        self,
        players: int,
        options: Mapping[str, Any] | None,
        reward: RewardKind,
        illegal: IllegalPolicy,
    ) -> None:
        self.rules = rules_of("odin")
        if not isinstance(players, int) or isinstance(players, bool):
            raise SetupError(f"players is a whole number from 2 to 6, not {players!r}")
        self.setup = self.rules.check_setup(players, dict(options or {}))
        if self.setup["target"] > MAX_TARGET:
            raise SetupError(f"the environments take a target up to {MAX_TARGET}")
        check_choice("reward", reward, REWARDS)
        check_choice("illegal", illegal, ILLEGAL)
        self.players = players
        self.reward_kind = reward
        self.illegal = illegal
        self.game: Game = self.start(0)
        self.legal: list[int] = []

    def start(self, seed: int, deals: Any = None) -> Game:
        """A new game dealt from ``seed``; the table's current game from now on.

        ``deals`` (from ``reset(options={"deals": ...})``) injects the first hands' cards:
        a list of hands, each a list of seats' card codes, as the game contract's
        ``chance`` (checked by the engine: ``SetupError`` if they are not a deal).
        """
        game = self.rules.new_game(self.players, self.setup, seed, chance=deals)
        assert isinstance(game, Game)
        self.game = game
        self.legal = game.legal_action_ids()
        return game

    @property
    def to_move(self) -> int | None:
        return self.game.current_player

    def view(self, seat: int) -> View:
        return make_view(self.game, seat, history=False)

    def flat(self, seat: int) -> FlatObs:
        return encode(self.view(seat))

    def dict(self, seat: int) -> DictObs:
        return observe(self.view(seat))

    def mask(self, seat: int) -> Mask:
        """1 for each legal action id of ``seat`` (all 0 when it is not to move)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if seat == self.game.current_player:
            mask[self.legal] = 1
        return mask

    def play(self, action: int | np.integer[Any]) -> tuple[list[float], bool]:
        """Apply the seat to move's ``action``; the rewards it brings, and whether it was
        substituted (an illegal action under ``illegal="substitute"``).

        An illegal action is refused with :class:`IllegalActionError` (nothing changes)
        under ``"raise"``; under ``"substitute"`` the legal action with the lowest id is
        played instead: ``pass`` when passing is allowed, else the first take, else the
        lowest single lead.
        """
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(f"an action is an id from 0 to {NUM_ACTIONS - 1}")
        chosen = int(action)
        substituted = chosen not in self.legal
        if substituted:
            if self.illegal == "raise":
                raise IllegalActionError(
                    f"action {chosen} is not legal now; legal: {self.legal[:20]}"
                )
            chosen = self.legal[0]
        game = self.game
        events = game.apply(chosen)
        rewards = [0.0] * self.players
        for event in events:
            if isinstance(event, HandEnd) and self.reward_kind == "hand":
                for seat, points in enumerate(event.points):
                    rewards[seat] -= points
        outcome = game.outcome
        if outcome is not None and self.reward_kind == "game":
            for seat in outcome.winners:
                rewards[seat] += 1.0 / len(outcome.winners)
        self.legal = game.legal_action_ids()
        return rewards, substituted


__all__ = ["ILLEGAL", "REWARDS", "IllegalPolicy", "Mask", "RewardKind", "Table", "check_choice"]
