"""Training positions for the value network: seeded, one shard per seed, NumPy only.

A shard plays one-hand games between heuristic players (the search's rollout policy,
every seat judging from what it could know) that make a uniformly random legal move
with probability ``explore``, so that positions off the heuristic's path (where the
search's trees go) are seen too. Each decision is kept with probability ``keep`` and
labelled with what every seat gains by the hand's end when the heuristic plays the
hand out from there (``search.hand_rewards``, relative to the seat to move): exactly
what one rollout of the search returns for that full game. The heuristic is
deterministic, so one playout is the label.

A shard depends only on its seed and its size, so shards can be made in any order or
in parallel processes and the data set is the same.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from odin_cards.extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the training data", "train") from missing

from odin_cards.odin.bots.network import FEATURES, OUTPUTS, write_features
from odin_cards.odin.bots.policy import STYLE
from odin_cards.odin.bots.search import hand_rewards, rollout, rollout_move
from odin_cards.odin.rules import Game, Options
from odin_cards.odin.rules.cards import deck_mask

PLAYERS = (2, 2, 2, 3, 4, 4, 4, 5, 6)
"""Seats per game, drawn uniformly from this tuple (two and four players weigh most)."""
FOUR_COLOURS = 0.25
"""The share of two-player games played with four colours (the two-player variant)."""


@dataclass(frozen=True, slots=True)
class Shard:
    """Positions (features), labels (per slot, 0 for empty slots) and seated-slot masks."""

    x: npt.NDArray[np.float32]
    y: npt.NDArray[np.float32]

    def save(self, path: Path) -> None:
        np.savez_compressed(path, x=self.x, y=self.y)

    @classmethod
    def load(cls, path: Path) -> Shard:
        with np.load(path) as data:
            return cls(data["x"], data["y"])


def generate(
    seed: int, positions: int, explore: float = 0.15, keep: float = 0.35, goat: float = 0.1
) -> Shard:
    """``positions`` labelled positions from games seeded by ``seed``."""
    rng = random.Random(f"odin-learning:{seed}")
    x = np.zeros((positions, FEATURES))
    y = np.zeros((positions, OUTPUTS))
    count = 0
    game_number = 0
    while count < positions:
        players = rng.choice(PLAYERS)
        colours = 4 if players == 2 and rng.random() < FOUR_COLOURS else 6
        options = Options(one_hand=True, goat=rng.random() < goat, colours=colours)
        game = Game.new(players, options, seed=f"odin-learning:{seed}:{game_number}")
        game_number += 1
        deck = deck_mask((c for c in range(6) if c not in game.removed), options.goat)
        while not game.is_over and count < positions:
            legal = game.legal_actions()
            if rng.random() < keep:
                points = rollout(game.clone(history=False), deck, game.hand_number, STYLE)
                rewards = hand_rewards(points)
                me = game.to_move
                write_features(game, x[count])
                for k in range(players):
                    y[count, k] = rewards[(me + k) % players]
                count += 1
            if len(legal) > 1 and rng.random() < explore:
                action = legal[rng.randrange(len(legal))]
            else:
                action = rollout_move(game, deck, legal, STYLE)
            game.apply_unchecked(action)
    return Shard(x.astype(np.float32), y.astype(np.float32))


def shard_path(folder: Path, seed: int, positions: int) -> Path:
    return folder / f"shard-{seed}-{positions}.npz"


def load_shards(folder: Path, seeds: range, positions: int) -> Shard:
    """The shards of ``seeds`` (each made with ``positions``), joined in seed order."""
    shards = [Shard.load(shard_path(folder, s, positions)) for s in seeds]
    return Shard(np.concatenate([s.x for s in shards]), np.concatenate([s.y for s in shards]))


__all__ = ["PLAYERS", "Shard", "generate", "load_shards", "shard_path"]
