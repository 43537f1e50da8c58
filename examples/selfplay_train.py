"""Learn Odin from self-play: a masked actor-critic (PPO) on the environment's observations.

Every seat of every game is played by the same network, which learns from all of them.
The games run in the vector environment (``odin_cards.odin.env.vector.OdinVectorEnv``
with ``opponents="self"``, the batch simulator underneath), one per table size, so one
forward pass chooses the moves of many games; the network sees each seat's flat
observation (the same vector the PettingZoo and Gymnasium environments give) and chooses
only among its legal actions (the environment's ``legal_ids``).

* **Network**: an MLP over the flat observation (598 numbers) to ``h``, a value head, and
  a policy head that scores each legal action from ``h``, the action's features (which
  cards it plays or takes, its kind, size and value: what is learnt about one set carries
  over to similar sets) and, by default (``--afterstate``), the hand it would leave (counts
  per colour and number, largest groups, empty, one set): ``w . relu(A h + B [features,
  after]) + bias``. ``--no-afterstate`` scores ``features . W . h + bias`` instead, the
  first version, which learnt much less against the heuristic (``docs/evaluation.md``).
  The softmax runs over the legal actions only (the masked softmax over all 6,702 ids,
  without computing the masked ones).
* **Reward**: ``reward="hand"``, minus the points a seat scores when a hand ends (points
  are bad); a decision's return is the reward of the hand it was taken in (no discount,
  no credit across hands), with the value head as baseline.
* **Update**: PPO (clipped ratio, entropy bonus, a few epochs over each batch).

Reproducible: seeds for torch, the move sampler and every game, one CPU thread,
deterministic algorithms; the same arguments and ``--iterations`` give the same
checkpoint, byte for byte (it holds no clock: the seconds a run took are only printed;
``--minutes`` stops after a time, which depends on the machine).

    python examples/selfplay_train.py --minutes 5   # a quick run: examples/checkpoints/latest.pt
    export ODIN_SELFPLAY_CHECKPOINT=examples/checkpoints/latest.pt
    odin evaluate examples/selfplay_train.py:agent -a random,heuristic -p 2 -n 50
    python examples/selfplay_train.py --iterations 1446 --games 128 --out shipped.pt

The trained network plays through :func:`agent` (``odin evaluate`` and ``odin arena`` call
it with a seat's view and legal actions); it loads ``$ODIN_SELFPLAY_CHECKPOINT`` or the
shipped ``examples/checkpoints/selfplay.pt`` (rebuilt by the last command above). See
``examples/README.md`` and ``docs/evaluation.md``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from odin_cards.odin.env.observation import FLAT_SIZE, encode
from odin_cards.odin.env.vector import OdinVectorEnv
from odin_cards.odin.rules import ALL_ACTIONS, NUM_ACTIONS, Action, ActionKind, View
from odin_cards.odin.rules.cards import NUM_CARDS

DEFAULT_CHECKPOINT = Path(__file__).resolve().parent / "checkpoints" / "selfplay.pt"
"""The trained policy shipped with the example: what :func:`agent` plays by default."""
DEFAULT_OUT = DEFAULT_CHECKPOINT.with_name("latest.pt")
"""Where a run writes unless told (never over the shipped checkpoint)."""
CHECKPOINT_FORMAT = "odin-cards-selfplay/1"


# --------------------------------------------------------------------------- the network


def action_features() -> npt.NDArray[np.float32]:
    """One row per action id: what the action does, in numbers the policy head reads.

    Cards played or taken (55 flags), kind (pass/take/play), size (one-hot 0-9), how many
    cards of each number and colour, and the set's value scaled into [0, 1).
    """
    rows = np.zeros((NUM_ACTIONS, 55 + 3 + 10 + 9 + 6 + 1), dtype=np.float32)
    for action in ALL_ACTIONS:
        row = rows[action.id]
        cards = [c for c in range(55) if action.mask >> c & 1]
        row[cards] = 1.0
        row[55 + int(action.kind)] = 1.0
        row[58 + action.size] = 1.0
        for card in cards:
            if card < 54:  # the Goat (55th card) has no colour and number 0
                row[68 + card % 9] += 1 / 6
                row[77 + card // 9] += 1 / 9
        if action.kind == ActionKind.PLAY:
            row[83] = action.value / 10**action.size
    return rows


class PolicyNet(nn.Module):
    """Observation -> value, and a score for each legal action of it.

    Scores are only computed for the legal actions (about ten of the 6,702 ids): a batch's
    legal actions are one flat list, ``rows`` saying whose decision each belongs to, and
    the softmax runs over each decision's own actions, which is the masked softmax over
    all ids without the ``-inf`` columns.
    """

    def __init__(self, hidden: int = 256, afterstate: bool = False) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(FLAT_SIZE, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.features: torch.Tensor
        # rebuilt from the rules whenever the net is made: not stored in checkpoints
        self.register_buffer("features", torch.from_numpy(action_features()), persistent=False)
        self.action_bias = nn.Parameter(torch.zeros(NUM_ACTIONS))
        self.value = nn.Linear(hidden, 1)
        self.afterstate = afterstate
        if afterstate:
            self.state_in = nn.Linear(hidden, ACTION_HIDDEN)
            self.action_in = nn.Linear(self.features.shape[1] + AFTER_SIZE, ACTION_HIDDEN)
            self.action_out = nn.Linear(ACTION_HIDDEN, 1)
        else:
            self.action_embedding = nn.Linear(self.features.shape[1], hidden)

    def forward(
        self, obs: torch.Tensor, rows: torch.Tensor, actions: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(log-probability of each listed action within its decision, value per decision)."""
        h = self.trunk(obs)
        if self.afterstate:
            features = self.features[actions]
            after = after_features(obs[rows, :NUM_CARDS], features)
            joint = self.state_in(h)[rows] + self.action_in(torch.cat([features, after], -1))
            scores = self.action_out(torch.relu(joint)).squeeze(-1)
        elif len(actions) > NUM_ACTIONS:  # embedding every action once is then cheaper
            scores = (h[rows] * self.action_embedding(self.features)[actions]).sum(-1)
        else:
            scores = (h[rows] * self.action_embedding(self.features[actions])).sum(-1)
        scores = scores + self.action_bias[actions]
        return segment_log_softmax(scores, rows, len(obs)), self.value(h).squeeze(-1)


