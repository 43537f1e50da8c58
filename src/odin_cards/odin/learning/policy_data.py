"""Training decisions for the policy network: the search's choices in seeded self-play.

A shard plays one-hand games (two and four seats mostly) in which every seat is the
search (:class:`odin_cards.odin.bots.search.SearchBot`, today's settings, a fixed number of
iterations so that it is cheap and reproducible). Every decision with more than one legal
move is recorded as what the deciding seat knew (the arguments of the heuristic,
:func:`odin_cards.odin.bots.policy.choose`, plus the passes), its legal moves and the search's
root visit counts for them: the target the policy learns is the visit distribution. The
hand's outcome for the deciding seat (``search.hand_rewards``) is kept as a value label.
The seat plays the most visited move (what the level plays), or with probability
``explore`` a move drawn in proportion to the visits, so that positions off the search's
most likely path are seen too.

The records are raw integers (card masks, action ids), not features, so that the
features (:mod:`odin_cards.odin.bots.learned`) can change without making the data again. A
shard depends only on its seed and its size.
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
    raise MissingExtra("the policy's training data", "train") from missing

from odin_cards.odin.bots.heuristic import view_choice
from odin_cards.odin.bots.knowledge import Knowledge
from odin_cards.odin.bots.search import CURRENT, Settings, best_child, hand_rewards, search
from odin_cards.odin.rules import Game, HandEnd, Options

PLAYERS = (2, 2, 2, 3, 4, 4, 4)
"""Seats per game, drawn uniformly from this tuple."""
FOUR_COLOURS = 0.25
GOAT = 0.1
ITERATIONS = 150
"""The search's iterations per decision."""

INFO = 16
"""Integers per decision: players, seat, phase, hand, others, table id (-1: none), table
player (-1), beaten id (-1), passes, six hand sizes, and the chosen move's id."""


@dataclass(frozen=True, slots=True)
class PolicyShard:
    """Decisions (``info`` rows of :data:`INFO`), their moves and the search's visits.

    Decision ``i``'s moves are ``moves[start[i]:start[i + 1]]`` (action ids) with the
    visit counts ``visits[...]`` over the same range; ``value[i]`` is the hand's margin
    reward of the deciding seat.
    """

    info: npt.NDArray[np.int64]
    start: npt.NDArray[np.int64]
    moves: npt.NDArray[np.int64]
    visits: npt.NDArray[np.int64]
    value: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.info)

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            info=self.info,
            start=self.start,
            moves=self.moves,
            visits=self.visits,
            value=self.value,
        )

    @classmethod
    def load(cls, path: Path) -> PolicyShard:
        with np.load(path) as data:
            return cls(data["info"], data["start"], data["moves"], data["visits"], data["value"])

    @classmethod
    def join(cls, shards: list[PolicyShard]) -> PolicyShard:
        starts = []
        offset = 0
        for shard in shards:
            starts.append(shard.start[:-1] + offset)
            offset += int(shard.start[-1])
        starts.append(np.array([offset], dtype=np.int64))
        return cls(
            np.concatenate([s.info for s in shards]),
            np.concatenate(starts),
            np.concatenate([s.moves for s in shards]),
            np.concatenate([s.visits for s in shards]),
            np.concatenate([s.value for s in shards]),
        )


def generate(
    seed: int,
    decisions: int,
    iterations: int = ITERATIONS,
    explore: float = 0.15,
    settings: Settings = CURRENT,
) -> PolicyShard:
    """``decisions`` recorded decisions of the search from games seeded by ``seed``."""
    rng = random.Random(f"odin-policy:{seed}")
    info: list[list[int]] = []
    moves: list[int] = []
    visits: list[int] = []
    start = [0]
    value: list[float] = []
    game_number = 0
    while len(info) < decisions:
        players = rng.choice(PLAYERS)
        colours = 4 if players == 2 and rng.random() < FOUR_COLOURS else 6
        options = Options(one_hand=True, goat=rng.random() < GOAT, colours=colours)
        game = Game.new(players, options, seed=f"odin-policy:{seed}:{game_number}")
        game_number += 1
        pending: list[int] = []
        while not game.is_over:
            legal = game.legal_actions()
            if len(legal) == 1:
                game.apply_unchecked(legal[0])
                continue
            seat = game.to_move
            view = game.view(seat)
            know = Knowledge.of(view)
            root = search(view, rng, None, iterations, settings)
            counts = [root.children[a.id].visits if a.id in root.children else 0 for a in legal]
            chosen = None
            for action in legal:
                if action.mask == know.hand:
                    chosen = action  # the level takes a sure win at once
            if chosen is None:
                if rng.random() < explore:
                    chosen = rng.choices(legal, weights=[c + 0.5 for c in counts])[0]
                else:
                    chosen = best_child(root, legal, view_choice(view, legal, settings.style))
            if len(info) < decisions:
                sizes = list(know.sizes) + [0] * (6 - players)
                info.append(
                    [
                        players,
                        seat,
                        int(know.decision),
                        know.hand,
                        know.others,
                        know.table.id if know.table is not None else -1,
                        know.table_player,
                        know.beaten.id if know.beaten is not None else -1,
                        view.passes,
                        *sizes,
                        chosen.id,
                    ]
                )
                moves.extend(a.id for a in legal)
                visits.extend(counts)
                start.append(len(moves))
                pending.append(seat)
            game.apply_unchecked(chosen)
        ended = next(e for e in reversed(game.history) if isinstance(e, HandEnd))
        rewards = hand_rewards(ended.points)
        value.extend(rewards[s] for s in pending)
    return PolicyShard(
        np.array(info, dtype=np.int64).reshape(-1, INFO),
        np.array(start, dtype=np.int64),
        np.array(moves, dtype=np.int64),
        np.array(visits, dtype=np.int64),
        np.array(value, dtype=np.float32),
    )


def shard_path(folder: Path, seed: int, decisions: int) -> Path:
    return folder / f"policy-{seed}-{decisions}.npz"


def load_shards(folder: Path, seeds: range, decisions: int) -> PolicyShard:
    return PolicyShard.join([PolicyShard.load(shard_path(folder, s, decisions)) for s in seeds])


__all__ = ["INFO", "ITERATIONS", "PolicyShard", "generate", "load_shards", "shard_path"]
