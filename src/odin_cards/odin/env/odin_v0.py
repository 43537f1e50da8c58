"""``odin_v0``, laid out as PettingZoo's own games are: ``env``, ``raw_env``, ``parallel_env``.

>>> from odin_cards.odin.env import odin_v0
>>> env = odin_v0.env(players=4, options={"target": 10})
>>> env.reset(seed=1)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((598,), True)
"""

from __future__ import annotations

from typing import Any

from odin_cards.extras import MissingExtra

try:
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    from pettingzoo.utils.env import ParallelEnv
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the PettingZoo environment", "research") from missing

from odin_cards.odin.env.aec import OdinAECEnv, env, raw_env


def parallel_env(max_cycles: int | None = None, **kwargs: Any) -> ParallelEnv[str, Any, Any]:
    """The game as a parallel environment: each step, every agent submits an action and
    only the seat to move's counts (PettingZoo's turn-based conversion).

    Every agent acts in every parallel step, so a step is a cycle: ``max_cycles``
    truncates after that many steps (actions), where the AEC environment's cycle is
    ``players`` actions.
    """
    return turn_based_aec_to_parallel(env(max_actions=max_cycles, **kwargs))


__all__ = ["OdinAECEnv", "env", "parallel_env", "raw_env"]