ACTION_HIDDEN = 128
AFTER_SIZE = 6 + 9 + 5
"""Per colour and per number counts of the hand left, its size, largest colour and number
groups, whether it is empty and whether it could all be led at once."""


def after_features(hand: torch.Tensor, features: torch.Tensor) -> torch.Tensor:
    """What the mover's hand would be after each action (``--afterstate``), in numbers.

    ``hand``: the observation's own-hand flags (the first 55 entries); ``features``: the
    actions' rows of :func:`action_features` (cards, then the kind one-hot). A play takes
    its cards out of the hand, a take adds its card, a pass keeps the hand. In Odin a good
    move leaves a hand that plays out in few big sets: these counts show it directly.
    """
    cards = features[:, :NUM_CARDS]
    take = features[:, NUM_CARDS + int(ActionKind.TAKE), None]
    left = torch.where(take > 0, hand + cards, hand * (1 - cards))
    grid = left[:, : NUM_CARDS - 1].reshape(-1, 6, 9)  # colour x number (the Goat apart)
    colours, numbers = grid.sum(-1), grid.sum(-2)
    size = left.sum(-1, keepdim=True)
    top_colour = colours.max(-1, keepdim=True).values
    top_number = numbers.max(-1, keepdim=True).values
    one_set = ((top_colour == size) | (top_number == size)).float()
    return torch.cat(
        [
            colours / 9,
            numbers / 6,
            size / 9,
            top_colour / 9,
            top_number / 6,
            (size == 0).float(),
            one_set,
        ],
        -1,
    )


def segment_log_softmax(scores: torch.Tensor, rows: torch.Tensor, count: int) -> torch.Tensor:
    """Log-softmax of ``scores`` within each group of equal ``rows`` (0 .. count-1)."""
    top = torch.full((count,), float("-inf")).scatter_reduce(
        0, rows, scores.detach(), "amax", include_self=True
    )
    shifted = scores - top[rows]
    total = torch.zeros(count).index_add(0, rows, shifted.exp())
    return shifted - total.log()[rows]


def flatten_legal(legal: Sequence[npt.NDArray[np.int64]]) -> tuple[torch.Tensor, torch.Tensor]:
    """(rows, action ids) of a batch of decisions' legal action ids, as one flat list."""
    rows = np.repeat(np.arange(len(legal)), [len(ids) for ids in legal])
    return torch.from_numpy(rows), torch.from_numpy(np.concatenate(legal))


