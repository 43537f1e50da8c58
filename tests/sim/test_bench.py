"""``odin bench`` with and without the research and jax extras."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.odin.sim import HAVE_NUMBA


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")
def test_bench_measures_the_simulator_beside_the_engine() -> None:
    result = CliRunner().invoke(app, ["bench", "--players", "3", "--seconds", "0.1", "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    [engine] = data["results"]
    [research] = data["research"]
    assert research["players"] == 3
    assert engine["actions_per_second"] > 0
    assert research["sim_actions_per_second"] > 0
    assert research["vector_steps_per_second"] > 0
    assert research["sim_step_actions_per_second"] > 0
    assert data["sim_first_call_seconds"] > 0
    if importlib.util.find_spec("jax") is None:
        assert research["jax_actions_per_second"] is None
    else:
        assert research["jax_actions_per_second"] > 0
        assert research["jax_compile_seconds"] > 0
        assert research["jax_backend"]


MAIN = "import sys; sys.modules['jax'] = None; from odin_cards.cli import main; main()"
"""``odin`` as if neither numba (``ODIN_SIM_NO_NUMBA``) nor jax were installed."""


def test_bench_without_numba_or_jax_prints_the_engine_and_says_what_is_missing() -> None:
    env = {**os.environ, "ODIN_SIM_NO_NUMBA": "1", "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "bench", "--players", "2", "--seconds", "0.1"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "odin-cards engine" in done.stdout
    assert (
        "not measured: the batch simulator and the vectorized environment need numba (pip"
        ' install "odin-cards[research]")' in done.stdout
    )
    assert (
        'not measured: the JAX environment needs jax (pip install "odin-cards[jax]")' in done.stdout
    )
