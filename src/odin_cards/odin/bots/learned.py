"""A learned policy, distilled from the search, evaluated with NumPy alone.

The policy scores each *legal move* of a decision and takes a softmax over them: the
rules' action space (6,702 ids) is far too large for a dense output, and a move is
better described by what it does. It reads only what the deciding seat knows (the same
integers as the heuristic, :func:`odin_cards.odin.bots.policy.choose`, plus the passes), so
the level ``policy`` can play from a :class:`View` and the search can call it inside a
sampled game for any seat, as its rollouts call the heuristic.

Position features (:data:`POSITION`), relative to the deciding seat: four blocks of 56
card flags (its hand, every card another seat may hold, the table, the set being taken
from), the table's player (slot one-hot), the decision (lead, follow, take), the passes
(/5), the seated slots, the hand sizes (/9), the hand's profile (fewest sets /9, points
/13, pips /45, one set) and whether an opponent holds two cards or fewer.

Move features (:data:`MOVE`): the cards moved (played or taken) and the hand left after
the move as card flags, the kind (pass, take, play), the set's size (/9) and strength
(value over 10^(size-1), /9), whether it empties the hand, whether it has the table's
size or one more, the profile of the hand left and its change, whether no other seat can
beat it (judged from the cards that may be in other hands, as the heuristic does), and
whether it is the heuristic's move.

The network: the position through a ReLU layer (``trunk``), each move through another
(``move``), both into a joint ReLU layer and one output (the move's logit). The weights
ship as ``bots/data/policy.npz`` (float32) and are trained by ``python -m
odin_cards.odin.learning train-policy`` (docs/bots.md) to match the visit distribution of the
search at its root. Inference is float64 NumPy: the same inputs give the same outputs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from odin_cards.odin.bots.base import Bot, Budget
from odin_cards.odin.bots.hand import profile
from odin_cards.odin.bots.knowledge import Knowledge, others_of_mover
from odin_cards.odin.bots.policy import SECOND, best_answer
from odin_cards.odin.bots.policy import choose as heuristic_choose
from odin_cards.odin.rules import Action, Game, View
from odin_cards.odin.rules.actions import PASS, PLAY
from odin_cards.odin.rules.game import CHOOSE_TAKE, FOLLOW, LEAD, Phase

SLOTS: Final = 6
BLOCK: Final = 56
POSITION_BLOCKS: Final = 4
MOVE_BLOCKS: Final = 2
POSITION: Final = POSITION_BLOCKS * BLOCK + SLOTS + 3 + 1 + SLOTS + SLOTS + 4 + 1
MOVE: Final = MOVE_BLOCKS * BLOCK + 3 + 2 + 1 + 2 + 4 + 2 + 1 + 1

Matrix = npt.NDArray[np.float64]

_PHASE_INDEX: Final = {LEAD: 0, FOLLOW: 1, CHOOSE_TAKE: 2}
_POWERS: Final = tuple(10.0**i for i in range(11))


class Decision:
    """What one seat knows at one decision: the inputs of the policy's features."""

    __slots__ = (
        "beaten",
        "decision",
        "hand",
        "others",
        "passes",
        "players",
        "seat",
        "sizes",
        "table",
        "table_player",
    )

    def __init__(
        self,
        seat: int,
        players: int,
        decision: Phase,
        hand: int,
        others: int,
        table: Action | None,
        table_player: int,
        beaten: Action | None,
        passes: int,
        sizes: Sequence[int],
    ) -> None:
        self.seat = seat
        self.players = players
        self.decision = decision
        self.hand = hand
        self.others = others
        self.table = table
        self.table_player = table_player
        self.beaten = beaten
        self.passes = passes
        self.sizes = sizes

    @classmethod
    def of_view(cls, view: View) -> Decision:
        k = Knowledge.of(view)
        return cls(
            k.seat,
            k.players,
            k.decision,
            k.hand,
            k.others,
            k.table,
            k.table_player,
            k.beaten,
            view.passes,
            k.sizes,
        )

    @classmethod
    def of_game(cls, game: Game, deck: int) -> Decision:
        """The seat to move's knowledge in a full (sampled) game, as the rollouts judge it:
        every card it has not seen may be in another hand."""
        hands = game.hands
        return cls(
            game.to_move,
            game.players,
            game.phase,
            hands[game.to_move],
            others_of_mover(game, deck),
            game.table,
            game.table_player,
            game.beaten,
            game.passes,
            [h.bit_count() for h in hands],
        )

    def heuristic(self, legal: Sequence[Action]) -> Action:
        return heuristic_choose(
            self.seat,
            self.players,
            self.decision,
            self.hand,
            self.table,
            self.table_player,
            self.beaten,
            self.others,
            self.sizes,
            legal,
            SECOND,
        )