# --------------------------------------------------------------------------- self-play


@dataclass
class Config:
    """Everything that fixes a run (stored in the checkpoint)."""

    seed: int = 1
    players: tuple[int, ...] = (2, 3, 4)
    games: int = 64
    """Games played side by side (a forward pass chooses a move in each)."""
    batch: int = 4096
    """Finished decisions per update."""
    epochs: int = 3
    minibatch: int = 1024
    lr: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    hidden: int = 256
    target: int = 15
    afterstate: bool = True
    """Score each action with what the hand would be after it (see :func:`after_features`)."""


@dataclass
class Decisions:
    """Decisions as the update reads them: observation, legal ids, the choice, its log-prob.

    A seat's decisions of the hand being played wait in one of these for the hand's
    reward; then they move, with their return, into the batch of the next update.
    """

    obs: list[npt.NDArray[np.float32]] = field(default_factory=list)
    legal: list[npt.NDArray[np.int64]] = field(default_factory=list)
    choices: list[int] = field(default_factory=list)
    """Position of the action chosen in ``legal``."""
    logps: list[float] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)

    def add(self, other: Decisions, reward: float) -> None:
        self.obs += other.obs
        self.legal += other.legal
        self.choices += other.choices
        self.logps += other.logps
        self.returns += [reward] * len(other.choices)

    def __len__(self) -> int:
        return len(self.choices)


