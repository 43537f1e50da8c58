"""The self-play training example runs, writes a checkpoint, and its agent plays legal moves."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from odin_cards.tools.evaluation import evaluate, load_set

pytestmark = [
    pytest.mark.research,
    pytest.mark.skipif(
        importlib.util.find_spec("torch") is None,
        reason="needs PyTorch (pip install 'odin-cards[train]')",
    ),
]

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "selfplay_train.py"


def train(out: Path) -> subprocess.CompletedProcess[str]:
    args = ["--iterations", "2", "--games", "6", "--batch", "200", "--players", "2,3"]
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_short_run_writes_a_checkpoint_whose_agent_plays_legal_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch

    out = tmp_path / "selfplay.pt"
    run = train(out)
    assert run.returncode == 0, run.stderr
    progress = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert [p["iterations"] for p in progress] == [1, 2]
    assert progress[-1]["actions"] >= 200 and out.is_file()

    again = tmp_path / "again.pt"
    assert train(again).returncode == 0
    assert out.read_bytes() == again.read_bytes()  # same seed, same checkpoint, byte for byte
    first = torch.load(out, weights_only=True)
    assert "seconds" not in json.loads(first["progress"])  # no clock in it

    monkeypatch.setenv("ODIN_SELFPLAY_CHECKPOINT", str(out))
    # The arena's runner checks every answer against the legal actions: an illegal one
    # would stop the evaluation with BotFailure.
    result = evaluate(f"{SCRIPT}:agent", ["random"], load_set(), [2, 3], 1, {"target": 5}, 1)
    assert [p.games for p in result.pairings] == [2, 3]
    assert all(p.agent.decisions > 0 for p in result.pairings)


def test_a_missing_checkpoint_is_a_clear_error(tmp_path: Path) -> None:
    env = {**os.environ, "ODIN_SELFPLAY_CHECKPOINT": str(tmp_path / "none.pt")}
    odin = str(Path(sys.executable).parent / "odin")
    run = subprocess.run(
        [odin, "evaluate", f"{SCRIPT}:agent", "-a", "random", "-p", "2", "-n", "1", "-j", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert run.returncode == 1
    assert "no checkpoint" in run.stderr.strip().splitlines()[-1]
