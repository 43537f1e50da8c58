"""A learned value network, evaluated with NumPy alone (no PyTorch needed to play).

The network estimates, for a position of a *full* game (every hand known: a deal the
search sampled, never the real game), what each seat gains by the hand's end when the
heuristic plays it out: the value of :func:`odin_cards.odin.bots.search.hand_rewards` that a
heuristic rollout from the position would return, on average. The search uses it at its
leaves in place of (or after a few moves of) a rollout; the level ``network`` uses it to
judge each legal move over a few sampled deals.

Features are relative to the seat to move (slot ``k`` is the seat ``k`` places after it):

* nine blocks of 56 card flags (55 cards, one pad): the hands of slots 0-5, the table,
  the set being taken from (``beaten``) and the discards;
* the table's player (one-hot slot), the decision (lead, follow, take), the passes since
  the table's set (/5), which slots are seated, and the hand sizes (/9);
* per slot, the heuristic's profile of its hand (:func:`.hand.profile`): the fewest sets
  it splits into (/9), its points (/13), its pips (/45), and whether it is one set (a
  finishing lead) -- what a small network finds hard to compute from the card flags.

The weights ship as ``bots/data/network.npz`` (float32, read once) and are trained by
``python -m odin_cards.odin.learning`` (docs/bots.md). Inference is a plain multilayer
perceptron in float64: the same inputs give the same outputs, on any machine to within
rounding of the matrix products. The output is centred over the seated slots, as the
hand's margins are (they sum to zero).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from odin_cards.odin.bots.hand import profile
from odin_cards.odin.rules import Game
from odin_cards.odin.rules.game import CHOOSE_TAKE, FOLLOW, LEAD

SLOTS: Final = 6
BLOCK: Final = 56
"""Flags per card block (55 cards and one pad bit: seven bytes)."""
MASKS: Final = SLOTS + 3
"""Card blocks: six hands, the table, the set being taken from, the discards."""
CARD_FEATURES: Final = MASKS * BLOCK
PROFILE: Final = 4
"""Per slot: the hand's fewest sets (/9), points (/13), pips (/45), whether it is one set."""
SCALARS: Final = SLOTS + 3 + 1 + SLOTS + SLOTS + PROFILE * SLOTS
"""Table player one-hot, decision one-hot, passes, seated slots, hand sizes, profiles."""
FEATURES: Final = CARD_FEATURES + SCALARS
OUTPUTS: Final = SLOTS

Matrix = npt.NDArray[np.float64]

_PHASE_INDEX: Final = {LEAD: 0, FOLLOW: 1, CHOOSE_TAKE: 2}


def features(game: Game) -> npt.NDArray[np.float64]:
    """The feature vector of a full game's position, relative to the seat to move."""
    out = np.zeros(FEATURES)
    write_features(game, out)
    return out


def write_features(game: Game, out: npt.NDArray[np.float64]) -> None:
    """Write :func:`features` of ``game`` into ``out`` (a zeroed row of :data:`FEATURES`)."""
    players = game.players
    me = game.to_move
    hands = game.hands
    table = game.table
    beaten = game.beaten
    masks = [hands[(me + k) % players] for k in range(players)]
    masks.extend([0] * (SLOTS - players))
    masks.append(table.mask if table is not None else 0)
    masks.append(beaten.mask if beaten is not None else 0)
    masks.append(game.discards)
    raw = b"".join(m.to_bytes(7, "little") for m in masks)
    out[:CARD_FEATURES] = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
    base = CARD_FEATURES
    if game.table_player >= 0:
        out[base + (game.table_player - me) % players] = 1.0
    base += SLOTS
    out[base + _PHASE_INDEX[game.phase]] = 1.0
    base += 3
    out[base] = game.passes / 5
    base += 1
    out[base : base + players] = 1.0
    base += SLOTS
    for k in range(players):
        out[base + k] = hands[(me + k) % players].bit_count() / 9
    base += SLOTS
    for k in range(players):
        hand = hands[(me + k) % players]
        sets, cost, pip = profile(hand)
        at = base + PROFILE * k
        out[at] = sets / 9
        out[at + 1] = cost / 13
        out[at + 2] = pip / 45
        out[at + 3] = 1.0 if sets == 1 else 0.0