def _flags(masks: Sequence[int]) -> npt.NDArray[np.uint8]:
    raw = b"".join(m.to_bytes(7, "little") for m in masks)
    return np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")


def position_features(d: Decision) -> Matrix:
    """The position's feature vector (:data:`POSITION`)."""
    out = np.zeros(POSITION)
    players = d.players
    me = d.seat
    table = d.table
    beaten = d.beaten
    out[: POSITION_BLOCKS * BLOCK] = _flags(
        [
            d.hand,
            d.others,
            table.mask if table is not None else 0,
            beaten.mask if beaten is not None else 0,
        ]
    )
    base = POSITION_BLOCKS * BLOCK
    if d.table_player >= 0:
        out[base + (d.table_player - me) % players] = 1.0
    base += SLOTS
    out[base + _PHASE_INDEX[d.decision]] = 1.0
    base += 3
    out[base] = d.passes / 5
    base += 1
    out[base : base + players] = 1.0
    base += SLOTS
    sizes = d.sizes
    for k in range(players):
        out[base + k] = sizes[(me + k) % players] / 9
    base += SLOTS
    sets, cost, pip = profile(d.hand)
    out[base : base + 4] = (sets / 9, cost / 13, pip / 45, 1.0 if sets == 1 else 0.0)
    base += 4
    out[base] = 1.0 if min(sizes[s] for s in range(players) if s != me) <= 2 else 0.0
    return out


def move_features(d: Decision, legal: Sequence[Action], prefer: Action | None) -> Matrix:
    """One row of :data:`MOVE` features per legal move; ``prefer`` is the heuristic's move."""
    n = len(legal)
    out = np.zeros((n, MOVE))
    hand = d.hand
    table = d.table
    seat = d.seat
    max_other = max(d.sizes[s] for s in range(d.players) if s != seat)
    masks: list[int] = []
    rests: list[int] = []
    for action in legal:
        if action.kind == PLAY:
            rests.append(hand ^ action.mask)
        elif action.kind == PASS:
            rests.append(hand)
        else:
            rests.append(hand | action.mask)
        masks.append(action.mask if action.kind != PASS else 0)
    flags = _flags([m for pair in zip(masks, rests, strict=True) for m in pair])
    out[:, : 2 * BLOCK] = flags.reshape(n, 2 * BLOCK)
    sets0, cost0, _ = profile(hand)
    answers: dict[int, int] = {}
    base = 2 * BLOCK
    for i, action in enumerate(legal):
        row = out[i]
        kind = int(action.kind)
        row[base + kind] = 1.0
        at = base + 3
        if action.kind == PLAY:
            size = action.size
            row[at] = size / 9
            row[at + 1] = action.value / _POWERS[size - 1] / 9
            row[at + 2] = 1.0 if action.mask == hand else 0.0
            if table is not None:
                row[at + 3] = 1.0 if size == table.size else 0.0
                row[at + 4] = 1.0 if size == table.size + 1 else 0.0
            answer = answers.get(size)
            if answer is None:
                answer = answers[size] = best_answer(d.others, max_other, size)
            row[at + 11] = 1.0 if action.value >= answer else 0.0
        sets, cost, pip = profile(rests[i])
        row[at + 5] = sets / 9
        row[at + 6] = cost / 13
        row[at + 7] = pip / 45
        row[at + 8] = 1.0 if sets == 1 else 0.0
        row[at + 9] = (sets - sets0) / 3
        row[at + 10] = (cost - cost0) / 13
        row[at + 12] = 1.0 if action == prefer else 0.0
    return out


