"""Odin in JAX (the ``jax`` extra): pure ``init``/``step``/``observe``/``legal_action_mask``
over a fixed-shape state, for ``jax.jit`` and ``jax.vmap`` on a CPU or an accelerator.

See :mod:`.env` and ``docs/jax.md``. Without JAX installed, importing this package
raises ``ImportError`` with the one line that says how to install it.
"""

from __future__ import annotations

import importlib.util

NO_JAX = 'the JAX environment needs jax: pip install "odin-cards[jax]"'

if importlib.util.find_spec("jax") is None:
    raise ImportError(NO_JAX)

from odin_cards.odin.jax.env import (  # noqa: E402
    FOLLOW,
    LEAD,
    OVER,
    SEATS,
    TAKE,
    State,
    from_game,
    init,
    legal_action_mask,
    observe,
    random_action,
    random_play,
    redeal,
    step,
)

__all__ = [
    "FOLLOW",
    "LEAD",
    "NO_JAX",
    "OVER",
    "SEATS",
    "TAKE",
    "State",
    "from_game",
    "init",
    "legal_action_mask",
    "observe",
    "random_action",
    "random_play",
    "redeal",
    "step",
]