class SelfPlay:
    """Games played side by side, every seat by the network: one vector environment
    (:class:`~odin_cards.odin.env.vector.OdinVectorEnv`, self-play) per table size, one
    forward pass for the moves of all of them."""

    def __init__(self, config: Config, net: PolicyNet) -> None:
        self.net = net
        self.rng = np.random.default_rng(config.seed)
        per_size = max(1, config.games // len(config.players))
        self.envs = [
            OdinVectorEnv(
                per_size, players, opponents="self", options={"target": config.target},
                reward="hand",
            )
            for players in config.players
        ]  # fmt: skip
        self.obs: list[npt.NDArray[np.float32]] = []
        self.infos: list[dict[str, Any]] = []
        for k, env in enumerate(self.envs):
            obs, info = env.reset(seed=config.seed * 1_000 + k)
            assert isinstance(obs, np.ndarray)  # the flat observation (no action_mask asked)
            self.obs.append(obs)
            self.infos.append(info)
        self.pending = [
            [[Decisions() for _ in range(env.players)] for _ in range(env.num_envs)]
            for env in self.envs
        ]
        self.actions = 0
        self.hands = 0
        self.seat_hands = 0
        self.points = 0.0
        self.finished_games = 0

    def step(self, batch: Decisions) -> None:
        """One decision in every game; the decisions of finished hands go into ``batch``."""
        obs = np.concatenate(self.obs)
        counts = np.concatenate([info["legal_counts"] for info in self.infos])
        listed = np.concatenate([info["legal_ids"] for info in self.infos])
        rows = np.repeat(np.arange(len(obs)), counts)
        ids = listed[np.arange(listed.shape[1]) < counts[:, None]].astype(np.int64)
        with torch.no_grad():
            logps, _ = self.net(
                torch.from_numpy(obs), torch.from_numpy(rows), torch.from_numpy(ids)
            )
        logp = logps.numpy()
        starts = np.searchsorted(rows, np.arange(len(obs) + 1))
        # Gumbel-max: the largest log-prob + noise of each decision is a sample of it
        noisy = logp - np.log(-np.log(self.rng.random(len(logp))))
        top = np.maximum.reduceat(noisy, starts[:-1])
        first = np.flatnonzero(noisy == top[rows])
        chosen = first[np.unique(rows[first], return_index=True)[1]]
        row = 0
        for k, env in enumerate(self.envs):
            to_move = self.infos[k]["seat"]
            mine = chosen[row : row + env.num_envs]
            obs_k, _, terminated, _, info = env.step(ids[mine])
            assert isinstance(obs_k, np.ndarray)
            self.obs[k], self.infos[k] = obs_k, info
            rewards = info["seat_rewards"]
            for game in range(env.num_envs):
                decision = mine[game]
                pending = self.pending[k][game][int(to_move[game])]
                pending.obs.append(obs[row + game])
                pending.legal.append(ids[starts[row + game] : starts[row + game + 1]])
                pending.choices.append(int(decision - starts[row + game]))
                pending.logps.append(float(logp[decision]))
                if rewards[game].any():  # a hand ended: every seat scored (someone holds cards)
                    self.hands += 1
                    self.seat_hands += env.players
                    self.points -= float(rewards[game].sum())
                    for seat in range(env.players):
                        batch.add(self.pending[k][game][seat], float(rewards[game, seat]) / 9)
                        self.pending[k][game][seat] = Decisions()
            self.actions += env.num_envs
            self.finished_games += int(terminated.sum())
            row += env.num_envs


def ppo_update(
    net: PolicyNet, optimizer: torch.optim.Optimizer, batch: Decisions, config: Config
) -> dict[str, float]:
    """A few epochs of clipped PPO over ``batch`` (advantage: return - value, normalised)."""
    obs = torch.from_numpy(np.stack(batch.obs))
    sizes = np.array([len(ids) for ids in batch.legal])
    old_logps = torch.tensor(batch.logps)
    returns = torch.tensor(batch.returns)
    with torch.no_grad():
        rows, ids = flatten_legal(batch.legal)
        _, values = net(obs, rows, ids)
    advantages = returns - values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    count = len(batch)
    stats: dict[str, float] = {"policy": 0.0, "value": 0.0, "entropy": 0.0}
    steps = 0
    for _ in range(config.epochs):
        order = torch.randperm(count).numpy()  # seeded by torch.manual_seed
        for start in range(0, count, config.minibatch):
            index = order[start : start + config.minibatch]
            legal = [batch.legal[k] for k in index]
            rows, ids = flatten_legal(legal)
            logp_all, value = net(obs[index], rows, ids)
            mine_starts = np.concatenate(([0], np.cumsum(sizes[index])[:-1]))
            chosen = torch.from_numpy(mine_starts + np.array(batch.choices)[index])
            logp = logp_all[chosen]
            ratio = torch.exp(logp - old_logps[index])
            adv = advantages[index]
            policy_loss = -torch.min(
                ratio * adv, torch.clamp(ratio, 1 - config.clip, 1 + config.clip) * adv
            ).mean()
            entropy = -torch.zeros(len(index)).index_add(0, rows, logp_all.exp() * logp_all)
            value_loss = (value - returns[index]).pow(2).mean()
            loss = policy_loss + config.value_weight * value_loss - config.entropy * entropy.mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            stats["policy"] += policy_loss.item()
            stats["value"] += value_loss.item()
            stats["entropy"] += entropy.mean().item()
            steps += 1
    return {k: v / steps for k, v in stats.items()}


def deterministic(seed: int) -> None:
    """Seed torch and keep to one thread: a run repeats exactly on this machine."""
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)


