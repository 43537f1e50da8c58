"""The batch API over the pure engine: what runs where numba is not installed.

:class:`EngineBatch` answers every call of :class:`.batch.Batch` with one engine
:class:`~odin_cards.odin.rules.Game` per row, so code written against the simulator (the
vectorized environment, rollouts, a training loop) runs anywhere ``pip install
odin-cards`` does, at the engine's speed. Its own deals come from each engine game's
seed (``"{seed}:{index}:{restarts}"``, its choices from ``"{seed}:{index}"``: two
streams, as the compiled batch's, so deals never depend on choices), so its
games are not the compiled batch's games for the same seed; given deals work the same in
both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from odin_cards.odin.rules import NUM_ACTIONS, Game, HandEnd, Options, action_from_id
from odin_cards.odin.sim import kernels as k
from odin_cards.odin.sim.batch import (
    Deals,
    GameIndex,
    SimError,
    card_masks,
    check_count,
    check_seed,
    check_setup,
    game_keys,
)
from odin_cards.odin.sim.tables import MAX_LEGAL


def last_hand_points(game: Game) -> tuple[int, ...]:
    """Each seat's points in the last hand ``game`` finished (zeros before the first)."""
    for event in reversed(game.history):
        if isinstance(event, HandEnd):
            return event.points
    return (0,) * game.players


