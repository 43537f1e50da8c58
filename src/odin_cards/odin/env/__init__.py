"""Odin for learning agents (the ``[research]`` extra): PettingZoo, Gymnasium, OpenSpiel.

* :mod:`.odin_v0`: the PettingZoo AEC environment (``odin_v0.env()``), every seat an agent;
* :mod:`.single`: :class:`~.single.OdinSingleAgentEnv`, one seat learning against bots,
  registered with Gymnasium as ``odin_cards/Odin-v0`` (importing :mod:`odin_cards.odin.env`
  registers it when Gymnasium is installed);
* :mod:`.vector`: :class:`~.vector.OdinVectorEnv`, many such games in one call on the
  compiled simulator: the id's vector entry point (``gymnasium.make_vec``);
* :mod:`.openspiel`: ``python_odin``, registered with ``pyspiel`` when imported;
* :mod:`.observation`: the observation encoder (flat vector and dict), NumPy only.

Importing this package is cheap: the submodules load their frameworks when imported.
See ``docs/research.md``.
"""

from __future__ import annotations

GYMNASIUM_ID = "odin_cards/Odin-v0"
"""The Gymnasium id of the single-agent environment and its vector environment."""


def _register_gymnasium() -> None:
    """Make ``gymnasium.make("odin_cards/Odin-v0")`` and ``gymnasium.make_vec`` of it work;
    nothing without Gymnasium."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # the [research] extra is not installed
        return
    if GYMNASIUM_ID not in registry:
        register(
            id=GYMNASIUM_ID,
            entry_point="odin_cards.odin.env.single:OdinSingleAgentEnv",
            vector_entry_point="odin_cards.odin.env.vector:OdinVectorEnv",
        )


_register_gymnasium()

__all__ = ["GYMNASIUM_ID"]
