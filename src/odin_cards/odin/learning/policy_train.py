"""Fitting the policy network with PyTorch: one thread, seeded, deterministic.

Each decision of a :class:`.policy_data.PolicyShard` becomes its position features and
one row of move features per legal move (:mod:`odin_cards.odin.bots.learned`); the loss is
the cross-entropy between the search's root visit distribution and the softmax of the
network's logits over the decision's moves. Every batch is recoloured by a random
permutation of the six colours. The result is the ``.npz`` that
:class:`odin_cards.odin.bots.learned.PolicyNet` reads with NumPy alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from odin_cards.extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
    import torch
    from torch import nn
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the policy's training", "train") from missing

from odin_cards.odin.bots.learned import (
    MOVE,
    MOVE_BLOCKS,
    POSITION,
    POSITION_BLOCKS,
    Decision,
    PolicyNet,
    card_permutation,
    move_features,
    position_features,
)
from odin_cards.odin.learning.policy_data import PolicyShard
from odin_cards.odin.learning.train import seeded
from odin_cards.odin.rules import ALL_ACTIONS
from odin_cards.odin.rules.game import Phase


@dataclass(frozen=True, slots=True)
class Features:
    """A shard turned into the network's inputs and targets."""

    positions: npt.NDArray[np.float32]
    moves: npt.NDArray[np.float32]
    start: npt.NDArray[np.int64]
    target: npt.NDArray[np.float32]
    prefer: npt.NDArray[np.bool_]
    """Per move, whether it is the heuristic's move."""


def decision_of(row: npt.NDArray[np.int64]) -> Decision:
    players = int(row[0])
    return Decision(
        seat=int(row[1]),
        players=players,
        decision=Phase(int(row[2])),
        hand=int(row[3]),
        others=int(row[4]),
        table=ALL_ACTIONS[int(row[5])] if row[5] >= 0 else None,
        table_player=int(row[6]),
        beaten=ALL_ACTIONS[int(row[7])] if row[7] >= 0 else None,
        passes=int(row[8]),
        sizes=[int(s) for s in row[9 : 9 + players]],
    )


def featurize(shard: PolicyShard) -> Features:
    n = len(shard)
    positions = np.zeros((n, POSITION), dtype=np.float32)
    moves = np.zeros((int(shard.start[-1]), MOVE), dtype=np.float32)
    target = np.zeros(int(shard.start[-1]), dtype=np.float32)
    prefer = np.zeros(int(shard.start[-1]), dtype=np.bool_)
    for i in range(n):
        d = decision_of(shard.info[i])
        a, b = int(shard.start[i]), int(shard.start[i + 1])
        legal = [ALL_ACTIONS[int(m)] for m in shard.moves[a:b]]
        heuristic = d.heuristic(legal)
        positions[i] = position_features(d)
        moves[a:b] = move_features(d, legal, heuristic)
        visits = shard.visits[a:b].astype(np.float64)
        target[a:b] = visits / visits.sum()
        prefer[a:b] = [m == heuristic for m in legal]
    return Features(positions, moves, shard.start, target, prefer)


class Model(nn.Module):
    def __init__(self, trunk: int, move: int, joint: int) -> None:
        super().__init__()
        self.trunk = nn.Linear(POSITION, trunk)
        self.move = nn.Linear(MOVE, move)
        self.joint_p = nn.Linear(trunk, joint, bias=False)
        self.joint_m = nn.Linear(move, joint)
        self.out = nn.Linear(joint, 1)

    def forward(self, positions: torch.Tensor, moves: torch.Tensor) -> torch.Tensor:
        """Logits of ``moves`` (batch, k, MOVE) in ``positions`` (batch, POSITION)."""
        p = torch.relu(self.trunk(positions))
        m = torch.relu(self.move(moves))
        j = torch.relu(self.joint_m(m) + self.joint_p(p).unsqueeze(1))
        result: torch.Tensor = self.out(j).squeeze(-1)
        return result


def to_policynet(model: Model) -> PolicyNet:
    def w(linear: nn.Linear) -> npt.NDArray[np.float32]:
        return linear.weight.detach().numpy().T.astype(np.float32)

    def b(linear: nn.Linear) -> npt.NDArray[np.float32]:
        return linear.bias.detach().numpy().astype(np.float32)

    return PolicyNet(
        {
            "trunk_w": w(model.trunk),
            "trunk_b": b(model.trunk),
            "move_w": w(model.move),
            "move_b": b(model.move),
            "joint_p": w(model.joint_p),
            "joint_m": w(model.joint_m),
            "joint_b": b(model.joint_m),
            "out_w": w(model.out),
            "out_b": b(model.out),
        }
    )


