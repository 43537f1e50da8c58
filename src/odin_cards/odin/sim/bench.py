"""Odin's research figures for ``odin bench``: its learning environments, its batch
simulator and its JAX environment, steps per second with random play (reached through the
plugin's ``environments["bench"]``).

They need the ``research`` extra (and the ``jax`` extra for JAX) and say which parts are
missing (:func:`research_missing`). The simulator's kernels run on one thread (numba
without ``parallel``), so its figure is one core's too; JAX runs on the device it chose
(the CPU here, with XLA's own threads; an accelerator where it sees one).
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

SIM_GAMES = 256
"""Games in the simulator's and the vectorized environment's batch."""
JAX_GAMES = 1024
"""Games in the JAX environment's batch (``jit(vmap)``)."""
RESEARCH_HINT = '(pip install "odin-cards[research]")'
JAX_HINT = '(pip install "odin-cards[jax]")'


@dataclass(frozen=True)
class ResearchResult:
    """Steps per second of the learning environments and the batch simulator (``None``: not
    installed). Every figure is random play: a uniform choice among the legal actions."""

    players: int
    env_steps_per_second: float | None
    """The PettingZoo AEC environment (``odin_v0``): ``last()``, a choice from the mask,
    ``step()``."""
    vector_steps_per_second: float | None
    """The vectorized environment: ``step()`` with its observations and masks, actions from
    the simulator's ``sample_legal()`` (a policy's own cost is not in it)."""
    sim_actions_per_second: float | None
    """The simulator's compiled random play: legal actions, the choice and the step."""
    sim_step_actions_per_second: float | None
    """The simulator from Python: ``sample_legal()`` then the checked ``step()``."""
    jax_actions_per_second: float | None = None
    """The JAX environment: legal mask, a uniform choice and ``step`` for every game of a
    ``jit(vmap)`` batch of :data:`JAX_GAMES`, a new game where one ended."""
    jax_compile_seconds: float | None = None
    """Its first call (tracing and XLA compilation), not in the figure above."""
    jax_backend: str | None = None
    """Where JAX ran: ``cpu``, ``gpu`` or ``tpu``."""


def research_missing() -> list[str]:
    """What the research figures cannot measure here, one line each, with what installs it."""
    from odin_cards.odin.sim import HAVE_NUMBA

    notes = []
    if importlib.util.find_spec("pettingzoo") is None:
        notes.append(f"the PettingZoo environment needs pettingzoo {RESEARCH_HINT}")
    if not HAVE_NUMBA:
        notes.append(
            f"the batch simulator and the vectorized environment need numba {RESEARCH_HINT}"
        )
    if importlib.util.find_spec("jax") is None:
        notes.append(f"the JAX environment needs jax {JAX_HINT}")
    return notes


def sim_first_call() -> float:
    """Seconds the simulator's first use takes in this process: numba compiles its kernels
    (about a minute on one core) or, usually, loads them from its on-disk cache."""
    from odin_cards.odin.sim import Batch

    start = time.perf_counter()
    batch = Batch.new(2, 2)
    batch.random_play(2)
    batch.step(batch.sample_legal())
    batch.legal_mask()
    batch.legal_ids()
    return time.perf_counter() - start


def _rate(seconds: float, work: Callable[[], int]) -> float:
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        done += work()
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def _env_rate(players: int, seconds: float, seed: int) -> float:
    import numpy as np

    from odin_cards.odin.env import odin_v0

    env = odin_v0.env(players=players)
    rng = np.random.default_rng(seed)
    episodes = [seed]

    def episode() -> int:
        env.reset(seed=episodes[0])
        episodes[0] += 1
        steps = 0
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps

    return _rate(seconds, episode)


def _vector_steps(players: int, seed: int) -> Callable[[], object]:
    """One step of the vectorized environment in self-play with random legal actions:
    flat observations and ``info["legal_ids"]``, no dense mask, no opponents (the one place
    that names its API)."""
    from odin_cards.odin.env.vector import OdinVectorEnv

    env = OdinVectorEnv(SIM_GAMES, players, opponents="self")
    env.reset(seed=seed)
    return lambda: env.step(env.sample_legal())


def _vector_rate(players: int, seconds: float, seed: int) -> float:
    step = _vector_steps(players, seed)

    def steps() -> int:
        step()
        return SIM_GAMES

    return _rate(seconds, steps)


def _sim_rates(players: int, seconds: float, seed: int) -> tuple[float, float]:
    from odin_cards.odin.sim import Batch

    batch = Batch.new(SIM_GAMES, players, seed=seed)
    kernel = _rate(seconds, lambda: batch.random_play(200))
    stepped = Batch.new(SIM_GAMES, players, seed=seed)

    def step() -> int:
        actions = stepped.sample_legal()
        stepped.step(actions)
        stepped.reset(stepped.over)
        return int((actions >= 0).sum())

    return kernel, _rate(seconds, step)


def run_research(players: int, seconds: float = 2.0, seed: int = 1) -> ResearchResult:
    """The research figures for ``players`` (each measured for ``seconds``)."""
    missing = research_missing()
    env_rate = None
    if not any("pettingzoo" in note for note in missing):
        env_rate = _env_rate(players, seconds, seed)
    vector_rate = sim_rate = step_rate = None
    if not any("numba" in note for note in missing):
        sim_rate, step_rate = _sim_rates(players, seconds, seed)
        vector_rate = _vector_rate(players, seconds, seed)
    result = ResearchResult(players, env_rate, vector_rate, sim_rate, step_rate)
    if not any("jax" in note for note in missing):
        from odin_cards.odin.jax.bench import measure

        jax = measure(players, JAX_GAMES, seconds, seed)
        result = replace(
            result,
            jax_actions_per_second=jax.actions_per_second,
            jax_compile_seconds=jax.compile_seconds,
            jax_backend=jax.backend,
        )
    return result


class Research:
    """What ``odin bench`` asks of a game's research figures (see the module's docstring)."""

    games = SIM_GAMES
    caption = (
        "engine: validated, as above; AEC env: PettingZoo odin_v0 steps; vector env:"
        f" OdinVectorEnv steps, {SIM_GAMES} games; simulator: compiled random play,"
        f" {SIM_GAMES} games; sim step(): sample_legal() + step() from Python; JAX:"
        f" jit(vmap) random play, {JAX_GAMES:,} games, compilation apart"
    )

    @staticmethod
    def missing() -> list[str]:
        return research_missing()

    @staticmethod
    def first_call() -> float | None:
        """Seconds of the simulator's first call (``None`` without numba)."""
        if any("numba" in note for note in research_missing()):
            return None
        return sim_first_call()

    @staticmethod
    def measure(players: int, seconds: float, seed: int) -> dict[str, Any]:
        return asdict(run_research(players, seconds, seed))


RESEARCH = Research()
"""Odin's research figures, as the plugin names them."""