def save(path: Path, net: PolicyNet, config: Config, progress: dict[str, Any]) -> None:
    """Write the checkpoint: the same network, config and progress give the same bytes
    (written through a buffer: a file's name would otherwise go into the archive)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    buffer = io.BytesIO()
    torch.save(
        {
            "format": CHECKPOINT_FORMAT,
            "config": json.dumps(asdict(config)),
            "progress": json.dumps(progress),
            "state": net.state_dict(),
        },
        buffer,
    )
    temporary.write_bytes(buffer.getvalue())
    temporary.replace(path)  # a reader never sees half a checkpoint


def train(
    config: Config,
    out: Path,
    iterations: int | None,
    minutes: float | None,
    snapshot_every: int = 0,
    log: Any = sys.stdout,
) -> dict[str, Any]:
    """Train until ``iterations`` updates or ``minutes`` pass; save to ``out`` after each.

    With ``snapshot_every``, every that many updates a copy is also kept beside ``out``
    (``selfplay-00050.pt``): what a shorter run would have reached.
    """
    deterministic(config.seed)
    net = PolicyNet(config.hidden, config.afterstate)
    optimizer = torch.optim.Adam(net.parameters(), lr=config.lr)
    play = SelfPlay(config, net)
    start = time.perf_counter()
    progress: dict[str, Any] = {}
    iteration = 0
    seat_hands, points = 0, 0.0
    while iterations is None or iteration < iterations:
        batch = Decisions()
        while len(batch) < config.batch:
            play.step(batch)
        stats = ppo_update(net, optimizer, batch, config)
        iteration += 1
        seconds = time.perf_counter() - start
        progress = {
            "iterations": iteration,
            "actions": play.actions,
            "hands": play.hands,
            "games": play.finished_games,
            "points_per_hand": round((play.points - points) / (play.seat_hands - seat_hands), 3),
            **{k: round(v, 4) for k, v in stats.items()},
        }  # no clock in a checkpoint: the same run writes the same bytes
        seat_hands, points = play.seat_hands, play.points
        save(out, net, config, progress)
        if snapshot_every and iteration % snapshot_every == 0:
            save(out.with_name(f"{out.stem}-{iteration:05d}{out.suffix}"), net, config, progress)
        print(json.dumps({**progress, "seconds": round(seconds, 1)}), file=log, flush=True)
        if minutes is not None and seconds >= 60 * minutes:
            break
    return progress


# --------------------------------------------------------------------------- the agent


_LOADED: dict[Path, PolicyNet] = {}


def load(path: Path | None = None) -> PolicyNet:
    """The network of a checkpoint (default: ``$ODIN_SELFPLAY_CHECKPOINT`` or the example's)."""
    if path is None:
        path = Path(os.environ.get("ODIN_SELFPLAY_CHECKPOINT") or DEFAULT_CHECKPOINT)
    if path not in _LOADED:
        if not path.is_file():
            raise FileNotFoundError(
                f"no checkpoint at {path}: train one (python examples/selfplay_train.py"
                " --minutes 5) or point ODIN_SELFPLAY_CHECKPOINT at one"
            )
        data = torch.load(path, weights_only=True)
        if data.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path} is not a {CHECKPOINT_FORMAT} checkpoint")
        config = json.loads(data["config"])
        torch.set_num_threads(1)  # one game at a time: threads only cost
        net = PolicyNet(config["hidden"], config.get("afterstate", False))
        state = data["state"]
        state.pop("features", None)  # stored by the first checkpoints of this example
        net.load_state_dict(state)
        net.eval()
        _LOADED[path] = net
    return _LOADED[path]


def choose(net: PolicyNet, view: View, legal: Sequence[Action]) -> Action:
    """The legal action the network rates highest (greedy: evaluation plays its best)."""
    ids = torch.tensor([a.id for a in legal])
    with torch.no_grad():
        logp, _ = net(
            torch.from_numpy(encode(view))[None], torch.zeros(len(ids), dtype=torch.long), ids
        )
    return legal[int(logp.argmax())]


def agent(view: View, legal: Sequence[Action]) -> Action:
    """The trained policy as an ``odin evaluate`` / ``odin arena`` agent."""
    return choose(load(), view, legal)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4", help="table sizes, e.g. 2 or 2,3,4")
    parser.add_argument("--games", type=int, default=64, help="games played side by side")
    parser.add_argument("--batch", type=int, default=4096, help="decisions per update")
    parser.add_argument("--iterations", type=int, help="updates to make (default: no limit)")
    parser.add_argument("--minutes", type=float, help="stop after the update past this")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="checkpoint file")
    parser.add_argument(
        "--snapshot-every", type=int, default=0, help="also keep a copy every N updates"
    )
    parser.add_argument(
        "--afterstate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="score actions with the hand they leave (default; --no-afterstate: the"
        " features alone, the first version of this example)",
    )
    args = parser.parse_args(argv)
    if args.iterations is None and args.minutes is None:
        parser.error("give --iterations, --minutes or both")
    players = tuple(int(p) for p in args.players.split(","))
    if not players or any(not 2 <= p <= 6 for p in players):
        parser.error(f"--players: 2 to 6 players, not {args.players}")
    if args.games < 1 or args.batch < 1:
        parser.error("--games and --batch are positive")
    config = Config(
        seed=args.seed,
        players=players,
        games=args.games,
        batch=args.batch,
        afterstate=args.afterstate,
    )
    start = time.perf_counter()
    progress = train(config, args.out, args.iterations, args.minutes, args.snapshot_every)
    seconds = time.perf_counter() - start
    print(f"wrote {args.out} after {progress['iterations']} updates, {seconds:.1f} s")


if __name__ == "__main__":
    main()
