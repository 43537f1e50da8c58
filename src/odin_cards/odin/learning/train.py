"""Fitting the value network with PyTorch: one thread, seeded, deterministic.

The loss is the squared error over the seated slots of the centred outputs
(:func:`odin_cards.odin.bots.network.centre`), with every batch recoloured by a random
permutation of the six colours (Odin treats colours alike). The result is written as
the ``.npz`` that :class:`odin_cards.odin.bots.network.ValueNet` reads with NumPy alone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from odin_cards.extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
    import torch
    from torch import nn
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the network's training", "train") from missing

from odin_cards.odin.bots.network import FEATURES, OUTPUTS, SEATED, ValueNet, colour_permutation
from odin_cards.odin.learning.data import Shard


@dataclass(frozen=True, slots=True)
class Fit:
    """A trained network and its validation error (mean squared, per seated slot)."""

    net: ValueNet
    train_loss: float
    valid_loss: float


def _model(hidden: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    width = FEATURES
    for size in hidden:
        layers += [nn.Linear(width, size), nn.ReLU()]
        width = size
    layers.append(nn.Linear(width, OUTPUTS))
    return nn.Sequential(*layers)


def centred(out: torch.Tensor, seated: torch.Tensor) -> torch.Tensor:
    mean = (out * seated).sum(dim=-1, keepdim=True) / seated.sum(dim=-1, keepdim=True)
    return (out - mean) * seated


def _loss(model: nn.Sequential, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    seated = x[:, SEATED]
    error = (centred(model(x), seated) - y) ** 2
    return error.sum() / seated.sum()


def to_valuenet(model: nn.Sequential) -> ValueNet:
    linears = [m for m in model if isinstance(m, nn.Linear)]
    weights = [m.weight.detach().numpy().T.astype(np.float32) for m in linears]
    biases = [m.bias.detach().numpy().astype(np.float32) for m in linears]
    return ValueNet(weights, biases)


def seeded(seed: int, name: str) -> random.Random:
    """Make PyTorch's training reproducible bit for bit (one thread, deterministic
    kernels, ``seed``), and return the batches' own random order, named after the run."""
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)
    return random.Random(f"{name}:{seed}")


def train(
    data: Shard,
    seed: int = 0,
    hidden: Sequence[int] = (256, 128),
    epochs: int = 8,
    batch: int = 512,
    rate: float = 1e-3,
    valid_share: float = 0.05,
    log: bool = False,
) -> Fit:
    """Fit a value network to ``data``; the last ``valid_share`` of it is held out."""
    rng = seeded(seed, "odin-train")
    n = len(data.x)
    n_valid = max(1, int(n * valid_share))
    x_all = torch.from_numpy(data.x)
    y_all = torch.from_numpy(data.y)
    x_train, y_train = x_all[: n - n_valid], y_all[: n - n_valid]
    x_valid, y_valid = x_all[n - n_valid :], y_all[n - n_valid :]
    model = _model(hidden)
    optimiser = torch.optim.Adam(model.parameters(), lr=rate)
    steps = epochs * ((len(x_train) + batch - 1) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=rate, total_steps=steps)
    generator = torch.Generator().manual_seed(seed)
    train_loss = 0.0
    for epoch in range(epochs):
        order = torch.randperm(len(x_train), generator=generator)
        total, batches = 0.0, 0
        for start in range(0, len(order), batch):
            index = order[start : start + batch]
            colours = list(range(6))
            rng.shuffle(colours)
            perm = torch.from_numpy(colour_permutation(colours))
            xb = x_train[index][:, perm]
            loss = _loss(model, xb, y_train[index])
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
            batches += 1
        train_loss = total / max(1, batches)
        if log:
            print(f"epoch {epoch + 1}/{epochs}: train {train_loss:.5f}", flush=True)
    with torch.no_grad():
        valid_loss = float(_loss(model, x_valid, y_valid))
    return Fit(to_valuenet(model), train_loss, valid_loss)


def baseline_loss(data: Shard) -> float:
    """The validation-free yardstick: the error of predicting 0 for every slot."""
    seated: npt.NDArray[np.float32] = data.x[:, SEATED]
    return float((data.y**2).sum() / seated.sum())


__all__ = ["Fit", "baseline_loss", "centred", "to_valuenet", "train"]