def _batch(
    data: Features, index: npt.NDArray[np.int64]
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Positions, padded moves, move mask, targets and heuristic flags of ``index``."""
    starts = data.start[index]
    lengths = data.start[index + 1] - starts
    width = int(lengths.max())
    offsets = np.arange(width)
    mask = offsets[None, :] < lengths[:, None]
    rows = np.where(mask, starts[:, None] + offsets[None, :], 0)
    moves = data.moves[rows] * mask[:, :, None]
    target = np.where(mask, data.target[rows], 0.0)
    prefer = np.where(mask, data.prefer[rows], False)
    return (
        torch.from_numpy(data.positions[index]),
        torch.from_numpy(np.ascontiguousarray(moves, dtype=np.float32)),
        torch.from_numpy(mask),
        torch.from_numpy(np.ascontiguousarray(target, dtype=np.float32)),
        torch.from_numpy(prefer),
    )


def _loss(
    model: Model,
    positions: torch.Tensor,
    moves: torch.Tensor,
    mask: torch.Tensor,
    target: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean cross-entropy, and the number of decisions whose top move is the target's."""
    logits = model(positions, moves).masked_fill(~mask, -1e9)
    logp = torch.log_softmax(logits, dim=-1)
    loss = -(target * logp).sum(dim=-1).mean()
    agree = (logits.argmax(dim=-1) == target.argmax(dim=-1)).sum()
    return loss, agree


@dataclass(frozen=True, slots=True)
class PolicyFit:
    net: PolicyNet
    train_loss: float
    valid_loss: float
    valid_agree: float
    """Held-out share of decisions whose most probable move is the search's most visited."""
    heuristic_agree: float
    """The same share for the heuristic's move (the yardstick)."""
    valid_entropy: float
    """The targets' own entropy on the held-out part (the loss's floor)."""


def train_policy(
    data: Features,
    seed: int = 0,
    sizes: tuple[int, int, int] = (128, 64, 64),
    epochs: int = 20,
    batch: int = 128,
    rate: float = 2e-3,
    decay: float = 1e-4,
    valid_share: float = 0.1,
    log: bool = False,
) -> PolicyFit:
    """Fit a policy network to ``data``; the last ``valid_share`` of decisions is held out."""
    rng = seeded(seed, "odin-policy-train")
    n = len(data.positions)
    n_valid = max(1, int(n * valid_share))
    n_train = n - n_valid
    model = Model(*sizes)
    optimiser = torch.optim.AdamW(model.parameters(), lr=rate, weight_decay=decay)
    steps = epochs * ((n_train + batch - 1) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=rate, total_steps=steps)
    generator = torch.Generator().manual_seed(seed)
    train_loss = 0.0
    for epoch in range(epochs):
        order = torch.randperm(n_train, generator=generator).numpy()
        total, batches = 0.0, 0
        for start in range(0, n_train, batch):
            index = order[start : start + batch].astype(np.int64)
            positions, moves, mask, target, _ = _batch(data, index)
            colours = list(range(6))
            rng.shuffle(colours)
            pp = torch.from_numpy(card_permutation(POSITION, POSITION_BLOCKS, colours))
            mp = torch.from_numpy(card_permutation(MOVE, MOVE_BLOCKS, colours))
            loss, _ = _loss(model, positions[:, pp], moves[:, :, mp], mask, target)
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
            batches += 1
        train_loss = total / max(1, batches)
        if log:
            print(f"epoch {epoch + 1}/{epochs}: train {train_loss:.4f}", flush=True)
    valid = np.arange(n_train, n, dtype=np.int64)
    positions, moves, mask, target, prefer = _batch(data, valid)
    with torch.no_grad():
        loss, agree = _loss(model, positions, moves, mask, target)
    best = target.argmax(dim=-1)
    heuristic = prefer.float().argmax(dim=-1)
    entropy = -(target * torch.log(target.clamp_min(1e-12))).sum(dim=-1).mean()
    return PolicyFit(
        to_policynet(model),
        train_loss,
        float(loss),
        float(agree) / n_valid,
        float((heuristic == best).sum()) / n_valid,
        float(entropy),
    )


__all__ = [
    "Features",
    "Model",
    "PolicyFit",
    "decision_of",
    "featurize",
    "to_policynet",
    "train_policy",
]