def colour_permutation(order: Sequence[int]) -> npt.NDArray[np.int64]:
    """The feature index permutation that renames colour ``c`` to ``order[c]``.

    Odin treats colours alike, so a position and its recoloured copy have the same
    value: training uses this for augmentation. ``result[i]`` is the source of feature
    ``i`` (``permuted = x[..., result]``).
    """
    index = np.arange(FEATURES)
    for block in range(MASKS):
        start = block * BLOCK
        for colour, target in enumerate(order):
            for number in range(9):
                index[start + target * 9 + number] = start + colour * 9 + number
    return index


class ValueNet:
    """A multilayer perceptron with ReLU hidden layers, evaluated in float64 NumPy."""

    def __init__(
        self,
        weights: Sequence[npt.NDArray[np.floating]],
        biases: Sequence[npt.NDArray[np.floating]],
    ) -> None:
        if len(weights) != len(biases) or not weights:
            raise ValueError("a network needs as many bias vectors as weight matrices")
        self.weights = [np.ascontiguousarray(w, dtype=np.float64) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float64) for b in biases]
        if self.weights[0].shape[0] != FEATURES or self.weights[-1].shape[1] != OUTPUTS:
            raise ValueError(
                f"a value network maps {FEATURES} features to {OUTPUTS} outputs, not "
                f"{self.weights[0].shape[0]} to {self.weights[-1].shape[1]}"
            )

    @classmethod
    def load(cls, path: Path | str) -> ValueNet:
        """Read weights saved by :meth:`save` (or by the training module)."""
        with np.load(path) as data:
            layers = sum(1 for name in data.files if name.startswith("w"))
            weights = [data[f"w{i}"] for i in range(layers)]
            biases = [data[f"b{i}"] for i in range(layers)]
        return cls(weights, biases)

    def save(self, path: Path | str) -> None:
        arrays: dict[str, npt.NDArray[np.float32]] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def forward(self, x: Matrix, seated: Matrix) -> Matrix:
        """Outputs of a batch ``x`` (rows of features); ``seated`` masks the slots (0/1)."""
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return centre(h, seated)

    def values(self, game: Game) -> list[float]:
        """Per *seat* (absolute), the expected hand margin reward from this position.

        The same numbers as :meth:`forward` on one row, computed on the vector alone.
        """
        x = features(game)
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w
            h += b
            if i < last:
                np.maximum(h, 0.0, out=h)
        players = game.players
        out = h[:players].tolist()
        mean = sum(out) / players
        me = game.to_move
        return [out[(seat - me) % players] - mean for seat in range(players)]


def centre(h: Matrix, seated: Matrix) -> Matrix:
    """Outputs minus their mean over the seated slots, zero for empty slots."""
    mean = (h * seated).sum(axis=-1, keepdims=True) / seated.sum(axis=-1, keepdims=True)
    result: Matrix = (h - mean) * seated
    return result


SEATED: Final = slice(CARD_FEATURES + SLOTS + 4, CARD_FEATURES + 2 * SLOTS + 4)
"""Where the seated-slot flags lie in a feature vector."""


def weights_path() -> Path:
    """The shipped weights' file inside the package."""
    return Path(str(resources.files("odin_cards.odin.bots") / "data" / "network.npz"))


@cache
def shipped() -> ValueNet:
    """The value network shipped with the package (loaded once, no network access)."""
    return ValueNet.load(weights_path())


__all__ = [
    "BLOCK",
    "CARD_FEATURES",
    "FEATURES",
    "OUTPUTS",
    "SEATED",
    "SLOTS",
    "ValueNet",
    "centre",
    "colour_permutation",
    "features",
    "shipped",
    "weights_path",
    "write_features",
]