class EngineBatch:
    """``N`` engine games behind the simulator's batch API (see :class:`.batch.Batch`)."""

    def __init__(self, games: list[Game], keys: list[tuple[int, int]], deals: Deals) -> None:
        self.games = games
        self.keys = [f"{seed}:{index}" for seed, index in keys]
        """Each game's ``"{seed}:{index}"``: its generator's seed, and its deals' with
        ``":{restarts}"`` added."""
        self.own_deals = deals == "own"
        self.waiting = [False] * len(games)
        self.restarts = [0] * len(games)
        self.ended = [0] * len(games)
        self.points = [(0,) * g.players for g in games]
        self.rngs = [random.Random(key) for key in self.keys]

    @classmethod
    def new(
        cls,
        games: int,
        players: int = 4,
        options: Options | None = None,
        seed: int = 0,
        deals: Deals = "own",
        seeds: Sequence[int] | None = None,
    ) -> EngineBatch:
        check_count(games)
        keys = game_keys(games, seed, seeds)
        options = options if options is not None else Options()
        check_setup(players, options, deals)
        made = [Game.new(players, options, seed=f"{s}:{i}:0") for s, i in keys]
        batch = cls(made, keys, deals)
        if deals == "given":
            batch.waiting = [True] * games
        return batch

    @classmethod
    def from_games(cls, games: Sequence[Game], seed: int = 0, deals: Deals = "own") -> EngineBatch:
        if not isinstance(games, Sequence) or not all(isinstance(g, Game) for g in games):
            raise SimError("give a sequence of engine Games")
        check_count(len(games))
        check_seed(seed)
        for game in games:
            check_setup(game.players, game.options, deals)
        return cls([g.clone() for g in games], game_keys(len(games), seed, None), deals)

    # --------------------------------------------------------------- questions

    def __len__(self) -> int:
        return len(self.games)

    @property
    def players(self) -> npt.NDArray[np.int64]:
        return np.array([g.players for g in self.games], np.int64)

    @property
    def phase(self) -> npt.NDArray[np.int64]:
        return np.array(
            [k.DEAL if w else int(g.phase) for g, w in zip(self.games, self.waiting, strict=True)],
            np.int64,
        )

    @property
    def needs_action(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.phase < k.OVER)

    @property
    def over(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.phase == k.OVER)

    @property
    def waiting_for_deal(self) -> npt.NDArray[np.bool_]:
        return np.array(self.waiting, np.bool_)

    @property
    def to_move(self) -> npt.NDArray[np.int64]:
        return np.where(self.needs_action, [g.to_move for g in self.games], -1)

    def _per_seat(self, rows: Sequence[Sequence[int]]) -> npt.NDArray[np.int64]:
        out = np.zeros((len(self), k.SEATS), np.int64)
        for i, row in enumerate(rows):
            out[i, : len(row)] = row
        return out

    @property
    def scores(self) -> npt.NDArray[np.int64]:
        return self._per_seat([g.scores for g in self.games])

    @property
    def hand_points(self) -> npt.NDArray[np.int64]:
        return self._per_seat(self.points)

    @property
    def hands_ended(self) -> npt.NDArray[np.int64]:
        return np.array(self.ended, np.int64)

    @property
    def hand_number(self) -> npt.NDArray[np.int64]:
        return np.array([g.hand_number for g in self.games], np.int64)

    @property
    def winners(self) -> npt.NDArray[np.bool_]:
        out = np.zeros((len(self), k.SEATS), np.bool_)
        for i, game in enumerate(self.games):
            if game.outcome is not None:
                out[i, list(game.outcome.winners)] = True
        return out

    def hands(self, game: GameIndex) -> tuple[int, ...]:
        game = self._check_index(game)
        g = self.games[game]
        return tuple(g.hand(s) for s in range(g.players))

    def _legal(self, i: int) -> list[int]:
        return [] if self.waiting[i] else self.games[i].legal_action_ids()

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        out = np.zeros((len(self), NUM_ACTIONS), np.bool_)
        for i in range(len(self)):
            out[i, self._legal(i)] = True
        return out

    def legal_ids(self) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64]]:
        ids = np.zeros((len(self), MAX_LEGAL), np.int16)
        counts = np.zeros(len(self), np.int64)
        for i in range(len(self)):
            legal = self._legal(i)
            ids[i, : len(legal)] = legal
            counts[i] = len(legal)
        return ids, counts

    def legal_list(self, game: GameIndex) -> list[int]:
        game = self._check_index(game)
        return self._legal(game)

    def sample_legal(self, which: npt.ArrayLike | None = None) -> npt.NDArray[np.int64]:
        chosen = np.ones(len(self), np.bool_) if which is None else np.asarray(which)
        if chosen.shape != (len(self),) or chosen.dtype != np.bool_:
            raise SimError(f"choose games with a boolean array of shape ({len(self)},)")
        out = np.full(len(self), -1, np.int64)
        for i, game in enumerate(self.games):
            legal = self._legal(i)
            if chosen[i] and legal and not game.is_over:
                out[i] = legal[self.rngs[i].randrange(len(legal))]
        return out

    # ----------------------------------------------------------------- changes

    def step(self, actions: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        chosen = np.asarray(actions)
        if chosen.shape != (len(self),) or chosen.dtype.kind not in "iu":
            raise SimError(
                f"give one integer action id per game: shape ({len(self)},), not"
                f" {chosen.shape} of {chosen.dtype}"
            )
        moving = self.needs_action
        for i, game in enumerate(self.games):
            action = int(chosen[i])
            if not moving[i]:
                if action != -1:
                    why = "waits for a deal" if self.waiting[i] else "is over"
                    raise SimError(f"game {i} {why}: give it -1, not {action}")
            elif not 0 <= action < NUM_ACTIONS:
                raise SimError(f"game {i}: there is no action id {action}")
            elif not game.is_legal(action_from_id(action)):
                raise SimError(f"game {i}: action id {action} is not legal now")
        ended = np.zeros(len(self), np.bool_)
        for i in range(len(self)):
            if chosen[i] >= 0:
                ended[i] = self._apply(i, int(chosen[i]))
        return ended

    def _apply(self, i: int, action: int) -> bool:
        game = self.games[i]
        hand_number = game.hand_number
        game.apply(action)
        if game.hand_number == hand_number:
            return False
        self.ended[i] += 1
        self.points[i] = last_hand_points(game)
        if not game.is_over and not self.own_deals:
            self.waiting[i] = True
        return True

    def reset(self, which: npt.ArrayLike | None = None) -> None:
        chosen = np.ones(len(self), np.bool_) if which is None else np.asarray(which)
        if chosen.shape != (len(self),) or chosen.dtype != np.bool_:
            raise SimError(f"choose games with a boolean array of shape ({len(self)},)")
        for i in np.flatnonzero(chosen):
            self.restarts[i] += 1
            old = self.games[i]
            self.games[i] = Game.new(
                old.players, old.options, seed=f"{self.keys[i]}:{self.restarts[i]}"
            )
            self.points[i] = (0,) * old.players
            self.waiting[i] = not self.own_deals

    def deal(self, game: GameIndex, hands: Sequence[int] | npt.NDArray[np.integer]) -> None:
        game = self._check_index(game)
        if not self.waiting[game]:
            raise SimError(f"game {game} is not waiting for a deal")
        g = self.games[game]
        hands = card_masks(hands, g.players)
        seen = 0
        for seat, hand in enumerate(hands):
            if hand.bit_count() != 9:
                raise SimError(f"seat {seat} is dealt {hand.bit_count()} cards, not 9")
            if hand & seen:
                raise SimError(f"seat {seat} is dealt a card dealt before")
            seen |= hand
        deck = sum(511 << (9 * c) for c in range(6) if c not in g.removed)
        if g.options.goat:
            deck |= 1 << 54
        if seen & ~deck:
            raise SimError("cards outside this game's deck are dealt")
        if g.options.goat and not seen >> 54 & 1:
            raise SimError("with the Goat in play, X0 is always dealt")
        self.games[game] = g.with_hands(list(hands))
        self.waiting[game] = False

    def random_play(self, sweeps: int, restart: bool = True) -> int:
        if isinstance(sweeps, bool) or not isinstance(sweeps, int) or sweeps < 0:
            raise SimError(f"sweeps is a whole number from 0, not {sweeps!r}")
        applied = 0
        for _ in range(sweeps):
            for i in range(len(self)):
                if self.waiting[i]:
                    continue
                game = self.games[i]
                if game.is_over:
                    if not restart:
                        continue
                    self.reset(np.arange(len(self)) == i)
                    if self.waiting[i]:
                        continue
                    game = self.games[i]
                legal = game.legal_actions()
                self._apply(i, legal[self.rngs[i].randrange(len(legal))].id)
                applied += 1
        return applied

    def _check_index(self, game: GameIndex) -> int:
        if (
            isinstance(game, bool)
            or not isinstance(game, int | np.integer)
            or not 0 <= game < len(self)
        ):
            raise SimError(f"there is no game {game!r} in a batch of {len(self)}")
        return int(game)