def card_permutation(width: int, blocks: int, order: Sequence[int]) -> npt.NDArray[np.int64]:
    """The index permutation renaming colour ``c`` to ``order[c]`` in the first ``blocks``
    card blocks of a ``width``-wide row (``permuted = x[..., result]``)."""
    index = np.arange(width)
    for block in range(blocks):
        start = block * BLOCK
        for colour, target in enumerate(order):
            for number in range(9):
                index[start + target * 9 + number] = start + colour * 9 + number
    return index


class PolicyNet:
    """The move-scoring network; see the module docstring for its layers."""

    NAMES: Final = ("trunk_w", "trunk_b", "move_w", "move_b", "joint_p", "joint_m", "joint_b")
    NAMES_OUT: Final = ("out_w", "out_b")

    def __init__(self, arrays: dict[str, npt.NDArray[np.floating]]) -> None:
        self.arrays = {
            k: np.ascontiguousarray(arrays[k], dtype=np.float64)
            for k in (*self.NAMES, *self.NAMES_OUT)
        }
        a = self.arrays
        if a["trunk_w"].shape[0] != POSITION or a["move_w"].shape[0] != MOVE:
            raise ValueError(
                f"a policy network reads {POSITION} position and {MOVE} move features, not "
                f"{a['trunk_w'].shape[0]} and {a['move_w'].shape[0]}"
            )

    @classmethod
    def load(cls, path: Path | str) -> PolicyNet:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def save(self, path: Path | str) -> None:
        np.savez_compressed(path, **{k: v.astype(np.float32) for k, v in self.arrays.items()})  # type: ignore[arg-type]

    def logits(self, position: Matrix, moves: Matrix) -> Matrix:
        """The logits of the moves (rows of ``moves``) in one position (a vector)."""
        a = self.arrays
        p = np.maximum(position @ a["trunk_w"] + a["trunk_b"], 0.0)
        m = np.maximum(moves @ a["move_w"] + a["move_b"], 0.0)
        j = np.maximum(m @ a["joint_m"] + (p @ a["joint_p"] + a["joint_b"]), 0.0)
        result: Matrix = j @ a["out_w"] + a["out_b"]
        return result.reshape(-1)

    def probabilities(self, d: Decision, legal: Sequence[Action]) -> Matrix:
        """The policy's distribution over ``legal`` (in that order)."""
        logits = self.logits(position_features(d), move_features(d, legal, d.heuristic(legal)))
        logits -= logits.max()
        e = np.exp(logits)
        result: Matrix = e / e.sum()
        return result

    def best(self, d: Decision, legal: Sequence[Action]) -> Action:
        """The most probable legal move (the heuristic's move among equals, then the first)."""
        if len(legal) == 1:
            return legal[0]
        prefer = d.heuristic(legal)
        logits = self.logits(position_features(d), move_features(d, legal, prefer))
        top = float(logits.max())
        for action, logit in zip(legal, logits, strict=True):
            if action == prefer and logit == top:
                return action
        return legal[int(np.argmax(logits))]


def weights_path() -> Path:
    """The shipped policy weights inside the package."""
    return Path(str(resources.files("odin_cards.odin.bots") / "data" / "policy.npz"))


@cache
def shipped_policy() -> PolicyNet:
    """The policy network shipped with the package (loaded once, no network access)."""
    return PolicyNet.load(weights_path())


__all__ = [
    "MOVE",
    "POSITION",
    "Decision",
    "PolicyBot",
    "PolicyNet",
    "card_permutation",
    "move_features",
    "position_features",
    "shipped_policy",
    "weights_path",
]


class PolicyBot(Bot):
    """The level ``policy``: the learned policy's most probable move, at once.

    A finishing lead or a play that empties the hand is always taken.
    """

    level = "policy"

    def __init__(self, net: PolicyNet | None = None) -> None:
        self._net = net

    @property
    def net(self) -> PolicyNet:
        return self._net if self._net is not None else shipped_policy()

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        d = Decision.of_view(view)
        for action in legal:
            if action.kind == PLAY and action.mask == d.hand:
                return action
        return self.net.best(d, legal)
