"""The bots' compiled kernels load by group: a bot worker's warm-up (the plugin's ``warm``)
compiles the search's play-outs, never the research-only replay model's kernel."""

from __future__ import annotations

import subprocess
import sys
from typing import Any, cast

import pytest

from odin_cards.odin.sim import HAVE_NUMBA

PROBE = """
from odin_cards.games import plugin_of
from odin_cards.odin.bots.compiled import prepare
from odin_cards.odin.sim import kernels

warm = plugin_of("odin").load_warm()
assert warm is not None
warm()                     # what a new bot worker calls
assert prepare(wait=True)  # ... and the kernels it started loading are there
print(len(kernels.heuristic_choice.signatures), len(kernels.replay_log_weights.signatures))
"""


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")
def test_a_bot_workers_warm_up_loads_only_what_the_levels_use() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    playouts, replay = map(int, done.stdout.split())
    assert playouts >= 1  # the search's rollouts: loaded
    assert replay == 0  # the replay opponent model's: no level uses it


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")
def test_the_replay_model_loads_its_own_kernel_when_asked() -> None:
    from odin_cards.odin.bots.compiled import prepare_replay
    from odin_cards.odin.sim import kernels

    assert prepare_replay(wait=True)
    assert len(cast(Any, kernels.replay_log_weights).signatures) >= 1
